package llamastandin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
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

// raw is the text the model generates after the generation prompt: the
// rest of the think block when thinking, the content, and each tool call
// in Qwen's <tool_call> form.
func (t Turn) raw(thinking bool) (string, error) {
	calls := make([]ToolCallJSON, len(t.ToolCalls))
	for i, c := range t.ToolCalls {
		if err := checkArguments(c); err != nil {
			return "", err
		}
		args := "{}"
		if len(c.Arguments) > 0 {
			var b bytes.Buffer
			if err := json.Compact(&b, c.Arguments); err != nil {
				return "", err
			}
			args = b.String()
		}
		calls[i].Function.Name = c.Name
		calls[i].Function.Arguments = args
	}
	text := generated("", false, t.Content, calls)
	if thinking {
		text = t.Reasoning + "\n</think>\n\n" + text
	}
	return text, nil
}

// parsedReply is a generation split as llama-server's parsers split it.
type parsedReply struct {
	Reasoning string
	Content   string
	ToolCalls []ToolCallJSON
}

// parseReply splits generated text: the reasoning before </think> (when
// the prompt opened a think block), then, when parseTools, each
// <tool_call> block becomes a tool call whose arguments are a JSON string;
// without it the tool call text stays in the content.
func parseReply(text string, thinking, parseTools bool) parsedReply {
	var p parsedReply
	if thinking {
		if r, rest, ok := strings.Cut(text, "\n</think>\n\n"); ok {
			p.Reasoning, text = r, rest
		} else {
			p.Reasoning, text = text, "" // cut off while thinking
			return p
		}
	}
	if !parseTools {
		p.Content = text
		return p
	}
	const open, close = "<tool_call>\n", "\n</tool_call>"
	first := strings.Index(text, open)
	if first < 0 {
		p.Content = text
		return p
	}
	p.Content = strings.TrimSuffix(text[:first], "\n")
	rest := text[first:]
	for {
		rest = strings.TrimPrefix(rest, "\n")
		if !strings.HasPrefix(rest, open) {
			break
		}
		body, after, ok := strings.Cut(rest[len(open):], close)
		if !ok {
			break
		}
		var call struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal([]byte(body), &call); err != nil || call.Name == "" {
			break
		}
		var tc ToolCallJSON
		tc.Type = "function"
		tc.Function.Name = call.Name
		tc.Function.Arguments = string(call.Arguments)
		p.ToolCalls = append(p.ToolCalls, tc)
		rest = after
	}
	if rest != "" {
		// What does not parse as a tool call is left as text, as the
		// server's parser leaves it.
		p.Content += rest
	}
	return p
}
