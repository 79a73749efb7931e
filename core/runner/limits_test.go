package runner

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestLimitsHoldInsideTheContainer checks from inside a tool container,
// through the run tool, which of the runner's limits the kernel actually
// enforces on this machine. docs/runner.md lists the outcome. On Debian 12
// with hybrid cgroups (v1 controllers) all of them hold. nproc held only
// once tools stopped running as root (the kernel does not apply it to uid
// 0 of the initial user namespace); it counts every process of the tool's
// uid on the host, so it bounds all calls together (budget.go), and
// pids_limit is the limit of one container.
func TestLimitsHoldInsideTheContainer(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Config)
		script string
		// mayFail: the call may end in an error, which check judges;
		// any other row's error fails it before check.
		mayFail bool
		check   func(t *testing.T, res Result, err error)
	}{
		{
			name:   "pids_limit stops forks",
			change: func(c *Config) { c.PidsLimit = 24 },
			script: "n=0; for i in $(seq 60); do sleep 5 2>/dev/null & n=$((n+1)); done; echo $n; cat /sys/fs/cgroup/pids/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids.max",
			check: func(t *testing.T, res Result, _ error) {
				if !strings.Contains(res.Stderr, "can't fork") || strings.HasPrefix(res.Stdout, "60\n") {
					t.Errorf("60 processes started under a pids limit of 24: %+v", res)
				}
			},
		},
		{
			name: "ulimit nproc is the tools' rlimit",
			// The kernel counts it per uid across the host, so this row
			// runs as a uid no process has, and checks only that the
			// limit is given; TestOneCallCannotUseUpAnothersProcesses
			// is what it bounds.
			change: func(c *Config) { c.PidsLimit, c.UlimitNproc, c.ToolUID = 64, 4000, freeToolUID(t) },
			script: "ulimit -u",
			check: func(t *testing.T, res Result, _ error) {
				if res.Stdout != "4000\n" {
					t.Errorf("ulimit -u inside: %+v, want 4000", res)
				}
			},
		},
		{
			name:    "memory_mb kills a process that goes past it",
			change:  func(c *Config) { c.MemoryMB = 48 },
			mayFail: true,
			script:  `x=$(head -c 150000000 /dev/zero | tr '\0' a); echo ${#x}`,
			check: func(t *testing.T, res Result, err error) {
				// The OOM killer may pick the executor rather than the shell:
				// then the container ends without a result, killed.
				if err != nil && strings.Contains(err.Error(), "ended with status 137") {
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if res.ExitCode != 137 || strings.Contains(res.Stdout, "150000000") {
					t.Errorf("150 MB held under a 48 MB limit: %+v", res)
				}
			},
		},
		{
			name:   "ulimit nofile caps descriptors",
			change: func(c *Config) { c.UlimitNofile = 64 },
			script: "ulimit -n; exec 100</dev/null && echo opened",
			check: func(t *testing.T, res Result, _ error) {
				if res.Stdout != "64\n" || res.ExitCode == 0 {
					t.Errorf("descriptor 100 opened under nofile 64: %+v", res)
				}
			},
		},
		{
			name:   "the root is read-only, /tmp is not",
			script: "touch /x 2>/dev/null && echo root-written; touch /bin/x 2>/dev/null && echo bin-written; touch /tmp/x && echo tmp-ok",
			check: func(t *testing.T, res Result, _ error) {
				if res.Stdout != "tmp-ok\n" {
					t.Errorf("got %+v", res)
				}
			},
		},
		{
			name:   "the network is loopback alone",
			script: "ls /sys/class/net; tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '",
			check: func(t *testing.T, res Result, _ error) {
				if res.Stdout != "lo\nlo\n" {
					t.Errorf("interfaces: %q", res.Stdout)
				}
			},
		},
		{
			name:   "no capabilities, no new privileges, seccomp on",
			script: "grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs|Seccomp):' /proc/self/status | tr -s '\t' ' '",
			check: func(t *testing.T, res Result, _ error) {
				want := "CapInh: 0000000000000000\nCapPrm: 0000000000000000\nCapEff: 0000000000000000\n" +
					"CapBnd: 0000000000000000\nCapAmb: 0000000000000000\nNoNewPrivs: 1\nSeccomp: 2\n"
				if res.Stdout != want {
					t.Errorf("got %q, want %q", res.Stdout, want)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTestRunner(t, tt.change)
			res, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "run", Paths: []string{resolvedTempDir(t)}, Command: tt.script})
			t.Logf("inside: exit %d, stdout %q, stderr %q, error %v", res.ExitCode, res.Stdout, res.Stderr, err)
			if err != nil && !tt.mayFail {
				t.Fatal(err)
			}
			tt.check(t, res, err)
		})
	}
}

// One session's call holding its container's processes must not keep
// another's from forking or starting: the kernel counts RLIMIT_NPROC per
// uid across the host, and every tool runs as the same uid. Three calls,
// each at most pids_limit processes, under an ulimit_nproc that holds
// two: without the runner's budget the third container's processes are
// refused by the kernel ("can't fork", or runc init cannot exec); with
// it, the third waits for a slot and then runs whole. It runs as a uid
// no other process has, so neighbours' containers do not count.
func TestOneCallCannotUseUpAnothersProcesses(t *testing.T) {
	uid := freeToolUID(t)
	r := newTestRunner(t, func(c *Config) { c.PidsLimit, c.UlimitNproc, c.ToolUID = 40, 80, uid })
	const script = "n=0; for i in $(seq 25); do sleep 2 & n=$((n+1)); done; wait; echo $n"
	type answer struct {
		res Result
		err error
	}
	answers := make(chan answer, 3)
	for i := 0; i < 3; i++ {
		go func() {
			res, err := r.Run(context.Background(), Call{ID: fmt.Sprintf("%s-%d", callID(t), i), Tool: "run", Paths: []string{resolvedTempDir(t)}, Command: script})
			answers <- answer{res, err}
		}()
	}
	for i := 0; i < 3; i++ {
		a := <-answers
		t.Logf("exit %d, stdout %q, stderr %q, error %v", a.res.ExitCode, a.res.Stdout, a.res.Stderr, a.err)
		switch {
		case a.err != nil:
			t.Errorf("a call did not run: %v", a.err)
		case a.res.Stdout != "25\n" || strings.Contains(a.res.Stderr, "can't fork"):
			t.Errorf("a call could not start its 25 processes beside the others: %+v", a.res)
		}
	}
}

// freeToolUID is a uid from Debian's reserved range that no process on
// the machine has, for a test whose limit the kernel counts per uid.
func freeToolUID(t *testing.T) int {
	t.Helper()
	used := map[int]bool{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		raw, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(raw), "\n") {
			if f := strings.Fields(l); len(f) > 1 && f[0] == "Uid:" {
				uid, _ := strconv.Atoi(f[1])
				used[uid] = true
			}
		}
	}
	for _, i := range rand.Perm(500) {
		if uid := 65000 + i; uid != testToolUID && !used[uid] {
			return uid
		}
	}
	t.Fatal("every uid of 65000-65499 has a process")
	return 0
}

// A program that detaches from its call (a new session, its own process
// group, the call's output closed or kept open) must not outlive the
// call: the container's pid namespace ends with the executor, its first
// process, and brokerd removes the container.
func TestADetachedChildDoesNotOutliveItsCall(t *testing.T) {
	r := newTestRunner(t, nil)
	for _, tt := range []struct{ name, detach string }{
		{"output closed", "setsid sh -c 'sleep %s' </dev/null >/dev/null 2>&1 &"},
		{"output kept open", "setsid sleep %s &"},
		{"a double fork", "(setsid sh -c '(sleep %s &) ; exit 0' &) ; sleep 0.2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mark := fmt.Sprintf("%d.%06d", 300+rand.Intn(600), rand.Intn(1000000))
			res, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "run", Paths: []string{resolvedTempDir(t)},
				Command: fmt.Sprintf(tt.detach, mark) + "\necho detached"})
			if err != nil || res.Stdout != "detached\n" || res.TimedOut {
				t.Fatalf("the call: %+v %v", res, err)
			}
			if pids := processesRunning("sleep\x00" + mark + "\x00"); len(pids) > 0 {
				for _, pid := range pids {
					syscall.Kill(pid, syscall.SIGKILL)
				}
				t.Errorf("the detached sleep %s outlived its call: pids %v", mark, pids)
			}
		})
	}
}

// processesRunning are the processes whose command line (NUL-separated,
// ending in NUL) ends with tail.
func processesRunning(tail string) []int {
	var pids []int
	eachProcess(func(pid int, dir string) {
		if raw, err := os.ReadFile(filepath.Join(dir, "cmdline")); err == nil && strings.HasSuffix(string(raw), tail) && alive(pid) {
			pids = append(pids, pid)
		}
	})
	return pids
}
