package conf

// Memoryd is memoryd.toml. docs/specs/local-memory.md, section 11, is its
// reference.
type Memoryd struct {
	Home    string        `toml:"home"`
	Sockets MemorySockets `toml:"sockets"`
	Memory  MemoryFiles   `toml:"memory"`
	Broker  MemoryBroker  `toml:"broker"`
	Recall  MemoryRecall  `toml:"recall"`
}

// MemoryBroker is brokerd's state socket, which memoryd asks whether a
// session is untrusted (and its taint) before every memory write.
type MemoryBroker struct {
	State     string `toml:"state"`      // brokerd's [sockets] state
	TimeoutMS int    `toml:"timeout_ms"` // one question, connect to answer
}

// MemoryRecall is how the recall index follows the session logs.
type MemoryRecall struct {
	// SyncMS is how often the index reads what was added to sessions/ and
	// notes.md between searches (0: only before each search, which memoryd
	// always does).
	SyncMS int `toml:"sync_ms"`
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

[broker]
# brokerd's state socket: before every memory write memoryd asks it whether
# the session is untrusted and what its taint is. brokerd's [sockets] state
# names the same path.
state = "{{.Home}}/run/memory-broker/state.sock"
# How long memoryd waits for that answer; without one the write is not done.
timeout_ms = 10000

[recall]
# How often (milliseconds) the recall index reads what was added to the
# session logs and notes.md. memoryd also does so before every search, so
# this only keeps that step short. 0: only before searches.
sync_ms = 5000
`
