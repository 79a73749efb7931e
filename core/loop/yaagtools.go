package loop

import (
	"context"
	"encoding/json"
	"time"

	"boxmaker/core/brokerwire"
	"boxmaker/core/daemon"
	"boxmaker/core/policy"
)

// yaagTools are the chat tools that run yaag programs, offered to a new
// session only when brokerd has a grant that names them (tools.granted);
// every call is still decided by brokerd. Their order is fixed, so a
// session's tools array is the same for the same grants.
var yaagTools = []struct {
	name policy.Tool
	def  json.RawMessage
}{
	{policy.YaagRun, mustCompact(`{"type":"function","function":{"name":"yaag_run","description":"Run a yaag agent program: a file, or an inline script (at most 65536 bytes) with the directory it runs in. It answers with the Run's result, or its id while it runs. forkHost lets the program fork this conversation (ctx.host).","parameters":{"type":"object","properties":{"file":{"type":"string","description":"absolute path of the program"},"script":{"type":"string","description":"an inline program"},"dir":{"type":"string","description":"absolute directory an inline script runs in"},"input":{"description":"the program's input"},"profile":{"type":"string"},"forkHost":{"type":"boolean"}}}}}`)},
	{policy.YaagStatus, mustCompact(`{"type":"function","function":{"name":"yaag_status","description":"Read a yaag Run: running, paused, or its result; without an id, the Runs (those of a replaced session are orphans).","parameters":{"type":"object","properties":{"id":{"type":"string"}}}}}`)},
	{policy.YaagStop, mustCompact(`{"type":"function","function":{"name":"yaag_stop","description":"Stop a yaag Run.","parameters":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}}`)},
	{policy.YaagSetupWorkspace, mustCompact(`{"type":"function","function":{"name":"yaag_setup_workspace","description":"Make a directory a yaag Program Directory: write .yaag/types/ (the declarations of @yaag/runtime and typebox, for an editor) and .yaag/tsconfig.json, and a tsconfig.json when there is none. Run it again after an upgrade.","parameters":{"type":"object","properties":{"dir":{"type":"string","description":"absolute path of the directory"}},"required":["dir"]}}}`)},
	{policy.YaagPause, mustCompact(`{"type":"function","function":{"name":"yaag_pause","description":"Pause a yaag Run at its next settled boundary: it writes a Checkpoint to resume from.","parameters":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}}`)},
}

// granted asks brokerd which tools its grants name; nil when it cannot
// say (no broker, no answer in 2 s).
func (b Broker) granted(ctx context.Context) []string {
	if b.Socket == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var out brokerwire.ToolsGranted
	if err := daemon.Call(ctx, b.Socket, brokerwire.KindToolsGranted, struct{}{}, &out, nil); err != nil {
		return nil
	}
	return out.Tools
}

// sessionTools is a new session's tools array: loopd's own, then each
// yaag tool that a grant names.
func (e *Engine) sessionTools(ctx context.Context) json.RawMessage {
	if e.Tools != nil {
		return e.Tools
	}
	granted := map[string]bool{}
	for _, t := range e.Broker.granted(ctx) {
		granted[t] = true
	}
	var extra []json.RawMessage
	for _, t := range yaagTools {
		if granted[string(t.name)] {
			extra = append(extra, t.def)
		}
	}
	if len(extra) == 0 {
		return ToolDefinitions
	}
	var defs []json.RawMessage
	if err := json.Unmarshal(ToolDefinitions, &defs); err != nil {
		return ToolDefinitions
	}
	out, err := json.Marshal(append(defs, extra...))
	if err != nil {
		return ToolDefinitions
	}
	return out
}
