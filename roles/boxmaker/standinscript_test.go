package boxmaker

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"boxmaker/core/llamastandin"
)

// The built-in script turns each command into the call it names, with
// what was typed as the arguments (quotes and all, as JSON), says what a
// tool answered, and answers anything else with its commands.
func TestBuiltinScript(t *testing.T) {
	s, err := llamastandin.Start(llamastandin.Options{Script: builtinScript()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ask := func(msgs ...map[string]any) (content string, calls []llamastandin.ToolCallJSON) {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"messages": msgs, "chat_template_kwargs": map[string]any{"enable_thinking": false}})
		resp, err := http.Post(s.URL()+"/v1/chat/completions", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		var c struct {
			Choices []struct {
				Message struct {
					Content   string                      `json:"content"`
					ToolCalls []llamastandin.ToolCallJSON `json:"tool_calls"`
				} `json:"message"`
			} `json:"choices"`
		}
		if resp.StatusCode != 200 || json.Unmarshal(data, &c) != nil {
			t.Fatalf("%d %s", resp.StatusCode, data)
		}
		return c.Choices[0].Message.Content, c.Choices[0].Message.ToolCalls
	}
	user := func(text string) map[string]any { return map[string]any{"role": "user", "content": text} }
	tests := []struct {
		typed, tool, args string
	}{
		{"read /src/a.go", "read_file", `{"path":"/src/a.go"}`},
		{"  list /src ", "list_dir", `{"path":"/src"}`},
		{`write /src/n.txt say "hi" now`, "write_file", `{"content":"say \"hi\" now\n","path":"/src/n.txt"}`},
		{"run /src ls", "run", `{"command":["ls"],"paths":["/src"]}`},
		{"remember the tests run with make check", "memory", `{"actions":[{"action":"add","file":"memory","text":"the tests run with make check"}]}`},
		{"recall make check", "recall", `{"query":"make check"}`},
	}
	for _, tt := range tests {
		_, calls := ask(user(tt.typed))
		if len(calls) != 1 || calls[0].Function.Name != tt.tool || calls[0].Function.Arguments != tt.args {
			t.Errorf("%q: %+v, want %s %s", tt.typed, calls, tt.tool, tt.args)
		}
	}
	content, _ := ask(user("read /a"),
		map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{"id": "c1", "type": "function",
			"function": map[string]any{"name": "read_file", "arguments": `{"path":"/a"}`}}}},
		map[string]any{"role": "tool", "tool_call_id": "c1", "content": "denied: no grant allows read_file on \"/a\""})
	if content != `The tool answered: denied: no grant allows read_file on "/a"` {
		t.Errorf("after the tool: %q", content)
	}
	if content, calls := ask(user("hello?")); len(calls) != 0 || content != builtinHelp {
		t.Errorf("anything else: %q %+v", content, calls)
	}
}
