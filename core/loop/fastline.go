package loop

import (
	"strconv"
	"unicode/utf8"
)

// fastLine decodes one line of a session log into f (already reset)
// without reflection, for the records a turn reads most: user,
// assistant, tool and note records in the plain shape Encode writes. It
// reports false for anything it does not handle (a baseline's keys, an
// unknown or repeated key, a key in other case or with an escape, null,
// an escape for a surrogate, invalid UTF-8, a number that is not plain,
// trailing bytes) and the line is then decoded by encoding/json, which
// gives the reason when the line is damaged. Whatever it accepts, encoding/json with
// DisallowUnknownFields decodes to the same fields (FuzzFastLine).
//
// It exists because decoding with encoding/json was most of a turn's own
// time when a session's records are not kept (docs/performance.md, "loopd: a turn").
//
// text is the same line as a string: the strings decoded without escapes
// are slices of it, so the caller makes one string of the whole log
// rather than one for each field.
//
// It is a method of the scanner so that a caller decoding many lines
// uses one: the scanner goes to the heap (the table's readers take it).
func (s *lineScanner) fastLine(line []byte, text string, f *lineFields) bool {
	*s = lineScanner{b: line, text: text}
	return object(s, lineKeys, f) && s.end()
}

// A member is a key of a JSON object fastLine takes and how its value is
// read into a T. A key's place in its table is its bit in the set of
// keys seen (object), so a table has at most 64.
type member[T any] struct {
	key  string
	read func(s *lineScanner, dst *T) bool
}

// lineKeys are the keys of a record fastLine takes: a baseline's
// (system, memory, tools) are not among them. A key that is not
// the next in this order is looked up (keyOf); the order, Encode's for
// most of each record's keys, only saves time.
var lineKeys = []member[lineFields]{
	{"seq", func(s *lineScanner, f *lineFields) (ok bool) { f.Seq, ok = s.integer(); return ok }},
	{"time", func(s *lineScanner, f *lineFields) bool { return s.strInto(&f.Time) }},
	{"type", func(s *lineScanner, f *lineFields) bool { return s.strInto(&f.Type) }},
	{"who", func(s *lineScanner, f *lineFields) bool { return s.strInto(&f.Who) }},
	{"call_id", func(s *lineScanner, f *lineFields) bool { return s.strInto(&f.CallID) }},
	{"name", func(s *lineScanner, f *lineFields) bool { return s.strInto(&f.Name) }},
	{"outcome", func(s *lineScanner, f *lineFields) bool { return s.strInto(&f.Outcome) }},
	{"text", func(s *lineScanner, f *lineFields) bool { return s.strInto(&f.Text) }},
	{"reasoning", func(s *lineScanner, f *lineFields) bool { return s.strInto(&f.Reasoning) }},
	{"tool_calls", func(s *lineScanner, f *lineFields) (ok bool) { f.ToolCalls, ok = s.toolCalls(); return ok }},
	{"timings", func(s *lineScanner, f *lineFields) bool {
		t := new(Timings)
		if !object(s, timingKeys, t) {
			return false
		}
		f.Timings = t
		return true
	}},
}

var timingKeys = []member[Timings]{
	{"prompt_n", func(s *lineScanner, t *Timings) bool { return s.intInto(&t.PromptN) }},
	{"cache_n", func(s *lineScanner, t *Timings) bool { return s.intInto(&t.CacheN) }},
	{"predicted_n", func(s *lineScanner, t *Timings) bool { return s.intInto(&t.PredictedN) }},
	{"prompt_ms", func(s *lineScanner, t *Timings) bool { return s.floatInto(&t.PromptMS) }},
	{"predicted_ms", func(s *lineScanner, t *Timings) bool { return s.floatInto(&t.PredictedMS) }},
}

var toolCallKeys = []member[ToolCall]{
	{"id", func(s *lineScanner, c *ToolCall) bool { return s.strInto(&c.ID) }},
	{"name", func(s *lineScanner, c *ToolCall) bool { return s.strInto(&c.Name) }},
	{"arguments", func(s *lineScanner, c *ToolCall) bool { return s.strInto(&c.Arguments) }},
}

// object reads a JSON object into dst, each member's value by the entry
// of keys for its key. It reports false for a key that is not in keys,
// a key given twice, or a value its entry does not take.
func object[T any](s *lineScanner, keys []member[T], dst *T) bool {
	if !s.byte('{') {
		return false
	}
	if s.peek() == '}' {
		s.i++
		return true
	}
	seen, i := uint64(0), -1
	for {
		if i = keyOf(s, keys, i+1); i < 0 || seen&(1<<i) != 0 || !keys[i].read(s, dst) {
			return false
		}
		seen |= 1 << i
		switch s.next() {
		case ',':
		case '}':
			return true
		default:
			return false
		}
	}
}

// keyOf reads a member's `"name":` and is the name's place in keys, or
// -1 for a key that is not one of them spelt as the table spells it
// (another key, another case, an escape: encoding/json reads the line).
// Each key is compared in place, without scanning the member's key
// first; a record's keys mostly come in the table's order, so the one
// after the key before (next) is tried first.
func keyOf[T any](s *lineScanner, keys []member[T], next int) int {
	if s.peek() != '"' {
		return -1
	}
	for n := range keys {
		i := next + n
		if i >= len(keys) {
			i -= len(keys)
		}
		k := keys[i].key
		if end := s.i + 1 + len(k); end < len(s.b) && s.b[end] == '"' && s.text[s.i+1:end] == k {
			if s.i = end + 1; !s.byte(':') {
				return -1
			}
			return i
		}
	}
	return -1
}

type lineScanner struct {
	b    []byte
	text string // b as a string
	i    int
}

func (s *lineScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

// peek is the next byte after white space, 0 at the end.
func (s *lineScanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// next consumes and returns the next byte after white space.
func (s *lineScanner) next() byte {
	c := s.peek()
	if c != 0 {
		s.i++
	}
	return c
}

func (s *lineScanner) byte(c byte) bool { return s.next() == c }

// end: nothing but white space is left.
func (s *lineScanner) end() bool {
	s.ws()
	return s.i == len(s.b)
}

// str reads a JSON string.
func (s *lineScanner) str() (string, bool) {
	if s.peek() != '"' {
		return "", false
	}
	start := s.i + 1
	for j := start; j < len(s.b); j++ {
		c := s.b[j]
		switch {
		case c == '"':
			raw := s.b[start:j]
			if !utf8.Valid(raw) {
				return "", false
			}
			s.i = j + 1
			return s.text[start:j], true
		case c == '\\':
			return s.escaped(start, j)
		case c < 0x20:
			return "", false
		}
	}
	return "", false
}

// escaped reads the rest of a string that has an escape at j.
func (s *lineScanner) escaped(start, j int) (string, bool) {
	out := make([]byte, 0, j-start+16)
	out = append(out, s.b[start:j]...)
	for j < len(s.b) {
		c := s.b[j]
		switch {
		case c == '"':
			if !utf8.Valid(out) {
				return "", false
			}
			s.i = j + 1
			return string(out), true
		case c < 0x20:
			return "", false
		case c != '\\':
			out = append(out, c)
			j++
			continue
		}
		if j+1 >= len(s.b) {
			return "", false
		}
		switch e := s.b[j+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if j+6 > len(s.b) {
				return "", false
			}
			r, err := strconv.ParseUint(string(s.b[j+2:j+6]), 16, 32)
			if err != nil || r >= 0xD800 && r <= 0xDFFF {
				return "", false // surrogates are left to encoding/json
			}
			out = utf8.AppendRune(out, rune(r))
			j += 6
			continue
		default:
			return "", false
		}
		j += 2
	}
	return "", false
}

// literal reads a JSON number's text.
func (s *lineScanner) literal() ([]byte, bool) {
	s.ws()
	b, start, j := s.b, s.i, s.i
	digits := func() bool {
		k := j
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		return j > k
	}
	if j < len(b) && b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case !digits():
		return nil, false
	}
	if j < len(b) && b[j] == '.' {
		j++
		if !digits() {
			return nil, false
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if !digits() {
			return nil, false
		}
	}
	s.i = j
	return b[start:j], true
}

// integer reads a number into an int as encoding/json does: only an
// integer literal that fits.
func (s *lineScanner) integer() (int, bool) {
	lit, ok := s.literal()
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(string(lit), 10, 64)
	return int(n), err == nil
}

func (s *lineScanner) float() (float64, bool) {
	lit, ok := s.literal()
	if !ok {
		return 0, false
	}
	x, err := strconv.ParseFloat(string(lit), 64)
	return x, err == nil
}

func (s *lineScanner) strInto(p *string) (ok bool) {
	*p, ok = s.str()
	return ok
}

func (s *lineScanner) intInto(p *int) (ok bool) {
	*p, ok = s.integer()
	return ok
}

func (s *lineScanner) floatInto(p *float64) (ok bool) {
	*p, ok = s.float()
	return ok
}

// toolCalls reads the tool_calls array: [] gives an empty slice, not
// nil, as encoding/json gives.
func (s *lineScanner) toolCalls() ([]ToolCall, bool) {
	if !s.byte('[') {
		return nil, false
	}
	calls := make([]ToolCall, 0, 1)
	if s.peek() == ']' {
		s.i++
		return calls, true
	}
	for {
		calls = append(calls, ToolCall{})
		if !object(s, toolCallKeys, &calls[len(calls)-1]) {
			return nil, false
		}
		switch s.next() {
		case ',':
		case ']':
			return calls, true
		default:
			return nil, false
		}
	}
}
