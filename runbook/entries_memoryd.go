package runbook

// memoryd's own entries (the role; memory and recall have theirs in
// entries_memory.go).
var (
	// memoryd could not start: its config, memory/, the index, a socket.
	MemorydStartFailed = newEntry("memoryd-start-failed")
)
