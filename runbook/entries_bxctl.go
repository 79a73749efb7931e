package runbook

// Entries of the operator's command line.
var (
	// DaemonNotRunning is a daemon of the home that nothing answers for:
	// bxctl doctor, and bxctl commands that need it, say so.
	DaemonNotRunning = newEntry("daemon-not-running")
)
