// Package gateway is gatewayd's work: the Mattermost client (REST API v4
// and the WebSocket, github.com/coder/websocket), the posts it answers
// and how (docs/specs/gateway.md, section 4), the state file that keeps
// it from answering a post twice or losing one across crashes and
// outages (section 5), and its side of the approvals protocol with
// brokerd's courier over gateway.sock (section 6, core/gatewaywire).
//
// The state file, <home>/gateway/state.json, is one JSON object (State),
// written whole and atomically before each action it records: the
// channels' cursors (the newest post read), the threads Boxmaker is in
// (each one session), the posts handled, the turns waiting or running,
// and the approvals posted.
//
// Nothing here reads flags, the environment or exits: the role passes
// the config, the token, the writers and the loop socket's call.
package gateway
