package bxctl

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"
)

// The chat's line editor on a terminal: golang.org/x/term's Terminal
// (editing keys, history, the prompt) reading the keys through keyInput,
// which the chat puts in front of it for what x/term leaves to its
// caller: a paste of any size and of several lines is one piece of the
// message (shown as a placeholder when it is long or has several lines),
// Ctrl-C is the chat's (clear the line; at an empty prompt, end), Ctrl-Z
// suspends the chat as the kernel would (the terminal put back first, and
// raw again on resume), and the keys typed while a reply runs wait for
// the next prompt. The terminal is in raw mode for the whole chat, so no
// line limit of the kernel's applies, and Ctrl-C and Ctrl-Z reach the
// chat as keys, not signals.

// Bracketed paste: the terminal wraps pasted text in these.
const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// The keys the chat takes for itself.
const (
	ctrlC = '\x03'
	ctrlZ = '\x1a'
	esc   = '\x1b'
)

// keyItem is one piece of what the terminal sent: keys for the editor, a
// paste whole (Keys is its text, without the markers), a Ctrl-C or a
// Ctrl-Z outside a paste, or the end of the input.
type keyItem struct {
	keys      string
	paste     bool
	interrupt bool
	suspend   bool
	err       error
}

// keyScanner cuts the terminal's bytes into keyItems. A read may end
// inside a paste marker: its start is kept for the next read.
type keyScanner struct {
	carry   []byte
	pasting bool
	paste   []byte
}

// feed scans the next bytes read; atEnd says no more will come (a paste
// not closed by then is given as it is).
func (s *keyScanner) feed(data []byte, atEnd bool) []keyItem {
	b := append(s.carry, data...)
	s.carry = nil
	var items []keyItem
	var keys []byte
	flush := func() {
		if len(keys) > 0 {
			items = append(items, keyItem{keys: string(keys)})
			keys = nil
		}
	}
	for i := 0; i < len(b); {
		if s.pasting {
			j := bytes.Index(b[i:], []byte(pasteEnd))
			if j < 0 {
				k := 0
				if !atEnd {
					k = partialMarker(b[i:], pasteEnd)
				}
				s.paste = append(s.paste, b[i:len(b)-k]...)
				s.carry = append([]byte(nil), b[len(b)-k:]...)
				break
			}
			s.paste = append(s.paste, b[i:i+j]...)
			items = append(items, keyItem{keys: string(s.paste), paste: true})
			s.paste, s.pasting = nil, false
			i += j + len(pasteEnd)
			continue
		}
		rest := b[i:]
		switch {
		case b[i] == ctrlC:
			flush()
			items = append(items, keyItem{interrupt: true})
			i++
		case b[i] == ctrlZ:
			flush()
			items = append(items, keyItem{suspend: true})
			i++
		case bytes.HasPrefix(rest, []byte(pasteStart)):
			flush()
			s.pasting = true
			i += len(pasteStart)
		case b[i] == esc && !atEnd && partialMarker(rest, pasteStart) == len(rest):
			s.carry = append([]byte(nil), rest...)
			i = len(b)
		case b[i] == esc && len(rest) >= 2 && (rest[1] == '\r' || rest[1] == '\n'):
			// Alt-Enter: a new line in the message, as a backslash at
			// the end of a line is.
			keys = append(keys, '\\', '\r')
			i += 2
		default:
			keys = append(keys, b[i])
			i++
		}
	}
	flush()
	if atEnd && s.pasting {
		items = append(items, keyItem{keys: string(s.paste), paste: true})
		s.paste, s.pasting = nil, false
	}
	return items
}

// partialMarker is how many bytes at the end of b begin marker.
func partialMarker(b []byte, marker string) int {
	for n := min(len(b), len(marker)-1); n > 0; n-- {
		if bytes.Equal(b[len(b)-n:], []byte(marker[:n])) {
			return n
		}
	}
	return 0
}

// readKeys reads the terminal's bytes in its own goroutine, so that a
// Ctrl-C is seen while a reply runs; the channel closes after the item
// holding the read's error.
func readKeys(in io.Reader) <-chan keyItem {
	ch := make(chan keyItem)
	go func() {
		defer close(ch)
		var s keyScanner
		buf := make([]byte, 64<<10)
		for {
			n, err := in.Read(buf)
			for _, it := range s.feed(buf[:n], err != nil) {
				ch <- it
			}
			if err != nil {
				ch <- keyItem{err: err}
				return
			}
		}
	}()
	return ch
}

// errSignalled ends a read at the prompt: the chat was sent SIGINT or
// SIGTERM.
var errSignalled = errors.New("signalled")

// keyInput is what x/term's Terminal reads: the keys, a paste as the
// line shows it (inside paste markers, so that x/term takes it as text),
// and a Ctrl-C as the end of the line with interrupted set.
type keyInput struct {
	items       <-chan keyItem
	pending     []keyItem // read while a reply ran: typed ahead
	signals     <-chan os.Signal
	pastes      *pastes
	buf         []byte
	interrupted bool // the last line x/term was given ended at a Ctrl-C
	// suspend stops the chat at a Ctrl-Z and returns once it is resumed,
	// the terminal raw again; nil: a Ctrl-Z is ignored.
	suspend func()
	// resumed shows the prompt and the line again after a suspend.
	resumed func()
}

func (in *keyInput) Read(p []byte) (int, error) {
	for len(in.buf) == 0 {
		var it keyItem
		if len(in.pending) > 0 {
			it, in.pending = in.pending[0], in.pending[1:]
		} else {
			var ok bool
			select {
			case it, ok = <-in.items:
				if !ok {
					return 0, io.EOF
				}
			case <-in.signals:
				return 0, errSignalled
			}
		}
		switch {
		case it.err != nil:
			return 0, it.err
		case it.interrupt:
			// End, then Enter: the line as it stands comes back, and any
			// escape sequence cut short ends at the F.
			in.interrupted = true
			in.buf = []byte("\x1b[F\r")
		case it.suspend:
			// x/term does not hold its lock while it reads: the prompt
			// and the line can be drawn again from here.
			if in.suspend != nil {
				in.suspend()
				if in.resumed != nil {
					in.resumed()
				}
			}
		case it.paste:
			in.buf = []byte(pasteStart + in.pastes.shown(it.keys) + pasteEnd)
		default:
			in.buf = []byte(it.keys)
		}
	}
	n := copy(p, in.buf)
	in.buf = in.buf[n:]
	return n, nil
}

// maxShownPaste is the longest paste of one line shown as it is; a longer
// one, or one of several lines, is shown as a placeholder.
const maxShownPaste = 500

// pastes are the texts the line shows as placeholders: a paste too long
// to show, or of several lines, and a message of several lines in the
// history. A placeholder is replaced by its text when the line is sent.
type pastes struct {
	n     int
	texts map[string]string
}

// shown is how the line shows a paste.
func (p *pastes) shown(text string) string {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	if one := strings.TrimRight(text, "\n"); len(one) <= maxShownPaste && printable(one) {
		return one // a line copied with its end is the line
	}
	return p.add("pasted text", text)
}

// add keeps text behind a new placeholder and returns it.
func (p *pastes) add(what, text string) string {
	p.n++
	lines := strings.Count(strings.TrimRight(text, "\n"), "\n") + 1
	size := fmt.Sprintf("%d bytes", len(text))
	if lines > 1 {
		size = fmt.Sprintf("%d lines, %s", lines, size)
	}
	tok := fmt.Sprintf("[%s #%d: %s]", what, p.n, size)
	if p.texts == nil {
		p.texts = map[string]string{}
	}
	p.texts[tok] = text
	return tok
}

// expand replaces the placeholders in line by their texts, in one pass
// (a text that holds a placeholder's words is left as it is).
func (p *pastes) expand(line string) string {
	if len(p.texts) == 0 || !strings.Contains(line, "[") {
		return line
	}
	var pairs []string
	for tok, text := range p.texts {
		if strings.Contains(line, tok) {
			pairs = append(pairs, tok, text)
		}
	}
	if len(pairs) == 0 {
		return line
	}
	return strings.NewReplacer(pairs...).Replace(line)
}

// printable: valid UTF-8 without control characters, as x/term shows it.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return false
		}
	}
	return true
}

// chatHistory is the editor's history: the messages sent, newest last.
// x/term adds every line it reads; the chat adds whole messages itself
// (remember), so Add does nothing.
type chatHistory struct{ entries []string }

const maxHistory = 500

func (h *chatHistory) Add(string) {}
func (h *chatHistory) Len() int   { return len(h.entries) }
func (h *chatHistory) At(i int) string {
	return h.entries[len(h.entries)-1-i]
}

func (h *chatHistory) remember(line string) {
	if line == "" || (len(h.entries) > 0 && h.entries[len(h.entries)-1] == line) {
		return
	}
	h.entries = append(h.entries, line)
	if len(h.entries) > maxHistory {
		h.entries = h.entries[len(h.entries)-maxHistory:]
	}
}

// typedLimit is x/term's longest typed line (its maxLineLength): a key
// typed past it is put in by typedPastLimit instead of dropped.
const typedLimit = 4096

// typedPastLimit is the Terminal's AutoCompleteCallback: a printable key
// typed into a line of typedLimit characters or more goes in (x/term
// would drop it silently); any other key is x/term's.
func typedPastLimit(line string, pos int, key rune) (string, int, bool) {
	if key < 0x20 || key == 0x7f || (key >= 0xd800 && key <= 0xdfff) || utf8.RuneCountInString(line) < typedLimit {
		return "", 0, false
	}
	k := string(key)
	return line[:pos] + k + line[pos:], pos + len(k), true
}

// lineEditor reads the chat's messages on a terminal.
type lineEditor struct {
	term   *term.Terminal
	input  *keyInput
	hist   *chatHistory
	pastes *pastes
}

// newLineEditor reads keys (the terminal in raw mode) and shows the line
// on screen; signals end a read at the prompt.
func newLineEditor(keys io.Reader, screen io.Writer, signals <-chan os.Signal) *lineEditor {
	p := &pastes{}
	in := &keyInput{items: readKeys(keys), signals: signals, pastes: p}
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{in, screen}, "> ")
	h := &chatHistory{}
	t.History = h
	t.AutoCompleteCallback = typedPastLimit
	return &lineEditor{term: t, input: in, hist: h, pastes: p}
}

// read reads one message: a line, or lines each but the last ending in a
// backslash (Alt-Enter types one), with the placeholders replaced. A
// Ctrl-C drops what was typed (interrupt, with the text dropped); at an
// empty prompt it is an interrupt with no text.
func (ed *lineEditor) read() message {
	var parts []string
	ed.term.SetPrompt("> ")
	for {
		line, err := ed.term.ReadLine()
		if err == term.ErrPasteIndicator {
			err = nil
		}
		if ed.input.interrupted {
			ed.input.interrupted = false
			return message{interrupt: true, text: strings.Join(append(parts, line), "\n")}
		}
		if err != nil {
			return message{err: err}
		}
		if strings.HasSuffix(line, `\`) {
			parts = append(parts, strings.TrimSuffix(line, `\`))
			ed.term.SetPrompt(". ")
			continue
		}
		parts = append(parts, line)
		text := ed.pastes.expand(strings.Join(parts, "\n"))
		if len(parts) == 1 {
			ed.hist.remember(line)
		} else {
			ed.hist.remember(ed.pastes.add("message", text))
		}
		return message{text: text}
	}
}
