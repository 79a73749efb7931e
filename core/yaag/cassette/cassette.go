// Package cassette is the record of a yaag Run: the journal its steps go
// to as the Run goes, and the Cassette, the one document published from it
// at the end, which a later Run replays (--replay) or continues
// (--resume). A Checkpoint is a Cassette whose Run paused: it holds the
// questions an Agent asked the person and how to answer them.
//
// # The journal
//
// <destination>.journal beside the destination: JSON lines, each ending
// in "\n", appended and fsynced one at a time, as each step completes, in
// completion order. The first line is the Run ({"seq":0,"kind":"run",
// "run":{...}}); every later line has "seq" (1, 2, ... in the order
// written) and a "kind":
//
//	agent   an Agent was spawned: its key, definition, spawn hash and the
//	        hash of each spawn field, the session and where it stood
//	ask     an Ask ended: agent, n, askHash, the field hashes, a status
//	        (ok, error, withheld, paused) and what goes with it, the
//	        session after it
//	clock   one reading of the program's clock (value: ms since the epoch)
//	answer  an answer given to a question of a Checkpoint this Run resumed
//
// A last line without its newline is a write that a crash cut off: it is
// dropped (the program never saw that step). Any other damage is an error
// naming the file and the line.
//
// # The Cassette
//
// One JSON document, published through a temporary file, fsync and a
// rename: {"format":"yaag-cassette","version":1,"run":{...},"agents":[...],
// "steps":[...],"questions":[...],"answers":{...},"resume":{...}|null,
// "resumedBy":null|"<run>","run_end":{...}}. Steps keep their seq. The
// document never holds the program; prompts are kept as hashes (their
// text only with [cassette] keep_prompts), and every result passed the
// sanitizer's refuse rules before it was written (withheld otherwise):
// the Asks' results, their errors' texts, and the Run's own result and
// error in run_end (run_end.withheld says why a result is missing).
//
// The reader is strict: unknown fields, a key twice in one object or in
// another case than its field's (core/jsonkeys, as the sockets read), a
// kind's missing or extra fields, keys that do not follow A<k> and
// A<k>/<n>, repeated steps, a seq out of order are errors.
package cassette

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"

	"boxmaker/core/jsonkeys"
	"boxmaker/core/loopwire"
	"boxmaker/core/sessionid"

	"boxmaker/core/yaagwire"
)

// Format and Version name the Cassette document; JournalFormat the
// journal's first line.
const (
	Format  = "yaag-cassette"
	Version = 1
)

// UserInputProtocol is the version of request_user_input (its arguments,
// the answer's form, the question keys) this yaag ships. A Cassette that
// recorded another one cannot be resumed.
const UserInputProtocol = 1

// Doc is a Cassette, or a Checkpoint (a Cassette whose Run paused).
type Doc struct {
	Format    string            `json:"format"`
	Version   int               `json:"version"`
	Run       RunInfo           `json:"run"`
	Agents    []Agent           `json:"agents"`
	Steps     []Step            `json:"steps"`
	Questions []Question        `json:"questions"`
	Answers   map[string]string `json:"answers"`
	Resume    *Resume           `json:"resume"`
	ResumedBy *string           `json:"resumedBy"`
	End       *End              `json:"run_end"`
}

// RunInfo is what a Run was started with.
type RunInfo struct {
	ID                string `json:"id"`
	StartedAt         string `json:"startedAt"`
	Seed              int64  `json:"seed"`
	Profile           string `json:"profile"`
	UserInputProtocol int    `json:"userInputProtocol"`
	Program           string `json:"program"`     // the program file, or "inline"
	ProgramHash       string `json:"programHash"` // informational only
	KeepPrompts       bool   `json:"keepPrompts"`
	ResumedFrom       string `json:"resumedFrom,omitempty"` // the document this Run continued
	Host              string `json:"host,omitempty"`        // the session whose yaag_run started it
}

// SessionAt is a loopd session as it stood at a boundary: its epoch's
// log file was Bytes long and its SHA-256 was SHA256 (the loop socket's
// own shape).
type SessionAt = loopwire.SessionAt

// Agent is one spawned Agent.
type Agent struct {
	Agent      string            `json:"agent"`
	Definition string            `json:"definition"`
	SpawnHash  string            `json:"spawnHash"`
	Fields     map[string]string `json:"fields"`
	// Session is the Agent's session right after the spawn; nil for an
	// Agent this Run played back from a Cassette without going live.
	Session *SessionAt `json:"session"`
	ForkOf  *SessionAt `json:"forkOf,omitempty"`
	At      string     `json:"at,omitempty"` // the program's source position of the spawn
}

// Step kinds and Ask statuses.
const (
	KindRun    = "run"
	KindAgent  = "agent"
	KindAsk    = "ask"
	KindClock  = "clock"
	KindAnswer = "answer"

	StatusOK       = "ok"
	StatusError    = "error"
	StatusWithheld = "withheld"
	StatusPaused   = "paused"
)

// Step is one completed step of a Run.
type Step struct {
	Seq  int    `json:"seq"`
	Kind string `json:"kind"`

	// clock
	Value *int64 `json:"value,omitempty"`

	// ask, answer
	Agent string `json:"agent,omitempty"`
	N     int    `json:"n,omitempty"`

	// ask
	AskHash   string            `json:"askHash,omitempty"`
	Fields    map[string]string `json:"fields,omitempty"`
	Status    string            `json:"status,omitempty"`
	Result    *Result           `json:"result,omitempty"`
	Error     *StepError        `json:"error,omitempty"`
	Withheld  *Withheld         `json:"withheld,omitempty"`
	Prompt    *string           `json:"prompt,omitempty"`
	Session   *SessionAt        `json:"session,omitempty"`
	Questions []Question        `json:"questions,omitempty"`
	At        string            `json:"at,omitempty"`

	// answer
	Key    string  `json:"key,omitempty"`
	Answer *string `json:"answer,omitempty"`
}

// Result is an Ask's answer as the program saw it.
type Result struct {
	Text      string          `json:"text"`
	Data      json.RawMessage `json:"data,omitempty"`
	Turns     int             `json:"turns"`
	ToolCalls int             `json:"toolCalls"`
	Model     string          `json:"model"`
}

// StepError is an Ask that failed in a way that is the Agent's own (a
// budget, the output schema, its timeout): a replay fails it the same way.
type StepError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Withheld is a result the sanitizer's refuse rules kept out of the
// Cassette: the rules that fired and the SHA-256 of what was withheld.
type Withheld struct {
	Rules  []string `json:"rules"`
	SHA256 string   `json:"sha256"`
}

// Question is one request_user_input call of a paused Ask.
type Question = yaagwire.Question

// Resume says how to continue a paused Run.
type Resume = yaagwire.Resume

// End is how a Run ended. Status: completed, failed, stopped, paused, or
// interrupted (a journal recovered after its Run was killed).
type End struct {
	Status         string          `json:"status"`
	Result         json.RawMessage `json:"result,omitempty"`
	Error          string          `json:"error,omitempty"`
	CheckpointLost bool            `json:"checkpointLost"`
	Unused         []string        `json:"unused,omitempty"` // a replay's recorded steps left unused
	// Withheld is the Run's result that the sanitizer's refuse rules kept
	// out of the Cassette (the Run's caller had it).
	Withheld *Withheld `json:"withheld,omitempty"`
}

// End statuses.
const (
	EndCompleted   = yaagwire.EndCompleted
	EndFailed      = yaagwire.EndFailed
	EndStopped     = yaagwire.EndStopped
	EndPaused      = yaagwire.EndPaused
	EndInterrupted = yaagwire.EndInterrupted
)

var (
	// Compiled at its first use, not at package init: a counted repetition
	// compiles to a copy of its class per count, and every role's start paid
	// for it (D362).
	agentKeyRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^A[1-9][0-9]{0,8}$`) })
	questionKeyRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(A[1-9][0-9]{0,8})/([1-9][0-9]{0,8})/q[1-9][0-9]{0,8}$`)
	})
	hashRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^sha256:[0-9a-f]{64}$`) })
	hexRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{64}$`) })
	fieldRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z]{1,32}$`) })
)

// QuestionKey is the key of the m-th question of Ask n of Agent agent.
func QuestionKey(agent string, n, m int) string { return fmt.Sprintf("%s/%d/q%d", agent, n, m) }

// Parse reads a Cassette document strictly; file names it in errors.
func Parse(file string, data []byte) (*Doc, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var d Doc
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("%s: not a Cassette: %s", file, jsonError(data, err))
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: not a Cassette: more than one JSON value", file)
	}
	// The keys as the sockets read theirs (D733): encoding/json keeps the
	// last of a key given twice and takes a key in another case for the
	// field, so what another reader of the file sees could differ.
	if err := jsonkeys.Check(data, reflect.TypeOf(&d)); err != nil {
		return nil, fmt.Errorf("%s: not a Cassette: %v", file, err)
	}
	if err := d.Check(); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return &d, nil
}

// jsonError says where a decoding error is, by line.
func jsonError(data []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if off >= 0 && off <= int64(len(data)) {
		return fmt.Sprintf("line %d: %s", bytes.Count(data[:off], []byte("\n"))+1, msg)
	}
	return msg
}

// Check reports the first thing that makes d no Cassette of this version.
func (d *Doc) Check() error {
	if d.Format != Format {
		return fmt.Errorf("format is %q, not %q", d.Format, Format)
	}
	if d.Version != Version {
		return fmt.Errorf("version %d: this yaag reads Cassettes of version %d", d.Version, Version)
	}
	if err := d.Run.check(); err != nil {
		return err
	}
	agents := map[string]bool{}
	for i, a := range d.Agents {
		if err := a.check(); err != nil {
			return fmt.Errorf("agents[%d]: %v", i, err)
		}
		if agents[a.Agent] {
			return fmt.Errorf("agents[%d]: agent %s appears twice", i, a.Agent)
		}
		agents[a.Agent] = true
	}
	asks := map[string]bool{}
	last := 0
	for i, s := range d.Steps {
		if err := s.check(); err != nil {
			return fmt.Errorf("steps[%d] (seq %d): %v", i, s.Seq, err)
		}
		if s.Seq <= last {
			return fmt.Errorf("steps[%d]: seq %d does not follow seq %d", i, s.Seq, last)
		}
		last = s.Seq
		if s.Kind == KindAsk {
			if !agents[s.Agent] {
				return fmt.Errorf("steps[%d]: ask %s/%d of agent %s, which agents does not list", i, s.Agent, s.N, s.Agent)
			}
			key := fmt.Sprintf("%s/%d", s.Agent, s.N)
			if asks[key] {
				return fmt.Errorf("steps[%d]: ask %s is recorded twice", i, key)
			}
			asks[key] = true
		}
	}
	seen := map[string]bool{}
	for i, q := range d.Questions {
		if err := checkQuestion(q, true); err != nil {
			return fmt.Errorf("questions[%d]: %v", i, err)
		}
		if seen[q.Key] {
			return fmt.Errorf("questions[%d]: question %s appears twice", i, q.Key)
		}
		seen[q.Key] = true
	}
	for k := range d.Answers {
		if !seen[k] {
			return fmt.Errorf("answers: %q is no question of this document", k)
		}
	}
	if d.Resume != nil {
		for k := range d.Resume.AnswersTemplate {
			if !seen[k] {
				return fmt.Errorf("resume.answersTemplate: %q is no question of this document", k)
			}
		}
	}
	if d.ResumedBy != nil && !validRunID(*d.ResumedBy) {
		return fmt.Errorf("resumedBy %q is not a Run id", *d.ResumedBy)
	}
	if d.End == nil {
		return errors.New("no run_end")
	}
	switch d.End.Status {
	case EndCompleted, EndFailed, EndStopped, EndPaused, EndInterrupted:
	default:
		return fmt.Errorf("run_end.status %q is none of completed, failed, stopped, paused, interrupted", d.End.Status)
	}
	if d.End.Result != nil && !json.Valid(d.End.Result) {
		return errors.New("run_end.result is not JSON")
	}
	if w := d.End.Withheld; w != nil && (d.End.Result != nil || len(w.Rules) == 0 || !hexRE().MatchString(w.SHA256)) {
		return errors.New("run_end.withheld needs its rules and the SHA-256 of what it withheld, and no result")
	}
	if d.End.Status == EndPaused && d.Resume == nil {
		return errors.New("a paused Run's document has no resume")
	}
	if len(d.Questions) > 0 && d.End.Status != EndPaused {
		return fmt.Errorf("questions in the document of a %s Run", d.End.Status)
	}
	return nil
}

// Compiled at its first use, not at package init: a counted repetition
// compiles to a copy of its class per count, and every role's start paid
// for it (D362).
func validRunID(s string) bool { return yaagwire.ValidRunID(s) }

// ValidRunID reports whether s is a Run's id.
func ValidRunID(s string) bool { return yaagwire.ValidRunID(s) }

func (r RunInfo) check() error {
	switch {
	case !validRunID(r.ID):
		return fmt.Errorf("run.id %q is not a Run id", r.ID)
	case r.UserInputProtocol < 1:
		return fmt.Errorf("run.userInputProtocol %d is not a version", r.UserInputProtocol)
	case r.Program == "":
		return errors.New("run.program is empty")
	case r.ProgramHash != "" && !hashRE().MatchString(r.ProgramHash):
		return fmt.Errorf("run.programHash %q is not a hash", r.ProgramHash)
	case r.Host != "" && !sessionid.Valid(r.Host):
		return fmt.Errorf("run.host %q is not a session id", r.Host)
	}
	return nil
}

func checkFields(f map[string]string) error {
	for k, h := range f {
		if !fieldRE().MatchString(k) {
			return fmt.Errorf("field name %q", k)
		}
		if !hashRE().MatchString(h) {
			return fmt.Errorf("field %s: %q is not a hash", k, h)
		}
	}
	return nil
}

func checkSession(s *SessionAt, what string) error {
	switch {
	case s == nil:
		return nil
	case !sessionid.Valid(s.ID):
		return fmt.Errorf("%s.id %q is not a session id", what, s.ID)
	case s.Epoch < 0 || s.Bytes < 0:
		return fmt.Errorf("%s: a negative epoch or length", what)
	case !hexRE().MatchString(s.SHA256):
		return fmt.Errorf("%s.sha256 %q is not a SHA-256", what, s.SHA256)
	}
	return nil
}

func (a Agent) check() error {
	switch {
	case !agentKeyRE().MatchString(a.Agent):
		return fmt.Errorf("agent key %q is not A<k>", a.Agent)
	case a.Definition == "":
		return errors.New("no definition")
	case !hashRE().MatchString(a.SpawnHash):
		return fmt.Errorf("spawnHash %q is not a hash", a.SpawnHash)
	}
	if err := checkFields(a.Fields); err != nil {
		return err
	}
	if err := checkSession(a.Session, "session"); err != nil {
		return err
	}
	return checkSession(a.ForkOf, "forkOf")
}

func checkQuestion(q Question, inDoc bool) error {
	m := questionKeyRE().FindStringSubmatch(q.Key)
	switch {
	case m == nil:
		return fmt.Errorf("question key %q is not A<k>/<n>/q<m>", q.Key)
	case q.CallID == "":
		return fmt.Errorf("question %s has no callId", q.Key)
	case inDoc && (q.Agent != m[1] || fmt.Sprint(q.N) != m[2]):
		return fmt.Errorf("question %s names agent %s, ask %d", q.Key, q.Agent, q.N)
	case !inDoc && (q.Agent != "" || q.N != 0):
		return fmt.Errorf("question %s: agent and n belong to the Ask", q.Key)
	}
	return nil
}

// check is a step's shape: the fields of its kind, and no others.
func (s Step) check() error {
	if s.Seq < 1 {
		return fmt.Errorf("seq %d", s.Seq)
	}
	ask := s.AskHash != "" || s.Fields != nil || s.Status != "" || s.Result != nil || s.Error != nil ||
		s.Withheld != nil || s.Prompt != nil || s.Session != nil || s.Questions != nil || s.At != ""
	switch s.Kind {
	case KindClock:
		if s.Value == nil || s.Agent != "" || s.N != 0 || ask || s.Key != "" || s.Answer != nil {
			return errors.New("a clock step has value and nothing else")
		}
		return nil
	case KindAnswer:
		if s.Value != nil || ask || s.Answer == nil {
			return errors.New("an answer step has agent, n, key and answer, and nothing else")
		}
		m := questionKeyRE().FindStringSubmatch(s.Key)
		if m == nil || m[1] != s.Agent || m[2] != fmt.Sprint(s.N) {
			return fmt.Errorf("answer key %q does not belong to ask %s/%d", s.Key, s.Agent, s.N)
		}
		return nil
	case KindAsk:
	default:
		return fmt.Errorf("unknown kind %q", s.Kind)
	}
	if s.Value != nil || s.Key != "" || s.Answer != nil {
		return errors.New("an ask step with a clock or answer field")
	}
	switch {
	case !agentKeyRE().MatchString(s.Agent):
		return fmt.Errorf("agent key %q is not A<k>", s.Agent)
	case s.N < 1:
		return fmt.Errorf("ask ordinal %d", s.N)
	case !hashRE().MatchString(s.AskHash):
		return fmt.Errorf("askHash %q is not a hash", s.AskHash)
	}
	if err := checkFields(s.Fields); err != nil {
		return err
	}
	if err := checkSession(s.Session, "session"); err != nil {
		return err
	}
	has := map[string]bool{"result": s.Result != nil, "error": s.Error != nil, "withheld": s.Withheld != nil, "questions": len(s.Questions) > 0}
	want := map[string]string{StatusOK: "result", StatusError: "error", StatusWithheld: "withheld", StatusPaused: "questions"}
	w, ok := want[s.Status]
	if !ok {
		return fmt.Errorf("status %q is none of ok, error, withheld, paused", s.Status)
	}
	for k, v := range has {
		if v != (k == w) {
			return fmt.Errorf("a %s ask step has %s %v", s.Status, k, map[bool]string{true: "", false: "missing"}[v])
		}
	}
	if s.Result != nil && s.Result.Data != nil && !json.Valid(s.Result.Data) {
		return errors.New("result.data is not JSON")
	}
	if s.Error != nil && s.Error.Code == "" {
		return errors.New("an error without a code")
	}
	if s.Withheld != nil && (len(s.Withheld.Rules) == 0 || !hexRE().MatchString(s.Withheld.SHA256)) {
		return errors.New("withheld needs its rules and the SHA-256 of what it withheld")
	}
	if s.Status == StatusPaused && s.Session == nil {
		return errors.New("a paused ask without its session")
	}
	for i, q := range s.Questions {
		if err := checkQuestion(q, false); err != nil {
			return fmt.Errorf("questions[%d]: %v", i, err)
		}
		if !strings.HasPrefix(q.Key, fmt.Sprintf("%s/%d/", s.Agent, s.N)) {
			return fmt.Errorf("questions[%d]: %s is not a question of ask %s/%d", i, q.Key, s.Agent, s.N)
		}
	}
	return nil
}

// Encode is the published form of d: indented JSON, keys in a fixed
// order, steps by seq.
func (d *Doc) Encode() ([]byte, error) {
	sort.SliceStable(d.Steps, func(i, j int) bool { return d.Steps[i].Seq < d.Steps[j].Seq })
	if d.Agents == nil {
		d.Agents = []Agent{}
	}
	if d.Steps == nil {
		d.Steps = []Step{}
	}
	if d.Questions == nil {
		d.Questions = []Question{}
	}
	if d.Answers == nil {
		d.Answers = map[string]string{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Ask is the recorded step of Ask n of agent, or nil.
func (d *Doc) Ask(agent string, n int) *Step {
	for i := range d.Steps {
		if s := &d.Steps[i]; s.Kind == KindAsk && s.Agent == agent && s.N == n {
			return s
		}
	}
	return nil
}

// AgentOf is the recorded Agent of key, or nil.
func (d *Doc) AgentOf(key string) *Agent {
	for i := range d.Agents {
		if d.Agents[i].Agent == key {
			return &d.Agents[i]
		}
	}
	return nil
}

// Clock is the recorded clock readings, in order.
func (d *Doc) Clock() []int64 {
	var out []int64
	for _, s := range d.Steps {
		if s.Kind == KindClock {
			out = append(out, *s.Value)
		}
	}
	return out
}

// Resumable reports whether resuming d continues its Run (which then
// happens once: resumedBy), rather than starting a new Run from a
// recording (a completed Run's Cassette, which resumes any number of
// times).
func (d *Doc) Resumable() bool { return d.End.Status != EndCompleted }
