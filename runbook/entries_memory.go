package runbook

// memoryd's entries (identity memory, notes and the recall index).
const (
	MemoryWriteRefused  Entry = "memory-write-refused"
	MemoryWriteFlagged  Entry = "memory-write-flagged"
	MemoryEntryExcluded Entry = "memory-entry-excluded"
	MemoryUnavailable   Entry = "memory-unavailable"
	MemoryIndexDamaged  Entry = "memory-index-damaged"
)
