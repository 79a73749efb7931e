package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"boxmaker/core/daemon"
	"boxmaker/core/loopwire"
	"boxmaker/core/yaag/runerr"
	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const textLimit runbook.Quoted = "limit reached at"

// Loopd makes Agents as hermetic sessions of the loopd serving Socket.
type Loopd struct {
	Socket string
}

// Spawn asks loopd for the Agent's session.
func (l Loopd) Spawn(ctx context.Context, s Spec) (Session, error) {
	var res loopwire.SpawnResult
	err := daemon.Call(ctx, l.Socket, loopwire.KindAgentSpawn, loopwire.SpawnRequest{
		Run: s.Run, Agent: s.Key, Definition: s.Definition, SpawnHash: s.SpawnHash,
		System: s.System, Tools: nonNil(s.Tools), Models: nonNil(s.Models), Memory: s.Memory,
	}, &res, nil)
	if err != nil {
		return nil, remote(ctx, l.Socket, "the session", err)
	}
	return &session{socket: l.Socket, id: res.Session, key: s.Key, models: s.Models, hasTools: len(s.Tools) > 0, at: res.At}, nil
}

// Fork asks loopd for a session that starts as from's log up to the
// boundary.
func (l Loopd) Fork(ctx context.Context, from loopwire.SessionAt, s Spec) (Session, error) {
	var res loopwire.ForkResult
	err := daemon.Call(ctx, l.Socket, loopwire.KindAgentFork, loopwire.ForkRequest{
		From: from, Host: s.Host, Run: s.Run, Agent: s.Key, Definition: s.Definition, SpawnHash: s.SpawnHash, Models: nonNil(s.Models),
	}, &res, nil)
	if err != nil {
		return nil, remote(ctx, l.Socket, "the fork", err)
	}
	if res.Problem != nil {
		return nil, &SessionError{At: from, Problem: *res.Problem}
	}
	return &session{socket: l.Socket, id: res.Session, key: s.Key, models: s.Models, hasTools: true, at: res.At}, nil
}

// ForkHost asks loopd for a copy of the session as it stands: the Run's
// host, which fork: ctx.host forks.
func (l Loopd) ForkHost(ctx context.Context, host string, s Spec) (Session, error) {
	var res loopwire.ForkResult
	err := daemon.Call(ctx, l.Socket, loopwire.KindAgentFork, loopwire.ForkRequest{
		From: loopwire.SessionAt{ID: host}, Host: true, Latest: true, Run: s.Run, Agent: s.Key, Definition: s.Definition, SpawnHash: s.SpawnHash, Models: nonNil(s.Models),
	}, &res, nil)
	if err != nil {
		return nil, remote(ctx, l.Socket, "the host's copy", err)
	}
	if res.Problem != nil {
		return nil, &SessionError{At: loopwire.SessionAt{ID: host}, Problem: *res.Problem}
	}
	return &session{socket: l.Socket, id: res.Session, key: s.Key, hasTools: true, at: res.At}, nil
}

// Compact asks loopd to compact the session into its next epoch.
func (l Loopd) Compact(ctx context.Context, sess Session, model string) error {
	s := sess.(*session)
	var res loopwire.CompactResult
	if err := daemon.Call(ctx, l.Socket, loopwire.KindAgentCompact, loopwire.CompactRequest{Session: s.id, Model: model}, &res, nil); err != nil {
		return remote(ctx, l.Socket, "the compaction", err)
	}
	if res.Failed != "" {
		return &CompactError{Why: res.Failed}
	}
	s.mu.Lock()
	s.at = res.At
	s.mu.Unlock()
	return nil
}

// Answer asks loopd to append the answers to the session at at.
func (l Loopd) Answer(ctx context.Context, at loopwire.SessionAt, answers []loopwire.CallAnswer) (loopwire.SessionAt, error) {
	var res loopwire.AnswerResult
	if err := daemon.Call(ctx, l.Socket, loopwire.KindAgentAnswer, loopwire.AnswerRequest{At: at, Answers: answers}, &res, nil); err != nil {
		return loopwire.SessionAt{}, remote(ctx, l.Socket, "the answer", err)
	}
	if res.Problem != nil {
		return loopwire.SessionAt{}, &SessionError{At: at, Problem: *res.Problem}
	}
	return res.At, nil
}

// remote is what a failed call to loopd says: loopd's refusal of what (its
// entry kept), that the Run was stopped while it waited (its context
// ended: the connection was closed, not lost), or that loopd could not be
// reached.
func remote(ctx context.Context, socket, what string, err error) error {
	var re *daemon.RemoteError
	switch {
	case errors.As(err, &re):
		return fmt.Errorf("loopd refused %s: %w", what, err) // its refusal, entry kept
	case ctx.Err() != nil:
		return runerr.New(runerr.RunStopped, runbook.Entry{}, "%s was not made: its Run was stopped while loopd made it", what)
	}
	return fmt.Errorf("cannot reach loopd at %s: %v", socket, err)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// session is a spawned Agent. Its model is the first of the list that has
// not failed with an auth failure; once moved on, it does not go back.
type session struct {
	socket   string
	id       string
	key      string
	hasTools bool

	mu     sync.Mutex
	models []string
	cursor int
	at     loopwire.SessionAt
}

func (s *session) ID() string { return s.id }

func (s *session) At() loopwire.SessionAt {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.at
}

func (s *session) model() (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.models) == 0 {
		return "", s.cursor == 0
	}
	if s.cursor >= len(s.models) {
		return "", false
	}
	return s.models[s.cursor], true
}

func (s *session) next() {
	s.mu.Lock()
	s.cursor++
	s.mu.Unlock()
}

// Ask runs one Ask: the prompt; when a budget trips, the wrap-up turn or
// ASK_LIMIT; with a schema, the answer's JSON checked, fed back when it
// does not match, and asked for in a final turn without tools.
func (s *session) Ask(ctx context.Context, a Ask, onEvent func(Event)) (Answer, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if a.Timeout > 0 {
		t := time.AfterFunc(a.Timeout, func() { cancel(errTimeout) })
		defer t.Stop()
	}
	var ans Answer
	first := loopwire.AskRequest{Text: a.Prompt, MaxTurns: a.MaxTurns, MaxToolCalls: a.MaxToolCalls, MaxDurationMS: a.MaxDuration.Milliseconds(), Continue: a.Continue}
	if a.Continue {
		first.Text = ""
	}
	if a.Schema != nil && !s.hasTools {
		first.NoTools, first.JSONSchema = true, a.Schema.JSON
	}
	res, err := s.turn(ctx, cancel, a, first, onEvent)
	if err != nil {
		return ans, err
	}
	ans.add(res)
	if len(res.Questions) > 0 {
		ans.Questions = res.Questions
		return ans, nil
	}
	if res.Limit != nil {
		if a.WrapUp == "" {
			return ans, runerr.New(runerr.AskLimit, runbook.YaagAskFailed, "ask %s: %s %s=%d; raise the budget or give a wrapUpPrompt (the Agent can be asked again)",
				a.Key, textLimit, budgetName(res.Limit.Budget), res.Limit.Value)
		}
		wrap := loopwire.AskRequest{Text: a.WrapUp, NoTools: true}
		if a.Schema != nil {
			wrap.JSONSchema = a.Schema.JSON
		}
		if res, err = s.turn(ctx, cancel, a, wrap, onEvent); err != nil {
			return ans, err
		}
		ans.add(res)
	}
	if a.Schema == nil {
		return ans, nil
	}
	problem := ""
	for try := 0; ; try++ {
		data, err := extractJSON(ans.Text)
		if err == nil {
			if err = a.Schema.Validate(data); err == nil {
				ans.Data = data
				return ans, nil
			}
		}
		problem = err.Error()
		if try >= a.Retries {
			return ans, runerr.New(runerr.AskInvalidOutput, runbook.YaagAskFailed,
				"ask %s: the answer does not match the outputSchema after %d attempts: %s", a.Key, try+1, problem)
		}
		text := "Your answer does not match the schema: " + problem + ". Answer with JSON that matches the schema, and nothing else."
		res, err = s.turn(ctx, cancel, a, loopwire.AskRequest{Text: text, NoTools: true, JSONSchema: a.Schema.JSON}, onEvent)
		if err != nil {
			return ans, err
		}
		ans.add(res)
	}
}

func (ans *Answer) add(r loopwire.AskResult) {
	ans.At = r.At
	ans.Text = r.Reply
	ans.Turns += r.Turns
	ans.ToolCalls += r.ToolCalls
	ans.Model = r.Model
}

func budgetName(b string) string {
	switch b {
	case "max_turns":
		return "maxTurns"
	case "max_tool_calls":
		return "maxToolCalls"
	case "max_duration_ms":
		return "maxDurationMs"
	case "max_tool_rounds":
		return "loopd's max_tool_rounds"
	}
	return b
}

var (
	errTimeout = errors.New("timeout")
	errStalled = errors.New("stalled")
)

// turn sends one agent.ask with the Agent's current model, moving along
// the model list on auth failures, under the stall watchdog.
func (s *session) turn(ctx context.Context, cancel context.CancelCauseFunc, a Ask, req loopwire.AskRequest, onEvent func(Event)) (loopwire.AskResult, error) {
	req.Session = s.id
	var failures []string
	for {
		model, ok := s.model()
		if !ok {
			return loopwire.AskResult{}, runerr.New(runerr.AskFailed, runbook.YaagNoAPIKey,
				"ask %s: no model of agent %s can be reached: %s", a.Key, s.key, strings.Join(failures, "; "))
		}
		req.Model = model
		res, err := s.call(ctx, cancel, a, req, onEvent)
		if res.At.ID != "" {
			s.mu.Lock()
			s.at = res.At
			s.mu.Unlock()
		}
		if err != nil {
			return res, err
		}
		if res.ModelError == nil {
			return res, nil
		}
		f := Failure{Model: model, Class: Classify(res.ModelError), Err: res.ModelError}
		failures = append(failures, f.Error())
		if f.Class != Auth {
			return res, runerr.New(runerr.AskFailed, runbook.Entry{}, "ask %s: the model failed: %s", a.Key, f.Error())
		}
		s.next()
		if onEvent != nil {
			onEvent(Event{Kind: EventModelFallback, Text: f.Error()})
		}
	}
}

// call is one agent.ask request, whose stream feeds the watchdog.
func (s *session) call(ctx context.Context, cancel context.CancelCauseFunc, a Ask, req loopwire.AskRequest, onEvent func(Event)) (loopwire.AskResult, error) {
	var watchdog *time.Timer
	var mu sync.Mutex
	held := false // an approval is pending: the wait is brokerd's
	if a.Stall > 0 {
		watchdog = time.AfterFunc(a.Stall, func() { cancel(errStalled) })
		defer watchdog.Stop()
	}
	var res loopwire.AskResult
	err := daemon.Call(ctx, s.socket, loopwire.KindAgentAsk, req, &res, func(raw json.RawMessage) error {
		var e loopwire.Event
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil
		}
		mu.Lock()
		switch e.Event {
		case loopwire.EventAsked:
			held = true
		case loopwire.EventToolResult:
			held = false
		}
		if watchdog != nil {
			if held {
				watchdog.Stop()
			} else {
				watchdog.Reset(a.Stall)
			}
		}
		mu.Unlock()
		if onEvent != nil && e.Event != loopwire.EventText && e.Event != loopwire.EventSession {
			onEvent(Event{Kind: e.Event, Tool: e.Tool, CallID: e.CallID, Outcome: e.Outcome, Args: e.Arguments, Text: clip(e.Text, 200)})
		}
		return nil
	})
	switch cause := context.Cause(ctx); {
	case err == nil:
		return res, nil
	case errors.Is(cause, errTimeout):
		return res, runerr.New(runerr.AskTimeout, runbook.YaagAskFailed,
			"ask %s: timeoutMs=%d passed; the turn was aborted and agent %s killed (spawn a new Agent to go on)", a.Key, a.Timeout.Milliseconds(), s.key)
	case errors.Is(cause, errStalled):
		return res, runerr.New(runerr.AskStalled, runbook.YaagAskFailed,
			"ask %s: loopd was silent for stallMs=%d; the turn was aborted", a.Key, a.Stall.Milliseconds())
	case ctx.Err() != nil:
		// The Run was stopped (yaag stop, Ctrl-C, yaag_stop) while the Ask
		// was in flight: its connection was closed, and loopd dropped the
		// turn. Nothing failed, least of all the model server.
		return res, Stopped(a.Key, "ended")
	}
	var re *daemon.RemoteError
	if errors.As(err, &re) {
		// re.Text ends with loopd's link; the cause keeps its entry.
		return res, runerr.New(runerr.AskFailed, runbook.Entry{}, "ask %s: loopd refused it: %s", a.Key, re.Text).WithCause(err)
	}
	return res, runerr.New(runerr.AskFailed, runbook.Entry{}, "ask %s: cannot reach loopd at %s: %v", a.Key, s.socket, err)
}

// Stopped is the error of an Ask its Run's stop cut (before it "began",
// or before it "ended"): the Run's own, RunStopped, so that the Run ends
// stopped and a program that reads it is told so, not that the model or
// loopd failed. A Cassette does not record it: a resume asks again.
func Stopped(key, before string) error {
	return runerr.New(runerr.RunStopped, runbook.Entry{}, "ask %s was stopped before it %s: its Run was stopped", key, before)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// extractJSON finds the JSON an answer holds: the whole text, else the
// inside of a ```json fence, else the outermost {...} or [...].
func extractJSON(text string) (json.RawMessage, error) {
	t := strings.TrimSpace(text)
	if json.Valid([]byte(t)) && t != "" {
		return json.RawMessage(t), nil
	}
	if i := strings.Index(t, "```"); i >= 0 {
		rest := t[i+3:]
		rest = strings.TrimPrefix(rest, "json")
		if j := strings.Index(rest, "```"); j >= 0 {
			inner := strings.TrimSpace(rest[:j])
			if json.Valid([]byte(inner)) {
				return json.RawMessage(inner), nil
			}
		}
	}
	for _, pair := range [][2]string{{"{", "}"}, {"[", "]"}} {
		i, j := strings.Index(t, pair[0]), strings.LastIndex(t, pair[1])
		if i >= 0 && j > i {
			inner := t[i : j+1]
			var b bytes.Buffer
			if json.Compact(&b, []byte(inner)) == nil {
				return json.RawMessage(b.Bytes()), nil
			}
		}
	}
	return nil, fmt.Errorf("the answer holds no JSON")
}
