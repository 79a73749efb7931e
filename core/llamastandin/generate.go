package llamastandin

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// What the stand-in model "generates" for a turn of the script, and how
// the generated text is read back into reasoning, content and tool calls,
// the way llama-server's parser for the Qwen3.5 format reads it.
//
// A turn's text is what the chat template renders for the turn as the
// conversation's next assistant message, after the generation prompt:
// the text a model trained on the template would write. Replayed as a
// message, it renders back to the same text, so a conversation that
// replays its replies exactly extends the slot's cache, as it does on a
// real server within one user turn. A turn with raw text generates that
// text as it is (a broken call, text the parser cannot read).

// generatedText is the text the model writes after the generation prompt
// (prompt) for turn t, rendered with template src from the request body.
func (t Turn) generatedText(src string, body []byte, prompt string, thinking bool) (string, error) {
	if t.Raw != "" {
		return t.Raw, nil
	}
	msg := map[string]any{"role": "assistant", "content": t.Content}
	if thinking && t.Reasoning != "" {
		msg["reasoning_content"] = t.Reasoning
	}
	if len(t.ToolCalls) > 0 {
		var calls []map[string]any
		for _, c := range t.ToolCalls {
			args, err := compactArguments(c)
			if err != nil {
				return "", err
			}
			calls = append(calls, map[string]any{"type": "function", "function": map[string]any{"name": c.Name, "arguments": args}})
		}
		msg["tool_calls"] = calls
	}
	withReply, err := appendMessage(body, msg)
	if err != nil {
		return "", err
	}
	full, err := renderTemplate(src, withReply, false)
	if err != nil {
		return "", err
	}
	text, ok := strings.CutPrefix(full, prompt)
	if !ok {
		return "", errors.New("the chat template renders the reply apart from the generation prompt; give the turn raw text")
	}
	return strings.TrimSuffix(text, "<|im_end|>\n"), nil
}

// compactArguments is a scripted call's arguments as a compact JSON text.
func compactArguments(c ToolCall) (string, error) {
	if err := checkArguments(c); err != nil {
		return "", err
	}
	if len(c.Arguments) == 0 {
		return "{}", nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, c.Arguments); err != nil {
		return "", err
	}
	return b.String(), nil
}

// appendMessage is a chat request body with one more message.
func appendMessage(body []byte, msg any) ([]byte, error) {
	var req map[string]json.RawMessage
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	var msgs []json.RawMessage
	if err := json.Unmarshal(req["messages"], &msgs); err != nil {
		return nil, err
	}
	m, err := marshal(msg)
	if err != nil {
		return nil, err
	}
	req["messages"], err = marshal(append(msgs, m))
	if err != nil {
		return nil, err
	}
	return marshal(req)
}

// parsedReply is a generation split as llama-server's parser splits it.
// Partial is set when the generation was cut inside the last tool call:
// that call's arguments are the JSON built so far, not a whole object.
type parsedReply struct {
	Reasoning string
	Content   string
	ToolCalls []ToolCallJSON
	Partial   bool
}

// errUnparsable is the real server's answer to output that opens a tool
// call (its grammar's trigger, "<tool_call>\n") and then does not follow
// the format (tools/server, "peg-native" chat format).
var errUnparsable = errors.New("The model produced output that does not match the expected peg-native format")

// callTrigger is what starts a tool call for the server's parser: the
// lazy grammar's trigger word.
const callTrigger = "<tool_call>\n"

// paramTypes is, per tool and parameter, the JSON Schema type the
// request's tools declare: a "string" parameter's value is a string
// whatever it looks like; any other is read as JSON when it is JSON.
type paramTypes map[string]map[string]string

func toolParamTypes(tools []ToolJSON) paramTypes {
	out := paramTypes{}
	for _, t := range tools {
		var fn struct {
			Name       string `json:"name"`
			Parameters struct {
				Properties map[string]struct {
					Type any `json:"type"`
				} `json:"properties"`
			} `json:"parameters"`
		}
		if json.Unmarshal(t.Function, &fn) != nil {
			continue
		}
		ps := map[string]string{}
		for k, p := range fn.Parameters.Properties {
			if s, ok := p.Type.(string); ok {
				ps[k] = s
			}
		}
		out[fn.Name] = ps
	}
	return out
}

// parseGenerated reads generated text: the reasoning up to </think> (when
// the prompt opened a think block), then the content, then, when
// parseTools, the tool calls in the XML form. cut says the generation
// stopped at max_tokens or a full context: a call it stopped inside is
// returned as far as it got (Partial), as the real server streams it.
// Text after the trigger that is not a call is errUnparsable.
func parseGenerated(text string, thinking bool, types paramTypes, parseTools, cut bool) (parsedReply, error) {
	var p parsedReply
	if thinking {
		r, rest, ok := strings.Cut(text, "</think>")
		if !ok {
			p.Reasoning = strings.TrimSpace(text) // cut off while thinking
			return p, nil
		}
		p.Reasoning, text = strings.TrimSpace(r), strings.TrimLeft(rest, "\n")
	}
	at := strings.Index(text, callTrigger)
	if !parseTools || at < 0 {
		p.Content = text
		return p, nil
	}
	p.Content = strings.TrimRight(text[:at], "\n")
	c := callCursor{s: text[at:], types: types}
	for {
		c.space()
		if c.done() {
			return p, nil
		}
		call, complete, err := c.call()
		if call != nil {
			p.ToolCalls = append(p.ToolCalls, *call)
		}
		switch {
		case err == nil && complete:
			continue
		case errors.Is(err, errCutOff) && cut:
			p.Partial = call != nil
			return p, nil
		default:
			return p, errUnparsable
		}
	}
}

var errCutOff = errors.New("cut off")

// callCursor reads tool calls in the Qwen3.5 form:
//
//	<tool_call>
//	<function=NAME>
//	<parameter=KEY>
//	VALUE
//	</parameter>
//	</function>
//	</tool_call>
//
// White space between the tags is allowed, as the server's grammar
// allows it; a value runs to "\n</parameter>".
type callCursor struct {
	s     string
	types paramTypes
}

func (c *callCursor) space() { c.s = strings.TrimLeft(c.s, " \t\n") }
func (c *callCursor) done() bool {
	return c.s == ""
}

// lit consumes a literal; errCutOff when the text ends inside it.
func (c *callCursor) lit(l string) error {
	c.space()
	if strings.HasPrefix(c.s, l) {
		c.s = c.s[len(l):]
		return nil
	}
	if strings.HasPrefix(l, c.s) {
		return errCutOff
	}
	return errUnparsable
}

// upTo consumes text up to end (and end); errCutOff when end never comes.
func (c *callCursor) upTo(end string) (string, error) {
	v, rest, ok := strings.Cut(c.s, end)
	if !ok {
		return c.s, errCutOff
	}
	c.s = rest
	return v, nil
}

// call reads one call. It returns the call as far as it was read (nil
// before its name is whole) and whether it is complete.
func (c *callCursor) call() (*ToolCallJSON, bool, error) {
	if err := c.lit("<tool_call>"); err != nil {
		return nil, false, err
	}
	if err := c.lit("<function="); err != nil {
		return nil, false, err
	}
	name, err := c.upTo(">")
	if err != nil || name == "" || strings.ContainsAny(name, "<\n") {
		if err == nil {
			err = errUnparsable
		}
		return nil, false, err
	}
	tc := &ToolCallJSON{Type: "function"}
	tc.Function.Name = name
	var args strings.Builder
	args.WriteString("{")
	n := 0
	for {
		c.space()
		if strings.HasPrefix(c.s, "</") {
			break
		}
		if err := c.lit("<parameter="); err != nil {
			tc.Function.Arguments = args.String()
			return tc, false, err
		}
		key, err := c.upTo(">")
		if err != nil {
			tc.Function.Arguments = args.String()
			return tc, false, err
		}
		if n > 0 {
			args.WriteString(",")
		}
		n++
		k, _ := marshal(key)
		args.Write(k)
		args.WriteString(":")
		c.s = strings.TrimPrefix(c.s, "\n")
		raw, err := c.upTo("\n</parameter>")
		isString := c.types[name][key] == "string" || !json.Valid([]byte(raw))
		if err != nil {
			// Cut inside the value: the JSON so far, the string open.
			if isString {
				q, _ := marshal(raw)
				args.Write(q[:len(q)-1])
			} else {
				args.WriteString(raw)
			}
			tc.Function.Arguments = args.String()
			return tc, false, err
		}
		if isString {
			q, _ := marshal(raw)
			args.Write(q)
		} else {
			var b bytes.Buffer
			json.Compact(&b, []byte(raw))
			args.Write(b.Bytes())
		}
	}
	args.WriteString("}")
	tc.Function.Arguments = args.String()
	if err := c.lit("</function>"); err != nil {
		if errors.Is(err, errCutOff) {
			tc.Function.Arguments = strings.TrimSuffix(tc.Function.Arguments, "}")
		}
		return tc, false, err
	}
	if err := c.lit("</tool_call>"); err != nil {
		if errors.Is(err, errCutOff) {
			// Cut in the closing tag: the call itself is whole.
			c.s = ""
			return tc, true, nil
		}
		return tc, false, err
	}
	return tc, true, nil
}
