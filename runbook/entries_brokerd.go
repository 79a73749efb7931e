package runbook

// brokerd's entries.
var (
	BrokerdStartFailed  = newEntry("brokerd-start-failed")
	BrokerdListenerLost = newEntry("brokerd-listener-lost")
	// A session's state file cannot be read (its calls are denied) or
	// written (the result of the call that ran is withheld).
	BrokerStateDamaged = newEntry("broker-state-damaged")
	// memoryd did not answer a memory or recall call brokerd forwarded.
	MemorydUnreachable = newEntry("memoryd-unreachable")
	// The home's file system has less free space than [audit] min_free_mb
	// (or the ledger lost its reserve): every new call is refused.
	HomeDiskLow = newEntry("home-disk-low")
	// A call came under a (session, call id) brokerd already decided.
	CallIDReused = newEntry("call-id-reused")
)
