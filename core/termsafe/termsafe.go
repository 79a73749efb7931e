// Package termsafe makes text from outside (the model, a tool, a file, a
// person other than the operator) safe to print on a terminal: everything
// a terminal would act on instead of showing is written as a visible
// escape, so such text can neither move the cursor, clear the screen, set
// the window's title, ring the bell, rewrite a line it follows, nor turn
// the text after it around.
//
// What is escaped, and how it is shown:
//
//	C0 controls (0x00-0x1f), ESC among them,   \x1b, \x07, \x08 ... (\r for
//	and DEL (0x7f)                             carriage return, \t and \n
//	                                           where the form escapes them)
//	C1 controls (U+0080-U+009F): 8-bit CSI,   \u009b, \u009d ...
//	OSC, DCS and the rest
//	bytes that are not UTF-8 (a lone 0x9b is  \x9b
//	CSI to a terminal that is not in UTF-8)
//	bidirectional controls (U+061C, U+200E,    \u202e ...
//	U+200F, U+202A-U+202E, U+2066-U+2069)
//	and the line and paragraph separators
//	(U+2028, U+2029)
//
// Every sequence a terminal acts on (CSI, OSC, DCS, APC, PM, SOS) begins
// with ESC or a C1 control, so escaping those two disarms the sequence
// whole: what follows the escape is printable text and stays as it is.
// A backslash is not escaped: the literal text `\x1b` shows as itself and
// does nothing, and paths and code stay readable.
//
// Text keeps line feeds and tabs (chat replies, file contents, tool
// output); Line escapes them too, for a value that must stay on its row or
// its log line (a target, a reason, a summary); JSON escapes what
// encoding/json leaves as it is, for --json output read on a terminal.
// NewWriter applies Line to each Write, keeping the line feed that ends
// it: a daemon's log stream, where a model-chosen line feed would
// otherwise begin a line the daemon never wrote.
package termsafe

import (
	"io"
	"unicode/utf8"
)

// Text returns s with every control sequence made visible; line feeds and
// tabs are kept.
func Text(s string) string { return escape(s, text) }

// Line returns s on one line: as Text, and line feeds and tabs escaped as
// \n and \t.
func Line(s string) string { return escape(s, line) }

// JSON rewrites encoded JSON so that it holds no rune a terminal acts on:
// encoding/json escapes the C0 controls but writes C1 controls, DEL and
// the bidirectional controls as they are. Each becomes its \u escape,
// which a JSON reader decodes to the same string; such runes can only
// stand inside strings, so the document means what it meant. Bytes that
// are not UTF-8 (encoding/json never writes them) become \ufffd.
func JSON(b []byte) []byte {
	s := string(b)
	i := firstUnsafe(s, jsonText)
	if i == len(s) {
		return b
	}
	return appendEscaped(append(make([]byte, 0, len(b)+16), b[:i]...), s[i:], jsonText)
}

// form is how much of ASCII is kept and how escapes are written.
type form int

const (
	text     form = iota // keeps \n and \t; \xNN escapes
	line                 // keeps neither
	jsonText             // keeps \n, \t and \r (JSON's spaces); \u00NN escapes
)

const hexDigits = "0123456789abcdef"

// escape is the one function every form is: it copies s only when
// something in it needs escaping.
func escape(s string, f form) string {
	i := firstUnsafe(s, f)
	if i == len(s) {
		return s
	}
	out := make([]byte, 0, len(s)+16)
	out = append(out, s[:i]...)
	return string(appendEscaped(out, s[i:], f))
}

// firstUnsafe is the offset of the first byte that needs escaping, or
// len(s).
func firstUnsafe(s string, f form) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if unsafeASCII(c, f) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafeRune(r) {
			return i
		}
		i += size
	}
	return len(s)
}

func unsafeASCII(c byte, f form) bool {
	switch {
	case c == '\n' || c == '\t':
		return f == line
	case c == '\r':
		return f != jsonText
	case c < 0x20 || c == 0x7f:
		return true
	}
	return false
}

// unsafeRune reports a rune at or above U+0080 that a terminal acts on or
// that reorders the text around it.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f: // ALM, LRM, RLM
		return true
	case r >= 0x202a && r <= 0x202e: // LRE, RLE, PDF, LRO, RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI, RLI, FSI, PDI
		return true
	case r == 0x2028, r == 0x2029: // line and paragraph separators
		return true
	}
	return false
}

func appendEscaped(out []byte, s string, f form) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case !unsafeASCII(c, f):
				out = append(out, c)
			case f == jsonText:
				out = appendU(out, rune(c))
			case c == '\n':
				out = append(out, '\\', 'n')
			case c == '\t':
				out = append(out, '\\', 't')
			case c == '\r':
				out = append(out, '\\', 'r')
			default:
				out = append(out, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1 && f == jsonText:
			out = appendU(out, utf8.RuneError)
		case r == utf8.RuneError && size == 1:
			out = append(out, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
		case unsafeRune(r):
			out = appendU(out, r)
		default:
			out = append(out, s[i:i+size]...)
		}
		i += size
	}
	return out
}

func appendU(out []byte, r rune) []byte {
	return append(out, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

// NewWriter returns a writer that takes each Write as one log line: its
// bytes are escaped as Line escapes them, and the line feed that ends the
// Write, if any, is kept. A daemon's log lines go through it, so a value
// the model chose can neither act on the operator's terminal nor start a
// line of its own (a forged "audit: head ..." witness line, say). Each
// Write reaches w as one Write, so lines from concurrent writers stay
// whole when w's own Writes do (os.Stderr's do).
func NewWriter(w io.Writer) io.Writer { return &lineWriter{w: w} }

type lineWriter struct{ w io.Writer }

func (l *lineWriter) Write(p []byte) (int, error) {
	body, end := p, false
	if n := len(p); n > 0 && p[n-1] == '\n' {
		body, end = p[:n-1], true
	}
	out := appendEscaped(make([]byte, 0, len(p)+16), string(body), line)
	if end {
		out = append(out, '\n')
	}
	if _, err := l.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
