package runbook

// brokerd's entries.
const (
	BrokerdStartFailed  Entry = "brokerd-start-failed"
	BrokerdListenerLost Entry = "brokerd-listener-lost"
)
