package runner

// The CPU limit ([runner] cpus, [mcp] cpus) as the kernel holds it: the
// model runs several sessions at once, each can start a `run` that keeps
// every CPU of the host busy for timeout_ms, and an MCP server can for
// as long as it lives. Each test starts such a container for real and
// reads its limit twice: as the container sees its own cgroup, and from
// the host, in the cgroup of the container's ID (asked of Podman by the
// runner's name for it, never a name the model chose); and it checks
// that the CPU the container used over its life is at most the limit
// times the wall time, plus a margin for the kernel's accounting.

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// cpuHog keeps four busy loops going for four seconds, and prints the
// container's CPU limit as it sees its own cgroup ("max=<quota>
// <period>", cgroup v1 or v2), the wall time the loops ran (from
// /proc/uptime, in seconds) and the CPU the container's cgroup had used
// over its life by their end ("usage=<ns>").
const cpuHog = `if [ -r /sys/fs/cgroup/cpu.max ]; then
	max() { cat /sys/fs/cgroup/cpu.max; }
	usage() { echo $(( $(sed -n 's/^usage_usec //p' /sys/fs/cgroup/cpu.stat) * 1000 )); }
else
	max() { echo "$(cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us) $(cat /sys/fs/cgroup/cpu/cpu.cfs_period_us)"; }
	usage() { cat /sys/fs/cgroup/cpuacct/cpuacct.usage 2>/dev/null || cat /sys/fs/cgroup/cpu,cpuacct/cpuacct.usage; }
fi
echo "max=$(max)"
t0=$(cut -d' ' -f1 /proc/uptime)
for i in 1 2 3 4; do (while :; do :; done) & pids="$pids $!"; done
sleep 4
kill $pids
echo "usage=$(usage)"
t1=$(cut -d' ' -f1 /proc/uptime)
echo "wall=$t0 $t1"
`

// cpuSeen is what cpuHog printed.
type cpuSeen struct {
	max   string  // "<quota> <period>": -1 or "max" for no limit
	wall  float64 // seconds
	usage float64 // CPU seconds
}

func parseCPUHog(t *testing.T, out string) cpuSeen {
	t.Helper()
	var s cpuSeen
	var t0, t1 float64
	var ns int64
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		k, v, _ := strings.Cut(l, "=")
		var err error
		switch k {
		case "max":
			s.max = v
		case "usage":
			ns, err = strconv.ParseInt(v, 10, 64)
		case "wall":
			_, err = fmt.Sscanf(v, "%g %g", &t0, &t1)
		}
		if err != nil {
			t.Fatalf("the busy loops' line %q: %v", l, err)
		}
	}
	if s.max == "" || ns == 0 || t1 <= t0 {
		t.Fatalf("the busy loops printed %q", out)
	}
	s.wall, s.usage = t1-t0, float64(ns)/1e9
	return s
}

// cpuMargin is what a container may use beyond its limit: its start
// (runc init, the executor, the shell), counted in its life but not in
// the loops' wall time, and the CFS quota's per-CPU slices.
const cpuMargin = 0.3

// checkCPULimit judges what the container saw and used against cpus, and
// the host's reading of its cgroup (watchCPULimit).
func checkCPULimit(t *testing.T, cpus float64, seen cpuSeen, host string) {
	t.Helper()
	want := fmt.Sprintf("%d %d", CPUQuota(cpus), cpuPeriod)
	t.Logf("limit %v CPUs: the container saw %q, the host %q; it used %.2f s of CPU in %.2f s of busy loops", cpus, seen.max, host, seen.usage, seen.wall)
	if seen.max != want {
		t.Errorf("the container's own cgroup has the CPU limit %q, want %q", seen.max, want)
	}
	if host != want {
		t.Errorf("the host's cgroup of the container's ID has the CPU limit %q, want %q", host, want)
	}
	if bound := cpus*seen.wall + cpuMargin; seen.usage > bound {
		t.Errorf("four busy loops used %.2f s of CPU in %.2f s: more than %v CPUs allow (%.2f s with the margin)", seen.usage, seen.wall, cpus, bound)
	}
	if seen.usage < 0.1*cpus*seen.wall {
		t.Errorf("four busy loops used only %.2f s of CPU in %.2f s: they did not run", seen.usage, seen.wall)
	}
}

// watchCPULimit reads, from the host, the CPU limit of the container the
// runner calls name in store: it asks Podman for the container's ID,
// finds the cgroup directory named after that ID, and sends its limit
// ("<quota> <period>") once, or what kept it from reading it when done
// is closed first.
func watchCPULimit(store Store, name string, done <-chan struct{}) <-chan string {
	found := make(chan string, 1)
	go func() {
		why := "the container was never seen running"
		for {
			select {
			case <-done:
				found <- why
				return
			case <-time.After(100 * time.Millisecond):
			}
			out, err := exec.Command("podman", append(store.Flags(), "inspect", "--format", "{{.Id}} {{.State.Running}}", name)...).Output()
			id, running, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
			if err != nil || running != "true" || len(id) != 64 {
				continue
			}
			limit, err := hostCPULimit(id)
			if err != nil {
				why = err.Error()
				continue
			}
			found <- limit
			return
		}
	}()
	return found
}

// hostCPULimit is the CPU limit of the cgroup of the container id, as
// the host's cgroup files have it: cgroup v1's cpu controller (the
// cgroupfs manager's libpod-<id>, or systemd's libpod-<id>.scope), or
// cgroup v2's cpu.max.
func hostCPULimit(id string) (string, error) {
	root := "/sys/fs/cgroup/cpu"
	if _, err := os.Stat("/sys/fs/cgroup/cgroup.controllers"); err == nil {
		root = "/sys/fs/cgroup"
	}
	var dir string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		switch d.Name() {
		case id, "libpod-" + id, "libpod-" + id + ".scope":
			dir = p
			return fs.SkipAll
		}
		return nil
	})
	if dir == "" {
		return "", fmt.Errorf("no cgroup of container %s under %s", id, root)
	}
	if max, err := os.ReadFile(filepath.Join(dir, "cpu.max")); err == nil {
		return strings.TrimSpace(string(max)), nil
	}
	quota, err := os.ReadFile(filepath.Join(dir, "cpu.cfs_quota_us"))
	if err != nil {
		return "", err
	}
	period, err := os.ReadFile(filepath.Join(dir, "cpu.cfs_period_us"))
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(quota)) + " " + strings.TrimSpace(string(period)), nil
}

// TestARunCannotTakeMoreThanItsCPUs: a `run` of four busy loops, through
// `podman run` and through the service, gets [runner] cpus (a quarter of
// a CPU here, so that a host of two busy CPUs still shows the
// difference) and no more. Without the limit, the container's cgroup
// had no quota (-1) and the loops took every CPU the host could give.
func TestARunCannotTakeMoreThanItsCPUs(t *testing.T) {
	const cpus = 0.25
	for _, route := range []struct {
		name string
		r    func(t *testing.T) *Runner
	}{
		{"podman run", func(t *testing.T) *Runner {
			return newTestRunner(t, func(c *Config) { c.Launch, c.CPUs = LaunchRun, cpus })
		}},
		{"service", func(t *testing.T) *Runner { return serviceRunner(t, func(c *Config) { c.CPUs = cpus }) }},
	} {
		t.Run(route.name, func(t *testing.T) {
			r := route.r(t)
			c := Call{ID: callID(t), Tool: "run", Paths: []string{resolvedTempDir(t)}, Command: cpuHog}
			done := make(chan struct{})
			host := watchCPULimit(r.cfg.Store, r.ContainerName(c.ID), done)
			res, err := r.Run(context.Background(), c)
			close(done)
			if err != nil || res.ExitCode != 0 {
				t.Fatalf("the busy loops: %+v, %v", res, err)
			}
			checkCPULimit(t, cpus, parseCPUHog(t, res.Stdout), <-host)
		})
	}
}

// TestAnMCPServerCannotTakeMoreThanItsCPUs: an MCP server's container of
// four busy loops gets [mcp] cpus, its own limit (a quarter of a CPU,
// where the tools' is one), and no more. Without the limit, its cgroup
// had no quota and the server could keep every CPU busy for as long as
// it lived.
func TestAnMCPServerCannotTakeMoreThanItsCPUs(t *testing.T) {
	const cpus = 0.25
	r := newTestRunner(t, func(c *Config) { c.CPUs, c.MCPCPUs = 1, cpus })
	name := r.ContainerName(callID(t))
	st, err := r.StartMCP(context.Background(), MCPServe{Name: name, Image: testImage, Argv: []string{"/bin/sh", "-c", cpuHog},
		Lifetime: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	host := watchCPULimit(Store{}, name, done) // MCP servers run in the default store (D1047)
	out, err := st.Cmd.Output()
	close(done)
	st.Release()
	if err != nil {
		t.Fatalf("the busy loops: %v: %s", err, out)
	}
	checkCPULimit(t, cpus, parseCPUHog(t, string(out)), <-host)
}
