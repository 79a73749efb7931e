package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/dop251/goja"

	"boxmaker/core/loopwire"
	"boxmaker/core/yaag/agent"
	"boxmaker/core/yaag/cassette"
	"boxmaker/core/yaag/runerr"
	"boxmaker/core/yaag/stepid"
	"boxmaker/core/yaag/sysprompt"
	"boxmaker/runbook"
)

// agentState is one spawned (or spawning) Agent.
type agentState struct {
	key, name string
	spec      agent.Spec
	obj       *goja.Object
	asks      int           // Asks called (the loop's goroutine)
	inFlight  int           // Asks called and not settled (the loop's goroutine)
	last      chan struct{} // closed when the last queued Ask has ended
	rec       *cassette.Agent
	questions int  // the questions its Asks asked (for their keys)
	replaying bool // its steps so far came from the Cassette (the loop's goroutine)

	mu       sync.Mutex
	sess     agent.Session // nil while it plays back from the Cassette
	playback bool
	boundary *loopwire.SessionAt // its session after its last step
	killed   string
}

func (a *agentState) kill(why string) {
	a.mu.Lock()
	a.killed = why
	a.mu.Unlock()
}

func (a *agentState) killedBy() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.killed
}

func (a *agentState) state() (sess agent.Session, playback bool, boundary *loopwire.SessionAt) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sess, a.playback, a.boundary
}

func (a *agentState) live(sess agent.Session) {
	at := sess.At()
	a.mu.Lock()
	a.sess, a.playback, a.boundary = sess, false, &at
	a.mu.Unlock()
}

func (a *agentState) setBoundary(at *loopwire.SessionAt) {
	a.mu.Lock()
	a.boundary = at
	a.mu.Unlock()
}

// spawnOptions are the fields of an Agent Definition or of spawn options.
type spawnOptions struct {
	Name            string          `json:"name"`
	Description     string          `json:"description"`
	SystemPrompt    json.RawMessage `json:"systemPrompt"`
	Tools           *[]string       `json:"tools"`
	DisallowedTools []string        `json:"disallowedTools"`
	CanAskUser      bool            `json:"canAskUser"`
	Model           json.RawMessage `json:"model"`
	Memory          bool            `json:"memory"`
	Fork            json.RawMessage `json:"fork"` // read from the object itself (fork)
	Compact         bool            `json:"compact"`
}

// spawnPlan is a spawn as the program asked for it.
type spawnPlan struct {
	spec   agent.Spec
	fields map[string]string // the hash of each field, to name what changed
	// fork: the Agent of this Run it forks (forkOf), or the host's copy.
	forkOf   *agentState
	fromHost bool
	compact  bool
}

func (p spawnPlan) forks() bool { return p.forkOf != nil || p.fromHost }

// spawn is ctx.spawn: the Agent gets its key now, in program order.
func (v *vm) spawn(x goja.Value) goja.Value {
	if !v.inRun {
		return v.rejected(runerr.New(runerr.DescribeOnly, runbook.YaagDescribe,
			"%s: ctx.spawn was called outside the program's run (%s)", textSpawnOutsideRun, textDescribe))
	}
	key := stepid.AgentKey(len(v.agents) + 1)
	a := &agentState{key: key}
	v.agents = append(v.agents, a)
	at := v.callerPos()
	plan, err := v.spawnSpec(key, x)
	if err != nil {
		return v.rejected(err)
	}
	a.name, a.spec = plan.spec.Definition, plan.spec
	v.control.agent(key, func(s *AgentStatus) { s.Definition = a.name })
	v.emit(Event{Event: EventSpawn, Run: v.opts.Run, Agent: key, Name: a.name, Hash: plan.spec.SpawnHash})
	var from *loopwire.SessionAt
	if plan.forks() {
		f, err := v.forkSource(a, plan)
		if err != nil {
			return v.rejected(err)
		}
		from = f
	}
	// The Cassette is consulted now, in program order, so that the first
	// step that diverges is the one reported, whatever finishes first.
	switch v.opts.Mode {
	case Replay:
		rec := v.opts.Tape.AgentOf(key)
		var err error
		switch {
		case rec == nil && plan.forkOf != nil:
			err = runerr.New(runerr.ForkRefused, runbook.YaagForkRefused,
				"agent %s (%s): agent %s is a Cassette-playback Agent (this Run replays a Cassette), which holds no session file to fork, and the Cassette has no such fork", key, a.name, plan.forkOf.key)
		case rec == nil:
			err = v.diverged(key, a.name, "spawn", plan.spec.SpawnHash, "", at, fmt.Sprintf("the Cassette recorded %d Agents", len(v.opts.Tape.Agents)))
		case rec.SpawnHash != plan.spec.SpawnHash:
			what, now, then := changedField("spawn option", plan.fields, rec.Fields, plan.spec.SpawnHash, rec.SpawnHash)
			err = v.diverged(key, a.name, what, now, then, at, "")
		}
		if err != nil {
			return v.rejected(v.fail(err))
		}
		v.consume(key)
		a.rec, a.playback, a.replaying = rec, true, true
	case Resume:
		if rec := v.opts.Tape.AgentOf(key); rec != nil && rec.SpawnHash == plan.spec.SpawnHash && rec.Session != nil {
			a.rec, a.playback, a.boundary, a.replaying = rec, true, rec.Session, true
		}
	}
	return v.async(func(ctx context.Context) (any, error) {
		if !v.control.park(ctx) {
			return nil, v.stopError()
		}
		return nil, v.startAgent(ctx, a, plan, from, at)
	}, func(any) (goja.Value, error) {
		sess, playback, _ := a.state()
		id := ""
		switch {
		case playback && a.rec.Session != nil:
			id = a.rec.Session.ID
		case sess != nil:
			id = sess.ID()
		}
		v.control.agent(key, func(s *AgentStatus) { s.Session, s.Playback = id, playback })
		v.emit(Event{Event: EventSpawned, Run: v.opts.Run, Agent: key, Name: a.name, Session: id, Status: map[bool]string{true: "playback"}[playback]})
		a.obj = v.agentObject(a, id)
		return a.obj, nil
	}, nil)
}

// forkSource checks that the Agent (or the host's copy) a spawn forks is
// at a settled Ask boundary and has a session file, and returns it.
func (v *vm) forkSource(a *agentState, plan spawnPlan) (*loopwire.SessionAt, error) {
	code := runerr.ForkDuringAsk
	if plan.compact {
		code = runerr.CompactDuringAsk
	}
	if plan.fromHost {
		if v.opts.Host == nil {
			return nil, runerr.New(runerr.ForkRefused, runbook.YaagForkRefused,
				"agent %s (%s): fork: ctx.host, and this Run holds no host session copy (it was not started by yaag_run with forkHost: true)", a.key, a.name)
		}
		return v.opts.Host, nil
	}
	src := plan.forkOf
	if src.inFlight > 0 {
		return nil, runerr.New(code, runbook.YaagForkRefused,
			"agent %s (%s): agent %s has %d Ask(s) in flight; await them before the fork (a fork is made at a settled Ask boundary)", a.key, a.name, src.key, src.inFlight)
	}
	if why := src.killedBy(); why != "" {
		return nil, runerr.New(runerr.ForkRefused, runbook.YaagForkRefused,
			"agent %s (%s): agent %s was killed during an Ask (%s), so the end of its session is not defined", a.key, a.name, src.key, why)
	}
	if v.opts.Mode == Replay {
		// Played back, the fork needs no session, unless the Cassette
		// does not have it (spawn says so).
		return nil, nil
	}
	_, _, boundary := src.state()
	if boundary == nil {
		return nil, runerr.New(runerr.ForkRefused, runbook.YaagForkRefused,
			"agent %s (%s): agent %s holds no session file", a.key, a.name, src.key)
	}
	return boundary, nil
}

// startAgent makes the Agent's session, or plays it back.
func (v *vm) startAgent(ctx context.Context, a *agentState, plan spawnPlan, from *loopwire.SessionAt, at string) error {
	hash := plan.spec.SpawnHash
	if a.rec != nil {
		if v.opts.Mode == Resume {
			cp := *a.rec
			cp.At = at
			return v.recordAgent(cp)
		}
		return nil
	}
	var sess agent.Session
	var err error
	if from != nil {
		forker, ok := v.opts.Agents.(agent.Forker)
		if !ok {
			return runerr.New(runerr.ForkRefused, runbook.YaagForkRefused, "agent %s (%s): this Run's loopd cannot fork sessions", a.key, a.name)
		}
		spec := plan.spec
		spec.Host = plan.fromHost
		sess, err = forker.Fork(ctx, *from, spec)
		var se *agent.SessionError
		if errors.As(err, &se) {
			return runerr.New(runerr.ForkRefused, runbook.YaagForkRefused, "agent %s (%s): the fork was refused: %v", a.key, a.name, se)
		}
		if err == nil && plan.compact {
			model := ""
			if len(plan.spec.Models) > 0 {
				model = plan.spec.Models[0]
			}
			err = forker.Compact(ctx, sess, model)
			var ce *agent.CompactError
			if errors.As(err, &ce) {
				return runerr.New(runerr.CompactFailed, runbook.YaagForkRefused, "agent %s (%s): the compaction got no summary: %s", a.key, a.name, ce.Why)
			}
		}
	} else {
		if v.opts.Agents == nil {
			return runerr.New(runerr.SpawnFailed, runbook.Entry{}, "agent %s (%s): no loopd is configured for this Run", a.key, a.name)
		}
		sess, err = v.opts.Agents.Spawn(ctx, plan.spec)
	}
	if err != nil {
		if _, ok := runerr.As(err); ok {
			return err
		}
		return runerr.New(runerr.SpawnFailed, runbook.Entry{}, "agent %s (%s) could not be spawned: %v", a.key, a.name, err).WithCause(err)
	}
	a.live(sess)
	atNow := sess.At()
	return v.recordAgent(cassette.Agent{Agent: a.key, Definition: a.name, SpawnHash: hash, Fields: plan.fields, Session: &atNow, ForkOf: from, At: at})
}

func (v *vm) spawnFailed(key, name string, format string, args ...any) *runerr.Error {
	return runerr.New(runerr.SpawnFailed, runbook.Entry{}, "agent %s (%s): %s", key, name, fmt.Sprintf(format, args...))
}

// spawnSpec turns what ctx.spawn was given into the Agent's Spec.
func (v *vm) spawnSpec(key string, x goja.Value) (spawnPlan, error) {
	obj, ok := x.(*goja.Object)
	if !ok {
		return spawnPlan{}, v.spawnFailed(key, defaultAgentName, "ctx.spawn takes an Agent Definition, a Profiled Definition or spawn options, not %s", x)
	}
	var bound *binding
	if v.branded(obj, "yaag.profiledDefinition") {
		def, b, err := v.profiled(key, obj)
		if err != nil {
			return spawnPlan{}, err
		}
		obj, bound = def, b
	}
	promptVal := obj.Get("systemPrompt")
	forkVal := obj.Get("fork")
	raw, err := v.toJSON(obj)
	if err != nil {
		return spawnPlan{}, err
	}
	var o spawnOptions
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return spawnPlan{}, v.spawnFailed(key, defaultAgentName, "the spawn options are not an Agent Definition: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
	name := o.Name
	if name == "" {
		name = defaultAgentName
	}
	var plan spawnPlan
	hasFork := forkVal != nil && !goja.IsUndefined(forkVal) && !goja.IsNull(forkVal)
	if o.Compact && !hasFork {
		return spawnPlan{}, runerr.New(runerr.OptionsConflict, runbook.YaagForkRefused,
			"agent %s (%s): compact needs fork: a compaction summarises the session a fork copies", key, name)
	}
	var forkDesc any
	if hasFork {
		if o.SystemPrompt != nil || o.Tools != nil || o.DisallowedTools != nil || o.CanAskUser {
			return spawnPlan{}, runerr.New(runerr.OptionsConflict, runbook.YaagForkRefused,
				"agent %s (%s): a fork keeps its parent's system prompt and tools; give systemPrompt, tools, disallowedTools and canAskUser to a fresh spawn", key, name)
		}
		fobj, _ := forkVal.(*goja.Object)
		switch {
		case fobj != nil && v.hostObj != nil && fobj.SameAs(v.hostObj):
			plan.fromHost = true
			forkDesc = map[string]any{"host": true}
		default:
			for _, a := range v.agents {
				if a.obj != nil && fobj != nil && fobj.SameAs(a.obj) {
					plan.forkOf = a
				}
			}
			if plan.forkOf == nil {
				return spawnPlan{}, runerr.New(runerr.ForkRefused, runbook.YaagForkRefused,
					"agent %s (%s): fork must be an Agent of this Run or ctx.host, not %s", key, name, clipValue(forkVal))
			}
			forkDesc = map[string]any{"agent": plan.forkOf.key, "afterAsk": plan.forkOf.asks}
			if o.Name == "" {
				name = plan.forkOf.name
			}
		}
		plan.compact = o.Compact
	}
	// Tool flags.
	var tools []string
	if o.Tools != nil {
		tools = append(tools, (*o.Tools)...)
	}
	if o.CanAskUser {
		switch {
		case slices.Contains(o.DisallowedTools, loopwire.ToolRequestUserInput):
			return spawnPlan{}, runerr.New(runerr.SpawnFailed, runbook.YaagUserInputSpawn,
				"agent %s (%s): canAskUser needs the tool %s, %s", key, name, loopwire.ToolRequestUserInput, textDisallowedAsk)
		case o.Tools != nil && !slices.Contains(*o.Tools, loopwire.ToolRequestUserInput):
			return spawnPlan{}, runerr.New(runerr.SpawnFailed, runbook.YaagUserInputSpawn,
				"agent %s (%s): canAskUser needs the tool %s, %s", key, name, loopwire.ToolRequestUserInput, textAllowlistOmits)
		case o.Tools == nil:
			tools = append(tools, loopwire.ToolRequestUserInput)
		}
	}
	var kept []string
	for _, t := range tools {
		if !slices.Contains(o.DisallowedTools, t) && !slices.Contains(kept, t) {
			kept = append(kept, t)
		}
	}
	models, err := modelList(o.Model)
	if err != nil {
		return spawnPlan{}, v.spawnFailed(key, name, "%v", err)
	}
	system := ""
	if !hasFork {
		var p sysprompt.Prompt
		if pobj, ok := promptVal.(*goja.Object); ok && v.branded(pobj, "yaag.systemPrompt") {
			p = sysprompt.Prompt{Text: pobj.Get("text").String(), Defined: true}
		} else if promptVal != nil && !goja.IsUndefined(promptVal) && !goja.IsNull(promptVal) {
			if _, isStr := promptVal.Export().(string); !isStr {
				return spawnPlan{}, v.spawnFailed(key, name, "systemPrompt must be a string or a defineSystemPrompt(...)")
			}
			p = sysprompt.Prompt{Text: promptVal.String()}
		}
		system, err = sysprompt.Expand(fmt.Sprintf("agent %s (%s)", key, name), p, v.markerValues(kept))
		if err != nil {
			return spawnPlan{}, runerr.New(runerr.SpawnFailed, runbook.YaagRenderMarker, "agent %s (%s): %v", key, name, err)
		}
	} else if plan.forkOf != nil {
		kept = plan.forkOf.spec.Tools
	} else {
		kept = []string{"(the host's)"}
	}
	spec := agent.Spec{
		Run: v.opts.Run, Key: key, Definition: name, System: system,
		Tools: kept, Models: models, Memory: o.Memory,
	}
	if plan.fromHost {
		spec.Tools = nil
	}
	fields := map[string]any{
		"definition": name, "description": o.Description, "systemPrompt": system, "tools": nonNil(kept),
		"disallowedTools": nonNil(o.DisallowedTools), "canAskUser": o.CanAskUser, "model": nonNil(models),
		"memory": o.Memory, "binding": bound, "fork": forkDesc, "compact": o.Compact,
	}
	spec.SpawnHash = stepid.Hash("spawn", fields)
	plan.spec, plan.fields = spec, stepid.FieldHashes("spawn", fields)
	if plan.fromHost {
		plan.spec.Tools = []string{"(the host's)"}
	}
	return plan, nil
}

func clipValue(val goja.Value) string {
	s := val.String()
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return s
}

// agentObject is the Agent a program holds. Its session is the one it
// was spawned with (in a replay, the recorded one), so that a program
// that shows it asks the same thing every time.
func (v *vm) agentObject(a *agentState, session string) *goja.Object {
	obj := v.rt.NewObject()
	obj.Set("key", a.key)
	obj.Set("name", a.name)
	obj.Set("session", session)
	obj.Set("ask", func(call goja.FunctionCall) goja.Value {
		return v.ask(a, call.Argument(0), call.Argument(1))
	})
	return obj
}

// askOptions are the options of agent.ask.
type askOptions struct {
	OutputSchema json.RawMessage `json:"outputSchema"`
	MaxTurns     int             `json:"maxTurns"`
	MaxToolCalls *int            `json:"maxToolCalls"`
	MaxDuration  int64           `json:"maxDurationMs"`
	WrapUpPrompt string          `json:"wrapUpPrompt"`
	Timeout      int64           `json:"timeoutMs"`
	Stall        int64           `json:"stallMs"`
	Retries      *int            `json:"outputRetries"`
}

// askStep is an Ask as the program made it, and how it is answered:
// from rec (a recorded step), or live, after going live (goLive: the
// Agent's recorded session forked; continueFrom: the session after the
// person's answers, where the Ask goes on).
type askStep struct {
	agent  *agentState
	n      int
	ask    agent.Ask
	hash   string
	fields map[string]string
	at     string

	rec          *cassette.Step
	goLive       bool
	continueFrom *loopwire.SessionAt
}

// ask is agent.ask: the Ask gets its ordinal now, and waits for the
// Agent's earlier Asks (they are queued, in call order).
func (v *vm) ask(a *agentState, promptVal, optsVal goja.Value) goja.Value {
	if !v.inRun {
		return v.rejected(runerr.New(runerr.DescribeOnly, runbook.YaagDescribe, "%s: agent.ask was called outside run", textSpawnOutsideRun))
	}
	a.asks++
	key := stepid.AskKey(a.key, a.asks)
	at := v.callerPos()
	if _, ok := promptVal.Export().(string); !ok {
		return v.rejected(runerr.New(runerr.AskFailed, runbook.Entry{}, "ask %s: the prompt must be a string", key))
	}
	prompt := promptVal.String()
	var o askOptions
	if optsVal != nil && !goja.IsUndefined(optsVal) && !goja.IsNull(optsVal) {
		raw, err := v.toJSON(optsVal)
		if err != nil {
			return v.rejected(err)
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			return v.rejected(runerr.New(runerr.AskFailed, runbook.Entry{}, "ask %s: the options are not ask options: %v", key, strings.TrimPrefix(err.Error(), "json: ")))
		}
	}
	for _, b := range []struct {
		name   string
		v, min int64
	}{{"maxTurns", int64(o.MaxTurns), 0}, {"maxDurationMs", o.MaxDuration, 0}, {"timeoutMs", o.Timeout, 0}, {"stallMs", o.Stall, 0}, {"maxToolCalls", int64(derefOr(o.MaxToolCalls, 0)), 0}} {
		if b.v < b.min {
			return v.rejected(runerr.New(runerr.AskFailed, runbook.Entry{}, "ask %s: %s is %d; a budget is 0 or more", key, b.name, b.v))
		}
	}
	st := askStep{agent: a, n: a.asks, at: at, ask: agent.Ask{
		Key: key, Prompt: prompt, WrapUp: o.WrapUpPrompt,
		MaxTurns: o.MaxTurns, MaxToolCalls: o.MaxToolCalls,
		MaxDuration: millis(o.MaxDuration), Timeout: millis(o.Timeout), Stall: millis(o.Stall),
		Retries: v.opts.AskDefaults.Retries,
	}}
	if st.ask.Stall == 0 {
		st.ask.Stall = v.opts.AskDefaults.Stall
	}
	if o.Retries != nil {
		st.ask.Retries = *o.Retries
	}
	var schemaJSON json.RawMessage
	if len(o.OutputSchema) > 0 && string(o.OutputSchema) != "null" {
		s, err := compileSchema(fmt.Sprintf("the outputSchema of ask %s", key), o.OutputSchema)
		if err != nil {
			return v.rejected(err)
		}
		st.ask.Schema = s
		schemaJSON = canonical(o.OutputSchema)
	}
	fields := map[string]any{"prompt": prompt, "outputSchema": schemaJSON, "wrapUpPrompt": o.WrapUpPrompt}
	st.hash, st.fields = stepid.Hash("ask", fields), stepid.FieldHashes("ask", fields)
	if err := v.planAsk(&st); err != nil {
		return v.rejected(err)
	}
	prev, done := a.last, make(chan struct{})
	a.last = done
	a.inFlight++
	v.control.agent(a.key, func(s *AgentStatus) { s.Asks, s.InFlight = a.asks, a.inFlight })
	v.emit(Event{Event: EventAsk, Run: v.opts.Run, Agent: a.key, Ask: key, Hash: st.hash})
	return v.async(func(ctx context.Context) (any, error) {
		defer close(done)
		if prev != nil {
			select {
			case <-prev:
			case <-ctx.Done():
				return nil, agent.Stopped(key, "began")
			}
		}
		if !v.control.park(ctx) {
			return nil, v.stopError()
		}
		if why := a.killedBy(); why != "" {
			return nil, runerr.New(runerr.AgentKilled, runbook.YaagAskFailed, "ask %s: agent %s was killed by %s and takes no more Asks", key, a.key, why)
		}
		return v.runAsk(ctx, st)
	}, func(res any) (goja.Value, error) {
		ans := res.(agentAnswer)
		if ans.status == "replayed" {
			v.emit(Event{Event: EventReplayed, Run: v.opts.Run, Agent: a.key, Ask: key})
		}
		v.emit(Event{Event: EventAnswer, Run: v.opts.Run, Agent: a.key, Ask: key, Status: ans.status})
		out := v.rt.NewObject()
		out.Set("text", ans.Text)
		data, err := v.fromJSON(ans.Data)
		if err != nil {
			return nil, err
		}
		out.Set("data", data)
		usage := v.rt.NewObject()
		usage.Set("turns", ans.Turns)
		usage.Set("toolCalls", ans.ToolCalls)
		usage.Set("model", ans.Model)
		out.Set("usage", usage)
		return out, nil
	}, func() {
		a.inFlight--
		v.control.agent(a.key, func(s *AgentStatus) { s.InFlight = a.inFlight; s.Killed = a.killedBy() != "" })
	})
}

// agentAnswer is an Ask's answer and how it was had: "ok" (live),
// "replayed".
type agentAnswer struct {
	agent.Answer
	status string
}

// canonical is a JSON value with its keys sorted, so that a schema the
// program writes in another key order hashes the same.
func canonical(raw json.RawMessage) json.RawMessage {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}
