package audit

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// decodeFlat decodes one JSON object whose values are strings, unsigned
// integers or booleans into r. It is a narrow decoder for the one shape the
// encoder writes, because `bxctl audit verify` reads every line of the log
// and encoding/json's reflection costs several times the hashing. The
// line is copied into one string, and every plain value (no escape, only
// ASCII) is a piece of it, so a record costs one allocation; strings with
// escapes are handed to encoding/json. FuzzParseLine checks that whatever
// it accepts, encoding/json reads the same way.
func decodeFlat(line []byte, r *Record) error { return decodeFlatIn(line, string(line), r) }

// decodeFlatIn is decodeFlat of a line given twice, as bytes and as a
// string of the same bytes, whose pieces the record's strings are (Verify
// gives a piece of one string per chunk of lines).
func decodeFlatIn(line []byte, str string, r *Record) error {
	var prevSum [32]byte
	_, err := decodeFlatSum(line, str, r, &prevSum, nil)
	return err
}

// decodeFlatSum is decodeFlatIn that, when the line is in the encoder's
// own form, decodes its prev into prevSum too, in the same pass that
// checks it is 64 lower-case hex digits (prevDecoded); a line in any other
// form is decoded by the general decoder, and its prev is left as text.
// minutes, when not nil, reads the line's time (lines decoded one after
// the other share one).
func decodeFlatSum(line []byte, str string, r *Record, prevSum *[32]byte, minutes *minuteCache) (prevDecoded bool, err error) {
	d := flatDecoder{s: str, minutes: minutes}
	if d.canonical(r, prevSum) {
		return true, nil
	}
	*r = Record{}
	// One look at the whole line tells whether any string in it can hold
	// an escape, a control character or a byte outside ASCII; if none
	// does, each string simply ends at the next quote.
	d.i, d.plain = 0, asciiPlain(line)
	return false, d.general(r)
}

// general decodes any JSON object of the record's fields.
func (d *flatDecoder) general(r *Record) error {
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
		rawKey, plain, err := d.rawStr()
		if err != nil {
			return err
		}
		// A key with an escape or a byte outside ASCII names no field.
		f := -1
		if plain {
			f = fieldOf(rawKey)
		}
		if f < 0 {
			key, err := d.unquote(rawKey, plain)
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

// fieldOf is the field a key names, or -1; a switch, which the compiler
// makes a search on length and bytes, costs less than a map's hash.
func fieldOf(key string) int {
	switch key {
	case "seq":
		return fSeq
	case "prev":
		return fPrev
	case "time":
		return fTime
	case "type":
		return fType
	case "call":
		return fCall
	case "approval":
		return fApproval
	case "tool":
		return fTool
	case "target":
		return fTarget
	case "effect":
		return fEffect
	case "grant":
		return fGrant
	case "session":
		return fSession
	case "taint":
		return fTaint
	case "call_sha256":
		return fCallSHA256
	case "arguments_sha256":
		return fArgumentsSHA256
	case "content_sha256":
		return fContentSHA256
	case "outcome":
		return fOutcome
	case "taint_after":
		return fTaintAfter
	case "untrusted":
		return fUntrusted
	case "answer":
		return fAnswer
	case "by":
		return fBy
	case "why":
		return fWhy
	case "torn_length":
		return fTornLength
	case "torn_sha256":
		return fTornSHA256
	case "break_file":
		return fBreakFile
	case "break_line":
		return fBreakLine
	case "break_what":
		return fBreakWhat
	case "note":
		return fNote
	}
	return -1
}

// numFields is how many fields a record has.
const numFields = fNote + 1

// keyLits are the keys as the encoder writes them after the first field,
// in its order, which is the fields' numbering: `,"prev":`.
var keyLits = func() (lits [numFields]string) {
	for f := range lits {
		lits[f] = `,"` + fieldNames[f] + `":`
	}
	return lits
}()

// canonical decodes a line written the way the encoder writes it: no
// spaces, the fields in the encoder's order (so none twice), every string
// plain (printable ASCII, no escape: plainEnd), and the envelope as only the encoder writes it: a seq of at most
// 19 digits, a prev of 64 lower-case hex digits (decoded into prevSum), a
// time in UTC as RFC 3339 with 0 to 9 digits of fraction. It reports
// false for any other line, which the general decoder then reads (and
// judges) from the start; a line it accepts, the general decoder reads
// the same way (FuzzParseLine checks both).
func (d *flatDecoder) canonical(r *Record, prevSum *[32]byte) bool {
	s := d.s
	const seqKey, prevKey, timeKey, typeKey = `{"seq":`, `,"prev":"`, `,"time":"`, `","type":"`
	if !strings.HasPrefix(s, seqKey) {
		return false
	}
	i := len(seqKey)
	r.Seq, i = canonicalUint(s, i)
	if i < 0 || !strings.HasPrefix(s[i:], prevKey) {
		return false
	}
	i += len(prevKey)
	if len(s)-i < 64+len(timeKey)+1 || s[i+64] != '"' || !decodeHash(prevSum, s[i:i+64]) {
		return false
	}
	r.Prev = s[i : i+64]
	i += 65
	if s[i:i+len(timeKey)] != timeKey {
		return false
	}
	i += len(timeKey)
	end := timeEnd(s, i)
	if end < 0 {
		return false
	}
	t, ok := d.minutes.parseUTC(s[i:end])
	if !ok || !strings.HasPrefix(s[end:], typeKey) {
		return false
	}
	r.Time = t
	i = end + len(typeKey)
	j := plainEnd(s, i)
	if j < 0 {
		return false
	}
	r.Type = Type(s[i:j])
	d.i = j + 1
	for f := fType + 1; d.i < len(s); f++ {
		if s[d.i] == '}' {
			return d.i == len(s)-1
		}
		for ; f < numFields; f++ {
			lit := keyLits[f]
			if len(s)-d.i >= len(lit) && s[d.i+2] == lit[2] && s[d.i:d.i+len(lit)] == lit {
				break
			}
		}
		if f == numFields {
			return false
		}
		d.i += len(keyLits[f])
		if isString[f] {
			if d.i >= len(s) || s[d.i] != '"' {
				return false
			}
			j := plainEnd(s, d.i+1)
			if j < 0 || setString(f, s[d.i+1:j], r) != nil {
				return false
			}
			d.i = j + 1
			continue
		}
		if d.value(f, fieldNames[f], r) != nil {
			return false
		}
	}
	return false
}

// plainEnd is where the plain string that begins at s[i] ends: the index
// of the first quote from i, when every byte before it is printable ASCII
// (or DEL) and no backslash, as asciiPlain says; else -1 (the string may
// hold an escape, or bytes that are not UTF-8, which the general decoder
// reads).
//
// Eight bytes at a time, each byte a lane: (v - 0x01..) &^ v has the high
// bit of the first zero lane of v set (lanes above it may be set too, by
// the borrow, but never one below), so the lowest set bit of each test is
// a true find.
func plainEnd(s string, i int) int {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		x := load64(s[i:])
		q, b := x^('"'*ones), x^('\\'*ones)
		quote := (q - ones) &^ q & high
		bad := ((b-ones)&^b | (x-0x20*ones)&^x | x) & high
		if quote == 0 {
			if bad != 0 {
				return -1
			}
			continue
		}
		first := quote & -quote
		if bad&(first-1) != 0 {
			return -1
		}
		return i + bits.TrailingZeros64(first)/8
	}
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return i
		case c < 0x20 || c >= utf8.RuneSelf || c == '\\':
			return -1
		}
	}
	return -1
}

// canonicalUint reads the whole number at s[i:] as the encoder writes a
// seq: digits without a leading zero, at most 19 of them (so that it
// cannot overflow; a longer one is the general decoder's). It returns the
// number and where its digits end, or -1.
func canonicalUint(s string, i int) (uint64, int) {
	start := i
	var n uint64
	for ; i < len(s) && i-start < 20; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + uint64(c-'0')
	}
	if digits := i - start; digits == 0 || digits > 19 || (digits > 1 && s[start] == '0') {
		return 0, -1
	}
	return n, i
}

// timeEnd is where the time the encoder writes at s[i:] ends (after its
// Z, before the closing quote): 19 bytes, then an optional fraction, then
// Z. It is -1 when s[i:] is not shaped so; parseUTC checks the rest.
func timeEnd(s string, i int) int {
	j := i + 19
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
	}
	if j+1 >= len(s) || s[j] != 'Z' || s[j+1] != '"' {
		return -1
	}
	return j + 1
}

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
	return setString(f, s, r)
}

// isString is true for the fields whose values are strings.
var isString = func() (t [numFields]bool) {
	for f := range t {
		switch f {
		case fSeq, fTornLength, fBreakLine, fUntrusted:
		default:
			t[f] = true
		}
	}
	return t
}()

// setString sets the string field f of r to s.
func setString(f int, s string, r *Record) error {
	switch f {
	case fPrev:
		r.Prev = s
	case fTime:
		t, ok := parseUTC(s)
		if !ok {
			var err error
			if t, err = time.Parse(time.RFC3339Nano, s); err != nil {
				return fmt.Errorf("field \"time\" is not an RFC 3339 time")
			}
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
	s       string // the line as one string, which plain values are pieces of
	plain   bool   // the line holds only printable ASCII and no backslash
	i       int
	minutes *minuteCache // what the canonical decoder reads times with
}

func (d *flatDecoder) errorf(format string, args ...any) error {
	return fmt.Errorf("byte %d: "+format, append([]any{d.i + 1}, args...)...)
}

func (d *flatDecoder) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\r', '\n':
			d.i++
		default:
			return
		}
	}
}

func (d *flatDecoder) eat(c byte) bool {
	if d.i < len(d.s) && d.s[d.i] == c {
		d.i++
		return true
	}
	return false
}

func (d *flatDecoder) word(w string) bool {
	if strings.HasPrefix(d.s[d.i:], w) {
		d.i += len(w)
		return true
	}
	return false
}

// end accepts only the end of the line after the closing brace: the
// encoder writes nothing there.
func (d *flatDecoder) end() error {
	if d.i != len(d.s) {
		return d.errorf("text after the end of the object")
	}
	return nil
}

// uint reads a JSON number that is a whole number without sign, fraction or
// exponent, the only kind the encoder writes.
func (d *flatDecoder) uint(key string) (uint64, error) {
	start := d.i
	for d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
		d.i++
	}
	digits := d.s[start:d.i]
	if len(digits) == 0 || (len(digits) > 1 && digits[0] == '0') {
		return 0, fmt.Errorf("field %q is not a whole number", key)
	}
	if d.i < len(d.s) {
		switch d.s[d.i] {
		case '.', 'e', 'E':
			return 0, fmt.Errorf("field %q is not a whole number", key)
		}
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("field %q is out of range", key)
	}
	return n, nil
}

var errUnterminated = errors.New("unterminated string")

// str reads a JSON string.
func (d *flatDecoder) str() (string, error) {
	raw, plain, err := d.rawStr()
	if err != nil {
		return "", err
	}
	return d.unquote(raw, plain)
}

// rawStr reads a JSON string and returns what stands between its quotes,
// still escaped, and whether it is plain: no escape, only ASCII.
func (d *flatDecoder) rawStr() (raw string, plain bool, err error) {
	if !d.eat('"') {
		return "", false, d.errorf("expected a string")
	}
	start := d.i
	if d.plain {
		if n := strings.IndexByte(d.s[start:], '"'); n >= 0 {
			d.i = start + n + 1
			return d.s[start : start+n], true, nil
		}
		return "", false, errUnterminated
	}
	plain = true
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			return d.s[start : d.i-1], plain, nil
		case c == '\\':
			d.i += 2
			plain = false
		case c < 0x20:
			return "", false, d.errorf("control character in a string")
		case c >= utf8.RuneSelf:
			plain = false
			d.i++
		default:
			d.i++
		}
	}
	return "", false, errUnterminated
}

// asciiPlain reports whether b holds only printable ASCII (and DEL) and
// no backslash. Eight bytes at a time: a byte at or above 0x80 sets its high
// bit; x - 0x20.. & ^x sets the high bit of a byte below 0x20 (exact as a
// test of "any", since no byte here is at or above 0x80).
func asciiPlain(b []byte) bool {
	if bytes.IndexByte(b, '\\') >= 0 {
		return false
	}
	const hi, lo = 0x8080808080808080, 0x2020202020202020
	for len(b) >= 32 { // four words at a time, folded into one test
		x0 := binary.LittleEndian.Uint64(b)
		x1 := binary.LittleEndian.Uint64(b[8:])
		x2 := binary.LittleEndian.Uint64(b[16:])
		x3 := binary.LittleEndian.Uint64(b[24:])
		if (x0|x1|x2|x3)&hi != 0 || ((x0-lo)&^x0|(x1-lo)&^x1|(x2-lo)&^x2|(x3-lo)&^x3)&hi != 0 {
			return false
		}
		b = b[32:]
	}
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		if x&hi != 0 || (x-lo)&^x&hi != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x20 || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// unquote turns what stands between a string's quotes into its value: a
// plain one is itself (a piece of the line's one string), any other is
// decoded by encoding/json, so both agree on what it says (U+FFFD for
// bytes that are not UTF-8).
func (d *flatDecoder) unquote(raw string, plain bool) (string, error) {
	if plain {
		return raw, nil
	}
	var s string
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(append(append(quoted, '"'), raw...), '"')
	if err := json.Unmarshal(quoted, &s); err != nil {
		return "", fmt.Errorf("bad string: %v", err)
	}
	return s, nil
}

// parseUTC reads the one form the encoder writes, 2006-01-02T15:04:05Z
// with 0 to 9 digits of fraction (RFC 3339 in UTC), as time.Parse would;
// ok is false for any other text, which time.Parse then judges.
func parseUTC(s string) (time.Time, bool) {
	start, ok := parseMinute(s)
	if !ok {
		return time.Time{}, false
	}
	return inMinute(start, s)
}

// minuteCache is parseUTC that remembers the minute it read last: the
// lines of a log follow each other closely, so most share their minute
// with the line before, and only their seconds are left to read.
type minuteCache struct {
	text  [2]uint64 // the minute, 2006-01-02T15:04, as two words of text
	start int64     // its first second since 1970
	set   bool
}

// parseUTC is parseUTC(s) (FuzzMinuteCache); a nil m is no cache.
func (m *minuteCache) parseUTC(s string) (time.Time, bool) {
	if m == nil {
		return parseUTC(s)
	}
	if len(s) < 20 {
		return time.Time{}, false
	}
	if text := [2]uint64{load64(s), load64(s[8:])}; !m.set || text != m.text {
		start, ok := parseMinute(s)
		if !ok {
			return time.Time{}, false
		}
		*m = minuteCache{text: text, start: start, set: true}
	}
	return inMinute(m.start, s)
}

// parseMinute reads the minute of a time parseUTC reads, s[:16], and
// returns its first second since 1970.
func parseMinute(s string) (int64, bool) {
	if len(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' {
		return 0, false
	}
	year, ok1 := digits(s, 0, 4)
	month, ok2 := digits(s, 5, 7)
	day, ok3 := digits(s, 8, 10)
	hour, ok4 := digits(s, 11, 13)
	minute, ok5 := digits(s, 14, 16)
	if !(ok1 && ok2 && ok3 && ok4 && ok5) || month < 1 || month > 12 || day < 1 ||
		day > daysIn(time.Month(month), year) || hour > 23 || minute > 59 {
		return 0, false
	}
	// What time.Date would give for these fields, all in range: the days
	// since 1970-01-01 of the civil date (Howard Hinnant's days_from_civil),
	// without Date's normalising.
	y := year
	if month <= 2 {
		y--
	}
	era := y / 400
	if y < 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (month + 9) % 12
	doy := (153*mp+2)/5 + day - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	days := int64(era)*146097 + int64(doe) - 719468
	return days*86400 + int64(hour*3600+minute*60), true
}

// inMinute reads the rest of a time parseUTC reads, s[16:] (:05, the
// fraction, Z), in the minute that starts at start.
func inMinute(start int64, s string) (time.Time, bool) {
	if len(s) < 20 || s[16] != ':' || s[len(s)-1] != 'Z' {
		return time.Time{}, false
	}
	sec, ok := digits(s, 17, 19)
	if !ok || sec > 59 {
		return time.Time{}, false
	}
	nsec := 0
	switch frac := s[19 : len(s)-1]; {
	case frac == "":
	case len(frac) < 2 || len(frac) > 10 || frac[0] != '.':
		return time.Time{}, false
	default:
		n, ok := digits(s, 20, len(s)-1)
		if !ok {
			return time.Time{}, false
		}
		for k := len(frac) - 1; k < 9; k++ {
			n *= 10
		}
		nsec = n
	}
	return time.Unix(start+int64(sec), int64(nsec)).UTC(), true
}

// digits is the number s[a:b] spells in decimal digits (at most 9).
func digits(s string, a, b int) (int, bool) {
	n := 0
	for i := a; i < b; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// load64 is the first eight bytes of s as one little-endian word (the
// compiler makes it one load).
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func daysIn(m time.Month, year int) int {
	if m == time.February {
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 30 + int((m+m/8)%2)
}
