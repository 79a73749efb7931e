package loop

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"boxmaker/core/sessionlog"
)

// Record types (core/sessionlog's, which the logs' readers share).
const (
	TypeBaseline  = sessionlog.TypeBaseline
	TypeUser      = sessionlog.TypeUser
	TypeAssistant = sessionlog.TypeAssistant
	TypeTool      = sessionlog.TypeTool
	TypeNote      = sessionlog.TypeNote
)

// Record is one line of a session log. Which fields a record has depends
// on its Type (see the package doc); the others are empty.
type Record struct {
	Seq  int
	Time time.Time
	Type string

	// baseline
	System string
	Memory string
	Tools  json.RawMessage // the "tools" array exactly as sent to the server

	// user
	Who string

	// user, assistant, tool, note
	Text string

	// assistant
	Reasoning string
	ToolCalls []ToolCall
	Timings   Timings

	// tool
	CallID  string
	Name    string
	Outcome string
}

// ToolCall is one call the model made. Arguments is the JSON text the
// server returned, kept byte for byte so the replay renders it the same.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Timings is what the server reported about one request. CacheN is the
// prompt tokens taken from the cache (timings.cache_n, or
// usage.prompt_tokens - timings.prompt_n when the server gives no
// cache_n).
type Timings struct {
	PromptN     int     `json:"prompt_n"`
	CacheN      int     `json:"cache_n"`
	PredictedN  int     `json:"predicted_n"`
	PromptMS    float64 `json:"prompt_ms"`
	PredictedMS float64 `json:"predicted_ms"`
}

// PromptTokens is the whole prompt of the request: evaluated plus cached.
func (t Timings) PromptTokens() int { return t.PromptN + t.CacheN }

// The shapes written for each type: only the fields of that type, every
// one of them, in a fixed order.
type (
	baselineLine struct {
		Seq    int             `json:"seq"`
		Time   string          `json:"time"`
		Type   string          `json:"type"`
		System string          `json:"system"`
		Memory string          `json:"memory"`
		Tools  json.RawMessage `json:"tools"`
	}
	userLine struct {
		Seq  int    `json:"seq"`
		Time string `json:"time"`
		Type string `json:"type"`
		Who  string `json:"who"`
		Text string `json:"text"`
	}
	assistantLine struct {
		Seq       int        `json:"seq"`
		Time      string     `json:"time"`
		Type      string     `json:"type"`
		Text      string     `json:"text"`
		Reasoning string     `json:"reasoning,omitempty"`
		ToolCalls []ToolCall `json:"tool_calls"`
		Timings   Timings    `json:"timings"`
	}
	toolLine struct {
		Seq     int    `json:"seq"`
		Time    string `json:"time"`
		Type    string `json:"type"`
		CallID  string `json:"call_id"`
		Name    string `json:"name"`
		Outcome string `json:"outcome"`
		Text    string `json:"text"`
	}
	noteLine struct {
		Seq  int    `json:"seq"`
		Time string `json:"time"`
		Type string `json:"type"`
		Text string `json:"text"`
	}
)

// timeLayout is RFC 3339 in UTC with nanoseconds, always nine digits, so
// every time has the same width.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

// Encode is the record's line, newline included.
func (r Record) Encode() ([]byte, error) {
	t := r.Time.UTC().Format(timeLayout)
	var v any
	switch r.Type {
	case TypeBaseline:
		tools := r.Tools
		if len(tools) == 0 {
			tools = json.RawMessage("[]")
		}
		v = baselineLine{r.Seq, t, r.Type, r.System, r.Memory, tools}
	case TypeUser:
		v = userLine{r.Seq, t, r.Type, r.Who, r.Text}
	case TypeAssistant:
		calls := r.ToolCalls
		if calls == nil {
			calls = []ToolCall{}
		}
		v = assistantLine{r.Seq, t, r.Type, r.Text, r.Reasoning, calls, r.Timings}
	case TypeTool:
		v = toolLine{r.Seq, t, r.Type, r.CallID, r.Name, r.Outcome, r.Text}
	case TypeNote:
		v = noteLine{r.Seq, t, r.Type, r.Text}
	default:
		return nil, fmt.Errorf("unknown record type %q", r.Type)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the text stays readable with grep and tail
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// DamageError is a line of a session log that cannot be read.
type DamageError struct {
	File   string
	Line   int
	Reason string
}

func (e *DamageError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason) }

// ReasonCutOff is the reason given for a last line without its newline: a
// write that was cut off.
const ReasonCutOff = "last line does not end in a newline"

// lineFields is every field any record may have. A string field that is
// still absent after decoding holds the absent marker (a JSON string
// cannot spell it but as "\u0000", and such a field is then treated as
// missing, which only makes the check stricter); the others are nil when
// absent. Markers rather than pointers keep a rebuild from allocating
// for every field of every record.
type lineFields struct {
	Seq       int             `json:"seq"`
	Time      string          `json:"time"`
	Type      string          `json:"type"`
	System    string          `json:"system"`
	Memory    string          `json:"memory"`
	Tools     json.RawMessage `json:"tools"`
	Who       string          `json:"who"`
	Text      string          `json:"text"`
	Reasoning string          `json:"reasoning"`
	ToolCalls []ToolCall      `json:"tool_calls"`
	Timings   *Timings        `json:"timings"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Outcome   string          `json:"outcome"`
}

const absent = "\x00"

func (f *lineFields) reset() {
	*f = lineFields{Seq: -1 << 62, Time: absent, Type: absent, System: absent, Memory: absent, Who: absent,
		Text: absent, Reasoning: absent, CallID: absent, Name: absent, Outcome: absent}
}

// The fields a record may have, as bits.
const (
	fSystem = 1 << iota
	fMemory
	fTools
	fWho
	fText
	fReasoning
	fToolCalls
	fTimings
	fCallID
	fName
	fOutcome
)

// fieldOrder names the bits, in the order absent or extra fields are
// reported.
var fieldOrder = []string{"system", "memory", "tools", "who", "text", "reasoning", "tool_calls", "timings", "call_id", "name", "outcome"}

// fieldsOf is, for each type, the fields it must have and those it may.
var fieldsOf = map[string]struct{ required, optional int }{
	TypeBaseline:  {fSystem | fMemory | fTools, 0},
	TypeUser:      {fWho | fText, 0},
	TypeAssistant: {fText | fTimings, fReasoning | fToolCalls},
	TypeTool:      {fCallID | fName | fOutcome | fText, 0},
	TypeNote:      {fText, 0},
}

func (f *lineFields) present() int {
	has := 0
	for i, p := range [...]bool{f.System != absent, f.Memory != absent, f.Tools != nil, f.Who != absent, f.Text != absent,
		f.Reasoning != absent, f.ToolCalls != nil, f.Timings != nil, f.CallID != absent, f.Name != absent, f.Outcome != absent} {
		if p {
			has |= 1 << i
		}
	}
	return has
}

// ParseLog reads a whole session log. file names it in errors. Every
// record is checked (see the package doc); the first damaged line is
// returned as a *DamageError.
func ParseLog(file string, data []byte) ([]Record, error) {
	var ends []int // the offset of each line's newline
	for off := 0; off < len(data); {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		ends = append(ends, off+i)
		off += i + 1
	}
	cutOff := len(ends) == 0 && len(data) > 0 || len(ends) > 0 && ends[len(ends)-1] != len(data)-1
	recs, errs := parseLines(data, string(data), ends)
	calls := map[string]bool{}
	for i, r := range recs {
		line := i + 1
		if errs[i] != nil {
			return nil, &DamageError{file, line, errs[i].Error()}
		}
		switch {
		case line == 1 && r.Type != TypeBaseline:
			return nil, &DamageError{file, line, fmt.Sprintf("the first record is a %s record, not the baseline", r.Type)}
		case line > 1 && r.Type == TypeBaseline:
			return nil, &DamageError{file, line, "a baseline record after the first line"}
		}
		switch r.Type {
		case TypeAssistant:
			for _, c := range r.ToolCalls {
				calls[c.ID] = true
			}
		case TypeTool:
			if !calls[r.CallID] {
				return nil, &DamageError{file, line, fmt.Sprintf("a tool record for call %q, which no earlier assistant record made", r.CallID)}
			}
		}
	}
	if cutOff {
		return nil, &DamageError{file, len(ends) + 1, ReasonCutOff}
	}
	return recs, nil
}

// parallelFrom is the number of lines from which parseLines uses every
// core: decoding JSON is most of a long session's rebuild.
const parallelFrom = 1000

// parseLines decodes the lines ending at ends; errs[i] is line i+1's. A
// chunk of lines stops at its first error: only the first damaged line of
// the file is reported.
func parseLines(data []byte, text string, ends []int) ([]Record, []error) {
	recs := make([]Record, len(ends))
	errs := make([]error, len(ends))
	workers := runtime.GOMAXPROCS(0)
	if len(ends) < parallelFrom || workers < 2 {
		parseChunk(data, text, ends, 0, len(ends), recs, errs)
		return recs, errs
	}
	var wg sync.WaitGroup
	per := (len(ends) + workers - 1) / workers
	for from := 0; from < len(ends); from += per {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parseChunk(data, text, ends, from, min(from+per, len(ends)), recs, errs)
		}()
	}
	wg.Wait()
	return recs, errs
}

// parseChunk decodes lines [from, to): each with fastLine, else with
// encoding/json (decodeLine). text is data as a string.
func parseChunk(data []byte, text string, ends []int, from, to int, recs []Record, errs []error) {
	start := 0
	if from > 0 {
		start = ends[from-1] + 1
	}
	var f lineFields
	var s lineScanner
	for i := from; i < to; i++ {
		line := data[start:ends[i]]
		if len(bytes.TrimSpace(line)) == 0 {
			errs[i] = errors.New("an empty line")
			return
		}
		f.reset()
		if !s.fastLine(line, text[start:ends[i]], &f) {
			f.reset()
			if errs[i] = decodeLine(data[start:], len(line), &f); errs[i] != nil {
				return
			}
		}
		recs[i], errs[i] = checkLine(&f, i+1)
		if errs[i] != nil {
			return
		}
		start = ends[i] + 1
	}
}

// decodeLine decodes the line of length n at the start of rest with
// encoding/json, strictly, checking from the decoder's offset that the
// value is alone on its line. It reads past the line when the value does
// (a value cut by a newline in its middle), so the reason names what is
// wrong with the value rather than only its end.
func decodeLine(rest []byte, n int, f *lineFields) error {
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(f); err != nil {
		return fmt.Errorf("not a session record: %v", err)
	}
	end := int(dec.InputOffset())
	if end > n {
		return errors.New("not a session record: the record does not end on its line")
	}
	if len(bytes.TrimSpace(rest[end:n])) > 0 {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}

// checkLine checks a decoded line's fields against its type.
func checkLine(f *lineFields, line int) (Record, error) {
	switch {
	case f.Seq == -1<<62:
		return Record{}, errors.New(`no "seq"`)
	case f.Seq != line:
		return Record{}, fmt.Errorf("seq is %d on line %d", f.Seq, line)
	case f.Time == absent:
		return Record{}, errors.New(`no "time"`)
	case f.Type == absent:
		return Record{}, errors.New(`no "type"`)
	}
	t, err := time.Parse(time.RFC3339Nano, f.Time)
	if err != nil || t.Location() != time.UTC {
		return Record{}, fmt.Errorf("time %q is not RFC 3339 UTC", f.Time)
	}
	spec, ok := fieldsOf[f.Type]
	if !ok {
		return Record{}, fmt.Errorf("unknown record type %q", f.Type)
	}
	has := f.present()
	for i, k := range fieldOrder {
		if spec.required&(1<<i) != 0 && has&(1<<i) == 0 {
			return Record{}, fmt.Errorf("a %s record without %q", f.Type, k)
		}
	}
	for i, k := range fieldOrder {
		if has&(1<<i) != 0 && (spec.required|spec.optional)&(1<<i) == 0 {
			return Record{}, fmt.Errorf("a %s record with %q", f.Type, k)
		}
	}
	r := Record{Seq: f.Seq, Time: t, Type: f.Type}
	str := func(s string) string {
		if s == absent {
			return ""
		}
		return s
	}
	r.System, r.Memory, r.Who, r.Text = str(f.System), str(f.Memory), str(f.Who), str(f.Text)
	r.Reasoning, r.CallID, r.Name, r.Outcome = str(f.Reasoning), str(f.CallID), str(f.Name), str(f.Outcome)
	if f.Tools != nil {
		if t := bytes.TrimSpace(f.Tools); len(t) == 0 || t[0] != '[' {
			return Record{}, errors.New(`"tools" is not an array`)
		}
		// A RawMessage may point into the decoder's buffer: keep a copy
		// of its own.
		r.Tools = append(json.RawMessage(nil), f.Tools...)
	}
	if len(f.ToolCalls) > 0 {
		r.ToolCalls = f.ToolCalls
		for _, c := range r.ToolCalls {
			if c.ID == "" || c.Name == "" {
				return Record{}, errors.New("a tool call without an id or a name")
			}
		}
	}
	if f.Timings != nil {
		r.Timings = *f.Timings
	}
	return r, nil
}
