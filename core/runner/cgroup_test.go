package runner

// All of brokerd's containers together under one cgroup parent
// ([runner] total_cpus, total_memory_mb): the model runs several
// sessions at once, each can start a `run` of busy loops at [runner]
// cpus, and an MCP server runs beside them; each container's own limit
// holds, but together they could take every CPU. Each test starts such
// containers for real, reads the parent's limit from the host's cgroup
// files and the CPU all of them used there (cpuacct.usage, which counts
// every container below it), and checks it against the total times the
// wall time, plus a margin.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// removeCgroupParent removes a test instance's parent, with the conmon
// cgroups Podman leaves in it, in every controller (best effort).
func removeCgroupParent(parent string) {
	dirs, _ := filepath.Glob(filepath.Join(CgroupRoot, "*", parent))
	for _, d := range dirs {
		os.Remove(filepath.Join(d, "conmon"))
		os.Remove(d)
	}
}

// cgroupRunner is a test runner with its own instance, so its own cgroup
// parent, removed after the test.
func cgroupRunner(t *testing.T, change func(*Config)) *Runner {
	t.Helper()
	sum := sha256.Sum256([]byte(t.Name()))
	instance := testInstance + "-" + hex.EncodeToString(sum[:4])
	t.Cleanup(func() { removeCgroupParent(CgroupParent(instance)) })
	return newTestRunner(t, func(c *Config) {
		c.Instance = instance
		c.CgroupRecord = filepath.Join(t.TempDir(), "cgroup")
		if change != nil {
			change(c)
		}
	})
}

// parentFile reads a file of the parent's directory in controller ctl.
func parentFile(t *testing.T, r *Runner, ctl, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(CgroupRoot, ctl, r.parent, name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// parentUsage is the CPU, in seconds, every process below the parent
// has used.
func parentUsage(t *testing.T, r *Runner) float64 {
	ns, err := strconv.ParseInt(parentFile(t, r, "cpuacct", "cpuacct.usage"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return float64(ns) / 1e9
}

// totalMargin is what the parent may be charged beyond its limit: the
// containers' starts (runc init, conmon, the executor) and the CFS
// quota's per-CPU slices.
const totalMargin = 0.6

// checkTotal judges the CPU used below the parent (parent) and the sum
// of what each container's own cgroup says it used (each, from
// cpuHog's output) over wall against total CPUs, and that the loops ran
// at all.
func checkTotal(t *testing.T, r *Runner, total float64, parent float64, each []string, wall time.Duration) {
	t.Helper()
	want := fmt.Sprintf("%d %d", CPUQuota(total), cpuPeriod)
	got := parentFile(t, r, "cpu", "cpu.cfs_quota_us") + " " + parentFile(t, r, "cpu", "cpu.cfs_period_us")
	var sum float64
	for _, out := range each {
		sum += parseCPUHog(t, out).usage
	}
	t.Logf("total %v CPUs: the parent %s has %q; all below it used %.2f s of CPU in %.2f s, the %d containers by their own count %.2f s", total, r.parent, got, parent, wall.Seconds(), len(each), sum)
	bound := total*wall.Seconds() + totalMargin
	if sum > bound {
		t.Errorf("the containers together used %.2f s of CPU in %.2f s: more than total_cpus %v allow (%.2f s with the margin)", sum, wall.Seconds(), total, bound)
	}
	if sum < 0.2*total*wall.Seconds() {
		t.Errorf("the containers together used only %.2f s of CPU in %.2f s: they did not run", sum, wall.Seconds())
	}
	if got != want {
		t.Errorf("the host's cgroup of the parent has the CPU limit %q, want %q", got, want)
	}
	if parent > bound || parent < sum*0.9 {
		t.Errorf("the parent was charged %.2f s of CPU: want at most %.2f s and at least what the containers used (%.2f s)", parent, bound, sum)
	}
}

// TestManyRunsTogetherCannotTakeMoreThanTotalCPUs: three `run` calls at
// once, each of four busy loops at cpus = 1, with total_cpus = 0.5, on
// both routes: the parent has the quota of half a CPU, and all of them
// together use no more. Without the parent each had its own CPU and
// together they took every CPU of the host.
func TestManyRunsTogetherCannotTakeMoreThanTotalCPUs(t *testing.T) {
	const total = 0.5
	for _, route := range []struct {
		name   string
		launch string
	}{{"podman run", LaunchRun}, {"service", LaunchService}} {
		t.Run(route.name, func(t *testing.T) {
			r := cgroupRunner(t, func(c *Config) {
				c.Launch, c.CPUs, c.TotalCPUs = route.launch, 1, total
				if route.launch == LaunchService {
					c.ServiceDir = testServiceDir(t)
				}
			})
			if err := r.PrepareCgroupParent(); err != nil {
				t.Fatal(err)
			}
			d := resolvedTempDir(t)
			before, start := parentUsage(t, r), time.Now()
			var wg sync.WaitGroup
			errs, outs := make([]error, 3), make([]string, 3)
			for i := range errs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					res, err := r.Run(context.Background(), Call{ID: fmt.Sprintf("%s-%d", callID(t), i), Tool: "run", Paths: []string{d}, Command: cpuHog})
					if err == nil && res.ExitCode != 0 {
						err = fmt.Errorf("%+v", res)
					}
					errs[i], outs[i] = err, res.Stdout
				}()
			}
			wg.Wait()
			used, wall := parentUsage(t, r)-before, time.Since(start)
			for i, err := range errs {
				if err != nil {
					t.Fatalf("call %d: %v", i, err)
				}
			}
			checkTotal(t, r, total, used, outs, wall)
		})
	}
}

// TestAnMCPServerBesideACallCannotTakeMoreThanTotalCPUs: an MCP server
// of busy loops at [mcp] cpus = 1 and a `run` of busy loops at cpus =
// 1, at once, with total_cpus = 0.5: together they use no more than
// half a CPU. Without the parent, each took its own CPU.
func TestAnMCPServerBesideACallCannotTakeMoreThanTotalCPUs(t *testing.T) {
	const total = 0.5
	r := cgroupRunner(t, func(c *Config) { c.Launch, c.CPUs, c.MCPCPUs, c.TotalCPUs = LaunchRun, 1, 1, total })
	if err := r.PrepareCgroupParent(); err != nil {
		t.Fatal(err)
	}
	d := resolvedTempDir(t)
	before, start := parentUsage(t, r), time.Now()
	st, err := r.StartMCP(context.Background(), MCPServe{Name: r.ContainerName(callID(t) + "-mcp"), Image: testImage,
		Argv: []string{"/bin/sh", "-c", cpuHog}, Lifetime: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	var out []byte
	go func() {
		var err error
		out, err = st.Cmd.Output()
		st.Release()
		served <- err
	}()
	res, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "run", Paths: []string{d}, Command: cpuHog})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("the call's busy loops: %+v, %v", res, err)
	}
	if err := <-served; err != nil {
		t.Fatalf("the server's busy loops: %v", err)
	}
	checkTotal(t, r, total, parentUsage(t, r)-before, []string{res.Stdout, string(out)}, time.Since(start))
}

// TestTheParentIsBrokerdsOwn: brokerd makes the parent and writes its
// limits (the memory limit too), takes back the one its record names,
// and refuses, before any container, a directory of that name it did not
// make, or a link in its place.
func TestTheParentIsBrokerdsOwn(t *testing.T) {
	r := cgroupRunner(t, func(c *Config) { c.TotalMemoryMB = 300 })
	if err := r.PrepareCgroupParent(); err != nil {
		t.Fatal(err)
	}
	if got := parentFile(t, r, "memory", "memory.limit_in_bytes"); got != strconv.Itoa(300<<20) {
		t.Errorf("the parent's memory limit is %s, want %d", got, 300<<20)
	}
	// Another runner of the same instance (brokerd started again) takes
	// it back: the record names it.
	again, err := New(r.cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := again.PrepareCgroupParent(); err != nil {
		t.Fatalf("brokerd started again: %v", err)
	}
	// Removed and made again by someone else: the running runner refuses
	// its next container, and a new one refuses to start.
	removeCgroupParent(r.parent)
	for _, ctl := range cgroupControllers {
		os.Mkdir(filepath.Join(CgroupRoot, ctl, r.parent), 0o755)
	}
	if why := r.ready(false); !strings.Contains(why, "no longer the one brokerd made") {
		t.Errorf("a parent made again by another: ready = %q", why)
	}
	_, err = r.Run(context.Background(), Call{ID: callID(t), Tool: "run", Paths: []string{resolvedTempDir(t)}, Command: "true"})
	var start *StartError
	if !errors.As(err, &start) || !strings.Contains(start.Said, "no longer the one brokerd made") {
		t.Errorf("a call under a parent made again by another: %v", err)
	}
	other, err := New(r.cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.PrepareCgroupParent(); err == nil || !strings.Contains(err.Error(), "exists and is not brokerd's own") {
		t.Errorf("a parent brokerd did not make: %v", err)
	}
	// The cgroup file system does not take links: the same refusals
	// under a directory standing for it.
	root := t.TempDir()
	for _, ctl := range cgroupControllers {
		os.Mkdir(filepath.Join(root, ctl), 0o755)
	}
	if err := os.Symlink("/sys/fs/cgroup/cpu", filepath.Join(root, "cpu", r.parent)); err != nil {
		t.Fatal(err)
	}
	if _, err := setUpCgroupParent(root, r.parent, filepath.Join(t.TempDir(), "record"), 1, 100); err == nil || !strings.Contains(err.Error(), "is a link") {
		t.Errorf("a link in the parent's place: %v", err)
	}
	os.Remove(filepath.Join(root, "cpu", r.parent))
	if _, err := setUpCgroupParent(root, r.parent, filepath.Join(t.TempDir(), "record"), 1, 100); err == nil || !strings.Contains(err.Error(), "not on a cgroup v1 file system") {
		t.Errorf("a parent outside the cgroup file system: %v", err)
	}
	// cgroup v2 is refused where it cannot be set, before any container.
	v2 := t.TempDir()
	os.WriteFile(filepath.Join(v2, "cgroup.controllers"), []byte("cpu memory pids\n"), 0o644)
	if _, err := setUpCgroupParent(v2, r.parent, filepath.Join(t.TempDir(), "record"), 1, 100); err == nil || !strings.Contains(err.Error(), "cgroup v2") {
		t.Errorf("a cgroup v2 hierarchy: %v", err)
	}
	// A runner with no cgroup root (brokerd check-config's) starts no
	// container.
	none, err := New(func() Config { c := r.cfg; c.CgroupRoot = ""; return c }())
	if err != nil {
		t.Fatal(err)
	}
	if why := none.ready(false); !strings.Contains(why, "no cgroup parent") {
		t.Errorf("no cgroup root: ready = %q", why)
	}
}

// memoryHog holds 40 MiB (dd's buffer, blocked on a pipe no one reads)
// for three seconds.
const memoryHog = `dd if=/dev/zero bs=40M count=1 2>/dev/null | sleep 3`

// TestManyRunsTogetherCannotHoldMoreThanTotalMemory: three `run` calls
// at once, each holding 40 MiB under memory_mb = 256, with
// total_memory_mb = 64: the parent has the limit, and the most they held
// there together is at least one call's and within the limit. Without
// the parent nothing was charged to it, and each held its own 40 MiB.
// Two calls that overlap cannot both hold 40 MiB under 64: one may be
// killed at the limit (status 137, refused as a call killed at a limit),
// which is the limit doing its work; at least one call must end well,
// and no call may fail otherwise. (This machine has no swap; about one
// run in six overlaps so.)
func TestManyRunsTogetherCannotHoldMoreThanTotalMemory(t *testing.T) {
	const total = 64
	r := cgroupRunner(t, func(c *Config) { c.Launch, c.MemoryMB, c.TotalMemoryMB = LaunchRun, 256, total })
	if err := r.PrepareCgroupParent(); err != nil {
		t.Fatal(err)
	}
	d := resolvedTempDir(t)
	var wg sync.WaitGroup
	var ok atomic.Int32
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := r.Run(context.Background(), Call{ID: fmt.Sprintf("%s-%d", callID(t), i), Tool: "run", Paths: []string{d}, Command: memoryHog})
			switch {
			case err == nil:
				ok.Add(1)
			case strings.Contains(err.Error(), "ended with status 137 without a result (killed at a limit?)"):
				t.Logf("call %d was killed at the limit: %v", i, err)
			default:
				t.Errorf("call %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if ok.Load() == 0 {
		t.Error("no call ended well: each should have its 40 MiB while the others wait or are killed")
	}
	limit := parentFile(t, r, "memory", "memory.limit_in_bytes")
	peak, _ := strconv.ParseInt(parentFile(t, r, "memory", "memory.max_usage_in_bytes"), 10, 64)
	failed := parentFile(t, r, "memory", "memory.failcnt") + " " + parentFile(t, r, "memory", "memory.memsw.failcnt") + " " + strings.ReplaceAll(parentFile(t, r, "memory", "memory.oom_control"), "\n", ",")
	t.Logf("total %d MiB: the parent %s has the limit %s, held at most %.1f MiB (max_usage_in_bytes %d; failcnt, memsw.failcnt, oom_control: %s)", total, r.parent, limit, float64(peak)/(1<<20), peak, failed)
	if limit != strconv.Itoa(total<<20) {
		t.Errorf("the host's cgroup of the parent has the memory limit %s, want %d", limit, total<<20)
	}
	// The kernel may charge a few pages past the limit before it
	// reclaims (its per-CPU charge batches): 1 MiB of margin.
	if peak > (total+1)<<20 || peak < 40<<20 {
		t.Errorf("the parent held at most %.1f MiB: want at least one call's 40 MiB and at most total_memory_mb %d", float64(peak)/(1<<20), total)
	}
}

// TestAStoppingBrokerdRemovesOnlyItsOwnEmptyParent: after a call, the
// parent (with the conmon cgroup Podman left in it) is removed in every
// controller; one made again by another is left as it is.
func TestAStoppingBrokerdRemovesOnlyItsOwnEmptyParent(t *testing.T) {
	r := cgroupRunner(t, func(c *Config) { c.Launch = LaunchRun })
	if res, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "run", Paths: []string{resolvedTempDir(t)}, Command: "true"}); err != nil || res.ExitCode != 0 {
		t.Fatalf("the call: %+v, %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(CgroupRoot, "pids", r.parent, "conmon")); err != nil {
		t.Fatalf("Podman left no conmon cgroup in the parent: %v", err)
	}
	r.RemoveCgroupParent()
	if left, _ := filepath.Glob(filepath.Join(CgroupRoot, "*", r.parent)); len(left) > 0 {
		t.Errorf("left after brokerd stopped: %v", left)
	}
	again := cgroupRunner(t, nil)
	if err := again.PrepareCgroupParent(); err != nil {
		t.Fatal(err)
	}
	removeCgroupParent(again.parent)
	for _, ctl := range cgroupControllers {
		os.Mkdir(filepath.Join(CgroupRoot, ctl, again.parent), 0o755)
	}
	again.RemoveCgroupParent()
	if _, err := os.Stat(filepath.Join(CgroupRoot, "cpu", again.parent)); err != nil {
		t.Errorf("a parent brokerd did not make was removed: %v", err)
	}
}

// TestACgroupV2HostRunsEachContainerAloneUnlessATotalIsAsked: the parent
// is made and tested on cgroup v1 only (D1139). On a unified hierarchy a
// brokerd whose owner asked for no total starts, says so, and runs each
// container under its own cpus and memory_mb, with no --cgroup-parent
// (D1140); one whose owner set total_cpus or total_memory_mb refuses to
// start there. Before D1140 every cgroup v2 host refused to start.
func TestACgroupV2HostRunsEachContainerAloneUnlessATotalIsAsked(t *testing.T) {
	v2 := t.TempDir()
	if err := os.WriteFile(filepath.Join(v2, "cgroup.controllers"), []byte("cpu memory pids\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	alone := cgroupRunner(t, func(c *Config) { c.CgroupRoot = v2; c.CPUs = 0.5; c.TotalCPUs = 0.25 })
	if why := alone.NoCgroupParent(); !strings.Contains(why, "cgroup v2") {
		t.Fatalf("no total asked on a cgroup v2 host: NoCgroupParent = %q", why)
	}
	if err := alone.PrepareCgroupParent(); err != nil {
		t.Fatalf("no total asked on a cgroup v2 host: %v", err)
	}
	args := alone.lockdown("x", "none", time.Second, alone.cfg.CPUs)
	if slices.Contains(args, "--cgroup-parent") || !slices.Contains(args, strconv.FormatInt(CPUQuota(0.5), 10)) {
		t.Errorf("a container with no parent keeps its own cpus, uncapped by the total: %q", args)
	}
	if alone.CgroupParent() != "" || alone.ready(false) != "" {
		t.Errorf("no parent: CgroupParent %q, ready %q", alone.CgroupParent(), alone.ready(false))
	}
	dir := resolvedTempDir(t)
	res, err := alone.Run(context.Background(), Call{ID: callID(t), Tool: "run", Paths: []string{dir}, Command: "cat /proc/self/cgroup"})
	if err != nil || res.ExitCode != 0 || strings.Contains(res.Stdout, CgroupParent(alone.cfg.Instance)+"/") || !strings.Contains(res.Stdout, "libpod") {
		t.Errorf("a call with no parent: %v, exit %d, %q", err, res.ExitCode, res.Stdout)
	}
	asked := cgroupRunner(t, func(c *Config) { c.CgroupRoot = v2; c.TotalRequired = true })
	if asked.NoCgroupParent() != "" {
		t.Errorf("a total asked for: NoCgroupParent = %q", asked.NoCgroupParent())
	}
	if err := asked.PrepareCgroupParent(); err == nil || !strings.Contains(err.Error(), "cgroup v2") {
		t.Errorf("a total asked for on a cgroup v2 host: %v", err)
	}
}

// TestASystemdManagedPodmanGetsNoParentUnlessATotalIsAsked: Podman
// managing cgroups with systemd (containers.conf's cgroup_manager, or
// its default where process 1 is systemd) takes a parent only as a
// slice and refused every call given /boxmaker-<hex> (a booted Debian 12,
// TestBootDebian12). There brokerd makes no parent unless a total was
// asked for, which refuses every container instead (D1140).
func TestASystemdManagedPodmanGetsNoParentUnlessATotalIsAsked(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	systemd, other := write("comm-systemd", "systemd\n"), write("comm-other", "tini\n")
	set := write("set.conf", "[engine]\ncgroup_manager = \"systemd\"\n")
	fs := write("fs.conf", "[engine]\ncgroup_manager = \"cgroupfs\"\n")
	none := write("none.conf", "[containers]\nlog_driver = \"k8s-file\"\n")
	for _, tc := range []struct {
		files      []string
		init, want string
	}{
		{[]string{none}, systemd, "systemd"},
		{[]string{none}, other, "cgroupfs"},
		{nil, filepath.Join(dir, "no-such-comm"), "cgroupfs"},
		{[]string{set}, other, "systemd"},
		{[]string{set, fs}, systemd, "cgroupfs"},
	} {
		if got, err := podmanCgroupManager(tc.files, tc.init); err != nil || got != tc.want {
			t.Errorf("podmanCgroupManager(%q, %s) = %q, %v; want %q", tc.files, tc.init, got, err, tc.want)
		}
	}
	v1 := t.TempDir()
	confs := func() ([]string, error) { return []string{none}, nil }
	if why := noParentHere(v1, confs, systemd); !strings.Contains(why, "with systemd") {
		t.Errorf("systemd as process 1: noParentHere = %q", why)
	}
	if why := noParentHere(v1, confs, other); why != "" {
		t.Errorf("cgroupfs on cgroup v1: noParentHere = %q", why)
	}
}
