package runbook

// The audit ledger's entries (package audit, and brokerd's start).
const (
	AuditUnavailable Entry = "audit-unavailable"
	AuditChainBroken Entry = "audit-chain-broken"
	AuditRecovered   Entry = "audit-recovered"
	// The log does not hold a head a witness saw: cut below it, or a line
	// at or before it changed.
	AuditWitnessMismatch  Entry = "audit-witness-mismatch"
	BrokerdAlreadyRunning Entry = "brokerd-already-running"
)
