package conf

// Brokerd is brokerd.toml. docs/specs/decision-path.md, section 2, is its
// reference.
type Brokerd struct {
	Home    string        `toml:"home"`
	Paths   BrokerdPaths  `toml:"paths"`
	Sockets BrokerSockets `toml:"sockets"`
}

// BrokerdPaths are the files brokerd reads.
type BrokerdPaths struct {
	Grants string `toml:"grants"`
}

// BrokerSockets are the sockets brokerd serves.
type BrokerSockets struct {
	Broker    string   `toml:"broker"` // tool calls from loopd
	Admin     string   `toml:"admin"`  // bxctl
	State     string   `toml:"state"`  // memoryd's questions about a session
	AllowUIDs []uint32 `toml:"allow_uids"`
}

const brokerdTemplate = `# brokerd.toml: the decision path. Every tool call is decided against the
# grants, written to the audit log, and run in a container.
# Reference: docs/specs/decision-path.md, section 2.

# The home: audit/, broker/sessions/ and run/ live here.
home = "{{.Home}}"

[paths]
# One TOML file per grant, named [a-z0-9-]+.toml. Read again at every call.
grants = "{{.Home}}/etc/grants"

[sockets]
# Tool calls from loopd. loopd's [broker] socket must name the same path.
broker = "{{.Home}}/run/loop-broker/broker.sock"
# The operator's commands (bxctl grants, audit, approvals).
admin = "{{.Home}}/run/broker-admin/admin.sock"
# memoryd's questions about a session's state.
state = "{{.Home}}/run/memory-broker/state.sock"
# Users besides brokerd's own that may connect (uids). Empty: same user only.
allow_uids = []
`
