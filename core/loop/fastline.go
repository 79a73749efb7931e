package loop

import (
	"strconv"
	"unicode/utf8"
)

// fastLine decodes one line of a session log into f (already reset)
// without reflection, for the records a turn reads most: user,
// assistant, tool and note records in the plain shape Encode writes. It
// reports false for anything it does not handle (a baseline's keys, an
// unknown or repeated key, a key in other case, null, an escape for a
// surrogate, invalid UTF-8, a number that is not plain, trailing bytes)
// and the line is then decoded by encoding/json, which gives the reason
// when the line is damaged. Whatever it accepts, encoding/json with
// DisallowUnknownFields decodes to the same fields (FuzzFastLine).
//
// It exists because decoding with encoding/json was most of a turn's own
// time when a session's records are not kept (docs/performance.md, loopd).
//
// text is the same line as a string: the strings decoded without escapes
// are slices of it, so the caller makes one string of the whole log
// rather than one for each field.
func fastLine(line []byte, text string, f *lineFields) bool {
	s := lineScanner{b: line, text: text}
	return s.object(func(key string) (int, bool) {
		bit, dst := f.field(key)
		if bit == 0 {
			return 0, false
		}
		var ok bool
		switch key {
		case "seq":
			f.Seq, ok = s.integer()
		case "tool_calls":
			f.ToolCalls, ok = s.toolCalls()
		case "timings":
			var t Timings
			if t, ok = s.timings(); ok {
				f.Timings = &t
			}
		default:
			*dst, ok = s.str()
		}
		return bit, ok
	}) && s.end()
}

// Bits of the keys fastLine takes, to find a key given twice.
const (
	kSeq = 1 << iota
	kTime
	kType
	kWho
	kText
	kReasoning
	kCallID
	kName
	kOutcome
	kToolCalls
	kTimings
)

// field is the bit of a key fastLine takes and, for a string, where it
// goes; 0 for any other key.
func (f *lineFields) field(key string) (int, *string) {
	switch key {
	case "seq":
		return kSeq, nil
	case "time":
		return kTime, &f.Time
	case "type":
		return kType, &f.Type
	case "who":
		return kWho, &f.Who
	case "text":
		return kText, &f.Text
	case "reasoning":
		return kReasoning, &f.Reasoning
	case "call_id":
		return kCallID, &f.CallID
	case "name":
		return kName, &f.Name
	case "outcome":
		return kOutcome, &f.Outcome
	case "tool_calls":
		return kToolCalls, nil
	case "timings":
		return kTimings, nil
	}
	return 0, nil
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

// object reads a JSON object, each member's value by member, which
// reads the value of key and reports the key's bit (see kSeq), or false
// for a key or a value it does not take. A key given twice is not taken.
func (s *lineScanner) object(member func(key string) (bit int, ok bool)) bool {
	if !s.byte('{') {
		return false
	}
	if s.peek() == '}' {
		s.i++
		return true
	}
	seen := 0
	for {
		key, ok := s.key()
		if !ok {
			return false
		}
		bit, ok := member(key)
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		switch s.next() {
		case ',':
		case '}':
			return true
		default:
			return false
		}
	}
}

// key reads `"name":`. Keys are plain ASCII without escapes; anything
// else is left to encoding/json.
func (s *lineScanner) key() (string, bool) {
	if s.peek() != '"' {
		return "", false
	}
	start := s.i + 1
	for j := start; j < len(s.b); j++ {
		c := s.b[j]
		if c == '"' {
			s.i = j + 1
			if !s.byte(':') {
				return "", false
			}
			return s.text[start:j], true
		}
		if c == '\\' || c < 0x20 || c >= 0x80 {
			return "", false
		}
	}
	return "", false
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

// timings reads the timings object.
func (s *lineScanner) timings() (Timings, bool) {
	var t Timings
	ok := s.object(func(key string) (int, bool) {
		switch key {
		case "prompt_n":
			return 1, s.intInto(&t.PromptN)
		case "cache_n":
			return 2, s.intInto(&t.CacheN)
		case "predicted_n":
			return 4, s.intInto(&t.PredictedN)
		case "prompt_ms":
			return 8, s.floatInto(&t.PromptMS)
		case "predicted_ms":
			return 16, s.floatInto(&t.PredictedMS)
		}
		return 0, false
	})
	return t, ok
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
		c, ok := s.toolCall()
		if !ok {
			return nil, false
		}
		calls = append(calls, c)
		switch s.next() {
		case ',':
		case ']':
			return calls, true
		default:
			return nil, false
		}
	}
}

func (s *lineScanner) toolCall() (ToolCall, bool) {
	var c ToolCall
	ok := s.object(func(key string) (int, bool) {
		var bit int
		var dst *string
		switch key {
		case "id":
			bit, dst = 1, &c.ID
		case "name":
			bit, dst = 2, &c.Name
		case "arguments":
			bit, dst = 4, &c.Arguments
		default:
			return 0, false
		}
		var ok bool
		*dst, ok = s.str()
		return bit, ok
	})
	return c, ok
}
