package broker

// The request kinds of brokerd's sockets, and the bodies of the admin
// socket's requests (docs/tool-socket.md, docs/specs/decision-path.md).
const (
	KindToolCall       = "tool.call"        // tool socket, from loopd: ToolCall -> Answer
	KindSessionStart   = "session.start"    // tool socket, from loopd: SessionStart -> policy.State
	KindApprovalsList  = "approvals.list"   // admin socket, from bxctl: -> ApprovalsList
	KindApprovalAnswer = "approvals.answer" // admin socket, from bxctl: ApprovalAnswer -> Pending
	KindApprovalShow   = "approvals.show"   // admin socket, from bxctl: ApprovalShow -> Pending
	KindSessionState   = "session.state"    // state socket, from memoryd: {"session"} -> policy.State
	KindToolsGranted   = "tools.granted"    // tool socket, from loopd: {} -> ToolsGranted
)

// SessionStart is loopd telling of a new session before its first call:
// the taint it starts at, its memory block's class (core/memorywire).
type SessionStart struct {
	Session string `json:"session"`
	Taint   string `json:"taint"`
	// From is the session a fork copies (a yaag Agent's, or a Run's host
	// session): the new one starts at that session's state too.
	From string `json:"from,omitempty"`
}

// ToolsGranted is the answer to tools.granted: the tools some allow or
// ask grant names, which loopd may offer a new session beside its own.
type ToolsGranted struct {
	Tools []string `json:"tools"`
}

// ApprovalsList is the answer to approvals.list.
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
	Answer string `json:"answer"` // approve or refuse
	Why    string `json:"why,omitempty"`
}
