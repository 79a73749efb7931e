package runbook

// The decision path's grants (core/policy).
var (
	GrantsInvalid = newEntry("grants-invalid")
	// read_file or write_file on a regular file with more than one link,
	// which no grant allows (allow_hard_links).
	HardLinkRefused = newEntry("hard-link-refused")
)
