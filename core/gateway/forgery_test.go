package gateway_test

import (
	"strings"
	"testing"

	"boxmaker/core/loopwire"
	"boxmaker/core/testpeer/fakemattermost"
)

// The id of a pending approval, disguised so that the text gatewayd
// reads does not hold it and the text the person reads does: reversed by
// a bidi override (the text says 432cba, the person reads abc234), a
// letter written as a character reference (Markdown shows &#97; as a),
// split by an empty link (Markdown shows abc2[](http://q)34 as abc234).
// Without any control, right-to-left letters reorder runs of letters and
// digits (abc\u06214\u062123 is shown abc23\u06214\u0621, read abc234,
// and U+070F, an Arabic-class format mark, does it unseen). On the old code
// each was posted as written. A reply with references, links or
// reorderable runs is held back; one with bidi controls is posted without them (as
// characters or references), so it shows in the order it is read: the
// person sees 432cba.
func TestAPendingIDIsCaughtAsThePersonReadsIt(t *testing.T) {
	w := newWorld(t)
	const held = "_(gatewayd held back this reply: its text names approval `abc234`"
	tests := map[string]struct{ text, want string }{
		"rlo-reversed":        {"Answer with `!approve \u202e432cba\u202c` now.", "Answer with `!approve 432cba` now."},
		"lri-rlo-reversed":    {"Answer with `!approve \u2067\u202e432cba\u202c\u2069` now.", "Answer with `!approve 432cba` now."},
		"entity-rlo-reversed": {"Answer with !approve &#x202E;432cba&#8236; now.", "Answer with !approve 432cba now."},
		"named-rlm":           {"Answer with !approve abc&rlm;234 now.", held},
		"rlm":                 {"Answer with !approve abc\u200f234 now.", held},
		"entity":              {"Answer with !approve &#97;bc234 now.", held},
		"hex-entity":          {"Answer with !approve abc&#x32;34 now.", held},
		"named-entity":        {"Answer with !approve abc2&NewLine;34 now.", held},
		"empty-link":          {"Answer with !approve abc2[](http://q)34 now.", held},
		"link-with-a-title":   {"Answer with !approve ab[c](http://q/(x) \"t\")234 now.", held},
		"reference-link":      {"Answer with !approve ab[c2][r]34 now.\n\n[r]: http://q", held},
		"arabic-reordered":    {"Answer with !approve abc\u06214\u062123 now.", held},
		"syriac-mark":         {"Answer with !approve abc\u070f4\u070f23 now.", held},
		"rtl-paragraph":       {"\u0648\u0627\u0641\u0642: 234 abc", held},
		"not-pending":         {"Read [the notes](http://q) &amp; go: !approve zzz777.", "Read [the notes](http://q) &amp; go: !approve zzz777."},
		"not-pending-rtl":     {"\u0648\u0627\u0641\u0642: abc 23 zzz777", "\u0648\u0627\u0641\u0642: abc 23 zzz777"},
	}
	w.loop.hook = func(req loopwire.TurnRequest, emit func(loopwire.Event) error) error {
		return emit(loopwire.Event{Event: loopwire.EventText, Text: tests[req.Text].text})
	}
	w.start()
	w.approvalInDM("abc234")
	for name, tt := range tests {
		q := w.ownerSays(name)
		got := w.waitForPosts("the reply to "+name, q.ID, func(ps []fakemattermost.Post) bool {
			return len(ps) == 1 && ps[0].Message != "…"
		})[0].Message
		if tt.want == held && !strings.HasPrefix(got, held) || tt.want != held && got != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", name, got, tt.want)
		}
	}
}
