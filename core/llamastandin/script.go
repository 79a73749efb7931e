package llamastandin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Script is what the stand-in model says. It is a Go value in tests and a
// JSON file for `boxmaker llama-standin --script FILE`:
//
//	{"turns": [
//	  {"when": "probe: call echo", "tool_calls": [{"name": "echo", "arguments": {"text": "hi"}}]},
//	  {"content": "Hello.", "reasoning": "The person greets me."},
//	  {"tool_calls": [{"name": "read_file", "arguments": {"path": "/src/a.go"}}]}
//	]}
//
// A chat request is answered by the first turn with a When that the last
// message's content contains, or with a Match (a regular expression, RE2)
// that it matches, when the turn's Role, if any, is the last message's
// role ("user" or "tool"); such turns answer as often as they match. Else
// it is answered by the next turn without When or Match (each used once,
// in order). A request nothing answers gets HTTP 500 with a message that
// says so. In a turn with Match, $1 or ${1} (and ${name}) in Content and
// in every string of the arguments stand for what the expression's groups
// matched, as regexp.Expand writes them:
//
//	{"match": "^read (/\\S+)$", "role": "user", "tool_calls": [{"name": "read_file", "arguments": {"path": "$1"}}]}
type Script struct {
	Turns []Turn `json:"turns"`
}

// Turn is one reply of the model.
type Turn struct {
	When      string     `json:"when,omitempty"`
	Match     string     `json:"match,omitempty"`
	Role      string     `json:"role,omitempty"`
	Content   string     `json:"content,omitempty"`
	Reasoning string     `json:"reasoning,omitempty"` // emitted only when thinking is on
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// Raw is the text the model generates, as it is, instead of the
	// rendering of Content, Reasoning and ToolCalls: the server's parser
	// reads it, so text that opens a tool call and breaks the format
	// fails the request as it does on a real server.
	Raw string `json:"raw,omitempty"`
}

// ToolCall is a call the model makes; Arguments is a JSON object.
type ToolCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// LoadScript reads a script file strictly: unknown fields are errors.
func LoadScript(path string) (Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Script{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Script
	if err := dec.Decode(&s); err != nil {
		return Script{}, fmt.Errorf("%s: %v", path, err)
	}
	if err := s.Check(); err != nil {
		return Script{}, fmt.Errorf("%s: %v", path, err)
	}
	return s, nil
}

// Check reports the first turn that cannot be used: a call without a
// name or whose arguments are not an object, an expression that does not
// compile, a role other than user or tool, raw text beside content or
// calls.
func (s Script) Check() error {
	for i, t := range s.Turns {
		for _, c := range t.ToolCalls {
			if err := checkArguments(c); err != nil {
				return fmt.Errorf("turn %d: %v", i+1, err)
			}
		}
		if t.Match != "" {
			if _, err := regexp.Compile(t.Match); err != nil {
				return fmt.Errorf("turn %d: match: %v", i+1, err)
			}
		}
		if t.Role != "" && t.Role != "user" && t.Role != "tool" {
			return fmt.Errorf("turn %d: role must be user or tool, not %q", i+1, t.Role)
		}
		if t.Raw != "" && (t.Content != "" || t.Reasoning != "" || len(t.ToolCalls) > 0) {
			return fmt.Errorf("turn %d: raw is the whole generation: give it alone", i+1)
		}
	}
	return nil
}

// answers reports whether a matching turn answers a conversation whose
// last message is last, and the turn as it answers it: Match's groups
// put in place of $1 and the like.
func (t Turn) answers(last Message) (Turn, bool) {
	if t.Role != "" && t.Role != last.Role {
		return Turn{}, false
	}
	content := string(last.Content)
	if t.When != "" {
		return t, strings.Contains(content, t.When)
	}
	re, err := regexp.Compile(t.Match)
	if err != nil {
		return Turn{}, false
	}
	m := re.FindStringSubmatchIndex(content)
	if m == nil {
		return Turn{}, false
	}
	expand := func(tmpl string) string {
		return string(re.ExpandString(nil, tmpl, content, m))
	}
	out := t
	out.Content = expand(t.Content)
	out.ToolCalls = nil
	for _, c := range t.ToolCalls {
		args, err := expandJSON(c.Arguments, expand)
		if err != nil {
			return Turn{}, false
		}
		out.ToolCalls = append(out.ToolCalls, ToolCall{Name: c.Name, Arguments: args})
	}
	return out, true
}

// expandJSON applies expand to every string in a JSON value.
func expandJSON(raw json.RawMessage, expand func(string) string) (json.RawMessage, error) {
	if len(raw) == 0 {
		return raw, nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			return expand(x)
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = walk(x[k])
			}
		}
		return v
	}
	return marshal(walk(v))
}

func checkArguments(c ToolCall) error {
	if c.Name == "" {
		return fmt.Errorf("a tool call needs a name")
	}
	var obj map[string]any
	if len(c.Arguments) == 0 {
		return nil
	}
	if err := json.Unmarshal(c.Arguments, &obj); err != nil {
		return fmt.Errorf("tool call %s: arguments must be a JSON object: %v", c.Name, err)
	}
	return nil
}
