package gateway

import (
	"fmt"
	"strings"

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
//     zero-width characters, Markdown, spaces or punctuation, or spelt in
//     look-alike letters), is held back, so a forged request can only
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

// fromModel is the model's text as gatewayd posts it (mattermostText),
// or a note in its place when it names an approval that is waiting.
func (g *Gateway) fromModel(s string) string {
	t := mattermostText(s)
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
	plain, folded := alnum(asciiLower(text)), alnum(sanitize.Normalise(text))
	for _, id := range ids {
		if strings.Contains(plain, id) || strings.Contains(folded, id) {
			return id
		}
	}
	return ""
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
