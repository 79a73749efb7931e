package llamastandin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Message is one entry of a chat request's messages, in the OpenAI shape
// llama-server takes.
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

// QwenTemplate is the chat template /props reports by default. It is a
// Jinja text in the spirit of Qwen's (the stand-in does not run Jinja: it
// renders with Render, which follows this text); its only use is to be
// hashed and compared, as loopd's selftest does.
const QwenTemplate = `{#- boxmaker llama-server stand-in: Qwen3.5-style ChatML -#}
{%- if tools %}<|im_start|>system
{%- if messages[0].role == 'system' %}
{{ messages[0].content }}

{% endif %}# Tools

You may call functions. Their signatures are inside <tools></tools>:
<tools>
{%- for tool in tools %}
{{ tool.function | tojson }}
{%- endfor %}
</tools>

To call one, answer with a JSON object inside <tool_call></tool_call>:
<tool_call>
{"name": <name>, "arguments": <arguments object>}
</tool_call><|im_end|>
{% elif messages[0].role == 'system' %}<|im_start|>system
{{ messages[0].content }}<|im_end|>
{% endif %}
{%- for m in messages %}
{%- if m.role == 'user' or (m.role == 'system' and not loop.first) %}<|im_start|>{{ m.role }}
{{ m.content }}<|im_end|>
{% elif m.role == 'assistant' %}<|im_start|>assistant
<think>
{{ m.reasoning_content or '' }}
</think>

{{ m.content or '' }}
{%- for tc in m.tool_calls or [] %}
{%- if not loop.first or m.content %}
{% endif %}<tool_call>
{"name": "{{ tc.function.name }}", "arguments": {{ tc.function.arguments }}}
</tool_call>
{%- endfor %}<|im_end|>
{% elif m.role == 'tool' %}
{%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}<|im_start|>user
{%- endif %}
<tool_response>
{{ m.content }}
</tool_response>
{%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}<|im_end|>
{% endif %}
{%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}<|im_start|>assistant
{%- if enable_thinking is defined and not enable_thinking %}
<think>

</think>

{%- else %}
<think>
{%- endif %}
{%- endif %}
`

// Render writes messages, tools and the generation prompt as the
// template above does. thinking false closes an empty <think> block in the
// generation prompt, as Qwen's enable_thinking=false does.
//
// Every assistant message keeps its <think> block (empty when it had no
// reasoning), so a reply rendered back in the next request is the same
// text the model generated after the generation prompt: a conversation
// replayed exactly is a strict extension of the previous prompt plus its
// reply, which is what lets the prefix cache be reused.
func Render(messages []Message, tools []ToolJSON, addGenerationPrompt, thinking bool) (string, error) {
	var b strings.Builder
	rest := messages
	system := ""
	hasSystem := len(messages) > 0 && messages[0].Role == "system"
	if hasSystem {
		system = string(messages[0].Content)
		rest = messages[1:]
	}
	if len(tools) > 0 {
		b.WriteString("<|im_start|>system\n")
		if hasSystem {
			b.WriteString(system)
			b.WriteString("\n\n")
		}
		b.WriteString("# Tools\n\nYou may call functions. Their signatures are inside <tools></tools>:\n<tools>")
		for _, t := range tools {
			var compact bytes.Buffer
			if err := json.Compact(&compact, t.Function); err != nil {
				return "", fmt.Errorf("tools: a function is not JSON: %v", err)
			}
			b.WriteString("\n")
			b.Write(compact.Bytes())
		}
		b.WriteString("\n</tools>\n\nTo call one, answer with a JSON object inside <tool_call></tool_call>:\n" +
			"<tool_call>\n{\"name\": <name>, \"arguments\": <arguments object>}\n</tool_call><|im_end|>\n")
	} else if hasSystem {
		b.WriteString("<|im_start|>system\n" + system + "<|im_end|>\n")
	}
	for i, m := range rest {
		switch m.Role {
		case "user", "system":
			b.WriteString("<|im_start|>" + m.Role + "\n" + string(m.Content) + "<|im_end|>\n")
		case "assistant":
			b.WriteString("<|im_start|>assistant\n")
			b.WriteString(generated(m.ReasoningContent, true, string(m.Content), m.ToolCalls))
			b.WriteString("<|im_end|>\n")
		case "tool":
			if i == 0 || rest[i-1].Role != "tool" {
				b.WriteString("<|im_start|>user")
			}
			b.WriteString("\n<tool_response>\n" + string(m.Content) + "\n</tool_response>")
			if i == len(rest)-1 || rest[i+1].Role != "tool" {
				b.WriteString("<|im_end|>\n")
			}
		default:
			return "", fmt.Errorf("unknown message role %q", m.Role)
		}
	}
	if addGenerationPrompt {
		b.WriteString("<|im_start|>assistant\n")
		if thinking {
			b.WriteString("<think>\n")
		} else {
			b.WriteString("<think>\n\n</think>\n\n")
		}
	}
	return b.String(), nil
}

// generated is an assistant turn's text after "<|im_start|>assistant\n":
// with the think block when withThink (a thinking reply generates the
// part after "<think>\n"; see raw), then the content and the tool calls.
func generated(reasoning string, withThink bool, content string, calls []ToolCallJSON) string {
	var b strings.Builder
	if withThink {
		b.WriteString("<think>\n" + reasoning + "\n</think>\n\n")
	}
	b.WriteString(content)
	for i, tc := range calls {
		if i > 0 || content != "" {
			b.WriteString("\n")
		}
		b.WriteString("<tool_call>\n{\"name\": \"" + tc.Function.Name + "\", \"arguments\": " + tc.Function.Arguments + "}\n</tool_call>")
	}
	return b.String()
}
