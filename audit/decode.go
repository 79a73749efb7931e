package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"
)

// decodeFlat decodes one JSON object whose values are strings, unsigned
// integers or booleans into r. It is a narrow decoder for the one shape the
// encoder writes, because `bxctl audit verify` reads every line of the log
// and encoding/json's reflection costs several times the hashing; strings
// with escapes are handed to encoding/json. FuzzParseLine checks that
// whatever it accepts, encoding/json reads the same way.
func decodeFlat(line []byte, r *Record) error {
	d := flatDecoder{b: line}
	d.space()
	if !d.eat('{') {
		return d.errorf("not a JSON object")
	}
	var seen uint32
	d.space()
	if d.eat('}') {
		return d.end()
	}
	for {
		d.space()
		rawKey, err := d.rawStr()
		if err != nil {
			return err
		}
		// Keys are looked up without making a string of them (the
		// compiler does not allocate for m[string(b)]); a key with an
		// escape or a byte outside ASCII names no field.
		f, ok := fieldIndex[string(rawKey)]
		if !ok {
			key, err := d.unquote(rawKey)
			if err != nil {
				return err
			}
			return fmt.Errorf("unknown field %q", key)
		}
		key := fieldNames[f]
		d.space()
		if !d.eat(':') {
			return d.errorf("expected : after %q", key)
		}
		d.space()
		if seen&(1<<f) != 0 {
			return fmt.Errorf("field %q appears twice", key)
		}
		seen |= 1 << f
		if err := d.value(f, key, r); err != nil {
			return err
		}
		d.space()
		if d.eat(',') {
			continue
		}
		if d.eat('}') {
			return d.end()
		}
		return d.errorf("expected , or } after %q", key)
	}
}

// The fields, numbered for the duplicate check.
const (
	fSeq = iota
	fPrev
	fTime
	fType
	fCall
	fApproval
	fTool
	fTarget
	fEffect
	fGrant
	fSession
	fTaint
	fCallSHA256
	fArgumentsSHA256
	fContentSHA256
	fOutcome
	fTaintAfter
	fUntrusted
	fAnswer
	fBy
	fWhy
	fTornLength
	fTornSHA256
	fBreakFile
	fBreakLine
	fBreakWhat
	fNote
)

var fieldIndex = map[string]int{
	"seq": fSeq, "prev": fPrev, "time": fTime, "type": fType, "call": fCall, "approval": fApproval,
	"tool": fTool, "target": fTarget, "effect": fEffect, "grant": fGrant, "session": fSession,
	"taint": fTaint, "call_sha256": fCallSHA256, "arguments_sha256": fArgumentsSHA256,
	"content_sha256": fContentSHA256, "outcome": fOutcome, "taint_after": fTaintAfter,
	"untrusted": fUntrusted, "answer": fAnswer, "by": fBy, "why": fWhy, "torn_length": fTornLength,
	"torn_sha256": fTornSHA256, "break_file": fBreakFile, "break_line": fBreakLine,
	"break_what": fBreakWhat, "note": fNote,
}

var fieldNames = func() []string {
	names := make([]string, len(fieldIndex))
	for k, v := range fieldIndex {
		names[v] = k
	}
	return names
}()

func (d *flatDecoder) value(f int, key string, r *Record) error {
	switch f {
	case fSeq:
		n, err := d.uint(key)
		r.Seq = n
		return err
	case fTornLength, fBreakLine:
		n, err := d.uint(key)
		if err == nil && n > 1<<62 {
			err = fmt.Errorf("field %q is out of range", key)
		}
		if f == fTornLength {
			r.TornLength = int64(n)
		} else {
			r.BreakLine = int64(n)
		}
		return err
	case fUntrusted:
		switch {
		case d.word("true"):
			r.Untrusted = true
		case d.word("false"):
			r.Untrusted = false
		default:
			return fmt.Errorf("field %q is not true or false", key)
		}
		return nil
	}
	s, err := d.str()
	if err != nil {
		return fmt.Errorf("field %q: %w", key, err)
	}
	switch f {
	case fPrev:
		r.Prev = s
	case fTime:
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return fmt.Errorf("field \"time\" is not an RFC 3339 time")
		}
		r.Time = t
	case fType:
		r.Type = Type(s)
	case fCall:
		r.Call = s
	case fApproval:
		r.Approval = s
	case fTool:
		r.Tool = s
	case fTarget:
		r.Target = s
	case fEffect:
		r.Effect = s
	case fGrant:
		r.Grant = s
	case fSession:
		r.Session = s
	case fTaint:
		r.Taint = s
	case fCallSHA256:
		r.CallSHA256 = s
	case fArgumentsSHA256:
		r.ArgumentsSHA256 = s
	case fContentSHA256:
		r.ContentSHA256 = s
	case fOutcome:
		r.Outcome = s
	case fTaintAfter:
		r.TaintAfter = s
	case fAnswer:
		r.Answer = s
	case fBy:
		r.By = s
	case fWhy:
		r.Why = s
	case fTornSHA256:
		r.TornSHA256 = s
	case fBreakFile:
		r.BreakFile = s
	case fBreakWhat:
		r.BreakWhat = s
	case fNote:
		r.Note = s
	}
	return nil
}

type flatDecoder struct {
	b []byte
	i int
}

func (d *flatDecoder) errorf(format string, args ...any) error {
	return fmt.Errorf("byte %d: "+format, append([]any{d.i + 1}, args...)...)
}

func (d *flatDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\r', '\n':
			d.i++
		default:
			return
		}
	}
}

func (d *flatDecoder) eat(c byte) bool {
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

func (d *flatDecoder) word(w string) bool {
	if len(d.b)-d.i >= len(w) && string(d.b[d.i:d.i+len(w)]) == w {
		d.i += len(w)
		return true
	}
	return false
}

// end accepts only the end of the line after the closing brace: the
// encoder writes nothing there.
func (d *flatDecoder) end() error {
	if d.i != len(d.b) {
		return d.errorf("text after the end of the object")
	}
	return nil
}

// uint reads a JSON number that is a whole number without sign, fraction or
// exponent, the only kind the encoder writes.
func (d *flatDecoder) uint(key string) (uint64, error) {
	start := d.i
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		d.i++
	}
	digits := d.b[start:d.i]
	if len(digits) == 0 || (len(digits) > 1 && digits[0] == '0') {
		return 0, fmt.Errorf("field %q is not a whole number", key)
	}
	if d.i < len(d.b) {
		switch d.b[d.i] {
		case '.', 'e', 'E':
			return 0, fmt.Errorf("field %q is not a whole number", key)
		}
	}
	n, err := strconv.ParseUint(string(digits), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("field %q is out of range", key)
	}
	return n, nil
}

var errUnterminated = errors.New("unterminated string")

// str reads a JSON string.
func (d *flatDecoder) str() (string, error) {
	raw, err := d.rawStr()
	if err != nil {
		return "", err
	}
	return d.unquote(raw)
}

// rawStr reads a JSON string and returns its bytes between the quotes,
// still escaped.
func (d *flatDecoder) rawStr() ([]byte, error) {
	if !d.eat('"') {
		return nil, d.errorf("expected a string")
	}
	start := d.i
	for d.i < len(d.b) {
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			return d.b[start : d.i-1], nil
		case c == '\\':
			d.i += 2
		case c < 0x20:
			return nil, d.errorf("control character in a string")
		default:
			d.i++
		}
	}
	return nil, errUnterminated
}

// unquote turns the bytes of a string between its quotes into its value.
// One with escapes or bytes outside ASCII is decoded by encoding/json, so
// both agree on what it says (U+FFFD for bytes that are not UTF-8).
func (d *flatDecoder) unquote(raw []byte) (string, error) {
	for _, c := range raw {
		if c == '\\' || c >= utf8.RuneSelf {
			var s string
			quoted := make([]byte, 0, len(raw)+2)
			quoted = append(append(append(quoted, '"'), raw...), '"')
			if err := json.Unmarshal(quoted, &s); err != nil {
				return "", fmt.Errorf("bad string: %v", err)
			}
			return s, nil
		}
	}
	return string(raw), nil
}
