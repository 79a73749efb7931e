package runbook

// The tool runner's entries (core/runner, used by brokerd).
var (
	RunnerUnavailable = newEntry("runner-unavailable")
	// The podman service brokerd starts calls through could not be
	// started, or did not answer a call: that call did not run, or its
	// answer is withheld; the next call starts the service again.
	RunnerServiceDown = newEntry("runner-service-down")
	// brokerd.toml's [runner] owner_uid or owner_gid is 0: brokerd acts
	// for no user, and no file tool runs.
	OwnerNotSet = newEntry("owner-not-set")
	// A decided path ran through a symbolic link (or was replaced) by
	// the time the runner opened it: the call did not run.
	TargetChanged = newEntry("target-changed")
	// A decided path leads to brokerd's home, configuration, grants or a
	// socket's directory: the runner never mounts those.
	HarnessRefused = newEntry("harness-refused")
	// A path a deny grant covers below a run call's directory cannot be
	// masked (it does not exist and must stay unwritable, or it runs
	// through a link): run is refused.
	DenyUnmaskable = newEntry("deny-unmaskable")
)
