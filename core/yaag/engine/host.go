package engine

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/dop251/goja"

	"boxmaker/core/yaag/program"
	"boxmaker/core/yaag/sysprompt"
	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const (
	textNoProfiles      runbook.Quoted = "this program declares no Profiles"
	textNotDeclared     runbook.Quoted = "is not declared by this program"
	textDisallowedAsk   runbook.Quoted = "and disallowedTools denies it"
	textAllowlistOmits  runbook.Quoted = "and the tools allowlist omits it"
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

// binding is what a Profile's Role gives a Profiled Definition.
type binding struct {
	Profile string          `json:"profile"`
	Role    string          `json:"role"`
	Binding json.RawMessage `json:"binding"`
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

// importAgent is $yaag.<scope>.importAgent(name): the Registry File's
// entry, its module bundled and evaluated in this VM, and its export.
func (v *vm) importAgent(scope, name string) goja.Value {
	found, err := v.opts.Catalog.Resolve(scope, name)
	if err != nil {
		return v.rejected(err)
	}
	v.modules++
	key := fmt.Sprintf("m%d", v.modules)
	var code string
	if v.opts.Tree != nil {
		code, err = program.ModuleIn(v.opts.Tree, found.Module, key)
	} else {
		code, err = program.Module(found.Module, key)
	}
	if err != nil {
		return v.rejected(unresolvable(scope, found, err))
	}
	if err := v.needTypebox(code); err != nil {
		return v.rejected(err)
	}
	prog, err := compileBundle(found.Module, code)
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
