package runbook

// The decision path's grants (core/policy).
const (
	GrantsInvalid Entry = "grants-invalid"
	// read_file or write_file on a regular file with more than one link,
	// which no grant allows (allow_hard_links).
	HardLinkRefused Entry = "hard-link-refused"
)
