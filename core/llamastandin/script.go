package llamastandin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
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
// message's content contains (such turns answer as often as they match),
// else by the next turn without When (each used once, in order). A
// request nothing answers gets HTTP 500 with a message that says so.
type Script struct {
	Turns []Turn `json:"turns"`
}

// Turn is one reply of the model.
type Turn struct {
	When      string     `json:"when,omitempty"`
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
	for i, t := range s.Turns {
		for _, c := range t.ToolCalls {
			if err := checkArguments(c); err != nil {
				return Script{}, fmt.Errorf("%s: turn %d: %v", path, i+1, err)
			}
		}
	}
	return s, nil
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
