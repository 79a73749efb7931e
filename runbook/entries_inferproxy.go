package runbook

// inferproxy's entries.
var (
	InferproxyStartFailed = newEntry("inferproxy-start-failed")
)
