package loop

import (
	"encoding/json"
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
				m.ToolCalls = append(m.ToolCalls, WireToolCall{ID: c.ID, Type: "function",
					Function: WireFunction{Name: c.Name, Arguments: c.Arguments}})
			}
			msgs = append(msgs, m)
		case TypeTool:
			msgs = append(msgs, Message{Role: "tool", Content: r.Text, ToolCallID: r.CallID})
		}
	}
	return msgs, tools
}

// lastTimings is the timings of the session's last assistant record: what
// the server's cache should hold for this session at the next request.
func lastTimings(recs []Record) (Timings, bool) {
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Type == TypeAssistant {
			return recs[i].Timings, true
		}
	}
	return Timings{}, false
}
