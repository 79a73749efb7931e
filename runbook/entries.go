package runbook

// The entries of docs/runbook.md that code refers to. Add one (newEntry)
// only with its heading in docs/runbook.md: `boxmaker gate` fails otherwise.
// Each role keeps its own entries in entries_<role>.go.

// Entries every daemon shares.
var (
	AlreadyRunning    = newEntry("already-running")
	SocketForbidden   = newEntry("socket-forbidden")
	SocketPeerRefused = newEntry("socket-peer-refused")
	// ListenerLost is accept trouble of every daemon but brokerd, which
	// has its own entry.
	ListenerLost = newEntry("listener-lost")
	// RequestTooLarge: a request line, or a tool call's argument, over its
	// limit.
	RequestTooLarge = newEntry("request-too-large")
)
