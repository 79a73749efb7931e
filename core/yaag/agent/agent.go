// Package agent is what a yaag Agent is to the runtime: a hermetic loopd
// session made from a Spec over the loop socket, asked one prompt at a
// time, with the Ask's budgets, its output schema, the classification of
// model failures and the fallback along the model list.
package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"boxmaker/core/loopwire"
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
	// Host says a fork's parent is a person's session (a Run's host), not
	// a hermetic one.
	Host bool
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
	// Continue sends no prompt: the session ends with the person's answers
	// to the Agent's questions, and the Agent goes on from them.
	Continue bool
}

// Answer is an Ask's result.
type Answer struct {
	Text      string          `json:"text"`
	Data      json.RawMessage `json:"data,omitempty"`
	Turns     int             `json:"turns"`
	ToolCalls int             `json:"toolCalls"`
	Model     string          `json:"model"`
	// Questions are the request_user_input calls the Ask stopped on: it
	// has no answer yet, and goes on when the person's are appended.
	Questions []loopwire.Question `json:"questions,omitempty"`
	// At is the session after the Ask.
	At loopwire.SessionAt `json:"at"`
}

// EventModelFallback is the Event of an Ask that goes on with its next
// model after the model server refused one (Text says why).
const EventModelFallback = "model_fallback"

// Event is something an Agent did during an Ask, for the Run's events.
type Event struct {
	Kind    string          `json:"event"` // loopd's (loopwire.EventToolCall, EventToolResult, EventAsked, EventQuestion), or EventModelFallback
	Tool    string          `json:"tool,omitempty"`
	CallID  string          `json:"call_id,omitempty"`
	Outcome string          `json:"outcome,omitempty"`
	Args    json.RawMessage `json:"arguments,omitempty"`
	Text    string          `json:"text,omitempty"`
}

// Session is a spawned Agent's session.
type Session interface {
	ID() string
	// At is the session's log after its spawn or its last Ask.
	At() loopwire.SessionAt
	// Ask runs one Ask to its end; onEvent may be called from another
	// goroutine than the caller's, never after Ask returns.
	Ask(ctx context.Context, a Ask, onEvent func(Event)) (Answer, error)
}

// Spawner makes Agents.
type Spawner interface {
	Spawn(ctx context.Context, s Spec) (Session, error)
}

// Forker makes Agents from a boundary of another session, compacts them
// and answers their questions: what resume, fork and Checkpoints need of
// loopd.
type Forker interface {
	// Fork makes an Agent whose session is from's log up to the boundary;
	// a boundary loopd cannot use is a *SessionError.
	Fork(ctx context.Context, from loopwire.SessionAt, s Spec) (Session, error)
	// Compact starts the session's next epoch from a summary the model
	// gives; a model that gives none is a *CompactError.
	Compact(ctx context.Context, sess Session, model string) error
	// Answer appends the person's answers to the session at the boundary
	// where it asked; a boundary loopd cannot use is a *SessionError.
	Answer(ctx context.Context, at loopwire.SessionAt, answers []loopwire.CallAnswer) (loopwire.SessionAt, error)
}

// SessionError is a session that is not what a boundary says.
type SessionError struct {
	At      loopwire.SessionAt
	Problem loopwire.SessionProblem
}

func (e *SessionError) Error() string {
	return fmt.Sprintf("session %s (epoch %d, %d bytes): %s: %s", e.At.ID, e.At.Epoch, e.At.Bytes, e.Problem.Kind, e.Problem.Detail)
}

// CompactError is a compaction that got no summary.
type CompactError struct{ Why string }

func (e *CompactError) Error() string { return e.Why }

// HostForker copies a Run's host session as it stands, at the Run's start
// (yaag_run forkHost).
type HostForker interface {
	ForkHost(ctx context.Context, session string, s Spec) (Session, error)
}
