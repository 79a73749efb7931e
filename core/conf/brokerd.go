package conf

import "path/filepath"

// Brokerd is brokerd.toml. docs/specs/decision-path.md, section 2, is its
// reference.
type Brokerd struct {
	Home      string           `toml:"home"`
	Paths     BrokerdPaths     `toml:"paths"`
	Sockets   BrokerSockets    `toml:"sockets"`
	Runner    Runner           `toml:"runner"`
	Approvals BrokerdApprovals `toml:"approvals"`
	Audit     BrokerdAudit     `toml:"audit"`
	Memory    BrokerdMemory    `toml:"memory"`
	Yaag      BrokerdYaag      `toml:"yaag"`
	MCP       BrokerdMCP       `toml:"mcp"`
	// Gateway, when present, sends each pending approval to gatewayd to
	// be posted in Mattermost (docs/specs/gateway.md, section 6).
	Gateway *BrokerdGateway `toml:"gateway"`
}

// BrokerdGateway is brokerd's courier to gatewayd.
type BrokerdGateway struct {
	Socket string `toml:"socket"` // gatewayd's [approvals] socket ("": <home>/run/gateway/gateway.sock)
}

// BrokerdMCP is how brokerd runs the MCP servers' tools (docs/mcp.md):
// one container per (session, server). 0 (or no key): the default in
// brackets.
type BrokerdMCP struct {
	IdleMS        int `toml:"idle_ms"`         // a server unused this long is stopped [600000]
	CallTimeoutMS int `toml:"call_timeout_ms"` // one call's answer, the start included [120000]
	LifetimeMS    int `toml:"lifetime_ms"`     // a server's container is killed this long after its start [3600000]
	MaxServers    int `toml:"max_servers"`     // servers running at once, each holding a container slot [8]
	// CPUs is one server's CPU limit, as [runner] cpus is a tool's (no
	// key: [runner]'s).
	CPUs *float64 `toml:"cpus"`
}

// BrokerdYaag is how brokerd runs the yaag programs of yaag_run.
type BrokerdYaag struct {
	// WaitMS is how long a yaag_run call waits for its Run to end before
	// it answers that the Run goes on (yaag_status reads it later). 0 (or
	// no key): 60000.
	WaitMS int `toml:"wait_ms"`
	// The limits of one Run, which runs in a container of the tools image
	// as [runner] tool_uid (docs/runner.md, "yaag Runs"). 0 (or no key):
	// the default in brackets.
	MemoryMB   int `toml:"memory_mb"`   // memory, swap included (cgroup) [512]
	PidsLimit  int `toml:"pids_limit"`  // processes and threads (cgroup) [128]
	CPUSeconds int `toml:"cpu_seconds"` // CPU time (RLIMIT_CPU) [600]
	RunWallMS  int `toml:"run_wall_ms"` // start to end, whatever the program's own wall_ms [1800000]
	DiskMB     int `toml:"disk_mb"`     // what it writes: record, events, journal, Cassette [64]
	// How many Runs yaag_run keeps going at once: in this home, and
	// started by one session. [4] and [2].
	MaxRuns           int `toml:"max_runs"`
	MaxRunsPerSession int `toml:"max_runs_per_session"`
}

// BrokerdAudit is how the audit log is kept.
type BrokerdAudit struct {
	// MaxFileMB: once the current file of audit/ has reached this many
	// MiB, the next record begins a new numbered file. 0 (or no key):
	// 64 MiB.
	MaxFileMB int `toml:"max_file_mb"`
	// ReserveMB is the disk the ledger keeps allocated beyond the end of
	// its current file, for records when the disk is full; MinFreeMB the
	// free space of the home's file system below which brokerd refuses
	// new calls (home-disk-low). No key: 8 and 64; 0 turns either off.
	ReserveMB *int `toml:"reserve_mb"`
	MinFreeMB *int `toml:"min_free_mb"`
	// WitnessFile is where brokerd appends the head of the log
	// ("audit: head <file>:<line> seq <n> sha256 <hash>"), besides its
	// standard error: an absolute path outside <home>/audit. Empty (or no
	// key): <home>/broker/audit-witness.
	WitnessFile string `toml:"witness_file"`
	// WitnessEvery: the head is witnessed once this many records have
	// been appended since the last, or this many seconds have passed with
	// records not yet witnessed; and at start and stop. 0: 60.
	WitnessEvery int `toml:"witness_every"`
}

// BrokerdApprovals is how long an ask waits for the owner.
type BrokerdApprovals struct {
	// ExpireAfter is a Go duration ("10m", "90s"); the call is answered
	// "expired" when no one approved or refused it by then.
	ExpireAfter string `toml:"expire_after"`
}

// BrokerdMemory is where brokerd sends the memory and recall tools.
type BrokerdMemory struct {
	Socket    string `toml:"socket"`     // memoryd's tool socket
	TimeoutMS int    `toml:"timeout_ms"` // one call, connect to answer
}

// Runner is how brokerd runs tools in containers (core/runner).
// docs/runner.md says which of the limits hold on a given machine.
type Runner struct {
	Podman       string `toml:"podman"`        // the program
	Runtime      string `toml:"runtime"`       // the OCI runtime podman is told to use
	Launch       string `toml:"launch"`        // "service" (empty) or "run": how a call's container starts
	Image        string `toml:"image"`         // the tools image's ID, sha256:<64 hex>
	UlimitNofile int    `toml:"ulimit_nofile"` // open files, soft = hard
	UlimitNproc  int    `toml:"ulimit_nproc"`  // processes of the user, soft = hard
	PidsLimit    int    `toml:"pids_limit"`    // processes in the container (cgroup)
	MemoryMB     int    `toml:"memory_mb"`     // memory, swap included (cgroup)
	TmpMB        int    `toml:"tmp_mb"`        // the container's /tmp, a tmpfs
	TimeoutMS    int    `toml:"timeout_ms"`    // one call, start to end
	OutputLimit  int    `toml:"output_limit"`  // bytes of a file or of stdout/stderr
	// CPUs is the CPU time one container may take per second of wall
	// time, in CPUs (a CFS quota; 0.5 is half of one): no key, 1. At
	// least 0.01, at most this host's CPUs (CPULimit, checkValues).
	CPUs *float64 `toml:"cpus"`
	// TotalCPUs and TotalMemoryMB bound all of brokerd's containers
	// together (one cgroup parent, docs/runner.md "CPU"): no key, this
	// host's CPUs less one (at least 1) and half its memory
	// (TotalCPULimit, TotalMemoryLimit, checkValues).
	TotalCPUs     *float64 `toml:"total_cpus"`
	TotalMemoryMB *int     `toml:"total_memory_mb"`

	// Who the tools act for and run as (docs/runner.md, "Who the tool
	// runs as"): files they write belong to owner_uid:owner_gid; their
	// processes run as tool_uid (0: DefaultToolUID), which nothing else may use.
	OwnerUID    int    `toml:"owner_uid"`
	OwnerGID    int    `toml:"owner_gid"`
	ToolUID     int    `toml:"tool_uid"`
	SeccompBase string `toml:"seccomp_base"` // the seccomp profile the tools' is made from

	// http_fetch's egress proxy (docs/runner.md, "http_fetch").
	EgressNetwork      string `toml:"egress_network"`       // the Podman network the proxy runs on
	EgressDir          string `toml:"egress_dir"`           // where the per-call socket directories go
	EgressCAFile       string `toml:"egress_ca_file"`       // the CA bundle http_fetch trusts for https
	EgressAllowPrivate bool   `toml:"egress_allow_private"` // names may resolve to private addresses (tests only)
}

// BrokerdPaths are the files brokerd reads.
type BrokerdPaths struct {
	Grants string `toml:"grants"`
	// MCP is the directory of the MCP servers the owner declares, one
	// <name>.toml each (docs/mcp.md). Empty (or no key): "mcp" beside the
	// grants directory (MCPDir).
	MCP string `toml:"mcp"`
}

// MCPDir is the MCP servers directory: [paths] mcp, or "mcp" beside the
// grants directory; "" when neither is named.
func (p BrokerdPaths) MCPDir() string {
	switch {
	case p.MCP != "":
		return p.MCP
	case p.Grants == "":
		return ""
	}
	return filepath.Join(filepath.Dir(filepath.Clean(p.Grants)), "mcp")
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
grants = "{{.Grants}}"
# The MCP servers the owner declares, one <name>.toml each (docs/mcp.md).
# No key: "mcp" beside the grants directory.
# mcp = "/etc/boxmaker/mcp"

[sockets]
# Tool calls from loopd. loopd's [broker] socket must name the same path.
broker = "{{.Sockets.BrokerTools}}"
# The operator's commands (bxctl grants, audit, approvals).
admin = "{{.Sockets.BrokerAdmin}}"
# memoryd's questions about a session's state.
state = "{{.Sockets.BrokerState}}"
# Users besides brokerd's own that may connect (uids). Empty: same user only.
# A home init makes as root names the owner: their bxctl reaches the
# sockets, which are then open to the home's group (README, "The first hour").
allow_uids = [{{.AllowUIDs}}]

[runner]
# Tools run in a Podman container from the tools image; see docs/runner.md.
podman = "podman"
# The OCI runtime. "auto": crun when it is installed and runs on this
# host's cgroups (it refuses hybrid ones whose v2 tree holds controllers),
# runc otherwise; brokerd's start line and bxctl doctor say which and why.
runtime = "auto"
# How the file tools' and run's containers start: "service", through a
# 'podman system service' brokerd keeps (its socket in run/podman, root's
# alone), or "run", a 'podman run' each (a podman process more per call).
launch = "service"
# The tools image's ID, as 'boxmaker tools-image' prints it. init writes
# the ID this binary builds (empty when it cannot); load it with
# 'boxmaker tools-image' before the first call.
image = "{{.ToolsImage}}"
# The user brokerd acts for: files the tools write belong to this uid and
# gid, as if the owner had written them, and tools read and write only
# what the owner may. Not 0: tools never act as root. init writes the
# user who ran it (--owner UID:GID chooses); 0 here refuses every file
# tool and run until it is set.
owner_uid = {{.OwnerUID}}
owner_gid = {{.OwnerGID}}
# The uid (and gid) the tools' processes run as: one no user, file or
# other program on this machine has, and not brokerd's, the owner's or an
# allow_uids one. 0: {{.DefaultToolUID}}.
tool_uid = {{.DefaultToolUID}}
# The seccomp profile the tools' own is made from (Podman's default; the
# tools' also refuses set-user-ID and set-group-ID modes).
seccomp_base = "{{.DefaultSeccompBase}}"
ulimit_nofile = 1024
# Processes of the tools' uid, all calls together: the kernel counts them
# per uid across the host. pids_limit is one container's limit; brokerd
# runs at most ulimit_nproc / pids_limit containers at once (a call waits
# for a slot), so one call cannot use up another's processes.
ulimit_nproc = 4096
pids_limit = 128
memory_mb = 512
# The CPU time one container (a tool's, http_fetch's proxy's, a yaag
# Run's, an MCP server's) may take per second, in CPUs: 1 is one CPU
# kept busy, 0.5 half of one. Several sessions' calls each get this
# much, so keep it below the host's count. At most that count.
cpus = 1.0
# All of brokerd's containers together (tools, http_fetch's, yaag Runs,
# MCP servers) are held in one cgroup with these limits: CPUs, and
# memory in MiB. No key: this host's CPUs less one (at least 1), and
# half its memory. A container's cpus above total_cpus gets total_cpus.
# total_cpus = 1.0
# total_memory_mb = 4096
tmp_mb = 64
timeout_ms = 30000
# Bytes of a file read, and of each of a command's stdout and stderr
# (and of the body http_fetch keeps).
output_limit = 65536
# http_fetch runs with no network too, and reaches one egress proxy
# through a unix socket; the proxy, a container on this Podman network,
# connects only to the call's granted host. 'podman network ls' lists
# the networks.
egress_network = "podman"
# The proxy's socket directories, one per call.
egress_dir = "{{.Home}}/run/egress"
# The CA certificates https fetches trust (Debian's bundle).
egress_ca_file = "/etc/ssl/certs/ca-certificates.crt"
# true lets fetched names resolve to loopback, link-local and private
# addresses. Keep it false: only tests on one machine need it.
egress_allow_private = false

[approvals]
# How long a call a grant says "ask" about waits for bxctl approve or
# refuse before it is answered "expired" (a Go duration: 90s, 10m, 1h).
expire_after = "10m"

[audit]
# The audit log is numbered files in audit/, each continuing the chain of
# the one before. Once the current file has reached this many MiB, the
# next record begins a new file. 0: 64.
max_file_mb = 64
# A tool that fills the disk must not stop the log: the ledger keeps this
# many MiB allocated beyond the end of its file for the records to come,
# and brokerd refuses every new call while the home's file system has less
# than min_free_mb MiB free (docs/runner.md, "Resources"). 0 turns either off.
reserve_mb = 8
min_free_mb = 64
# The head of the log (its last record's file, line, seq and SHA-256) is
# written to brokerd's standard error (journald keeps it) and appended to
# this file, at start, at stop and every witness_every records or seconds.
# Keep it outside audit/, ideally on another machine's disk or in the
# journal only root can rewrite: bxctl audit verify --witness FILE checks
# the log against every head it holds.
witness_file = "{{.Home}}/broker/audit-witness"
witness_every = 60

[memory]
# memoryd's tool socket: memory and recall calls are sent there once
# decided. memoryd's [sockets] broker must name the same path.
socket = "{{.Sockets.MemoryTools}}"
# How long brokerd waits for memoryd's answer.
timeout_ms = 30000

[yaag]
# How long a yaag_run call waits for its Run to end before it answers that
# the Run goes on; yaag_status reads it later.
wait_ms = 60000
# Each Run runs in a container of the tools image as [runner] tool_uid,
# with only its directory (read-only) and a disk of its own: its limits
# (docs/yaag/configuration.md). A Run that reaches one ends, and yaag_run
# says which (the runbook's yaag-run-limit entry).
memory_mb = 512
pids_limit = 128
cpu_seconds = 600
run_wall_ms = 1800000
disk_mb = 64
max_runs = 4
max_runs_per_session = 2

[mcp]
# The MCP servers' tools (docs/mcp.md): a server runs in a container of its
# own image for each session that calls it, in the tools' lockdown.
# A server unused this long is stopped (the next call starts it again).
idle_ms = 600000
# How long one call, a start included, may take; past it the call fails
# (mcp-call-failed) and the server is stopped.
call_timeout_ms = 120000
# A server's container is killed this long after its start, whatever it does.
lifetime_ms = 3600000
# At most this many servers run at once (each holds one of [runner]'s
# container slots): the one unused longest is stopped to make room.
max_servers = 8
# One server's CPU limit, as [runner] cpus is a tool's. No key: [runner]'s.
# cpus = 0.5

# Mattermost approvals (optional): with [gateway], each pending approval is
# handed to gatewayd, which posts it in Mattermost for !approve ID. bxctl
# answers it as ever. Reference: docs/specs/gateway.md, section 6.
#
# [gateway]
# gatewayd's [approvals] socket.
# socket = "{{.Sockets.Gateway}}"
`
