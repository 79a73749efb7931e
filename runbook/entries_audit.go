package runbook

// The audit ledger's entries (package audit, and brokerd's start).
const (
	AuditUnavailable      Entry = "audit-unavailable"
	AuditChainBroken      Entry = "audit-chain-broken"
	AuditRecovered        Entry = "audit-recovered"
	BrokerdAlreadyRunning Entry = "brokerd-already-running"
)
