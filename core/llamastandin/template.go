package llamastandin

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/ardanlabs/jinja"
)

// Message is one entry of a chat request's messages, in the OpenAI shape
// llama-server takes. The stand-in renders prompts from the request's JSON
// itself (renderRequest), in the order its keys came; Message is what its
// own code and the tests read of it.
type Message struct {
	Role             string         `json:"role"`
	Content          MessageContent `json:"content"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	ToolCalls        []ToolCallJSON `json:"tool_calls,omitempty"`
	ToolCallID       string         `json:"tool_call_id,omitempty"`
	Name             string         `json:"name,omitempty"`
}

// MessageContent is a message's content: a string, null, or a list of
// parts of which the text parts count.
type MessageContent string

// UnmarshalJSON takes a string, null or a list of {"type":"text","text":..}.
func (c *MessageContent) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case bytes.Equal(data, []byte("null")):
		*c = ""
		return nil
	case len(data) > 0 && data[0] == '"':
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*c = MessageContent(s)
		return nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(data, &parts); err != nil {
		return fmt.Errorf("content must be a string or an array of parts")
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	*c = MessageContent(b.String())
	return nil
}

// ToolCallJSON is a tool call as the OpenAI API writes it; Arguments is a
// JSON text inside a string.
type ToolCallJSON struct {
	Index    *int   `json:"index,omitempty"`
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// ToolJSON is one entry of a request's tools.
type ToolJSON struct {
	Type     string          `json:"type"`
	Function json.RawMessage `json:"function"`
}

// QwenTemplate is the chat template /props reports by default and the
// one prompts are rendered with: the Qwen3.5 family's own template, byte
// for byte as the model files carry it. It is Qwen's (Apache License 2.0),
// not llama.cpp's code: qwen35.jinja is the copy published with the Jinja
// engine's module, github.com/ardanlabs/jinja v1.8.0 (Apache-2.0), as
// testdata/templates/Qwen3.5-35B-A3B-Q8_0.jinja, which go.sum pins and
// TestTheTemplateIsTheJinjaModulesCopy compares byte for byte (sha256
// a4aee8afcf2e0711942cf848899be66016f8d14a889ff9ede07bca099c28f715, the
// template the real server was measured with, docs/inference-contract.md).
// It has no header of its own: a comment in it would change its hash.
// It is run by a Jinja engine (github.com/ardanlabs/jinja), so the stand-in
// renders what a real Qwen3.5 server renders: the tools block before the
// system prompt, every content trimmed, tool calls written in the XML
// <function=...> form from their parsed arguments, and the think block of
// an assistant turn kept only after the last user message.
//
//go:embed qwen35.jinja
var QwenTemplate string

// compiled caches compiled templates by their text: a switch may change
// the template at any time, and compiling on every request would be most
// of a request's work.
var compiled sync.Map // string -> *compiledTemplate

type compiledTemplate struct {
	t   *jinja.Template
	err error
}

func compileTemplate(src string) (*jinja.Template, error) {
	if c, ok := compiled.Load(src); ok {
		c := c.(*compiledTemplate)
		return c.t, c.err
	}
	t, err := jinja.Compile(src)
	compiled.Store(src, &compiledTemplate{t, err})
	return t, err
}

// errArguments is a history whose tool call arguments are not JSON: the
// real server refuses to render it (common/chat.cpp).
type errArguments struct{ err error }

func (e errArguments) Error() string {
	return "Failed to parse tool call arguments as JSON: " + e.err.Error()
}

// templateData is what a request gives the template: its messages and
// tools as their JSON says, in the order of their keys, with each tool
// call's arguments parsed into an object (as llama-server parses them
// before it renders, and refuses when they are not JSON), and the
// template kwargs (enable_thinking) as variables.
func templateData(body []byte, addGenerationPrompt bool) (map[string]jinja.Value, error) {
	var req struct {
		Messages json.RawMessage            `json:"messages"`
		Tools    json.RawMessage            `json:"tools"`
		Kwargs   map[string]json.RawMessage `json:"chat_template_kwargs"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	msgs, err := jsonValue(req.Messages)
	if err != nil {
		return nil, fmt.Errorf("messages: %v", err)
	}
	if msgs.IsList() {
		for _, m := range msgs.AsList().Items {
			if err := parseArguments(m); err != nil {
				return nil, err
			}
		}
	}
	data := map[string]jinja.Value{
		"messages":              msgs,
		"add_generation_prompt": jinja.NewBool(addGenerationPrompt),
		"bos_token":             jinja.NewString(""),
		"eos_token":             jinja.NewString("<|im_end|>"),
	}
	if len(bytes.TrimSpace(req.Tools)) > 0 {
		tools, err := jsonValue(req.Tools)
		if err != nil {
			return nil, fmt.Errorf("tools: %v", err)
		}
		if !tools.IsNone() {
			data["tools"] = normaliseTools(tools)
		}
	}
	for k, raw := range req.Kwargs {
		v, err := jsonValue(raw)
		if err != nil {
			return nil, fmt.Errorf("chat_template_kwargs.%s: %v", k, err)
		}
		data[k] = v
	}
	return data, nil
}

// normaliseTools writes each tool as llama-server passes it to the
// template after reading it: {"type":"function","function":{"name",
// "description" ("" when absent), "parameters"}}, other fields dropped
// (measured: a tool without a description renders with "description": "").
func normaliseTools(tools jinja.Value) jinja.Value {
	if !tools.IsList() {
		return tools
	}
	out := make([]jinja.Value, 0, tools.AsList().Len())
	for _, t := range tools.AsList().Items {
		fn, ok := jinja.Value{}, false
		if t.IsDict() {
			fn, ok = t.AsDict().Get("function")
		}
		if !ok || !fn.IsDict() {
			out = append(out, t)
			continue
		}
		nf := jinja.NewDict()
		name, _ := fn.AsDict().Get("name")
		nf.AsDict().Set("name", name)
		desc, ok := fn.AsDict().Get("description")
		if !ok {
			desc = jinja.NewString("")
		}
		nf.AsDict().Set("description", desc)
		if params, ok := fn.AsDict().Get("parameters"); ok {
			nf.AsDict().Set("parameters", params)
		}
		nt := jinja.NewDict()
		nt.AsDict().Set("type", jinja.NewString("function"))
		nt.AsDict().Set("function", nf)
		out = append(out, nt)
	}
	return jinja.NewList(out)
}

// parseArguments replaces each tool call's arguments string in message m
// with the object it holds.
func parseArguments(m jinja.Value) error {
	if !m.IsDict() {
		return nil
	}
	calls, ok := m.AsDict().Get("tool_calls")
	if !ok || !calls.IsList() {
		return nil
	}
	for _, c := range calls.AsList().Items {
		if !c.IsDict() {
			continue
		}
		fn, ok := c.AsDict().Get("function")
		if !ok || !fn.IsDict() {
			continue
		}
		args, ok := fn.AsDict().Get("arguments")
		if !ok || !args.IsString() {
			continue
		}
		v, err := jsonValue([]byte(args.AsString()))
		if err != nil {
			return errArguments{err}
		}
		fn.AsDict().Set("arguments", v)
	}
	return nil
}

// renderTemplate renders a chat request's body with template src.
func renderTemplate(src string, body []byte, addGenerationPrompt bool) (string, error) {
	t, err := compileTemplate(src)
	if err != nil {
		return "", fmt.Errorf("the chat template does not compile: %v", err)
	}
	data, err := templateData(body, addGenerationPrompt)
	if err != nil {
		return "", err
	}
	out, err := t.RenderValues(data)
	if err != nil {
		return "", fmt.Errorf("the chat template failed: %v", err)
	}
	return out, nil
}

// Render renders a chat request (its JSON body: messages, tools,
// chat_template_kwargs) with the Qwen3.5 template, as the stand-in does
// for /v1/chat/completions and /apply-template.
func Render(body []byte, addGenerationPrompt bool) (string, error) {
	return renderTemplate(QwenTemplate, body, addGenerationPrompt)
}

// jsonValue converts a JSON text to a template value, keeping the order
// of every object's keys (a tool definition renders through tojson in the
// order it was sent, as llama-server's ordered JSON keeps it).
func jsonValue(data []byte) (jinja.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return jinja.Value{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return jinja.Value{}, errors.New("more than one JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (jinja.Value, error) {
	tok, err := dec.Token()
	if err == io.EOF {
		return jinja.Value{}, io.ErrUnexpectedEOF
	}
	if err != nil {
		return jinja.Value{}, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			d := jinja.NewDict()
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return jinja.Value{}, err
				}
				key, _ := k.(string)
				v, err := decodeValue(dec)
				if err != nil {
					return jinja.Value{}, err
				}
				d.AsDict().Set(key, v)
			}
			if _, err := dec.Token(); err != nil {
				return jinja.Value{}, err
			}
			return d, nil
		case '[':
			var items []jinja.Value
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return jinja.Value{}, err
				}
				items = append(items, v)
			}
			if _, err := dec.Token(); err != nil {
				return jinja.Value{}, err
			}
			return jinja.NewList(items), nil
		}
		return jinja.Value{}, fmt.Errorf("unexpected %v", t)
	default:
		return jinja.FromGoValue(t), nil
	}
}
