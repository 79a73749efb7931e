// Package agent is what a yaag Agent is to the runtime: a hermetic loopd
// session made from a Spec over the loop socket, asked one prompt at a
// time, with the Ask's budgets, its output schema, the classification of
// model failures and the fallback along the model list.
package agent

import (
	"context"
	"encoding/json"
	"time"

	"boxmaker/core/yaag/schema"
)

// Spec is everything an Agent's session is made from; nothing else
// reaches it (no memory block unless Memory, no tools but Tools).
type Spec struct {
	Run        string   // the Run's id
	Key        string   // A<k>
	Definition string   // the Agent Definition's name
	SpawnHash  string   // stepid.Hash("spawn", ...)
	System     string   // the rendered system prompt
	Tools      []string // tools minus disallowedTools, plus request_user_input with CanAskUser
	Models     []string // in order; empty: loopd's model
	Memory     bool     // the owner's memory block in the baseline
}

// Ask is one prompt and its limits.
type Ask struct {
	Key          string // A<k>/<n>
	Prompt       string
	Schema       *schema.Schema // nil: the answer is the text
	WrapUp       string
	MaxTurns     int
	MaxToolCalls *int // nil: none
	MaxDuration  time.Duration
	Timeout      time.Duration // the turn is aborted and the Agent killed
	Stall        time.Duration // silence of loopd past this is ASK_STALLED
	Retries      int           // how many times an invalid output is fed back
}

// Answer is an Ask's result.
type Answer struct {
	Text      string          `json:"text"`
	Data      json.RawMessage `json:"data,omitempty"`
	Turns     int             `json:"turns"`
	ToolCalls int             `json:"toolCalls"`
	Model     string          `json:"model"`
}

// Event is something an Agent did during an Ask, for the Run's events.
type Event struct {
	Kind    string          `json:"event"` // tool_call, tool_result, asked, model_fallback
	Tool    string          `json:"tool,omitempty"`
	CallID  string          `json:"call_id,omitempty"`
	Outcome string          `json:"outcome,omitempty"`
	Args    json.RawMessage `json:"arguments,omitempty"`
	Text    string          `json:"text,omitempty"`
}

// Session is a spawned Agent's session.
type Session interface {
	ID() string
	// Ask runs one Ask to its end; onEvent may be called from another
	// goroutine than the caller's, never after Ask returns.
	Ask(ctx context.Context, a Ask, onEvent func(Event)) (Answer, error)
}

// Spawner makes Agents.
type Spawner interface {
	Spawn(ctx context.Context, s Spec) (Session, error)
}
