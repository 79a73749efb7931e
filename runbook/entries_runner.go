package runbook

// The tool runner's entries (core/runner, used by brokerd).
const (
	RunnerUnavailable Entry = "runner-unavailable"
)
