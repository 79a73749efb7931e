package runbook

// Entries of the operator's command line.
var (
	// DaemonNotRunning is a daemon of the home that nothing answers for:
	// bxctl doctor, and bxctl commands that need it, say so.
	DaemonNotRunning = newEntry("daemon-not-running")
	// A shape Boxmaker does not support: its daemons run as root, on a
	// home root made (boxmaker up, init and bxctl doctor refuse others).
	RunAsRoot = newEntry("run-as-root")
)
