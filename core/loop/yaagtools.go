package loop

import (
	"context"
	"encoding/json"
	"time"

	"boxmaker/core/brokerwire"
	"boxmaker/core/daemon"
	"boxmaker/core/policy"
	"boxmaker/sanitize"
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

// mcpTools asks brokerd which MCP servers' tools the session may be
// offered (mcp.tools); none when it cannot say (no broker, no answer in
// 2 s).
func (b Broker) mcpTools(ctx context.Context, session string) []brokerwire.MCPTool {
	if b.Socket == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var out brokerwire.MCPTools
	if err := daemon.Call(ctx, b.Socket, brokerwire.KindMCPTools, brokerwire.MCPToolsRequest{Session: session}, &out, nil); err != nil {
		return nil
	}
	return out.Tools
}

// mcpDef is an MCP server's tool as a function the model may call: its
// name mcp__<server>__<tool>, and the description and input schema the
// owner accepted (a schema that is not an object is offered as an empty
// object: the server still judges its arguments).
func mcpDef(t brokerwire.MCPTool) (json.RawMessage, bool) {
	params := t.InputSchema
	var schema map[string]json.RawMessage
	if json.Unmarshal(params, &schema) != nil || schema == nil {
		params = json.RawMessage(`{"type":"object"}`)
	}
	type function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	def := struct {
		Type     string   `json:"type"`
		Function function `json:"function"`
	}{"function", function{t.Name, sanitize.Neutralise(t.Description), params}}
	b, err := json.Marshal(def)
	return b, err == nil
}

// sessionTools is a new session's tools array: loopd's own, then each
// yaag tool that a grant names, then the MCP servers' tools that brokerd
// offers the session (accepted and granted at its taint), in brokerd's
// order.
func (e *Engine) sessionTools(ctx context.Context, session string) json.RawMessage {
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
	if granted[string(policy.MCP)] {
		for _, t := range e.Broker.mcpTools(ctx, session) {
			if def, ok := mcpDef(t); ok {
				extra = append(extra, def)
			}
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
