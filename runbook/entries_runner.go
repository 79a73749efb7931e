package runbook

// The tool runner's entries (core/runner, used by brokerd).
const (
	RunnerUnavailable Entry = "runner-unavailable"
	// A decided path ran through a symbolic link (or was replaced) by
	// the time the runner opened it: the call did not run.
	TargetChanged Entry = "target-changed"
)
