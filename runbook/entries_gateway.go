package runbook

// gatewayd's entries, and brokerd's courier to it.
var (
	// gatewayd could not read its config, prepare gateway/ or listen.
	GatewaydStartFailed = newEntry("gatewayd-start-failed")
	// The connection to Mattermost failed or went silent; gatewayd retries.
	MattermostUnreachable = newEntry("mattermost-unreachable")
	// Mattermost refused the token (401 or 403): gatewayd stops.
	MattermostAuthFailed = newEntry("mattermost-auth-failed")
	// gateway/state.json cannot be read or written: gatewayd stops.
	GatewayStateDamaged = newEntry("gateway-state-damaged")
	// loopd's loop socket did not carry a turn to its end.
	LoopUnavailable = newEntry("loop-unavailable")
	// A reply of a session above public went to the asker by DM: someone
	// outside [allow] users can read the thread.
	GatewayReplyMoved = newEntry("gateway-reply-moved")
	// brokerd's courier could not hand an approval to gatewayd.
	GatewayUnreachable = newEntry("gateway-unreachable")
)
