package conf

// Memoryd is memoryd.toml. docs/specs/local-memory.md, section 11, is its
// reference.
type Memoryd struct {
	Home    string        `toml:"home"`
	Sockets MemorySockets `toml:"sockets"`
	Memory  MemoryFiles   `toml:"memory"`
}

// MemoryFiles is how memoryd treats writes to identity memory. The files'
// limits are fixed (soul.md 4,000 characters, memory.md 2,200, user.md
// 1,375), not configured.
type MemoryFiles struct {
	// Review stages writes to memory.md and user.md until the owner runs
	// bxctl memory accept or reject.
	Review bool `toml:"review"`
}

// MemorySockets are the sockets memoryd serves.
type MemorySockets struct {
	Block     string   `toml:"block"`  // the memory block for loopd
	Broker    string   `toml:"broker"` // memory and recall calls from brokerd
	Admin     string   `toml:"admin"`  // bxctl
	AllowUIDs []uint32 `toml:"allow_uids"`
}

const memorydTemplate = `# memoryd.toml: identity memory, notes and recall.
# Reference: docs/specs/local-memory.md, section 11.

# The home: memory/, index/ and sessions/ live here.
home = "{{.Home}}"

[sockets]
# The memory block for a new session. loopd's [memory] socket names it too.
block = "{{.Home}}/run/loop-memory/memory.sock"
# memory and recall calls that brokerd decided. brokerd's [memory] socket names it too.
broker = "{{.Home}}/run/broker-memory/memory.sock"
# The operator's commands (bxctl memory, reindex).
admin = "{{.Home}}/run/memory-admin/admin.sock"
# Users besides memoryd's own that may connect (uids). Empty: same user only.
allow_uids = []

[memory]
# true: the agent's writes to memory.md and user.md wait for the owner
# (bxctl memory review, accept EDIT, reject EDIT). Notes, and writes that a
# flag rule or an untrusted session sends to notes.md, are never staged.
review = false
`
