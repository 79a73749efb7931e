package boxmaker

import (
	"encoding/json"

	"boxmaker/core/llamastandin"
	"boxmaker/core/loop"
	"boxmaker/core/policy"
)

// builtinScript is what `boxmaker llama-standin` answers without
// --script: loopd's selftest probe, and a few commands a person types in
// `bxctl chat`, each turned into the one tool call it names, so that a
// chat on a home shows a call allowed, one denied and one that asks,
// depending on the home's grants. After a tool's answer it says what the
// tool answered. Anything else gets the list of commands.
func builtinScript() llamastandin.Script {
	call := func(match, tool, args string) llamastandin.Turn {
		return llamastandin.Turn{Match: match, Role: "user",
			ToolCalls: []llamastandin.ToolCall{{Name: tool, Arguments: json.RawMessage(args)}}}
	}
	return llamastandin.Script{Turns: []llamastandin.Turn{
		{When: loop.ProbePrompt, ToolCalls: []llamastandin.ToolCall{{Name: loop.ProbeTool, Arguments: json.RawMessage(`{"text":"ok"}`)}}},
		{When: loop.ProbeResult, Content: "ok"},
		call(`^\s*read\s+(\S+)\s*$`, string(policy.ReadFile), `{"path":"$1"}`),
		call(`^\s*list\s+(\S+)\s*$`, string(policy.ListDir), `{"path":"$1"}`),
		call(`^\s*write\s+(\S+)\s+(.+?)\s*$`, string(policy.WriteFile), `{"path":"$1","content":"$2\n"}`),
		call(`^\s*run\s+(\S+)\s+(\S+)\s*$`, string(policy.Run), `{"command":["$2"],"paths":["$1"]}`),
		call(`^\s*fetch\s+(\S+)\s*$`, string(policy.HTTPFetch), `{"url":"$1"}`),
		call(`^\s*remember\s+(.+?)\s*$`, string(policy.Memory), `{"actions":[{"action":"add","file":"memory","text":"$1"}]}`),
		call(`^\s*recall\s+(.+?)\s*$`, string(policy.Recall), `{"query":"$1"}`),
		{Match: `(?s)^\s*(.{0,300})`, Role: "tool", Content: "The tool answered: $1"},
		{Match: `(?s).*`, Role: "user", Content: builtinHelp},
	}}
}

// builtinHelp is the built-in script's answer to anything it does not
// know.
const builtinHelp = "I am Boxmaker's llama-server stand-in, not a model: I answer from a script. " +
	"Type one of these and I make the tool call it names, which brokerd decides by your grants: " +
	"read PATH, list PATH, write PATH TEXT, run DIR PROGRAM, fetch URL, remember TEXT, recall WORDS."
