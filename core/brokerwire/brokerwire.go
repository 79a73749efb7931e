// Package brokerwire is the reference of brokerd's three sockets: their
// kinds, bodies, answers, event and outcome names. brokerd (core/broker,
// roles/brokerd) and its clients (loopd's core/loop, memoryd, bxctl, the
// demo) import it; nothing else defines these shapes. Every socket uses
// core/daemon's framing (docs/protocols.md): one request line
// {"kind":...,"body":...}, event lines, a final line with "done":true and
// either the answer's body or an error and its runbook entry. Every body
// is read by daemon.DecodeBody: one that is not its kind's (a field its
// struct does not have, a key twice or in another case, anything but one
// object) is refused whole as socket-forbidden; what Arguments holds is
// brokerd's to judge (below).
//
// Ids follow core/sessionid: a session id is 1 to 64 of [a-z0-9-], a call
// id 1 to 64 of [A-Za-z0-9_-].
//
// # The tool socket (brokerd [sockets] broker; loopd is the client)
//
// tool.call (ToolCall -> Answer) sends one tool call of the model, one per
// connection:
//
//	{"kind":"tool.call","body":{"session":"s1","call_id":"call_7","tool":"read_file","arguments":{"path":"/home/owner/src/a.txt"}}}
//
// The session and the call id name the call: its container
// (<session>_<call id>) and its audit records. A (session, call id) being
// handled is refused; one brokerd already decided is denied
// (call-id-reused); the same call id in another session is another call.
// Tool is the name as the model wrote it: a tool core/policy does not know
// is denied. Arguments is the model's JSON object; brokerd takes only the
// tool's own fields (path; path, content; path; command, a list of words,
// and paths, the first the working directory; url; actions; query, limit;
// yaag's file, script, dir, input, profile, id) and ignores the rest (a
// grant name or a taint the model adds), but denies a key twice in one
// object or a field name in another case ("Path").
//
// A call decided ask sends one event before the answer, EventAsked
// ({"approval":"<id>","event":"asked"}). The answer's Outcome is one of the Outcome constants
// and Text what the model is given: the result for allowed and approved;
// the owner's refusal (and reason) for refused; the expiry for expired; a
// "denied: ..." reason, or a refusal ending with its runbook link, for
// denied; for failed, a refusal naming why no result can be given
// (runner-unavailable, memoryd-unreachable, audit-unavailable when the
// result could not be recorded, broker-state-damaged when the raised state
// could not be written), never the content. Decision is what decided it:
// the effect and the grant file(s) ("" when no grant matched). An error
// instead of an answer means brokerd could not decide at all, and nothing
// ran: the decision could not be recorded (audit-unavailable), a malformed
// request, a call id being handled.
//
// session.start (SessionStart -> SessionState) tells of a new session
// before its first model request: the taint it starts at (its memory
// block's class; core/memorywire) and, for a fork, the session it copies.
// brokerd records a session_start and writes the session's state raised to
// that taint (never lowered), and answers the state. With a domain (the
// key of a yaag Run's taint domain, for an Agent's session), the session
// joins the domain: it starts at the domain's state and rises with it.
// An error means nothing was recorded, and loopd does not start the session.
//
// tools.granted ({} -> ToolsGranted) lists the tools some allow or ask
// grant names (none while the grants are invalid): loopd offers yaag's
// tools (yaag_run, yaag_status, yaag_stop, yaag_pause,
// yaag_setup_workspace) to a new session
// only when granted. It decides nothing.
//
// mcp.tools (MCPToolsRequest -> MCPTools) lists, for a new session, the
// tools of MCP servers loopd may offer it (docs/mcp.md): every tool the
// owner accepted (bxctl mcp accept) of a server whose file is valid and
// still the one accepted, that an allow or ask grant covers at the
// session's taint, named mcp__<server>__<tool> (at most 64 bytes), with
// its accepted description and input schema. It decides nothing: every
// call is decided, and a server whose running list changed is withheld
// then. A tool.call of one has the model's arguments, a JSON object
// passed on to the server as it is (at most 1 MiB; a key twice in an
// object is denied).
//
// # The admin socket (brokerd [sockets] admin; bxctl is the client)
//
// approvals.list (no body -> ApprovalsList), approvals.show (ApprovalShow ->
// Pending, an error when it is not pending) and approvals.answer
// (ApprovalAnswer -> the approval as it was). A pending approval's
// arguments are compact JSON text, a string, with their SHA-256
// (core/approval computes them and renders a Pending for the owner).
// gatewayd's socket carries the same Pending (core/gatewaywire).
//
// sessions.state (SessionsStateRequest -> SessionsState) is the state of
// each session named, in their order, for bxctl sessions' taint column:
// as session.state says it (no state file: public and trusted), a damaged
// state file a Problem of its own session. An id that is not a session id
// refuses the request.
//
// # The state socket (brokerd [sockets] state; memoryd is the client)
//
// session.state (SessionStateRequest -> SessionState): a session's taint
// and trust; a session with no state file is public and trusted; a damaged
// state file is an error with the entry broker-state-damaged. memoryd asks
// before every memory write (the writing session) and during every recall
// (each session whose records were found).
//
// Every socket also answers ping; any other kind is refused
// (socket-forbidden). The limits on a request and on a call's arguments
// are in docs/tool-socket.md.
package brokerwire

import (
	"encoding/json"
	"time"

	"boxmaker/core/yaagwire"
)

// The request kinds, by socket.
const (
	KindToolCall       = "tool.call"     // tool socket: ToolCall -> Answer
	KindSessionStart   = "session.start" // tool socket: SessionStart -> SessionState
	KindToolsGranted   = "tools.granted" // tool socket: {} -> ToolsGranted
	KindMCPTools       = "mcp.tools"     // tool socket: MCPToolsRequest -> MCPTools
	KindApprovalsList  = "approvals.list"
	KindApprovalShow   = "approvals.show"   // admin socket: ApprovalShow -> Pending
	KindApprovalAnswer = "approvals.answer" // admin socket: ApprovalAnswer -> Pending
	KindSessionState   = "session.state"    // state socket: SessionStateRequest -> SessionState
	KindSessionsState  = "sessions.state"   // admin socket: SessionsStateRequest -> SessionsState
)

// EventAsked is the event a tool.call sends when the call waits for the
// owner: {"event":"asked","approval":"<id>"}.
const EventAsked = "asked"

// Asked is the body of the EventAsked event.
type Asked struct {
	Approval string `json:"approval"`
	Event    string `json:"event"`
}

// ToolCall is one tool call as loopd sends it.
type ToolCall struct {
	Session   string          `json:"session"`
	CallID    string          `json:"call_id"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

// Decision is the decision an Answer reports.
type Decision struct {
	Effect string `json:"effect"` // allow, ask or deny
	Grant  string `json:"grant"`  // the grant file(s) that decided; empty: none
	// Resolved is, for a deny, where the denied path resolved when a link
	// made it another path than the call named: for the person's view
	// (bxctl chat), never for the model's text, which names the path as
	// the call gave it.
	Resolved string `json:"resolved,omitempty"`
}

// Answer is brokerd's final answer to a tool call: the outcome and the
// text the model is given.
type Answer struct {
	Outcome string `json:"outcome"`
	Text    string `json:"text"`
	// Notes are the runner's own notes on the result (a text cut at its
	// limit, a command killed at its timeout), also in Text where they
	// are for the model: a person's view shows them however long Text is.
	Notes    []string `json:"notes,omitempty"`
	Decision Decision `json:"decision"`
	Approval string   `json:"approval,omitempty"`
}

// The outcomes of a call.
const (
	OutcomeAllowed  = "allowed"  // decided allow, ran, result recorded
	OutcomeApproved = "approved" // decided ask, approved, ran, result recorded
	OutcomeRefused  = "refused"  // decided ask, the owner refused
	OutcomeExpired  = "expired"  // decided ask, no answer in time
	OutcomeDenied   = "denied"   // decided deny (or no longer allowed after the wait)
	OutcomeFailed   = "failed"   // allowed, but no result can be given
)

// SessionStart is loopd telling of a new session before its first call.
type SessionStart struct {
	Session string `json:"session"`
	Taint   string `json:"taint"`
	// From is the session a fork copies (a yaag Agent's, or a Run's host
	// session): the new one starts at that session's state too.
	From string `json:"from,omitempty"`
	// Domain is the key of a yaag Run's taint domain, for a session made
	// for one of its Agents: the key brokerd's relay for that Run set on
	// its spawn or fork (never written anywhere, never seen by the Run).
	// The session starts at the domain's state
	// and rises with it (D821); a key brokerd does not hold is an error.
	Domain string `json:"domain,omitempty"`
}

// SessionStateRequest asks for one session's state.
type SessionStateRequest struct {
	Session string `json:"session"`
}

// SessionState is a session's taint (public, private or secret) and
// whether anything untrusted reached it: the answer of session.state and
// session.start.
type SessionState struct {
	Taint     string `json:"taint"`
	Untrusted bool   `json:"untrusted"`
}

// SessionsStateRequest asks for the state of several sessions.
type SessionsStateRequest struct {
	Sessions []string `json:"sessions"`
}

// SessionsState is the answer to sessions.state: one SessionStateOf for
// each session asked about, in the request's order.
type SessionsState struct {
	States []SessionStateOf `json:"states"`
}

// SessionStateOf is one session's state in SessionsState; Problem is why
// brokerd cannot say it (a damaged state file), and the state is then
// empty.
type SessionStateOf struct {
	Session   string `json:"session"`
	Taint     string `json:"taint,omitempty"`
	Untrusted bool   `json:"untrusted,omitempty"`
	Problem   string `json:"problem,omitempty"`
}

// MCPToolsRequest asks which MCP servers' tools a session may be
// offered.
type MCPToolsRequest struct {
	Session string `json:"session"`
}

// MCPTools is the answer to mcp.tools: the tools, sorted by name.
type MCPTools struct {
	Tools []MCPTool `json:"tools"`
}

// MCPTool is one MCP server's tool as the model is offered it: its name
// mcp__<server>__<tool>, and its description and input schema as the
// owner accepted them (the description's chat-template tags
// neutralised).
type MCPTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// ToolsGranted is the answer to tools.granted.
type ToolsGranted struct {
	Tools []string `json:"tools"`
}

// ApprovalsList is the answer to approvals.list, oldest first.
type ApprovalsList struct {
	Approvals []Pending `json:"approvals"`
}

// ApprovalShow asks for one pending approval, whole.
type ApprovalShow struct {
	ID string `json:"id"`
}

// ApprovalAnswer is bxctl's approve or refuse.
type ApprovalAnswer struct {
	ID     string `json:"id"`
	Answer string `json:"answer"` // Approve or Refuse
	Why    string `json:"why,omitempty"`
}

// The answers to a pending approval: the owner's with bxctl on the admin
// socket (ApprovalAnswer), an approver's in Mattermost on gateway.sock
// (gatewaywire.Answered).
const (
	Approve = "approve"
	Refuse  = "refuse"
)

// Pending is an approval waiting for the owner, as the admin socket lists
// it and gateway.sock posts it.
type Pending struct {
	ID      string `json:"id"`
	Call    string `json:"call"`
	Session string `json:"session"`
	Tool    string `json:"tool"`
	Target  string `json:"target"` // the resolved target(s) the decision named
	Grant   string `json:"grant"`
	// CallHash is the SHA-256 of the exact call (session, call id, tool,
	// arguments) that the approval answers.
	CallHash string `json:"call_sha256"`
	// Arguments is the call's arguments as compact JSON text
	// (approval.Compact), carried as a string so that no encoder on the
	// way changes a byte; ArgumentsHash is its SHA-256, as the
	// approval_requested record has it.
	Arguments     string    `json:"arguments"`
	ArgumentsHash string    `json:"arguments_sha256"`
	Requested     time.Time `json:"requested"`
	Expires       time.Time `json:"expires"`
	// Program is, for a yaag_run, what the Run will read: every file of
	// its directory that it reads (the program, its imports, .yaag/ and
	// the Registry File's modules), each with its SHA-256, and the
	// SHA-256 over them that the approved Run must read again or refuse.
	Program *yaagwire.Manifest `json:"program,omitempty"`
	// Change is, for a write_file, what it changes: a new file, or the
	// diff against the file as brokerd read it when it asked.
	Change *Change `json:"change,omitempty"`
}

// Change is what an asked write_file will change, as brokerd found its
// target when it asked (core/broker reads it beneath a descriptor, with
// no link followed; approval.NewChange compares): a new file, or the file
// there now against the content the call writes, as a unified diff when
// both are text of a size a person reads, else summarised with sizes and
// hashes. It is shown to the owner and the approvers only, never to the
// model.
type Change struct {
	// Creates: nothing is at the target; the call creates a new file.
	Creates bool `json:"creates,omitempty"`
	// Size and SHA256 are the file's now (SHA256 "" when it was not
	// hashed: too large, or not a file the owner may read).
	Size   int64  `json:"size,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	// Diff is the unified diff from the file now to the content written;
	// "" when Note says why there is none.
	Diff string `json:"diff,omitempty"`
	// Added and Removed count the diff's lines.
	Added   int `json:"added,omitempty"`
	Removed int `json:"removed,omitempty"`
	// Note says why the change is summarised instead of shown (binary,
	// too large, not a regular file, more than one link, not the
	// owner's to read).
	Note string `json:"note,omitempty"`
}
