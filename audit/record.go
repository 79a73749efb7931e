package audit

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"
)

// Type is what a record says happened.
type Type string

// The record types.
const (
	TypeStart             Type = "start"
	TypeStop              Type = "stop"
	TypeDecision          Type = "decision"
	TypeResult            Type = "result"
	TypeApprovalRequested Type = "approval_requested"
	TypeApprovalAnswered  Type = "approval_answered"
	TypeApprovalExpired   Type = "approval_expired"
	TypeApprovalAbandoned Type = "approval_abandoned"
	// approval_withdrawn: the caller went before an answer (the person
	// stopped the reply, Ctrl-C in bxctl chat): the approval and its call
	// ended there, as an expired one does.
	TypeApprovalWithdrawn Type = "approval_withdrawn"
	TypeRecovery          Type = "recovery"
	TypeAcceptedBreak     Type = "accepted_break"
	// session_start: a new session's state, recorded before its first
	// call (session, taint: the class of its memory block, or higher when
	// the session was already above it; note says why).
	TypeSessionStart Type = "session_start"
)

func (t Type) known() bool {
	switch t {
	case TypeStart, TypeStop, TypeDecision, TypeResult, TypeApprovalRequested, TypeApprovalAnswered,
		TypeApprovalExpired, TypeApprovalAbandoned, TypeApprovalWithdrawn, TypeRecovery, TypeAcceptedBreak, TypeSessionStart:
		return true
	}
	return false
}

// The answers an approval_answered record carries.
const (
	AnswerApproved = "approved"
	AnswerRefused  = "refused"
)

// EffectAllow is the decision effect that lets a call run at once. A call
// decided "ask" runs only after an approval_answered record with
// AnswerApproved for the same call id.
const EffectAllow = "allow"

// Record is one line of the log. The envelope (Seq, Prev, Time, Type, Call,
// Approval) is common to all types; the other fields belong to the types
// named beside them and are left empty by the others. Empty fields are not
// written. Append fills Seq and Prev, and Time when it is zero.
type Record struct {
	Seq      uint64    `json:"seq"`
	Prev     string    `json:"prev"`
	Time     time.Time `json:"time"`
	Type     Type      `json:"type"`
	Call     string    `json:"call,omitempty"`     // the tool call's id
	Approval string    `json:"approval,omitempty"` // the approval's short id

	// decision (Taint is the session's taint when the call was decided)
	Tool    string `json:"tool,omitempty"`
	Target  string `json:"target,omitempty"`
	Effect  string `json:"effect,omitempty"` // allow, ask or deny
	Grant   string `json:"grant,omitempty"`  // the grant file that decided it; empty: no grant matched
	Session string `json:"session,omitempty"`
	Taint   string `json:"taint,omitempty"`
	// approval_requested: the hash of the exact call the approval answers,
	// and of its arguments alone (compact JSON, core/approval)
	CallSHA256      string `json:"call_sha256,omitempty"`
	ArgumentsSHA256 string `json:"arguments_sha256,omitempty"`
	// decision of a write_file: the SHA-256 of the content it writes
	ContentSHA256 string `json:"content_sha256,omitempty"`

	// result
	Outcome    string `json:"outcome,omitempty"` // ran, failed, refused, expired, denied, ...
	TaintAfter string `json:"taint_after,omitempty"`
	Untrusted  bool   `json:"untrusted,omitempty"`

	// approval_answered (Answer is AnswerApproved or AnswerRefused)
	Answer string `json:"answer,omitempty"`
	By     string `json:"by,omitempty"`
	Why    string `json:"why,omitempty"`

	// recovery: the torn line just before this record
	TornLength int64  `json:"torn_length,omitempty"`
	TornSHA256 string `json:"torn_sha256,omitempty"`

	// accepted_break: the first failure found when the break was accepted
	BreakFile string `json:"break_file,omitempty"`
	BreakLine int64  `json:"break_line,omitempty"`
	BreakWhat string `json:"break_what,omitempty"`

	// start and stop, and anything else worth a word
	Note string `json:"note,omitempty"`
}

// zeroPrev is the prev of the very first record.
const zeroPrev = "0000000000000000000000000000000000000000000000000000000000000000"

// timeLayout is how Time is written: UTC, RFC 3339 with nanoseconds.
const timeLayout = time.RFC3339Nano

// lineHash is the hash that the next record's prev names: SHA-256 of the
// line's bytes without its newline.
func lineHash(line []byte) [32]byte { return sha256.Sum256(line) }

// appendLine appends r's canonical encoding, without a newline, to buf.
// Fields come in a fixed order and empty ones are left out, so one record
// has exactly one encoding; the decoder accepts any order.
func appendLine(buf []byte, r *Record) []byte {
	buf = append(buf, `{"seq":`...)
	buf = strconv.AppendUint(buf, r.Seq, 10)
	buf = append(buf, `,"prev":`...)
	buf = appendString(buf, r.Prev)
	buf = append(buf, `,"time":"`...)
	buf = r.Time.UTC().AppendFormat(buf, timeLayout)
	buf = append(buf, `","type":`...)
	buf = appendString(buf, string(r.Type))
	for _, f := range [...]struct {
		key, val string
	}{
		{"call", r.Call}, {"approval", r.Approval},
		{"tool", r.Tool}, {"target", r.Target}, {"effect", r.Effect}, {"grant", r.Grant},
		{"session", r.Session}, {"taint", r.Taint}, {"call_sha256", r.CallSHA256},
		{"arguments_sha256", r.ArgumentsSHA256}, {"content_sha256", r.ContentSHA256},
		{"outcome", r.Outcome}, {"taint_after", r.TaintAfter},
	} {
		if f.val != "" {
			buf = appendKey(buf, f.key)
			buf = appendString(buf, f.val)
		}
	}
	if r.Untrusted {
		buf = append(buf, `,"untrusted":true`...)
	}
	for _, f := range [...]struct{ key, val string }{{"answer", r.Answer}, {"by", r.By}, {"why", r.Why}} {
		if f.val != "" {
			buf = appendKey(buf, f.key)
			buf = appendString(buf, f.val)
		}
	}
	if r.TornLength != 0 {
		buf = append(buf, `,"torn_length":`...)
		buf = strconv.AppendInt(buf, r.TornLength, 10)
	}
	if r.TornSHA256 != "" {
		buf = appendKey(buf, "torn_sha256")
		buf = appendString(buf, r.TornSHA256)
	}
	if r.BreakFile != "" {
		buf = appendKey(buf, "break_file")
		buf = appendString(buf, r.BreakFile)
	}
	if r.BreakLine != 0 {
		buf = append(buf, `,"break_line":`...)
		buf = strconv.AppendInt(buf, r.BreakLine, 10)
	}
	for _, f := range [...]struct{ key, val string }{{"break_what", r.BreakWhat}, {"note", r.Note}} {
		if f.val != "" {
			buf = appendKey(buf, f.key)
			buf = appendString(buf, f.val)
		}
	}
	return append(buf, '}')
}

func appendKey(buf []byte, key string) []byte {
	buf = append(buf, ',', '"')
	buf = append(buf, key...)
	return append(buf, '"', ':')
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string. Invalid UTF-8 becomes U+FFFD, as
// encoding/json does; nothing else is escaped beyond what JSON requires, so
// a target path reads the same in the log as on disk.
func appendString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			buf = append(buf, c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, `\ufffd`...)
		} else {
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return append(buf, '"')
}

// ParseLine decodes one line (without its newline) and checks that it is a
// record: a JSON object of known fields with values of the right type, a
// known type, a seq of at least 1, a prev of 64 lower-case hex digits, a
// time, and the fields a recovery or an accepted_break needs. Unknown and
// repeated fields are errors: the log is written by one encoder, and a
// field it never writes means the line did not come from it.
func ParseLine(line []byte) (Record, error) {
	var r Record
	if err := decodeLine(line, &r); err != nil {
		return Record{}, err
	}
	return r, nil
}

// decodeLine is ParseLine into a record the caller keeps (r is reset).
func decodeLine(line []byte, r *Record) error { return decodeLineIn(line, string(line), r) }

// decodeLineIn is decodeLine of a line given as bytes and as a string of
// the same bytes (decodeFlatIn).
func decodeLineIn(line []byte, str string, r *Record) error {
	*r = Record{}
	if err := decodeFlatIn(line, str, r); err != nil {
		return err
	}
	return r.check()
}

// decodeLineSum is decodeLineIn that also decodes the record's prev into
// prevSum, in the same pass as the check that it is 64 lower-case hex
// digits (Verify's chain compares the bytes); minutes, when not nil, reads
// its time (decodeFlatSum).
func decodeLineSum(line []byte, str string, r *Record, prevSum *[32]byte, minutes *minuteCache) error {
	*r = Record{}
	decoded, err := decodeFlatSum(line, str, r, prevSum, minutes)
	if err != nil {
		return err
	}
	return r.checkPrev(decoded || decodeHash(prevSum, r.Prev))
}

func (r *Record) check() error { return r.checkPrev(isHash(r.Prev)) }

// checkPrev is check, told whether r.Prev is 64 lower-case hex digits.
func (r *Record) checkPrev(prevIsHash bool) error {
	switch {
	case r.Type == "":
		return fmt.Errorf("no type")
	case !r.Type.known():
		return fmt.Errorf("unknown type %q", r.Type)
	case r.Seq == 0:
		return fmt.Errorf("no seq")
	case !prevIsHash:
		return fmt.Errorf("prev is not 64 lower-case hex digits")
	case r.Time.IsZero():
		return fmt.Errorf("no time")
	case !yearWritable(r.Time):
		// it could not be written back in UTC as RFC 3339
		return fmt.Errorf("time out of range")
	}
	switch r.Type {
	case TypeRecovery:
		if r.TornLength <= 0 || !isHash(r.TornSHA256) {
			return fmt.Errorf("a recovery record needs torn_length and torn_sha256")
		}
	case TypeAcceptedBreak:
		if r.BreakFile == "" || r.BreakLine <= 0 {
			return fmt.Errorf("an accepted_break record needs break_file and break_line")
		}
	}
	return nil
}

// yearWritable reports whether t's year can be written back in UTC as
// RFC 3339 (1 to 9999).
// Compared as instants, which costs less than working out the year.
func yearWritable(t time.Time) bool {
	return !t.Before(firstWritable) && t.Before(pastWritable)
}

var (
	firstWritable = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	pastWritable  = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
)

func isHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	var bad byte
	for i := 0; i < 64; i++ {
		bad |= notHex[s[i]]
	}
	return bad == 0
}

// decodeHash decodes s into sum and reports whether s is 64 lower-case
// hex digits (isHash); sum is then their value, else anything.
//
// Eight digits at a time, each byte c of a word tested as a lane of its
// own: for c below 0x80, (c|0x80) - n has its high bit set exactly when
// c >= n, and no lane borrows from the next.
func decodeHash(sum *[32]byte, s string) bool {
	if len(s) != 64 {
		return false
	}
	const ones, high = 0x0101010101010101, 0x8080808080808080
	bad := uint64(0)
	for i := 0; i < 64; i += 8 {
		x := load64(s[i:])
		h := x | high
		digit := (h - '0'*ones) &^ (h - ('9'+1)*ones) & high
		lower := (h - 'a'*ones) &^ (h - ('f'+1)*ones) & high
		bad |= x&high | ((digit | lower) ^ high)
		// A digit's value is its low nibble; a letter's is its low
		// nibble plus 9. Then each even byte becomes its digit and the
		// next one's, and the even bytes are gathered.
		v := x&(0x0f*ones) + (lower>>7)*9
		v = (v<<4 | v>>8) & 0x00ff00ff00ff00ff
		v = (v | v>>8) & 0x0000ffff0000ffff
		binary.LittleEndian.PutUint32(sum[i/2:], uint32(v|v>>16))
	}
	return bad == 0
}

// notHex is 1 for every byte that is not a lower-case hex digit.
var notHex = func() (t [256]byte) {
	for i := range t {
		if !(i >= '0' && i <= '9' || i >= 'a' && i <= 'f') {
			t[i] = 1
		}
	}
	return t
}()

func hashHex(h [32]byte) string { return hex.EncodeToString(h[:]) }
