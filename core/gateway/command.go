package gateway

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Message is a post's text as gatewayd reads it.
type Message struct {
	// Mentioned: the text names the bot (@name as a word, anywhere).
	Mentioned bool
	// Text is the text without a leading @bot (and its ":" or ","): what
	// a turn is given.
	Text string
	// Command is an approval command, when the text is one addressed to
	// this bot (bare, or after @bot).
	Command *Command
	// ForOther: the text begins with a mention of someone else and then a
	// command: another Boxmaker's, not this one's.
	ForOther bool
}

// Command is !approve ID or !refuse ID [reason].
type Command struct {
	Approve bool
	ID      string
	Reason  string
	// Usage is set when the words after !approve or !refuse are not an
	// id (and for !approve, nothing more): what to reply.
	Usage string
}

// usernameRE is a Mattermost username (model.IsValidUsername: a letter
// first, then letters, digits, '.', '-' and '_'), matched without case.
const usernameChars = `a-z0-9._-`

var (
	leadingMentionRE = regexp.MustCompile(`^@([a-z][` + usernameChars + `]*)[:,]?(\s|$)`)
	// Compiled at its first use, not at package init: a counted repetition
	// compiles to a copy of its class per count, and every role's start paid
	// for it (D362).
	approvalIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]{1,32}$`) })
)

// ReadMessage reads a post's message for the bot named bot.
func ReadMessage(message, bot string) Message {
	bot = strings.ToLower(bot)
	m := Message{Mentioned: Mentions(message, bot)}
	text := strings.TrimLeftFunc(message, unicode.IsSpace)
	leading := ""
	if loc := leadingMentionRE.FindStringSubmatchIndex(asciiLower(text)); loc != nil {
		name := strings.TrimRight(asciiLower(text[loc[2]:loc[3]]), ".")
		leading = name
		if name == bot {
			text = strings.TrimLeftFunc(text[loc[1]:], unicode.IsSpace)
		}
	}
	m.Text = strings.TrimRightFunc(text, unicode.IsSpace)
	if leading != "" && leading != bot {
		rest := strings.TrimLeftFunc(text[len(leading)+1:], func(r rune) bool { return r == ':' || r == ',' || unicode.IsSpace(r) })
		if isCommand(rest) {
			m.ForOther = true
		}
		return m
	}
	if isCommand(m.Text) {
		c := parseCommand(m.Text)
		m.Command = &c
	}
	return m
}

func isCommand(s string) bool {
	w := firstWord(s)
	return w == "!approve" || w == "!refuse"
}

func firstWord(s string) string {
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return strings.ToLower(s[:i])
	}
	return strings.ToLower(s)
}

// parseCommand reads "!approve ID" or "!refuse ID [reason]".
func parseCommand(s string) Command {
	verb := firstWord(s)
	c := Command{Approve: verb == "!approve"}
	rest := strings.TrimSpace(s[len(verb):])
	var id, reason string
	if i := strings.IndexFunc(rest, unicode.IsSpace); i >= 0 {
		id, reason = rest[:i], rest[i:]
	} else {
		id, reason = rest, ""
	}
	id = strings.ToLower(id)
	reason = strings.TrimSpace(reason)
	switch {
	case !approvalIDRE().MatchString(id):
		c.Usage = verb + " needs an approval's id: " + usage(c.Approve)
	case c.Approve && reason != "":
		c.Usage = "!approve takes the id alone: " + usage(true)
	default:
		c.ID, c.Reason = id, reason
	}
	return c
}

func usage(approve bool) string {
	if approve {
		return "!approve ID"
	}
	return "!refuse ID [reason]"
}

// Mentions reports whether message names @bot as a word: "@bot", "@bot:",
// "@bot," or "@bot" before a space, a line end or punctuation; not
// "@botany" or "x@bot".
func Mentions(message, bot string) bool {
	lower := asciiLower(message)
	want := "@" + asciiLower(bot)
	for i := 0; ; {
		j := strings.Index(lower[i:], want)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(want)
		before := start == 0 || !isNameChar(lower[start-1]) && lower[start-1] != '@'
		after := end == len(lower) || !isNameChar(lower[end]) ||
			(lower[end] == '.' && (end+1 == len(lower) || !isNameChar(lower[end+1])))
		if before && after {
			return true
		}
		i = start + 1
	}
}

func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_'
}
