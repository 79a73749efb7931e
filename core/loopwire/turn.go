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
	Notes     []string        `json:"notes,omitempty"`    // EventToolResult: the runner's own notes (brokerwire.Answer)
	Resolved  string          `json:"resolved,omitempty"` // EventToolResult: a denied path's resolved target (brokerwire.Decision), for the person
	Usage     *Usage          `json:"usage,omitempty"`    // EventUsage
}

// Usage is what a person's turn took of the model server, sent as
// EventUsage at the end of a turn that made at least one model request,
// summed over its requests: PromptTokens the server evaluated
// (timings.prompt_n), CachedTokens it took from its prompt cache instead
// (cache_n), OutputTokens generated. Context is how much of the slot's
// context the session now fills (the last request's whole prompt and its
// reply), of NCtx (0: loopd does not know the slot's context). CacheLost
// is loopd's note when a request took less from the cache than the
// conversation before it held (the words loopd's log gives), else empty.
type Usage struct {
	Requests     int    `json:"requests"`
	PromptTokens int    `json:"prompt_tokens"`
	CachedTokens int    `json:"cached_tokens"`
	OutputTokens int    `json:"output_tokens"`
	Context      int    `json:"context"`
	NCtx         int    `json:"n_ctx"`
	CacheLost    string `json:"cache_lost,omitempty"`
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
	EventUsage      = "usage"
)
