package loopwire

import "encoding/json"

// KindTurn is the request kind of a person's message.
const KindTurn = "turn"

// TurnRequest is one message of a person.
type TurnRequest struct {
	Session string `json:"session"`
	Who     string `json:"who"`
	Text    string `json:"text"`
}

// TurnResult is the final answer of a turn.
type TurnResult struct {
	Session string `json:"session"`
	Reply   string `json:"reply"`
}

// Event is one event streamed while a turn (or an Agent's ask) runs.
type Event struct {
	Event     string          `json:"event"`
	Session   string          `json:"session,omitempty"`
	Text      string          `json:"text,omitempty"`
	CallID    string          `json:"call_id,omitempty"`
	Tool      string          `json:"tool,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Outcome   string          `json:"outcome,omitempty"`
	Approval  string          `json:"approval,omitempty"`
}

// The events' names.
const (
	EventSession    = "session"
	EventText       = "text"
	EventToolCall   = "tool_call"
	EventAsked      = "asked"
	EventToolResult = "tool_result"
	EventNotice     = "notice"
	EventQuestion   = "question"
)
