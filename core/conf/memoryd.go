package conf

import "boxmaker/core/secrets"

// Memoryd is memoryd.toml. docs/specs/local-memory.md, section 11, is its
// reference; docs/specs/honcho.md, section 10, for [honcho], its
// [[honcho.read]] tables and [secrets.honcho_*].
type Memoryd struct {
	Home    string        `toml:"home"`
	Sockets MemorySockets `toml:"sockets"`
	Memory  MemoryFiles   `toml:"memory"`
	Broker  MemoryBroker  `toml:"broker"`
	Recall  MemoryRecall  `toml:"recall"`
	// Honcho is nil when memoryd.toml has no [honcho]: nothing is synced
	// or read from Honcho.
	Honcho *Honcho `toml:"honcho"`
	// Secrets are where each Honcho key comes from, by name:
	// honcho_trusted, honcho_untrusted, honcho_fleet, honcho_read_<agent>.
	Secrets map[string]secrets.Source `toml:"secrets"`
}

// Honcho is [honcho]: the Honcho service, this agent's peers and
// workspaces, and how memoryd syncs to it. The names are checked by
// core/honcho (CheckConfig), before memoryd takes its lock.
type Honcho struct {
	URL       string `toml:"url" required:"true"`       // http(s)://host[:port], nothing else
	Agent     string `toml:"agent" required:"true"`     // this agent's peer
	Owner     string `toml:"owner" required:"true"`     // the owner's peer
	Trusted   string `toml:"trusted" required:"true"`   // workspace of trusted sessions and memory
	Untrusted string `toml:"untrusted" required:"true"` // workspace of untrusted sessions and notes
	Fleet     string `toml:"fleet" required:"true"`     // workspace of what the owner shares with every agent
	// MaxClass is the highest class that leaves the machine ("" is
	// private): a session above it is never synced, nor a note or entry.
	MaxClass string `toml:"max_class"`
	// TimeoutMS is how long one request to Honcho may take (0: 10000).
	TimeoutMS int `toml:"timeout_ms"`
	// RecallBudgetMS is how long recall waits for Honcho's hits (0: 1500).
	RecallBudgetMS int `toml:"recall_budget_ms"`
	// PollMS is how often the outbox reads what the session logs and
	// memory gained (0: 1000).
	PollMS int `toml:"poll_ms"`
	// RetryMinMS and RetryMaxMS bound the wait between two attempts
	// while Honcho fails: it doubles from the first to the second
	// (0: 1000 and 60000).
	RetryMinMS int `toml:"retry_min_ms"`
	RetryMaxMS int `toml:"retry_max_ms"`
	// Read are the other agents' workspaces recall also searches.
	Read []HonchoRead `toml:"read"`
}

// HonchoRead is one [[honcho.read]]: another agent's workspace, and what
// its hits are to the session that reads them.
type HonchoRead struct {
	Agent     string `toml:"agent" required:"true"`
	Workspace string `toml:"workspace" required:"true"`
	Trust     string `toml:"trust" required:"true"` // trusted or untrusted
	Class     string `toml:"class" required:"true"` // public, private or secret
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
	// bxctl memory accept or reject. Absent, it is on (ReviewOn): identity
	// is the owner's unless the owner says otherwise (decision D832).
	Review *bool `toml:"review"`
}

// ReviewOn is whether identity writes wait for the owner: review = true,
// or no review key at all. Even off, a write from a session above public
// waits, and an untrusted session's is a note (core/memory).
func (m MemoryFiles) ReviewOn() bool { return m.Review == nil || *m.Review }

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
block = "{{.Sockets.MemoryBlock}}"
# memory and recall calls that brokerd decided. brokerd's [memory] socket names it too.
broker = "{{.Sockets.MemoryTools}}"
# The operator's commands (bxctl memory, reindex).
admin = "{{.Sockets.MemoryAdmin}}"
# Users besides memoryd's own that may connect (uids). Empty: same user only.
# A home init makes as root names the owner: their bxctl reaches the
# sockets, which are then open to the home's group (README, "The first hour").
allow_uids = [{{.AllowUIDs}}]

[memory]
# true (the default): the agent's writes to memory.md and user.md wait for
# the owner (bxctl memory review, accept EDIT, reject EDIT; bxctl memory log
# lists every edit). false: a write from a session that is public and
# trusted lands at once; one from a session above public still waits. Notes,
# and writes that a flag rule or an untrusted session sends to notes.md, are
# never staged.
review = true

[broker]
# brokerd's state socket: before every memory write memoryd asks it whether
# the session is untrusted and what its taint is. brokerd's [sockets] state
# names the same path.
state = "{{.Sockets.BrokerState}}"
# How long memoryd waits for that answer; without one the write is not done.
timeout_ms = 10000

[recall]
# How often (milliseconds) the recall index reads what was added to the
# session logs and notes.md. memoryd also does so before every search, so
# this only keeps that step short. 0: only before searches.
sync_ms = 5000

# Honcho (optional): conversations and memory synced to the owner's Honcho
# by trust, and other agents' workspaces searched by recall. Without
# [honcho] nothing of it runs. Reference: docs/specs/honcho.md, section 10.
#
# [honcho]
# url = "http://127.0.0.1:8000"   # http:// or https://, host, optional port; no path
# agent = "kyle"                  # this agent's peer: different on every agent
# owner = "ann"                   # the owner's peer: the same on every agent
# trusted = "kyle-trusted"        # trusted sessions and identity memory
# untrusted = "kyle-untrusted"    # untrusted sessions and untrusted notes
# fleet = "fleet"                 # what the owner shares (memory/fleet.md): the same on every agent
# max_class = "private"           # nothing above this class leaves the machine
#
# [[honcho.read]]                 # another agent's workspace that recall searches
# agent = "bob"
# workspace = "bob-trusted"
# trust = "trusted"               # untrusted: a session reading a hit becomes untrusted
# class = "private"               # a session reading a hit is raised to this class
#
# [secrets.honcho_trusted]        # and honcho_untrusted, honcho_fleet, honcho_read_bob
# credential = "honcho-trusted"   # or env = "VAR", or file = "/abs/path" (0600, yours)
`
