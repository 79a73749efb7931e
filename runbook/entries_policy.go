package runbook

// The decision path's grants (core/policy).
const (
	GrantsInvalid Entry = "grants-invalid"
)
