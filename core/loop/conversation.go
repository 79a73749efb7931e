package loop

import (
	"encoding/json"
	"strings"
)

// Message is one entry of a chat request's messages, in the OpenAI shape
// llama-server takes.
type Message struct {
	Role             string         `json:"role"`
	Content          string         `json:"content"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	ToolCalls        []WireToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string         `json:"tool_call_id,omitempty"`
}

// WireToolCall is a tool call as the OpenAI API writes it: the arguments
// are a JSON text inside a string.
type WireToolCall struct {
	Index    *int         `json:"index,omitempty"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function WireFunction `json:"function"`
}

// WireFunction is a tool call's function part.
type WireFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// SystemText is the system message of a session: its system prompt, then
// its memory block when there is one.
func SystemText(system, memory string) string {
	if memory == "" {
		return system
	}
	return system + "\n\n" + memory
}

// Messages rebuilds the conversation from a session's records: the same
// records give the same messages, byte for byte once encoded. Notes are
// loopd's own and are left out. The tools are the baseline's.
//
// A tool call whose arguments are not a JSON object (a reply cut off
// inside the call, or a model that wrote them wrong) is replayed with
// arguments {}: the server refuses a history holding arguments it cannot
// parse (HTTP 500, for every later request of the session), and a
// template renders a call from its parsed arguments. The log keeps the
// arguments as they came; the call's tool record tells the model why it
// was not run (see turn.call).
func Messages(recs []Record) (msgs []Message, tools json.RawMessage) {
	msgs = make([]Message, 0, len(recs))
	for _, r := range recs {
		switch r.Type {
		case TypeBaseline:
			msgs = append(msgs, Message{Role: "system", Content: SystemText(r.System, r.Memory)})
			tools = r.Tools
		case TypeUser:
			msgs = append(msgs, Message{Role: "user", Content: r.Text})
		case TypeAssistant:
			m := Message{Role: "assistant", Content: r.Text, ReasoningContent: r.Reasoning}
			for _, c := range r.ToolCalls {
				args := c.Arguments
				if !IsObject(args) {
					args = "{}"
				}
				m.ToolCalls = append(m.ToolCalls, WireToolCall{ID: c.ID, Type: "function",
					Function: WireFunction{Name: c.Name, Arguments: args}})
			}
			msgs = append(msgs, m)
		case TypeTool:
			msgs = append(msgs, Message{Role: "tool", Content: r.Text, ToolCallID: r.CallID})
		}
	}
	return msgs, tools
}

// IsObject reports whether a call's arguments are a JSON object, the only
// arguments a call is run with and replayed with.
func IsObject(args string) bool {
	t := strings.TrimSpace(args)
	return strings.HasPrefix(t, "{") && json.Valid([]byte(t))
}

// lastAssistant is the index of the session's last assistant record: the
// reply to the previous request, whose prompt and reply the server's
// cache should hold for this session at the next request.
func lastAssistant(recs []Record) (int, bool) {
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Type == TypeAssistant {
			return i, true
		}
	}
	return 0, false
}
