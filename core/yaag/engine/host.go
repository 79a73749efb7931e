package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/dop251/goja"

	"boxmaker/core/yaag/agent"
	"boxmaker/core/yaag/program"
	"boxmaker/core/yaag/runerr"
	"boxmaker/core/yaag/stepid"
	"boxmaker/core/yaag/sysprompt"
	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const (
	textNoProfiles      runbook.Quoted = "this program declares no Profiles"
	textNotDeclared     runbook.Quoted = "is not declared by this program"
	textDisallowedAsk   runbook.Quoted = "and disallowedTools denies it"
	textAllowlistOmits  runbook.Quoted = "and the tools allowlist omits it"
	requestUserInput                   = "request_user_input"
	defaultAgentName                   = "agent"
	textSpawnOutsideRun                = "a spawn or an Ask outside run is refused"
)

// host is the object runtime.js calls.
func (v *vm) host() *goja.Object {
	h := v.rt.NewObject()
	h.Set("setErrorClass", func(c goja.Value) { v.errorClass = c })
	h.Set("marker", func(name string) string { return sysprompt.Marker(name) })
	h.Set("checkDefinition", func(def goja.Value) {
		obj, ok := def.(*goja.Object)
		if !ok {
			panic(v.rt.NewTypeError("defineAgent(definition): definition must be an object"))
		}
		if n := obj.Get("name"); n == nil || goja.IsUndefined(n) || strings.TrimSpace(n.String()) == "" {
			panic(v.rt.NewTypeError("defineAgent(definition): definition.name must be a non-empty string"))
		}
	})
	h.Set("importAgent", v.importAgent)
	h.Set("spawn", func(x goja.Value) goja.Value { return v.spawn(x) })
	return h
}

// agentState is one spawned (or spawning) Agent.
type agentState struct {
	key, name string
	sess      agent.Session
	asks      int
	last      chan struct{} // closed when the last queued Ask has ended

	mu     sync.Mutex
	killed string // why the Agent was killed; "" while alive
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
}

// binding is what a Profile's Role gives a Profiled Definition.
type binding struct {
	Profile string          `json:"profile"`
	Role    string          `json:"role"`
	Binding json.RawMessage `json:"binding"`
}

// spawn is ctx.spawn: the Agent gets its key now, in program order.
func (v *vm) spawn(x goja.Value) goja.Value {
	if !v.inRun {
		return v.rejected(runerr.New(runerr.DescribeOnly, runbook.YaagDescribe,
			"%s: ctx.spawn was called outside the program's run (%s)", textSpawnOutsideRun, textDescribe))
	}
	key := stepid.AgentKey(len(v.agents) + 1)
	a := &agentState{key: key}
	v.agents = append(v.agents, a)
	spec, err := v.spawnSpec(key, x)
	if err != nil {
		return v.rejected(err)
	}
	a.name = spec.Definition
	v.emit(Event{Event: "spawn", Run: v.opts.Run, Agent: key, Name: spec.Definition, Hash: spec.SpawnHash})
	if v.opts.Agents == nil {
		return v.rejected(runerr.New(runerr.SpawnFailed, "", "agent %s (%s): no loopd is configured for this Run", key, spec.Definition))
	}
	return v.async(func(ctx context.Context) (any, error) {
		sess, err := v.opts.Agents.Spawn(ctx, spec)
		if err != nil {
			if _, ok := runerr.As(err); ok {
				return nil, err
			}
			return nil, runerr.New(runerr.SpawnFailed, "", "agent %s (%s) could not be spawned: %v", key, spec.Definition, err).WithCause(err)
		}
		return sess, nil
	}, func(res any) (goja.Value, error) {
		a.sess = res.(agent.Session)
		v.emit(Event{Event: "spawned", Run: v.opts.Run, Agent: key, Name: spec.Definition, Session: a.sess.ID()})
		return v.agentObject(a), nil
	})
}

func (v *vm) spawnFailed(key, name string, format string, args ...any) *runerr.Error {
	return runerr.New(runerr.SpawnFailed, "", "agent %s (%s): %s", key, name, fmt.Sprintf(format, args...))
}

// spawnSpec turns what ctx.spawn was given into the Agent's Spec.
func (v *vm) spawnSpec(key string, x goja.Value) (agent.Spec, error) {
	obj, ok := x.(*goja.Object)
	if !ok {
		return agent.Spec{}, v.spawnFailed(key, defaultAgentName, "ctx.spawn takes an Agent Definition, a Profiled Definition or spawn options, not %s", x)
	}
	var bound *binding
	if v.branded(obj, "yaag.profiledDefinition") {
		def, b, err := v.profiled(key, obj)
		if err != nil {
			return agent.Spec{}, err
		}
		obj, bound = def, b
	}
	promptVal := obj.Get("systemPrompt")
	raw, err := v.toJSON(obj)
	if err != nil {
		return agent.Spec{}, err
	}
	var o spawnOptions
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return agent.Spec{}, v.spawnFailed(key, defaultAgentName, "the spawn options are not an Agent Definition: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
	name := o.Name
	if name == "" {
		name = defaultAgentName
	}
	// Tool flags.
	var tools []string
	if o.Tools != nil {
		tools = append(tools, (*o.Tools)...)
	}
	if o.CanAskUser {
		switch {
		case contains(o.DisallowedTools, requestUserInput):
			return agent.Spec{}, runerr.New(runerr.SpawnFailed, runbook.YaagUserInputSpawn,
				"agent %s (%s): canAskUser needs the tool %s, %s", key, name, requestUserInput, textDisallowedAsk)
		case o.Tools != nil && !contains(*o.Tools, requestUserInput):
			return agent.Spec{}, runerr.New(runerr.SpawnFailed, runbook.YaagUserInputSpawn,
				"agent %s (%s): canAskUser needs the tool %s, %s", key, name, requestUserInput, textAllowlistOmits)
		case o.Tools == nil:
			tools = append(tools, requestUserInput)
		}
	}
	var kept []string
	for _, t := range tools {
		if !contains(o.DisallowedTools, t) && !contains(kept, t) {
			kept = append(kept, t)
		}
	}
	models, err := modelList(o.Model)
	if err != nil {
		return agent.Spec{}, v.spawnFailed(key, name, "%v", err)
	}
	// The system prompt.
	var p sysprompt.Prompt
	if pobj, ok := promptVal.(*goja.Object); ok && v.branded(pobj, "yaag.systemPrompt") {
		p = sysprompt.Prompt{Text: pobj.Get("text").String(), Defined: true}
	} else if promptVal != nil && !goja.IsUndefined(promptVal) && !goja.IsNull(promptVal) {
		if _, isStr := promptVal.Export().(string); !isStr {
			return agent.Spec{}, v.spawnFailed(key, name, "systemPrompt must be a string or a defineSystemPrompt(...)")
		}
		p = sysprompt.Prompt{Text: promptVal.String()}
	}
	system, err := sysprompt.Expand(fmt.Sprintf("agent %s (%s)", key, name), p, v.markerValues(kept))
	if err != nil {
		return agent.Spec{}, runerr.New(runerr.SpawnFailed, runbook.YaagRenderMarker, "agent %s (%s): %v", key, name, err)
	}
	spec := agent.Spec{
		Run: v.opts.Run, Key: key, Definition: name, System: system,
		Tools: kept, Models: models, Memory: o.Memory,
	}
	spec.SpawnHash = stepid.Hash("spawn", map[string]any{
		"definition": name, "description": o.Description, "system": system, "tools": nonNil(kept),
		"disallowedTools": nonNil(o.DisallowedTools), "canAskUser": o.CanAskUser, "models": nonNil(models),
		"memory": o.Memory, "binding": bound,
	})
	return spec, nil
}

func derefOr(p *int, d int) int {
	if p == nil {
		return d
	}
	return *p
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// modelList reads a model option: a string or a list of strings.
func modelList(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if strings.TrimSpace(one) == "" {
			return nil, fmt.Errorf("model is an empty string")
		}
		return []string{one}, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("model must be a string or a list of strings")
	}
	for _, m := range list {
		if strings.TrimSpace(m) == "" {
			return nil, fmt.Errorf("model lists an empty string")
		}
	}
	return list, nil
}

// markerValues are the texts the render markers stand for.
func (v *vm) markerValues(tools []string) map[string]string {
	toolText := "You have no tools."
	if len(tools) > 0 {
		toolText = "Your tools: " + strings.Join(tools, ", ") + "."
	}
	input := "null"
	if v.opts.Input != nil {
		input = string(v.opts.Input)
	}
	profile := "This Run has no Profile."
	if v.profiles.active != "" {
		profile = "This Run's Profile: " + v.profiles.active + "."
	}
	return map[string]string{"yaag": sysprompt.YaagText, "tools": toolText, "input": input, "profile": profile}
}

// agentObject is the Agent a program holds.
func (v *vm) agentObject(a *agentState) *goja.Object {
	obj := v.rt.NewObject()
	obj.Set("key", a.key)
	obj.Set("name", a.name)
	obj.Set("session", a.sess.ID())
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

// ask is agent.ask: the Ask gets its ordinal now, and waits for the
// Agent's earlier Asks (they are queued, in call order).
func (v *vm) ask(a *agentState, promptVal, optsVal goja.Value) goja.Value {
	if !v.inRun {
		return v.rejected(runerr.New(runerr.DescribeOnly, runbook.YaagDescribe, "%s: agent.ask was called outside run", textSpawnOutsideRun))
	}
	a.asks++
	key := stepid.AskKey(a.key, a.asks)
	if _, ok := promptVal.Export().(string); !ok {
		return v.rejected(runerr.New(runerr.AskFailed, "", "ask %s: the prompt must be a string", key))
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
			return v.rejected(runerr.New(runerr.AskFailed, "", "ask %s: the options are not ask options: %v", key, strings.TrimPrefix(err.Error(), "json: ")))
		}
	}
	for _, b := range []struct {
		name   string
		v, min int64
	}{{"maxTurns", int64(o.MaxTurns), 0}, {"maxDurationMs", o.MaxDuration, 0}, {"timeoutMs", o.Timeout, 0}, {"stallMs", o.Stall, 0}, {"maxToolCalls", int64(derefOr(o.MaxToolCalls, 0)), 0}} {
		if b.v < b.min {
			return v.rejected(runerr.New(runerr.AskFailed, "", "ask %s: %s is %d; a budget is 0 or more", key, b.name, b.v))
		}
	}
	ask := agent.Ask{
		Key: key, Prompt: prompt, WrapUp: o.WrapUpPrompt,
		MaxTurns: o.MaxTurns, MaxToolCalls: o.MaxToolCalls,
		MaxDuration: millis(o.MaxDuration), Timeout: millis(o.Timeout), Stall: millis(o.Stall),
		Retries: v.opts.AskDefaults.Retries,
	}
	if ask.Stall == 0 {
		ask.Stall = v.opts.AskDefaults.Stall
	}
	if o.Retries != nil {
		ask.Retries = *o.Retries
	}
	if len(o.OutputSchema) > 0 && string(o.OutputSchema) != "null" {
		s, err := compileSchema(fmt.Sprintf("the outputSchema of ask %s", key), o.OutputSchema)
		if err != nil {
			return v.rejected(err)
		}
		ask.Schema = s
	}
	prev, done := a.last, make(chan struct{})
	a.last = done
	v.emit(Event{Event: "ask", Run: v.opts.Run, Agent: a.key, Ask: key,
		Hash: stepid.Hash("ask", map[string]any{"prompt": prompt, "outputSchema": o.OutputSchema, "wrapUpPrompt": o.WrapUpPrompt})})
	return v.async(func(ctx context.Context) (any, error) {
		defer close(done)
		if prev != nil {
			select {
			case <-prev:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if why := a.killedBy(); why != "" {
			return nil, runerr.New(runerr.AgentKilled, runbook.YaagAskFailed, "ask %s: agent %s was killed by %s and takes no more Asks", key, a.key, why)
		}
		ans, err := a.sess.Ask(ctx, ask, func(e agent.Event) {
			v.post(func() error {
				v.emit(Event{Event: e.Kind, Run: v.opts.Run, Agent: a.key, Ask: key, Tool: e.Tool, Outcome: e.Outcome, Text: e.Text})
				return nil
			})
		})
		if re, ok := runerr.As(err); ok && re.Code == runerr.AskTimeout {
			a.kill(string(runerr.AskTimeout))
		}
		if err != nil {
			return nil, err
		}
		return ans, nil
	}, func(res any) (goja.Value, error) {
		ans := res.(agent.Answer)
		status := "ok"
		v.emit(Event{Event: "answer", Run: v.opts.Run, Agent: a.key, Ask: key, Status: status})
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
	})
}

// importAgent is $yaag.<scope>.importAgent(name): the Registry File's
// entry, its module bundled and evaluated in this VM, and its export.
func (v *vm) importAgent(scope, name string) goja.Value {
	found, err := v.opts.Catalog.Resolve(scope, name)
	if err != nil {
		return v.rejected(err)
	}
	v.modules++
	key := fmt.Sprintf("m%d", v.modules)
	code, err := program.Module(found.Module, key, v.opts.Root)
	if err != nil {
		return v.rejected(unresolvable(scope, found, err))
	}
	if err := v.needTypebox(code); err != nil {
		return v.rejected(err)
	}
	prog, err := goja.Compile(found.Module, code, false)
	if err != nil {
		return v.rejected(unresolvable(scope, found, err))
	}
	val, err := v.rt.RunProgram(prog)
	if err != nil {
		return v.rejected(unresolvable(scope, found, v.evalErr(err)))
	}
	p, resolve, reject := v.rt.NewPromise()
	then, _ := goja.AssertFunction(val.(*goja.Object).Get("then"))
	onOK := func(goja.FunctionCall) goja.Value {
		ns, _ := v.rt.Get("__yaagModules").(*goja.Object).Get(key).(*goja.Object)
		var exp goja.Value
		if ns != nil {
			exp = ns.Get(found.ExportName)
		}
		obj, ok := exp.(*goja.Object)
		switch {
		case exp == nil || goja.IsUndefined(exp):
			reject(v.jsError(unresolvable(scope, found, fmt.Errorf("%s has no export %q", found.Module, found.ExportName))))
		case !ok || !(v.branded(obj, "yaag.agentDefinition") || v.branded(obj, "yaag.profiledDefinition")):
			reject(v.jsError(unresolvable(scope, found, fmt.Errorf("the export %q of %s is not an Agent Definition or a Profiled Definition", found.ExportName, found.Module))))
		default:
			resolve(obj)
		}
		return goja.Undefined()
	}
	onErr := func(call goja.FunctionCall) goja.Value {
		reject(v.jsError(unresolvable(scope, found, v.thrown(call.Argument(0)))))
		return goja.Undefined()
	}
	if _, err := then(val, v.rt.ToValue(onOK), v.rt.ToValue(onErr)); err != nil {
		return v.rejected(err)
	}
	return v.rt.ToValue(p)
}

// sortedKeys is the keys of m in order.
func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
