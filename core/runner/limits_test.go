package runner

import (
	"context"
	"strings"
	"testing"
)

// TestLimitsHoldInsideTheContainer checks from inside a tool container,
// through the run tool, which of the runner's limits the kernel actually
// enforces on this machine. docs/runner.md lists the outcome. On Debian 12
// with hybrid cgroups (v1 controllers) all of them hold. nproc held only
// once tools stopped running as root (the kernel does not apply it to uid
// 0 of the initial user namespace); it counts every process of the tool's
// uid on the host, so it bounds all calls together, and pids_limit is the
// limit of one call.
func TestLimitsHoldInsideTheContainer(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Config)
		script string
		check  func(t *testing.T, res Result, err error)
	}{
		{
			name:   "pids_limit stops forks",
			change: func(c *Config) { c.PidsLimit, c.UlimitNproc = 24, 10000 },
			script: "n=0; for i in $(seq 60); do sleep 5 2>/dev/null & n=$((n+1)); done; echo $n; cat /sys/fs/cgroup/pids/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids.max",
			check: func(t *testing.T, res Result, err error) {
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(res.Stderr, "can't fork") || strings.HasPrefix(res.Stdout, "60\n") {
					t.Errorf("60 processes started under a pids limit of 24: %+v", res)
				}
			},
		},
		{
			name: "ulimit nproc holds for the tool's uid",
			// nproc counts every process of the uid on the host: this row
			// runs as a uid of its own, which no other test's tools use.
			change: func(c *Config) { c.PidsLimit, c.UlimitNproc, c.ToolUID = 1000, 10, testToolUID-1 },
			script: "ulimit -u; n=0; for i in $(seq 30); do sleep 5 2>/dev/null & n=$((n+1)); done; echo $n",
			check: func(t *testing.T, res Result, err error) {
				if err != nil {
					t.Fatal(err)
				}
				lines := strings.Fields(res.Stdout)
				if len(lines) < 1 || lines[0] != "10" {
					t.Fatalf("unexpected output %+v", res)
				}
				if !strings.Contains(res.Stderr, "can't fork") {
					t.Errorf("30 processes started under nproc 10: %+v", res)
				}
			},
		},
		{
			name:   "memory_mb kills a process that goes past it",
			change: func(c *Config) { c.MemoryMB = 48 },
			script: `x=$(head -c 150000000 /dev/zero | tr '\0' a); echo ${#x}`,
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
			check: func(t *testing.T, res Result, err error) {
				if err != nil {
					t.Fatal(err)
				}
				if res.Stdout != "64\n" || res.ExitCode == 0 {
					t.Errorf("descriptor 100 opened under nofile 64: %+v", res)
				}
			},
		},
		{
			name:   "the root is read-only, /tmp is not",
			script: "touch /x 2>/dev/null && echo root-written; touch /bin/x 2>/dev/null && echo bin-written; touch /tmp/x && echo tmp-ok",
			check: func(t *testing.T, res Result, err error) {
				if err != nil {
					t.Fatal(err)
				}
				if res.Stdout != "tmp-ok\n" {
					t.Errorf("got %+v", res)
				}
			},
		},
		{
			name:   "the network is loopback alone",
			script: "ls /sys/class/net; tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '",
			check: func(t *testing.T, res Result, err error) {
				if err != nil {
					t.Fatal(err)
				}
				if res.Stdout != "lo\nlo\n" {
					t.Errorf("interfaces: %q", res.Stdout)
				}
			},
		},
		{
			name:   "no capabilities, no new privileges, seccomp on",
			script: "grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs|Seccomp):' /proc/self/status | tr -s '\t' ' '",
			check: func(t *testing.T, res Result, err error) {
				if err != nil {
					t.Fatal(err)
				}
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
			tt.check(t, res, err)
		})
	}
}
