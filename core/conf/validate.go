package conf

import (
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	homepkg "boxmaker/core/home"
)

// A configuration type that has values decoding cannot judge (a duration
// in a string, a path that must stay out of a directory, a number's range)
// has a Validate method beside it, here: it returns the first value that
// cannot work, in words that follow the file's path ("<path>: <problem>"),
// and nil when every value can. A daemon calls it before anything else
// (roles/rolecli.LoadConfig).
//
// A key whose zero value means "the default" has a method that returns
// the value in force, default applied: this file is where the defaults
// the templates' comments promise are written.

// Validate is brokerd.toml's check.
func (c *Brokerd) Validate() error {
	if _, err := c.Approvals.Expire(); err != nil {
		return err
	}
	if c.Audit.MaxFileMB < 0 || c.Audit.MaxFileMB > 1<<20 {
		return fmt.Errorf("[audit] max_file_mb %d is not between 0 (64 MiB) and 1048576 (1 TiB)", c.Audit.MaxFileMB)
	}
	for _, k := range []struct {
		name string
		v    *int
		max  int
	}{{"reserve_mb", c.Audit.ReserveMB, 1 << 10}, {"min_free_mb", c.Audit.MinFreeMB, 1 << 20}} {
		if k.v != nil && (*k.v < 0 || *k.v > k.max) {
			return fmt.Errorf("[audit] %s %d is not between 0 (off) and %d", k.name, *k.v, k.max)
		}
	}
	witness := c.Audit.Witness(c.Home)
	switch clean, log := filepath.Clean(witness), filepath.Join(c.Home, homepkg.DirAudit); {
	case !filepath.IsAbs(witness):
		return fmt.Errorf("[audit] witness_file %q is not an absolute path", witness)
	case clean == log || strings.HasPrefix(clean, log+"/"):
		return fmt.Errorf("[audit] witness_file %q is inside the audit directory: it must be kept apart from the log it witnesses", witness)
	}
	if c.Audit.WitnessEvery < 0 || c.Audit.WitnessEvery > 86400 {
		return fmt.Errorf("[audit] witness_every %d is not between 0 (60) and 86400", c.Audit.WitnessEvery)
	}
	if c.Memory.Socket == "" || c.Memory.TimeoutMS <= 0 {
		return fmt.Errorf("[memory] needs a socket and a timeout_ms of more than 0")
	}
	if c.Paths.MCP != "" && !filepath.IsAbs(c.Paths.MCP) {
		// A relative directory would be read from wherever a command
		// runs, and could not be protected as the harness's.
		return fmt.Errorf("[paths] mcp %q is not an absolute path", c.Paths.MCP)
	}
	if c.Gateway != nil && !filepath.IsAbs(c.Gateway.SocketIn(c.Home)) {
		return fmt.Errorf("[gateway] socket %q is not an absolute path", c.Gateway.Socket)
	}
	if err := c.MCP.validate(); err != nil {
		return err
	}
	return c.Yaag.validate()
}

// Expire is expire_after as a duration.
func (a BrokerdApprovals) Expire() (time.Duration, error) {
	d, err := time.ParseDuration(a.ExpireAfter)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("[approvals] expire_after %q is not a duration such as \"10m\"", a.ExpireAfter)
	}
	return d, nil
}

// Witness is witness_file, or <home>/broker/audit-witness.
func (a BrokerdAudit) Witness(home string) string {
	if a.WitnessFile == "" {
		return filepath.Join(home, "broker", "audit-witness")
	}
	return a.WitnessFile
}

// Reserve is reserve_mb in bytes (no key: 8 MiB; 0: off).
func (a BrokerdAudit) Reserve() int64 { return int64(orDefault(a.ReserveMB, 8)) << 20 }

// MinFree is min_free_mb in bytes (no key: 64 MiB; 0: off).
func (a BrokerdAudit) MinFree() int64 { return int64(orDefault(a.MinFreeMB, 64)) << 20 }

// Wait is wait_ms (0: one minute).
func (y BrokerdYaag) Wait() time.Duration { return millis(y.WaitMS, 60000) }

// Idle is [mcp] idle_ms (0: ten minutes).
func (m BrokerdMCP) Idle() time.Duration { return millis(m.IdleMS, 600000) }

// CallTimeout is [mcp] call_timeout_ms (0: two minutes).
func (m BrokerdMCP) CallTimeout() time.Duration { return millis(m.CallTimeoutMS, 120000) }

// Lifetime is [mcp] lifetime_ms (0: an hour).
func (m BrokerdMCP) Lifetime() time.Duration { return millis(m.LifetimeMS, 3600000) }

func (m BrokerdMCP) validate() error {
	for _, k := range []struct {
		name   string
		v, max int
	}{{"idle_ms", m.IdleMS, 86400000}, {"call_timeout_ms", m.CallTimeoutMS, 86400000}, {"lifetime_ms", m.LifetimeMS, 86400000 * 7}, {"max_servers", m.MaxServers, 1024}} {
		if k.v < 0 || k.v > k.max {
			return fmt.Errorf("[mcp] %s %d is not between 0 (its default) and %d", k.name, k.v, k.max)
		}
	}
	return nil
}

// YaagLimits are [yaag]'s limits of one Run, defaults applied.
type YaagLimits struct {
	MemoryMB, PidsLimit, CPUSeconds, DiskMB int
	Wall                                    time.Duration
	MaxRuns, MaxRunsPerSession              int
}

// Limits is [yaag]'s limits, each 0 replaced by its default.
func (y BrokerdYaag) Limits() YaagLimits {
	or := func(v, d int) int {
		if v <= 0 {
			return d
		}
		return v
	}
	return YaagLimits{MemoryMB: or(y.MemoryMB, 512), PidsLimit: or(y.PidsLimit, 128), CPUSeconds: or(y.CPUSeconds, 600),
		DiskMB: or(y.DiskMB, 64), Wall: millis(y.RunWallMS, 1800000), MaxRuns: or(y.MaxRuns, 4), MaxRunsPerSession: or(y.MaxRunsPerSession, 2)}
}

func (y BrokerdYaag) validate() error {
	for _, k := range []struct {
		name   string
		v, max int
	}{{"wait_ms", y.WaitMS, 86400000}, {"memory_mb", y.MemoryMB, 1 << 20}, {"pids_limit", y.PidsLimit, 1 << 16},
		{"cpu_seconds", y.CPUSeconds, 86400 * 7}, {"run_wall_ms", y.RunWallMS, 86400000 * 7}, {"disk_mb", y.DiskMB, 1 << 20},
		{"max_runs", y.MaxRuns, 1024}, {"max_runs_per_session", y.MaxRunsPerSession, 1024}} {
		if k.v < 0 || k.v > k.max {
			return fmt.Errorf("[yaag] %s %d is not between 0 (its default) and %d", k.name, k.v, k.max)
		}
	}
	if y.MemoryMB != 0 && y.MemoryMB < 32 {
		return fmt.Errorf("[yaag] memory_mb %d is below 32: a Run's runtime alone needs more", y.MemoryMB)
	}
	if y.PidsLimit != 0 && y.PidsLimit < 16 {
		return fmt.Errorf("[yaag] pids_limit %d is below 16: a Run's runtime alone has more threads", y.PidsLimit)
	}
	return nil
}

// CPU limits ([runner] cpus, [mcp] cpus): a CFS quota per container.
const (
	// DefaultCPUs is [runner] cpus when the key is absent: one CPU.
	DefaultCPUs = 1.0
	// MinCPUs is the least limit: the kernel takes no CFS quota under
	// 1 ms of a period, and Podman's period is 100 ms.
	MinCPUs = 0.01
)

// CPULimit is [runner] cpus, or DefaultCPUs.
func (r Runner) CPULimit() float64 {
	if r.CPUs == nil {
		return DefaultCPUs
	}
	return *r.CPUs
}

// CPULimit is [mcp] cpus, or the runner's.
func (m BrokerdMCP) CPULimit(r Runner) float64 {
	if m.CPUs == nil {
		return r.CPULimit()
	}
	return *m.CPUs
}

// checkValues is brokerd.toml's check of the values Decode judges with
// their lines: the CPU limits, against this host's CPUs (what the
// process may run on: a container, brokerd's grandchild, runs on no
// more).
func (c *Brokerd) checkValues(data []byte) []Problem {
	var problems []Problem
	for _, k := range []struct {
		table string
		v     *float64
	}{{"runner", c.Runner.CPUs}, {"mcp", c.MCP.CPUs}} {
		if k.v == nil {
			continue
		}
		if why := CPUsProblem(*k.v, runtime.NumCPU()); why != "" {
			problems = append(problems, Problem{Line: tableKeyLine(data, k.table, "cpus"), Key: k.table + ".cpus",
				Text: fmt.Sprintf("[%s] cpus %s", k.table, why)})
		}
	}
	if v := c.Runner.TotalCPUs; v != nil {
		if why := CPUsProblem(*v, runtime.NumCPU()); why != "" {
			problems = append(problems, Problem{Line: tableKeyLine(data, "runner", "total_cpus"), Key: "runner.total_cpus",
				Text: fmt.Sprintf("[runner] total_cpus %s", why)})
		}
	}
	if v := c.Runner.TotalMemoryMB; v != nil {
		if why := TotalMemoryProblem(*v, HostMemoryMB()); why != "" {
			problems = append(problems, Problem{Line: tableKeyLine(data, "runner", "total_memory_mb"), Key: "runner.total_memory_mb",
				Text: "[runner] total_memory_mb " + why})
		}
	}
	return problems
}

// MinTotalMemoryMB is the least [runner] total_memory_mb: a container
// and its runtime need some.
const MinTotalMemoryMB = 64

// TotalCPULimit is [runner] total_cpus, or this host's host CPUs less
// one, at least 1: brokerd's containers together leave one CPU to the
// rest of the machine.
func (r Runner) TotalCPULimit(host int) float64 {
	if r.TotalCPUs != nil {
		return *r.TotalCPUs
	}
	return float64(max(host-1, 1))
}

// TotalMemoryLimit is [runner] total_memory_mb, or half of hostMB.
func (r Runner) TotalMemoryLimit(hostMB int) int {
	if r.TotalMemoryMB != nil {
		return *r.TotalMemoryMB
	}
	return max(hostMB/2, MinTotalMemoryMB)
}

// TotalMemoryProblem says why mb cannot be the memory limit of all of
// brokerd's containers on a host of hostMB MiB, or "".
func TotalMemoryProblem(mb, hostMB int) string {
	switch {
	case mb < MinTotalMemoryMB:
		return fmt.Sprintf("%d is below %d: all of brokerd's containers together need at least %d MiB", mb, MinTotalMemoryMB, MinTotalMemoryMB)
	case hostMB > 0 && mb > hostMB:
		return fmt.Sprintf("%d is above this host's %d MiB of memory: the limit would hold nothing back; write at most %d", mb, hostMB, hostMB)
	}
	return ""
}

// HostMemoryMB is this host's memory in MiB (0 when it cannot be read).
func HostMemoryMB() int {
	var si unix.Sysinfo_t
	if unix.Sysinfo(&si) != nil {
		return 0
	}
	return int(uint64(si.Totalram) * uint64(si.Unit) >> 20)
}

// CPUsProblem says why cpus cannot be a container's CPU limit on a host
// of host CPUs, or "" when it can.
func CPUsProblem(cpus float64, host int) string {
	v := strconv.FormatFloat(cpus, 'g', -1, 64)
	switch {
	case math.IsNaN(cpus) || math.IsInf(cpus, 0):
		return fmt.Sprintf("%s is not a number of CPUs: write one from %v to %d (this host's CPUs), such as 0.5", v, MinCPUs, host)
	case cpus <= 0:
		return fmt.Sprintf("%s is not more than 0: a container's CPU limit is a number of CPUs from %v to %d (this host's), such as 0.5", v, MinCPUs, host)
	case cpus < MinCPUs:
		return fmt.Sprintf("%s is below %v, the least CPU limit the kernel takes (1 ms of each 100 ms)", v, MinCPUs)
	case cpus > float64(host):
		return fmt.Sprintf("%s is above this host's %d CPUs: no container can use more, so the limit would hold nothing back; write at most %d", v, host, host)
	}
	return ""
}

// The [runner] defaults core/runner applies to a zero value, and
// brokerd's template writes out.
const (
	// DefaultToolUID is the uid (and gid) tools run as when tool_uid is
	// 0: in Debian's reserved range 65000-65533, which no package or
	// person is given.
	DefaultToolUID = 65533
	// DefaultSeccompBase is the profile the tools' is made from when
	// seccomp_base is empty: the one Podman itself applies (Debian's
	// containers-common package installs it).
	DefaultSeccompBase = "/usr/share/containers/seccomp.json"
)

// SocketIn is socket, or home's run/gateway/gateway.sock.
func (g BrokerdGateway) SocketIn(home string) string {
	if g.Socket == "" {
		return filepath.Join(home, homepkg.SocketGateway)
	}
	return g.Socket
}

// Validate is memoryd.toml's check ([honcho] is core/honcho's).
func (c *Memoryd) Validate() error {
	switch {
	case c.Home == "":
		return fmt.Errorf("home is empty: name the directory memory/, index/ and sessions/ are in")
	case c.Sockets.Block == "" || c.Sockets.Broker == "" || c.Sockets.Admin == "":
		return fmt.Errorf("[sockets] needs block, broker and admin")
	case c.Broker.State == "":
		return fmt.Errorf("[broker] state is empty: memoryd asks brokerd's state socket before every memory write")
	case c.Broker.TimeoutMS <= 0:
		return fmt.Errorf("[broker] timeout_ms must be more than 0")
	case c.Recall.SyncMS < 0:
		return fmt.Errorf("[recall] sync_ms must be 0 or more")
	}
	return nil
}

// Validate is loopd.toml's check.
func (c *Loopd) Validate() error {
	for _, req := range []struct{ key, value string }{
		{"home", c.Home}, {"model", c.Model}, {"[inference] socket", c.Inference.Socket}, {"[sockets] loop", c.Sockets.Loop},
	} {
		if req.value == "" {
			return fmt.Errorf("%s is empty", req.key)
		}
	}
	if c.Inference.MaxTokens < 0 || c.Inference.StartWaitMS < 0 {
		return fmt.Errorf("[inference] max_tokens and start_wait_ms must not be negative")
	}
	if r := c.Expect.MinCacheReuse; r < 0 || r > 1 {
		return fmt.Errorf("[expect] min_cache_reuse is %v, not between 0 and 1", r)
	}
	return nil
}

// Timeout is [inference] timeout_ms (0: two minutes).
func (i LoopInference) Timeout() time.Duration { return millis(i.TimeoutMS, 120000) }

// StartWait is [inference] start_wait_ms (0: two minutes).
func (i LoopInference) StartWait() time.Duration { return millis(i.StartWaitMS, 120000) }

// Silent is [broker] timeout_ms (0: 30 seconds).
func (b LoopBroker) Silent() time.Duration { return millis(b.TimeoutMS, 30000) }

func millis(ms, dflt int) time.Duration {
	if ms <= 0 {
		ms = dflt
	}
	return time.Duration(ms) * time.Millisecond
}

func orDefault(v *int, dflt int) int {
	if v == nil {
		return dflt
	}
	return *v
}
