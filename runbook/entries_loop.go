package runbook

// loopd's entries.
var (
	// bxctl doctor asked the model server, through inferproxy, for
	// /health and /props, and it did not answer as loopd needs.
	ModelServerUnavailable = newEntry("model-server-unavailable")
	LoopdStartFailed       = newEntry("loopd-start-failed")
	LoopdSelftestFailed    = newEntry("loopd-selftest-failed")
	LoopdTagsUnexpected    = newEntry("loopd-tags-unexpected")
	SessionLogDamaged      = newEntry("session-log-damaged")
	BrokerUnavailable      = newEntry("broker-unavailable")
)

// A turn whose reply the model server could not read.
var ModelOutputUnparsed = newEntry("model-output-unparsed")
