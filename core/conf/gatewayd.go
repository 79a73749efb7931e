package conf

import "boxmaker/core/secrets"

// Gatewayd is gatewayd.toml. docs/specs/gateway.md, section 3, is its
// reference; core/gateway (CheckConfig) judges its values.
type Gatewayd struct {
	Home       string                    `toml:"home"`
	Mattermost GatewayMattermost         `toml:"mattermost"`
	Allow      GatewayAllow              `toml:"allow"`
	Approvals  GatewayApprovals          `toml:"approvals"`
	Loop       GatewayLoop               `toml:"loop"`
	Broker     GatewayBroker             `toml:"broker"`
	Sockets    GatewaySockets            `toml:"sockets"`
	Secrets    map[string]secrets.Source `toml:"secrets"`
}

// GatewayMattermost is the Mattermost server and how gatewayd talks to it.
type GatewayMattermost struct {
	URL   string `toml:"url"`   // http(s)://host[:port][/path], nothing else
	Token string `toml:"token"` // the name of a [secrets.<name>]
	// DeadAfterMS is the silence after which the WebSocket counts as dead
	// (0: 30000); gatewayd's own ping goes every third of it.
	DeadAfterMS int `toml:"dead_after_ms"`
	// CAFile is a PEM bundle that replaces the system's roots for an
	// https url ("": the system's).
	CAFile string `toml:"ca_file"`
}

// GatewayAllow is who gatewayd answers.
type GatewayAllow struct {
	Users []string `toml:"users"` // Mattermost user ids
}

// GatewayApprovals is who answers approvals in Mattermost, and the socket
// brokerd's courier hands them over on.
type GatewayApprovals struct {
	Users  []string `toml:"users"`  // each also in [allow] users
	Socket string   `toml:"socket"` // gateway.sock ("": <home>/run/gateway/gateway.sock)
}

// GatewayLoop is loopd's loop socket.
type GatewayLoop struct {
	Socket string `toml:"socket"` // "": <home>/run/loop/loop.sock
}

// GatewayBroker is brokerd's state socket, which gatewayd asks for a
// session's taint before it posts the session's text where someone
// outside [allow] users can read it.
type GatewayBroker struct {
	State string `toml:"state"` // "": <home>/run/memory-broker/state.sock
}

// GatewaySockets is who besides gatewayd's own user may connect to
// gateway.sock (brokerd's uid, when it runs as another user).
type GatewaySockets struct {
	AllowUIDs []uint32 `toml:"allow_uids"`
}

// gatewaydTemplate is written with every key commented out: gatewayd
// needs a Mattermost server, a token and user ids that only the owner
// knows, and `boxmaker up` starts gatewayd only once the file sets
// something (docs/decisions-archive.md, D441).
const gatewaydTemplate = `# gatewayd.toml: the Mattermost bot. It carries conversations between
# Mattermost and loopd, and posts brokerd's approvals for !approve ID.
# Reference: docs/specs/gateway.md, section 3.
#
# Every line is a comment: fill in the url, the token's secret and the
# user ids, then remove the leading "# " of each line you keep.
# 'boxmaker up' starts gatewayd once this file sets anything.

# home = "{{.Home}}"

# [mattermost]
# The server: http:// or https://, a host, an optional port and an optional
# path (Mattermost under a path of a site, behind a proxy), nothing else.
# url = "https://chat.example.com"
# The [secrets.<name>] that holds the bot's access token.
# token = "mattermost"
# The WebSocket is dead after this many milliseconds of silence; gatewayd
# pings every third of it (the server's own pings come every 60 s).
# dead_after_ms = 30000
# A PEM bundle of the CA that signed the server's certificate, instead of
# the system's roots. TLS is always verified.
# ca_file = "/etc/boxmaker/mattermost-ca.pem"

# [secrets.mattermost]
# A systemd credential (installed: gatewayd.service loads mattermost-token).
# credential = "mattermost-token"
# or: env = "MATTERMOST_TOKEN", or: file = "/abs/path" (0600, gatewayd's own)

# [allow]
# The Mattermost user ids (26 characters of a-z0-9) gatewayd answers; every
# other user is ignored. GET /api/v4/users/username/<name> shows a user's id.
# users = ["abcdefghijkmnopqrstuwxyz12"]

# [approvals]
# Who may answer approvals with !approve ID and !refuse ID: each also in
# [allow] users. Empty: no approval is posted in Mattermost.
# users = ["abcdefghijkmnopqrstuwxyz12"]
# The socket brokerd's courier hands approvals over on; brokerd.toml's
# [gateway] socket names the same path.
# socket = "{{.Sockets.Gateway}}"

# [loop]
# loopd's loop socket: each answered post is a turn there.
# socket = "{{.Sockets.Loop}}"

# [broker]
# brokerd's state socket (brokerd.toml's [sockets] state): gatewayd asks it a
# conversation's taint, and posts a reply above public only where every
# reader is in [allow] users (else it goes to the asker by direct message).
# state = "{{.Sockets.BrokerState}}"

# [sockets]
# Users besides gatewayd's own that may connect to gateway.sock (uids).
# allow_uids = []
`
