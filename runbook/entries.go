package runbook

// The entries of docs/runbook.md that code refers to. Add a constant only
// with its heading in docs/runbook.md: `boxmaker gate` fails otherwise.
// Each role keeps its own entries in entries_<role>.go.

// Entries every daemon shares.
const (
	AlreadyRunning    Entry = "already-running"
	SocketForbidden   Entry = "socket-forbidden"
	SocketPeerRefused Entry = "socket-peer-refused"
	// ListenerLost is accept trouble of every daemon but brokerd, which
	// has its own entry.
	ListenerLost Entry = "listener-lost"
	// RequestTooLarge: a request line, or a tool call's argument, over its
	// limit.
	RequestTooLarge Entry = "request-too-large"
)
