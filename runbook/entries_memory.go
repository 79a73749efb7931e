package runbook

// memoryd's entries (identity memory, notes and the recall index).
var (
	MemoryWriteRefused  = newEntry("memory-write-refused")
	MemoryWriteFlagged  = newEntry("memory-write-flagged")
	MemoryWriteStaged   = newEntry("memory-write-staged")
	MemoryEntryExcluded = newEntry("memory-entry-excluded")
	MemoryUnavailable   = newEntry("memory-unavailable")
	MemoryIndexDamaged  = newEntry("memory-index-damaged")
)
