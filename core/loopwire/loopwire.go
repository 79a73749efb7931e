// Package loopwire is the reference of loopd's loop socket: a person's
// "turn" (below), and the requests for hermetic sessions, the sessions a
// yaag Agent is: "agent.spawn" makes one, "agent.ask" sends it one prompt
// (or continues it after answers),
// "agent.fork" copies a session's log up to a boundary into a new
// session, "agent.compact" starts a session's next epoch from a summary,
// and "agent.answer" appends the person's answers to the questions an
// Agent asked (request_user_input). Ask kinds stream a turn's events.
//
// A boundary is a SessionAt: a session's epoch log as it stood, its
// length and SHA-256. Fork and answer check the file against it before
// they write anything; a file that is gone or unreadable, or that is not
// what the boundary says, is a SessionProblem in the answer (not an
// error), for yaag to word.
//
// A hermetic session is made from the spawn request alone: its system
// prompt, the tools it names (and no other), and the memory block only
// when Memory is set. Nothing ambient reaches it. Its log's second record
// is a note naming the Run, the Agent's key, its Definition, the spawn's
// hash and the models, and agent.ask takes no other session.
//
// # A person's turn
//
// KindTurn (TurnRequest -> TurnResult, streaming Events) is one message of
// a person, from bxctl chat or gatewayd:
//
//	{"session":"","who":"owner","text":"read /home/owner/src/notes.md"}
//
// An empty Session begins a new session; otherwise it names one. Who is
// who the message is from ("owner" by default; gatewayd says
// "mattermost:@<name>"). Text must hold more than white space.
//
// The events come in the order things happen: EventSession first, always
// (the session the turn is in); EventText, each piece of the model's
// reply as it streams; EventToolCall when the model asks for a tool (the
// call goes to brokerd now: CallID, Tool, Arguments, the model's JSON);
// EventAsked when brokerd holds the call for the owner (CallID, Approval);
// EventToolResult with brokerd's outcome (core/brokerwire's outcomes) or
// loopd's own (unavailable, failed, limit) and the text the model is
// given; EventNotice, loopd's own word on the reply (such as a reply cut
// off at max_tokens); EventUsage last, when the turn made a model request
// (Usage: tokens in and out, the context filled, the prompt cache's reuse
// and its loss); and before each model request after the first, the
// sums so far (shown when the person stops the turn or it fails: a reader
// keeps the latest). A tool result's Notes are the runner's own notes on it
// (cut at a limit, killed at a timeout), also in its Text. An Agent's ask
// (KindAgentAsk) streams the same events but EventUsage, and EventQuestion
// when the Agent asks its person something
// (request_user_input).
//
// The final answer, TurnResult, is the session and the whole reply. A
// refused turn's error is memory-unavailable (a new session's block),
// session-log-damaged, or the model server's failure; nothing of a failed
// turn is written to the session log but what was complete before it
// failed (docs/specs/loop.md says what the log holds).
//
// Every kind's body is read by daemon.DecodeBody: one that is not its
// kind's (a field its struct does not have, a key twice or in another
// case, anything but one object) is refused as socket-forbidden before
// anything is done.
package loopwire

import "encoding/json"

// The request kinds.
const (
	KindAgentSpawn   = "agent.spawn"
	KindAgentAsk     = "agent.ask"
	KindAgentFork    = "agent.fork"
	KindAgentCompact = "agent.compact"
	KindAgentAnswer  = "agent.answer"
)

// SessionAt is a session's log of one epoch as it stood at a boundary:
// Bytes long, with the SHA-256 (hex) of those bytes.
type SessionAt struct {
	ID     string `json:"id"`
	Epoch  int    `json:"epoch"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// SessionProblem is why loopd did not use a boundary's session: Kind
// "unreadable" (the file is gone or cannot be read) or "changed" (it is
// shorter than the boundary, its bytes hash to something else, or they do
// not end at a record).
type SessionProblem struct {
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
}

// The kinds of SessionProblem.
const (
	ProblemUnreadable = "unreadable"
	ProblemChanged    = "changed"
)

// ToolRequestUserInput is the tool an Agent that may ask its person is
// offered (SpawnRequest.Tools names it): its call ends the turn with a
// Question, and agent.answer gives the call its result.
const ToolRequestUserInput = "request_user_input"

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
	// Domain is the key of the taint domain of a Run brokerd started
	// (yaag_run), set by brokerd's relay for that Run, never by the Run:
	// the session joins it (brokerd's session.start) before it exists,
	// and a key brokerd refuses is no session. "" for a Run the owner
	// started.
	Domain string `json:"domain,omitempty"`
}

// SpawnResult is agent.spawn's answer.
type SpawnResult struct {
	Session string    `json:"session"`
	At      SessionAt `json:"at"` // the log right after the baseline and the note
}

// ForkRequest is the body of agent.fork: a new session whose log is From's
// bytes, then a note naming the fork (so the prompt's prefix is the
// parent's, byte for byte, and the server's cache holds). Host says From is
// a person's session (a yaag_run's host), not a hermetic one; the new
// session starts at brokerd's state of From's session, at least.
type ForkRequest struct {
	From SessionAt `json:"from"`
	Host bool      `json:"host,omitempty"`
	// Latest forks From.ID's latest epoch as it stands (a Run's copy of
	// its host session, made as the Run starts): From's epoch, length and
	// hash are not checked then.
	Latest     bool     `json:"latest,omitempty"`
	Run        string   `json:"run"`
	Agent      string   `json:"agent"`
	Definition string   `json:"definition"`
	SpawnHash  string   `json:"spawn_hash"`
	Models     []string `json:"models"`
	Domain     string   `json:"domain,omitempty"` // as SpawnRequest's
}

// ForkResult is agent.fork's answer: the new session, or the problem with
// From (and no new session).
type ForkResult struct {
	Session string          `json:"session,omitempty"`
	At      SessionAt       `json:"at"`
	Problem *SessionProblem `json:"problem,omitempty"`
}

// CompactRequest is the body of agent.compact: one turn without tools
// asks the session's model for a summary of the session (Prompt, or
// loopd's), and the session's next epoch starts with a baseline whose
// system prompt holds it.
type CompactRequest struct {
	Session string `json:"session"`
	Model   string `json:"model,omitempty"`
	Prompt  string `json:"prompt,omitempty"`
}

// CompactResult is agent.compact's answer. Failed is why no summary came
// (the model failed, or said nothing); the session is then unchanged but
// for the summary turn in its old epoch.
type CompactResult struct {
	At      SessionAt `json:"at"`
	Summary int       `json:"summary_bytes"`
	Failed  string    `json:"failed,omitempty"`
}

// AnswerRequest is the body of agent.answer: the session must be At
// exactly (as the Checkpoint recorded it when the Agent asked), and each
// answer is appended as the tool result of its request_user_input call.
// The same answers already appended are accepted as they are.
type AnswerRequest struct {
	At      SessionAt    `json:"at"`
	Answers []CallAnswer `json:"answers"`
}

// CallAnswer is the person's answer to one request_user_input call.
type CallAnswer struct {
	CallID string `json:"call_id"`
	Text   string `json:"text"`
}

// AnswerResult is agent.answer's answer.
type AnswerResult struct {
	At      SessionAt       `json:"at"`
	Problem *SessionProblem `json:"problem,omitempty"`
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
	// Continue sends no prompt: the session's log ends with the answers
	// to its questions (agent.answer), and the model goes on from them.
	Continue bool `json:"continue,omitempty"`
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
	// Questions are the request_user_input calls the turn ended on: the
	// person must answer them (agent.answer) before the Agent goes on.
	Questions []Question `json:"questions,omitempty"`
	At        SessionAt  `json:"at"` // the log after the turn
}

// Question is one request_user_input call.
type Question struct {
	CallID string `json:"call_id"`
	Text   string `json:"text"`
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
