package runbook

// loopd's entries.
var (
	LoopdStartFailed    = newEntry("loopd-start-failed")
	LoopdSelftestFailed = newEntry("loopd-selftest-failed")
	LoopdTagsUnexpected = newEntry("loopd-tags-unexpected")
	SessionLogDamaged   = newEntry("session-log-damaged")
	BrokerUnavailable   = newEntry("broker-unavailable")
)

// A turn whose reply the model server could not read.
var ModelOutputUnparsed = newEntry("model-output-unparsed")
