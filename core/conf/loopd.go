package conf

// Loopd is loopd.toml. docs/specs/loop.md is its reference.
type Loopd struct {
	Home    string      `toml:"home"`
	Sockets LoopSockets `toml:"sockets"`
}

// LoopSockets are the sockets loopd serves.
type LoopSockets struct {
	Loop      string   `toml:"loop"` // turns from gatewayd and bxctl chat
	AllowUIDs []uint32 `toml:"allow_uids"`
}

const loopdTemplate = `# loopd.toml: the agent loop.
# Reference: docs/specs/loop.md.

# The home: sessions/ lives here.
home = "{{.Home}}"

[sockets]
# Turns from gatewayd and bxctl chat.
loop = "{{.Home}}/run/loop/loop.sock"
# Users besides loopd's own that may connect (uids). Empty: same user only.
allow_uids = []
`
