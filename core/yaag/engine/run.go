package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/dop251/goja"

	"boxmaker/core/yaag/catalog"
	"boxmaker/core/yaag/runerr"
	"boxmaker/core/yaag/schema"
	"boxmaker/runbook"
)

// profiles are the Profiles a program declares, and the one of this Run.
type profiles struct {
	declared map[string]profileDecl
	active   string
}

type profileDecl struct {
	Description string                     `json:"description"`
	Roles       map[string]json.RawMessage `json:"roles"`
}

func millis(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }

func compileSchema(what string, raw json.RawMessage) (*schema.Schema, error) {
	s, err := schema.Compile(what, raw)
	if err != nil {
		return nil, runerr.New(runerr.SchemaUnsupported, runbook.YaagSchemaUnsupported, "%v", err)
	}
	return s, nil
}

func unresolvable(scope string, f catalog.Found, cause error) error {
	return catalog.Unresolvable(scope, f, cause)
}

// readProfiles reads the program's Profiles and picks this Run's.
func (v *vm) readProfiles(prog *goja.Object) error {
	raw, err := v.toJSON(prog.Get("profiles"))
	if err != nil {
		return err
	}
	if raw != nil {
		if err := json.Unmarshal(raw, &v.profiles.declared); err != nil {
			return fmt.Errorf("the program's profiles are not {name: {roles: {...}}}: %v", err)
		}
	}
	id, origin := v.opts.Profile, v.opts.ProfileOrigin
	if id == "" {
		if d := prog.Get("defaultProfile"); d != nil && !goja.IsUndefined(d) {
			id, origin = d.String(), "the program's defaultProfile"
		}
	}
	if id == "" {
		return nil
	}
	if _, ok := v.profiles.declared[id]; !ok {
		declared := "it declares no Profiles"
		if len(v.profiles.declared) > 0 {
			declared = "it declares " + strings.Join(sortedKeys(v.profiles.declared), ", ")
		}
		if origin == "" {
			origin = "the Run's options"
		}
		return runerr.New(runerr.ProfileNotFound, runbook.YaagProfiledSpawn,
			"the Profile %q (from %s) %s (%s)", id, origin, textNotDeclared, declared)
	}
	v.profiles.active = id
	return nil
}

// profiled resolves a Profiled Definition with this Run's Profile: the
// factory is called with a view of the Profile, and reading a Role the
// Profile does not declare fails the spawn even when the factory caught
// the throw.
func (v *vm) profiled(key string, obj *goja.Object) (*goja.Object, *binding, error) {
	name := obj.Get("name").String()
	if len(v.profiles.declared) == 0 {
		return nil, nil, runerr.New(runerr.ProfileRequired, runbook.YaagProfiledSpawn,
			"agent %s (%s) is a Profiled Definition, but %s: declare profiles in defineProgram", key, name, textNoProfiles)
	}
	if v.profiles.active == "" {
		return nil, nil, runerr.New(runerr.ProfileRequired, runbook.YaagProfiledSpawn,
			"agent %s (%s) is a Profiled Definition and this Run has no Profile: give --profile (the program declares %s) or set profile in a config file",
			key, name, strings.Join(sortedKeys(v.profiles.declared), ", "))
	}
	decl := v.profiles.declared[v.profiles.active]
	var missing []string
	var bound *binding
	view := v.rt.NewObject()
	view.Set("id", v.profiles.active)
	view.Set("role", func(role string) goja.Value {
		b, ok := decl.Roles[role]
		if !ok {
			missing = append(missing, role)
			panic(v.jsError(v.roleNotFound(key, name, role)))
		}
		bound = &binding{Profile: v.profiles.active, Role: role, Binding: b}
		val, err := v.fromJSON(b)
		if err != nil {
			panic(err)
		}
		return val
	})
	factory, ok := goja.AssertFunction(obj.Get("factory"))
	if !ok {
		return nil, nil, v.spawnFailed(key, name, "the Profiled Definition has no factory")
	}
	res, err := factory(goja.Undefined(), view)
	if len(missing) > 0 {
		return nil, nil, v.roleNotFound(key, name, missing[0])
	}
	if err != nil {
		return nil, nil, runerr.New(runerr.SpawnFailed, runbook.Entry{}, "agent %s (%s): the Profiled Definition's factory threw: %v", key, name, v.evalErr(err)).WithCause(v.evalErr(err))
	}
	def, ok := res.(*goja.Object)
	if !ok {
		return nil, nil, v.spawnFailed(key, name, "the Profiled Definition's factory did not return an Agent Definition")
	}
	return def, bound, nil
}

func (v *vm) roleNotFound(key, name, role string) error {
	return runerr.New(runerr.RoleNotFound, runbook.YaagProfiledSpawn,
		"agent %s (%s) reads the Role %q, which %s's Profile %q", key, name, role, textNotDeclared, v.profiles.active)
}

// Run runs the program to its end and returns its result as JSON.
func Run(ctx context.Context, opts Options) (json.RawMessage, error) {
	v, err := newVM(ctx, opts, "run")
	if err != nil {
		return nil, err
	}
	defer v.close()
	exports, err := v.evaluate()
	if err != nil {
		return nil, err
	}
	prog, err := v.programExport(exports)
	if err != nil {
		return nil, err
	}
	if err := v.readProfiles(prog); err != nil {
		return nil, err
	}
	inSchema, err := v.schemaOf(prog, "input", "the program's input schema")
	if err != nil {
		return nil, err
	}
	outSchema, err := v.schemaOf(prog, "output", "the program's output schema")
	if err != nil {
		return nil, err
	}
	if inSchema != nil {
		if opts.Input == nil {
			return nil, fmt.Errorf("the program declares an input schema, and no input was given (--input JSON)")
		}
		if err := inSchema.Validate(opts.Input); err != nil {
			return nil, fmt.Errorf("the input does not match the program's input schema: %v", err)
		}
	}
	input, err := v.fromJSON(opts.Input)
	if err != nil {
		return nil, fmt.Errorf("the input is not JSON: %v", err)
	}
	if err := v.checkResume(); err != nil {
		return nil, err
	}
	if err := v.begin(); err != nil {
		return nil, err
	}
	start, _ := json.Marshal(map[string]any{"seed": opts.Seed, "profile": v.profiles.active})
	v.emit(Event{Event: EventRunStart, Run: opts.Run, Data: start})
	runFn, _ := goja.AssertFunction(prog.Get("run"))
	v.inRun = true
	defer v.control.end()
	val, err := v.call(runFn, v.contextObject(input))
	if err != nil {
		return nil, err
	}
	p, ok := val.Export().(*goja.Promise)
	var result goja.Value = val
	if ok {
		if result, err = v.await(p); err != nil {
			return nil, err
		}
	}
	if unused := v.unused(); len(unused) > 0 {
		v.emit(Event{Event: EventUnused, Run: opts.Run, Text: strings.Join(unused, ", ")})
		if opts.Report != nil {
			opts.Report.Unused = unused
		}
	}
	out, err := v.toJSON(result)
	if err != nil {
		return nil, err
	}
	if outSchema != nil {
		if out == nil {
			return nil, fmt.Errorf("the program declares an output schema, and run returned nothing")
		}
		if err := outSchema.Validate(out); err != nil {
			return nil, fmt.Errorf("the program's result does not match its output schema: %v", err)
		}
	}
	if out == nil {
		out = json.RawMessage("null")
	}
	return out, nil
}

// call calls fn under the wall clock and the context.
func (v *vm) call(fn goja.Callable, args ...goja.Value) (goja.Value, error) {
	var stop func() bool
	if v.opts.Wall > 0 {
		stop = time.AfterFunc(v.opts.Wall, func() { v.rt.Interrupt(errWall) }).Stop
	}
	defer context.AfterFunc(v.ctx, func() { v.rt.Interrupt(errStopped) })()
	val, err := fn(goja.Undefined(), args...)
	if stop != nil {
		stop()
	}
	if err != nil {
		return nil, v.evalErr(err)
	}
	return val, nil
}

// contextObject is the ctx a program's run is given.
func (v *vm) contextObject(input goja.Value) *goja.Object {
	ctx := v.rt.NewObject()
	ctx.Set("input", input)
	if v.profiles.active == "" {
		ctx.Set("profile", goja.Null())
	} else {
		ctx.Set("profile", v.profiles.active)
	}
	run := v.opts.Run
	if v.opts.Mode == Replay && v.opts.Tape != nil {
		run = v.opts.Tape.Run.ID // what the recording's program saw
	}
	ctx.Set("run", run)
	v.hostObj = v.rt.NewObject()
	v.hostObj.Set("kind", "host")
	if v.opts.Host != nil {
		v.hostObj.Set("session", v.opts.Host.ID)
	} else {
		v.hostObj.Set("session", goja.Null())
	}
	ctx.Set("host", v.hostObj)
	ctx.Set("spawn", func(x goja.Value) goja.Value { return v.spawn(x) })
	ctx.Set("renderInput", func() string { return "⟦yaag:input⟧" })
	ctx.Set("renderTools", func() string { return "⟦yaag:tools⟧" })
	ctx.Set("renderProfile", func() string { return "⟦yaag:profile⟧" })
	ctx.Set("log", func(msg string) { v.emit(Event{Event: EventLog, Run: v.opts.Run, Text: msg}) })
	return ctx
}

// Description is what `yaag describe` prints.
type Description struct {
	Name           string                     `json:"name"`
	Description    string                     `json:"description,omitempty"`
	Input          json.RawMessage            `json:"input,omitempty"`
	Output         json.RawMessage            `json:"output,omitempty"`
	Agents         []AgentDescription         `json:"agents"`
	Profiles       map[string]json.RawMessage `json:"profiles,omitempty"`
	DefaultProfile string                     `json:"defaultProfile,omitempty"`
}

// AgentDescription is one Agent a program declares or exports.
type AgentDescription struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Profiled    bool            `json:"profiled,omitempty"`
	Tools       []string        `json:"tools,omitempty"`
	Model       json.RawMessage `json:"model,omitempty"`
	CanAskUser  bool            `json:"canAskUser,omitempty"`
}

// Describe imports the module, running its top level (a Catalog Resolve
// included), and reads the program's declaration without calling run.
func Describe(ctx context.Context, opts Options) (Description, error) {
	opts.Agents = nil
	v, err := newVM(ctx, opts, "describe")
	if err != nil {
		return Description{}, err
	}
	defer v.close()
	exports, err := v.evaluate()
	if err != nil {
		return Description{}, err
	}
	prog, err := v.programExport(exports)
	if err != nil {
		return Description{}, err
	}
	var d Description
	d.Name = str(prog.Get("name"))
	d.Description = str(prog.Get("description"))
	if d.Input, err = v.toJSON(prog.Get("input")); err != nil {
		return d, err
	}
	if d.Output, err = v.toJSON(prog.Get("output")); err != nil {
		return d, err
	}
	for what, s := range map[string]json.RawMessage{"input": d.Input, "output": d.Output} {
		if s != nil {
			if _, err := compileSchema("the program's "+what+" schema", s); err != nil {
				return d, err
			}
		}
	}
	raw, err := v.toJSON(prog.Get("profiles"))
	if err != nil {
		return d, err
	}
	if raw != nil {
		if err := json.Unmarshal(raw, &d.Profiles); err != nil {
			return d, fmt.Errorf("the program's profiles are not {name: {roles: {...}}}: %v", err)
		}
	}
	d.DefaultProfile = str(prog.Get("defaultProfile"))
	var defs []goja.Value
	if list, ok := prog.Get("agents").(*goja.Object); ok {
		for _, k := range list.Keys() {
			defs = append(defs, list.Get(k))
		}
	} else {
		for _, k := range exports.Keys() {
			defs = append(defs, exports.Get(k))
		}
	}
	d.Agents = []AgentDescription{}
	for _, def := range defs {
		obj, ok := def.(*goja.Object)
		switch {
		case !ok:
		case v.branded(obj, "yaag.profiledDefinition"):
			d.Agents = append(d.Agents, AgentDescription{Name: str(obj.Get("name")), Profiled: true})
		case v.branded(obj, "yaag.agentDefinition"):
			a := AgentDescription{Name: str(obj.Get("name")), Description: str(obj.Get("description"))}
			if t, err := v.toJSON(obj.Get("tools")); err == nil && t != nil {
				json.Unmarshal(t, &a.Tools)
			}
			a.Model, _ = v.toJSON(obj.Get("model"))
			a.CanAskUser = obj.Get("canAskUser") != nil && obj.Get("canAskUser").ToBoolean()
			d.Agents = append(d.Agents, a)
		}
	}
	return d, nil
}

func str(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return ""
	}
	return v.String()
}
