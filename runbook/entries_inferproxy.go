package runbook

// inferproxy's entries.
const (
	InferproxyStartFailed Entry = "inferproxy-start-failed"
)
