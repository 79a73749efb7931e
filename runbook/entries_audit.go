package runbook

// The audit ledger's entries (package audit, and brokerd's start).
var (
	AuditUnavailable = newEntry("audit-unavailable")
	AuditChainBroken = newEntry("audit-chain-broken")
	AuditRecovered   = newEntry("audit-recovered")
	// The log does not hold a head a witness saw: cut below it, or a line
	// at or before it changed.
	AuditWitnessMismatch  = newEntry("audit-witness-mismatch")
	BrokerdAlreadyRunning = newEntry("brokerd-already-running")
)
