package memory

import (
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"boxmaker/core/policy"
)

// Separator is the line between two entries of memory.md and user.md.
const Separator = "§"

// ParseEntries splits the text of memory.md or user.md into its entries:
// the text between lines holding only §, with surrounding white space
// trimmed. Empty entries are dropped.
func ParseEntries(text string) []string {
	var entries []string
	var cur []string
	flush := func() {
		e := strings.TrimSpace(strings.Join(cur, "\n"))
		if e != "" {
			entries = append(entries, e)
		}
		cur = cur[:0]
	}
	for _, line := range strings.Split(text, "\n") {
		if isSeparator(line) {
			flush()
			continue
		}
		cur = append(cur, line)
	}
	flush()
	return entries
}

func isSeparator(line string) bool { return strings.TrimSpace(line) == Separator }

// FormatEntries is the file text of entries: joined by a line holding only
// §, with a final newline; empty for no entries.
func FormatEntries(entries []string) string {
	if len(entries) == 0 {
		return ""
	}
	return strings.Join(entries, "\n"+Separator+"\n") + "\n"
}

// Chars counts characters as the limits do (runes; an invalid byte is one).
func Chars(s string) int { return utf8.RuneCountInString(s) }

// Note is one note of notes.md.
type Note struct {
	// Offset is the byte offset of the note's header (or of its first
	// line when it has none) in notes.md.
	Offset int64
	// Header is the header line as written, without the newline; empty for
	// text before the first header.
	Header    string
	Time      time.Time // zero when the header does not say
	Session   string
	Class     string
	Untrusted bool
	Text      string
}

var (
	notedRE = regexp.MustCompile(`^§ noted (\S+) in session (\S+) · (\S+)( · untrusted)?$`)
	movedRE = regexp.MustCompile(`^§ moved (\S+) from (\S+) in session (\S+)$`)
	escRE   = regexp.MustCompile(`^\\*§`)
)

// ParseNotes reads the notes of notes.md. It accepts any text: what
// memoryd did not write (see the package doc) comes back untrusted.
func ParseNotes(text string) []Note {
	var notes []Note
	var body []string
	var cur *Note
	flush := func() {
		if cur != nil {
			cur.Text = strings.TrimSpace(strings.Join(body, "\n"))
			if cur.Header != "" || cur.Text != "" {
				notes = append(notes, *cur)
			}
		}
		body = body[:0]
	}
	var off int64
	for _, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			break
		}
		bare := strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(bare, "§"):
			flush()
			n := parseHeader(bare)
			n.Offset = off
			cur = &n
		default:
			if cur == nil {
				cur = &Note{Offset: off, Untrusted: true}
			}
			if strings.HasPrefix(bare, `\`) && escRE.MatchString(bare) {
				bare = bare[1:]
			}
			body = append(body, bare)
		}
		off += int64(len(line))
	}
	flush()
	return notes
}

func parseHeader(line string) Note {
	n := Note{Header: line}
	if m := notedRE.FindStringSubmatch(line); m != nil {
		t, err := time.Parse(time.RFC3339Nano, m[1])
		if err == nil {
			n.Time = t
			n.Session, n.Class, n.Untrusted = m[2], m[3], m[4] != ""
			return n
		}
	}
	if m := movedRE.FindStringSubmatch(line); m != nil {
		t, err := time.Parse(time.RFC3339Nano, m[1])
		if err == nil {
			n.Time, n.Session, n.Class = t, m[3], policy.Private.String()
			return n
		}
	}
	n.Untrusted = true // a § line memoryd did not write
	return n
}

// FormatNote is the bytes appended to notes.md for one note: its header,
// its text with header-like lines escaped, and a newline.
func FormatNote(t time.Time, session, class string, untrusted bool, text string) string {
	var b strings.Builder
	b.WriteString("§ noted ")
	b.WriteString(t.UTC().Format(time.RFC3339))
	b.WriteString(" in session ")
	b.WriteString(session)
	b.WriteString(" · ")
	b.WriteString(class)
	if untrusted {
		b.WriteString(" · untrusted")
	}
	b.WriteString("\n")
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if escRE.MatchString(line) {
			b.WriteString(`\`)
		}
		b.WriteString(line)
		b.WriteString("\n")
	}
	return b.String()
}
