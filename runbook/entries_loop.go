package runbook

// loopd's entries.
const (
	LoopdStartFailed    Entry = "loopd-start-failed"
	LoopdSelftestFailed Entry = "loopd-selftest-failed"
	LoopdTagsUnexpected Entry = "loopd-tags-unexpected"
	SessionLogDamaged   Entry = "session-log-damaged"
	BrokerUnavailable   Entry = "broker-unavailable"
)

// A turn whose reply the model server could not read.
const ModelOutputUnparsed Entry = "model-output-unparsed"
