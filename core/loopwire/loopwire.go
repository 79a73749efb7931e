// Package loopwire holds the shapes of the loop socket's requests for
// hermetic sessions, the sessions a yaag Agent is: "agent.spawn" makes
// one, "agent.ask" sends it one prompt. (The person's "turn" request and
// its events are still core/loop's TurnRequest, TurnResult and Event;
// both kinds stream those events.)
//
// A hermetic session is made from the spawn request alone: its system
// prompt, the tools it names (and no other), and the memory block only
// when Memory is set. Nothing ambient reaches it. Its log's second record
// is a note naming the Run, the Agent's key, its Definition, the spawn's
// hash and the models, and agent.ask takes no other session.
package loopwire

import "encoding/json"

// The request kinds.
const (
	KindAgentSpawn = "agent.spawn"
	KindAgentAsk   = "agent.ask"
)

// SpawnRequest is the body of agent.spawn.
type SpawnRequest struct {
	Run        string   `json:"run"`
	Agent      string   `json:"agent"`      // the Agent's key, A<k>
	Definition string   `json:"definition"` // the Agent Definition's name
	SpawnHash  string   `json:"spawn_hash"`
	System     string   `json:"system"`
	Tools      []string `json:"tools"`  // tool names; request_user_input among them when the Agent may ask the person
	Models     []string `json:"models"` // informational: each Ask names the model it uses
	Memory     bool     `json:"memory"` // the owner's memory block in the baseline
}

// SpawnResult is agent.spawn's answer.
type SpawnResult struct {
	Session string `json:"session"`
}

// AskRequest is the body of agent.ask: one prompt on a hermetic session.
type AskRequest struct {
	Session string `json:"session"`
	Text    string `json:"text"`
	Model   string `json:"model,omitempty"` // empty: loopd's model
	// NoTools makes the turn one model request with tool_choice "none":
	// a wrap-up turn, or the final turn whose answer JSONSchema constrains.
	NoTools    bool            `json:"no_tools,omitempty"`
	JSONSchema json.RawMessage `json:"json_schema,omitempty"`
	// Budgets of this prompt; 0 is none. A budget that trips ends the
	// turn at the next boundary, and AskResult.Limit says which.
	MaxTurns      int   `json:"max_turns,omitempty"`
	MaxToolCalls  *int  `json:"max_tool_calls,omitempty"` // nil: none; 0: no tool call runs
	MaxDurationMS int64 `json:"max_duration_ms,omitempty"`
}

// AskResult is agent.ask's answer.
type AskResult struct {
	Session   string `json:"session"`
	Reply     string `json:"reply"` // the last assistant text
	Turns     int    `json:"turns"` // model requests made
	ToolCalls int    `json:"tool_calls"`
	Model     string `json:"model"`
	Limit     *Limit `json:"limit,omitempty"`
	// ModelError is the model server's refusal of the first request, as
	// it answered (nothing of the prompt is written to the log then).
	ModelError *ModelError `json:"model_error,omitempty"`
}

// Limit is the budget that ended a turn and its value.
type Limit struct {
	Budget string `json:"budget"` // max_turns, max_tool_calls, max_duration_ms, max_tool_rounds
	Value  int64  `json:"value"`
}

// ModelError is what the model server (or inferproxy) answered instead of
// a completion: the HTTP status (0 when none came) and its message.
type ModelError struct {
	Status  int    `json:"status"`
	Message string `json:"message"`
}
