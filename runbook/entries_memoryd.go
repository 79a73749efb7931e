package runbook

// memoryd's own entries (the role; memory and recall have theirs in
// entries_memory.go).
const (
	// memoryd could not start: its config, memory/, the index, a socket.
	MemorydStartFailed Entry = "memoryd-start-failed"
)
