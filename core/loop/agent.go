package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"boxmaker/core/brokerwire"
	"boxmaker/core/loopwire"
	"boxmaker/core/policy"
	"boxmaker/core/role"
	"boxmaker/sanitize"
)

// RequestUserInput is the tool a yaag Agent with canAskUser is offered
// (the loop socket's name for it).
const RequestUserInput = loopwire.ToolRequestUserInput

var requestUserInputDefinition = mustCompact(`{"type":"function","function":{"name":"request_user_input","description":"Ask the person a question and wait for the answer.","parameters":{"type":"object","properties":{"question":{"type":"string"}},"required":["question"]}}}`)

// yaagNotePrefix starts the note that makes a session hermetic;
// yaagForkPrefix the note of a fork loopd made for a yaag Agent.
const (
	yaagNotePrefix = "yaag: hermetic session;"
	yaagForkPrefix = "yaag: fork of "
)

// hermeticTools is the tools array of a hermetic session: the named
// tools' definitions, in the order loopd knows them.
func hermeticTools(names []string) (json.RawMessage, error) {
	var defs []json.RawMessage
	if err := json.Unmarshal(ToolDefinitions, &defs); err != nil {
		return nil, err
	}
	byName := map[string]json.RawMessage{}
	var known []string
	for _, d := range defs {
		var t struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		json.Unmarshal(d, &t)
		byName[t.Function.Name] = d
		known = append(known, t.Function.Name)
	}
	byName[RequestUserInput] = requestUserInputDefinition
	known = append(known, RequestUserInput)
	want := map[string]bool{}
	for _, n := range names {
		if _, ok := byName[n]; !ok {
			return nil, fmt.Errorf("there is no tool %q (the tools: %s)", n, strings.Join(known, ", "))
		}
		want[n] = true
	}
	out := []json.RawMessage{}
	for _, n := range known {
		if want[n] {
			out = append(out, byName[n])
		}
	}
	return json.Marshal(out)
}

// Spawn makes a hermetic session from the request alone: its system
// prompt, its tools, the memory block only when asked for, and a note
// naming the Run, the Agent and the spawn's hash.
func (e *Engine) Spawn(ctx context.Context, req loopwire.SpawnRequest) (loopwire.SpawnResult, error) {
	tools, err := hermeticTools(req.Tools)
	if err != nil {
		return loopwire.SpawnResult{}, err
	}
	if req.Run == "" || req.Agent == "" {
		return loopwire.SpawnResult{}, errors.New("a hermetic session needs the Run and the Agent's key")
	}
	id := NewSessionID(e.now())
	unlock := e.lock(id)
	defer unlock()
	block := ""
	switch {
	case req.Domain != "":
		// An Agent of a Run brokerd started: brokerd puts the session in
		// the Run's taint domain before it exists, or there is none.
		class := policy.Public.String()
		if req.Memory {
			if block, class, err = e.Memory.Block(ctx, id); err != nil {
				return loopwire.SpawnResult{}, err
			}
		}
		if err := e.Broker.StartSessionIn(ctx, brokerwire.SessionStart{Session: id, Taint: class, Domain: req.Domain}); err != nil {
			return loopwire.SpawnResult{}, fmt.Errorf("the Agent's session cannot start: brokerd must put it in its Run's taint domain: %w", err)
		}
	case req.Memory:
		if block, err = e.memoryBlock(ctx, id); err != nil {
			return loopwire.SpawnResult{}, err
		}
	}
	log, err := CreateLog(e.SessionsDir, id)
	if err != nil {
		return loopwire.SpawnResult{}, fmt.Errorf("cannot create the session: %w", err)
	}
	note := fmt.Sprintf("%s run %s, agent %s (%s), spawn %s, models %s, memory %t", yaagNotePrefix,
		req.Run, req.Agent, req.Definition, req.SpawnHash, modelsNote(req.Models), req.Memory)
	at, err := e.begin(log,
		Record{Time: e.now(), Type: TypeBaseline, System: sanitize.Neutralise(req.System), Memory: sanitize.Neutralise(block), Tools: tools},
		Record{Time: e.now(), Type: TypeNote, Text: note})
	if err != nil {
		return loopwire.SpawnResult{}, err
	}
	return loopwire.SpawnResult{Session: id, At: at}, nil
}

// begin writes the first records of a hermetic session's log (or of an
// epoch), its baseline and its note, keeps them for its next turn, and
// says where the log now ends.
func (e *Engine) begin(log *Log, base, note Record) (loopwire.SessionAt, error) {
	if err := log.Append(&base, &note); err != nil {
		return loopwire.SessionAt{}, err
	}
	e.remember(log, []Record{base, note})
	return log.At()
}

// modelsNote is a hermetic note's list of the models a Run may ask for.
func modelsNote(models []string) string {
	if m := strings.Join(models, " "); m != "" {
		return m
	}
	return "(loopd's)"
}

// hermetic reports whether a session's records are a yaag Agent's: made
// by agent.spawn (its second record is the note), or a fork loopd made
// for one (a note of the fork).
func hermetic(recs []Record) bool {
	if len(recs) >= 2 && recs[1].Type == TypeNote && strings.HasPrefix(recs[1].Text, yaagNotePrefix) {
		return true
	}
	for _, r := range recs {
		if r.Type == TypeNote && strings.HasPrefix(r.Text, yaagForkPrefix) {
			return true
		}
	}
	return false
}

// Ask sends one prompt to a hermetic session, within the request's
// budgets.
func (e *Engine) Ask(ctx context.Context, req loopwire.AskRequest, emit func(loopwire.Event) error) (loopwire.AskResult, error) {
	switch {
	case req.Continue && req.Text != "":
		return loopwire.AskResult{}, errors.New("an ask that continues after answers has no text")
	case !req.Continue && strings.TrimSpace(req.Text) == "":
		return loopwire.AskResult{}, errors.New("the ask has no text")
	}
	log, recs, unlock, err := e.open(req.Session)
	if err != nil {
		return loopwire.AskResult{}, err
	}
	defer unlock()
	if !hermetic(recs) {
		return loopwire.AskResult{}, fmt.Errorf("session %s is not a hermetic session (agent.ask takes only sessions made by agent.spawn or agent.fork)", req.Session)
	}
	user := Record{Time: e.now(), Type: TypeUser, Who: role.Yaag.String(), Text: sanitize.Neutralise(req.Text)}
	if req.Continue {
		last := recs[len(recs)-1]
		for i := len(recs) - 1; i > 0 && last.Type == TypeNote; i-- {
			last = recs[i-1] // notes (a fork's) are never sent
		}
		if last.Type != TypeTool {
			return loopwire.AskResult{}, fmt.Errorf("session %s does not end with an answer to go on from (its last record is a %s record)", req.Session, last.Type)
		}
		user = Record{}
	}
	if err := emit(loopwire.Event{Event: loopwire.EventSession, Session: log.Session}); err != nil {
		return loopwire.AskResult{}, err
	}
	a := &askTurn{req: req, start: time.Now()}
	t := &turn{e: e, log: log, recs: recs, emit: emit, ask: a}
	reply, err := t.run(ctx, user)
	e.rememberTurn(t.log, t.recs, t.conv)
	res := loopwire.AskResult{Session: log.Session, Reply: lastReply(t.recs, reply), Turns: a.turns, ToolCalls: a.calls, Model: req.Model, Limit: a.limit,
		Questions: a.questions}
	if a.asked() {
		res.Reply = ""
	}
	if at, aerr := t.log.At(); aerr == nil {
		res.At = at
	} else if err == nil {
		err = aerr
	}
	var mf *ModelFailure
	if errors.As(err, &mf) && ctx.Err() != nil {
		// Stopped (the Run stopped it, or its caller went away) while
		// the model answered: the model server did not fail.
		return res, ctx.Err()
	}
	if errors.As(err, &mf) {
		me := &loopwire.ModelError{Message: mf.Err.Error()}
		var he *HTTPError
		if errors.As(mf.Err, &he) {
			me.Status, me.Message = he.Status, he.Message
		}
		res.ModelError = me
		return res, nil
	}
	return res, err
}

// lastReply is the text of the turn's last assistant record with text:
// an Ask's answer is the last thing the model said.
func lastReply(recs []Record, joined string) string {
	for i := len(recs) - 1; i >= 0; i-- {
		switch recs[i].Type {
		case TypeUser:
			return ""
		case TypeAssistant:
			if recs[i].Text != "" {
				return recs[i].Text
			}
		}
	}
	return joined
}

// askTurn is the state of an agent.ask's turn: its budgets and what it
// used. Its methods take a nil receiver (a person's turn) and do nothing.
type askTurn struct {
	req       loopwire.AskRequest
	start     time.Time
	turns     int
	calls     int
	limit     *loopwire.Limit
	questions []loopwire.Question
}

// question takes a request_user_input call as a question for the person:
// no tool record now (the answer appends it), and the turn ends after the
// reply's other calls.
func (a *askTurn) question(c ToolCall, emit func(loopwire.Event) error) error {
	var args struct {
		Question string `json:"question"`
	}
	text := c.Arguments
	if json.Unmarshal([]byte(c.Arguments), &args) == nil && args.Question != "" {
		text = args.Question
	}
	a.questions = append(a.questions, loopwire.Question{CallID: c.ID, Text: text})
	return emit(loopwire.Event{Event: loopwire.EventQuestion, CallID: c.ID, Tool: c.Name, Text: text})
}

// asked reports whether the turn ended on questions for the person.
func (a *askTurn) asked() bool { return a != nil && len(a.questions) > 0 }

// stopBefore reports whether a budget forbids the turn's next model
// request (the first is always made).
func (a *askTurn) stopBefore(round int) bool {
	if a == nil || round == 0 {
		return false
	}
	switch {
	case a.limit != nil:
		return true
	case a.req.NoTools:
		return true
	case a.req.MaxTurns > 0 && round >= a.req.MaxTurns:
		a.limit = &loopwire.Limit{Budget: "max_turns", Value: int64(a.req.MaxTurns)}
	case a.req.MaxDurationMS > 0 && time.Since(a.start) >= time.Duration(a.req.MaxDurationMS)*time.Millisecond:
		a.limit = &loopwire.Limit{Budget: "max_duration_ms", Value: a.req.MaxDurationMS}
	}
	return a.limit != nil
}

// request adds the ask's model, tool choice and schema to a request.
func (a *askTurn) request(r ChatRequest) ChatRequest {
	if a == nil {
		return r
	}
	a.turns++
	r.Model, r.NoTools, r.JSONSchema = a.req.Model, a.req.NoTools, a.req.JSONSchema
	return r
}

// roundsUsed notes a turn ended by loopd's own max_tool_rounds.
func (a *askTurn) roundsUsed(limited bool, rounds int) {
	if a != nil && limited && a.limit == nil {
		a.limit = &loopwire.Limit{Budget: "max_tool_rounds", Value: int64(rounds)}
	}
}

// spendCall counts a tool call, and reports whether max_tool_calls
// forbids it.
func (a *askTurn) spendCall() bool {
	if a == nil {
		return false
	}
	if a.req.NoTools || (a.req.MaxToolCalls != nil && a.calls >= *a.req.MaxToolCalls) {
		if a.limit == nil && !a.req.NoTools {
			a.limit = &loopwire.Limit{Budget: "max_tool_calls", Value: int64(*a.req.MaxToolCalls)}
		}
		return true
	}
	a.calls++
	return false
}

func (a *askTurn) limitText() string {
	if a.req.NoTools {
		return "not run: this turn takes no tool calls"
	}
	return fmt.Sprintf("not run: this prompt has used its %d tool calls", *a.req.MaxToolCalls)
}

func (a *askTurn) tripped() bool { return a != nil && (a.limit != nil || a.req.NoTools) }
