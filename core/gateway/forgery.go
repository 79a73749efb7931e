package gateway

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"sync"

	"golang.org/x/text/unicode/bidi"

	"boxmaker/sanitize"
)

// What keeps the model from forging an approval request (D450). The
// model's text reaches Mattermost only as the message of a reply post,
// never as props, so:
//   - a real request carries a Mattermost message attachment (a box with
//     a coloured bar, its title and footer, props.attachments), which no
//     text the model writes can make;
//   - the model's text never shows the id of an approval that is
//     waiting: a reply that names one, plainly or disguised (split by
//     zero-width characters, Markdown, spaces or punctuation, spelt in
//     look-alike letters, written as character references (&#120;),
//     split by an empty link, or reversed by a bidi override, which
//     gatewayd drops from the model's text so that it is shown in the
//     order it is read), is held back, so a forged request can only
//     name an id that is not pending, and `!approve` of it is answered
//     "no approval ... is pending in this thread".

// approvalColour is the bar of a request's box; settledColour of one that
// has ended.
const (
	approvalColour = "#d24b4e"
	settledColour  = "#8a8a8a"
)

// approvalFooter is the line under every request's box.
const approvalFooter = "gatewayd posts approval requests only in a box like this one: text the model writes never has one"

// fromModel is the model's text as gatewayd posts it (mattermostText,
// without bidi controls), or a note in its place when it names an
// approval that is waiting.
func (g *Gateway) fromModel(s string) string {
	t := dropBidi(mattermostText(s))
	if id := g.namesPending(t); id != "" {
		return fmt.Sprintf("_(gatewayd held back this reply: its text names approval `%s`, which is waiting for an answer, "+
			"and the model's text may not: an approval request is only the post in gatewayd's box. "+
			"`bxctl approvals show %s` shows the call.)_", id, id)
	}
	return t
}

// namesPending is the id of an approval waiting for an answer that the
// text names in any spelling a reader would take for it, or "".
func (g *Gateway) namesPending(text string) string {
	now := g.o.Now().UnixMilli()
	var ids []string
	g.state.Read(func(s *State) {
		for id, a := range s.Approvals {
			if a.Settled == "" && a.Expires >= now {
				ids = append(ids, id)
			}
		}
	})
	g.mu.Lock()
	for id := range g.live {
		ids = append(ids, id)
	}
	g.mu.Unlock()
	if len(ids) == 0 {
		return ""
	}
	var forms []string
	for _, t := range []string{text, rendered(text)} {
		forms = append(forms, asciiLower(t), sanitize.Normalise(t))
	}
	reorders := hasRightToLeft(text)
	for _, id := range ids {
		for _, f := range forms {
			if strings.Contains(alnum(f), id) || reorders && reorderedNames(alnumRuns(f), id) {
				return id
			}
		}
	}
	return ""
}

// hasRightToLeft says whether s holds a letter of a right-to-left script
// (bidi class R or AL), which makes the bidi algorithm show runs of
// letters and digits in another order than they are written, with no
// control: "abc" "ء4ء23" is shown "abc23ء4ء", and a right-to-left
// paragraph shows its left-to-right runs last to first.
func hasRightToLeft(s string) bool {
	for _, r := range s {
		if c := bidiClass(r); c == bidi.R || c == bidi.AL {
			return true
		}
	}
	return false
}

func bidiClass(r rune) bidi.Class {
	p, _ := bidi.LookupRune(r)
	return p.Class()
}

// alnumRuns is s's runs of ASCII letters and digits, as the bidi
// algorithm may move them: each maximal run, and, apart, a run's leading
// digits and the rest (digits after a right-to-left letter are placed with
// it, the letters after them are not).
func alnumRuns(s string) []string {
	var runs []string
	add := func(run string) {
		runs = append(runs, run)
		if i := strings.IndexFunc(run, func(r rune) bool { return r < '0' || r > '9' }); i > 0 {
			runs = append(runs, run[:i], run[i:])
		}
	}
	start := -1
	for i := 0; i <= len(s); i++ {
		isAlnum := i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= '0' && s[i] <= '9')
		switch {
		case isAlnum && start < 0:
			start = i
		case !isAlnum && start >= 0:
			add(s[start:i])
			start = -1
		}
	}
	return runs
}

// reorderedNames says whether the runs, shown in some order, can show id:
// the end of one run, then whole runs, then the start of another. Each
// run keeps its own order, so nothing else can. It can hold back a reply
// that was never shown so (the runs need not be next to each other), the
// price of not running the whole bidi algorithm; it is asked only of text
// with right-to-left letters, while an approval waits.
func reorderedNames(runs []string, id string) bool {
	// reach[i]: id[:i] is shown by a run's end and whole runs.
	reach := make([]bool, len(id)+1)
	for i := 1; i < len(id); i++ {
		for _, r := range runs {
			if strings.HasSuffix(r, id[:i]) {
				reach[i] = true
				break
			}
		}
	}
	for i := 1; i < len(id); i++ {
		if !reach[i] {
			continue
		}
		for _, r := range runs {
			switch {
			case strings.HasPrefix(r, id[i:]):
				return true
			case len(r) < len(id)-i && strings.HasPrefix(id[i:], r):
				reach[i+len(r)] = true
			}
		}
	}
	return false
}

// isBidiControl says whether r changes the order in which the text
// around it is shown: the embeddings, overrides and isolates
// (U+202A-202E, U+2066-2069) and the marks (U+200E, U+200F, U+061C).
// With an override, "lsp7yx" is shown as "xy7psl".
func isBidiControl(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x200E || r == 0x200F || r == 0x061C
}

// entityRef is a character reference as Markdown reads one (numeric,
// decimal or hex, or named); the semicolon is optional here, so that
// what html.UnescapeString would decode is found too. Compiled at its
// first use (D362).
var entityRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`&(?:#[0-9]{1,8}|#[xX][0-9a-fA-F]{1,8}|[A-Za-z][A-Za-z0-9]{1,31});?`)
})

// dropBidi removes the bidi controls from the model's text, written as
// characters or as character references (&#x202E;, &rlm;, which the
// Markdown renderer turns into them): the text is then shown in the order
// it is written, the order namesPending reads it in.
func dropBidi(s string) string {
	s = strings.Map(func(r rune) rune {
		if isBidiControl(r) {
			return -1
		}
		return r
	}, s)
	if !strings.Contains(s, "&") {
		return s
	}
	return entityRef().ReplaceAllStringFunc(s, func(ref string) string {
		if strings.IndexFunc(html.UnescapeString(ref), isBidiControl) >= 0 {
			return ""
		}
		return ref
	})
}

// link is Markdown's inline link or image, [text](destination "title"),
// with one level of parentheses inside the destination, and a reference
// link, [text][label] or [text][]: what a reader sees of either is its
// text. Compiled at its first use (D362).
var link = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`!?\[([^\[\]]*)\](?:\((?:[^()]|\([^()]*\))*\)|\[[^\[\]]*\])`)
})

// rendered is the model's text as the person reads it once Mattermost's
// Markdown has rendered it: character references decoded (&#120; is x,
// &amp; is &), bidi controls dropped, and links shown as their text
// (xy7p[](http://q)sl is xy7psl).
func rendered(s string) string {
	s = dropBidi(html.UnescapeString(s))
	for {
		t := link().ReplaceAllString(s, "$1")
		if t == s {
			return s
		}
		s = t // a link's text may hold another link's brackets
	}
}

// alnum keeps only the ASCII letters and digits of s.
func alnum(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteByte(c)
		}
	}
	return b.String()
}
