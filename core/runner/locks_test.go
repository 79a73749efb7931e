package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"boxmaker/core/testsupport"
	"boxmaker/runbook"
)

// Podman 4.3 takes a container's lock from a table of 2048 shared by the
// whole machine before it records the container, and a podman client
// killed in between loses that lock for good: once the table is used up,
// no container starts anywhere on the machine. Calls cancelled or out of
// time while Podman creates, starts and runs their containers must give
// back every lock they took (D740).
func TestCancelledCallsLoseNoPodmanLock(t *testing.T) {
	if testing.Short() {
		t.Skip("a slow Podman suite (31 s at load 15, 20 cancelled calls): go test without -short runs it")
	}
	r := newTestRunner(t, nil)
	before := testsupport.LostPodmanLocks(t)
	const calls, atOnce = 20, 4
	names := make([]string, calls)
	errs := make([]error, calls)
	slots := make(chan struct{}, atOnce)
	var wg sync.WaitGroup
	for i := range calls {
		c := Call{ID: fmt.Sprintf("%s-%d", callID(t), i), Tool: "run", Paths: []string{resolvedTempDir(t)}, Command: "sleep 60"}
		names[i] = r.ContainerName(c.ID)
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			// 0 to 475 ms after the podman client started: while it
			// starts, while Podman creates the container (its lock taken,
			// its storage set up, then recorded), starts it and runs it.
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				defer cancel()
				deadline := time.Now().Add(time.Minute)
				// Through a podman service (BOXMAKER_TEST_LAUNCH=service)
				// no client runs: the service creates the container as
				// soon as the call is staged.
				for r.svc == nil && !podmanRuns(names[i]) && time.Now().Before(deadline) {
					time.Sleep(2 * time.Millisecond)
				}
				time.Sleep(time.Duration(i) * 25 * time.Millisecond)
			}()
			began := time.Now()
			_, errs[i] = r.Run(ctx, c)
			t.Logf("call %d: %v after %s", i, errs[i], time.Since(began).Round(time.Millisecond))
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err == nil {
			t.Errorf("call %d gave a result after it was cancelled", i)
		}
		assertGone(t, names[i])
	}
	if after := testsupport.LostPodmanLocks(t); after.LostSince(before) > 0 {
		t.Errorf("%d cancelled calls lost %d of Podman's locks: in use without a container, pod or volume, %d before, %d after, %d podman processes creating then "+
			"(a podman process killed meanwhile by a test that does not hold testsupport.LosingPodmanLocks counts too)",
			calls, after.LostSince(before), before.Lost, after.Lost, after.Creating)
	}
}

// podmanRuns reports whether a podman client that runs the container
// name has started.
func podmanRuns(name string) bool {
	found := false
	eachProcess(func(pid int, dir string) {
		raw, err := os.ReadFile(filepath.Join(dir, "cmdline"))
		found = found || err == nil && strings.HasPrefix(string(raw), "podman\x00") && strings.Contains(string(raw), "\x00run\x00--rm\x00") && strings.Contains(string(raw), "\x00--name\x00"+name+"\x00")
	})
	return found
}

// When Podman's table of locks is full, brokerd's line says what that
// means and how to give the locks back. The table is the machine's, so a
// podman program that answers as Podman 4.3 does stands in for it.
func TestAFullLockTableIsNamedPlainly(t *testing.T) {
	podman := filepath.Join(t.TempDir(), "podman")
	script := "#!/bin/sh\necho 'Error: allocating lock for new container: allocation failed; exceeded num_locks (2048)' >&2\nexit 125\n"
	if err := os.WriteFile(podman, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r := newTestRunner(t, func(c *Config) { c.Podman = podman })
	_, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "read_file", Paths: []string{resolvedTempDir(t)}})
	if e, ok := runbook.EntryOf(err); !ok || e != runbook.RunnerUnavailable {
		t.Fatalf("got %v, want a runner-unavailable refusal", err)
	}
	said, _ := PodmanSaid(err)
	want := "Error: allocating lock for new container: allocation failed; exceeded num_locks (2048) (Podman's table of container locks is full; "
	if !strings.HasPrefix(said, want) || !strings.Contains(said, "`podman system renumber` (run with no container running) gives them back") {
		t.Errorf("brokerd's line would say %q", said)
	}
}

// The clean-up ends conmon's children (runc init), but never conmon's
// exit command, `podman container cleanup`, which is removing the
// container: killed halfway it would lose the container's lock (D741).
// A shell calling itself conmon stands in for it, with two children: a
// program that is [runner] podman, and another.
func TestTheCleanUpSparesConmonsExitCommand(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	podman := filepath.Join(t.TempDir(), "podman")
	raw, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(podman, raw, 0o755); err != nil {
		t.Fatal(err)
	}
	r := newTestRunner(t, func(c *Config) { c.Podman, c.Instance = podman, testInstance+"-exitcmd" })
	name := NamePrefix(r.cfg.Instance) + "x"
	conmon := exec.Command("/bin/sh")
	conmon.Args = []string{"conmon", "-c", podman + " 30 & " + sleep + " 30 & wait", "-n", name, "-c", strings.Repeat("cd", 32)}
	if err := conmon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conmon.Process.Kill(); conmon.Wait() })
	var exitCommand, other int
	deadline := time.Now().Add(10 * time.Second)
	for (exitCommand == 0 || other == 0) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		for _, kid := range childrenOf(conmon.Process.Pid) {
			switch exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", kid)); exe {
			case podman:
				exitCommand = kid
			case sleep:
				other = kid
			}
		}
	}
	if exitCommand == 0 || other == 0 {
		t.Fatalf("the stand-in conmon's children did not start: podman %d, other %d", exitCommand, other)
	}
	t.Cleanup(func() { syscall.Kill(exitCommand, syscall.SIGKILL) })
	r.killContainers(context.Background(), name)
	conmon.Wait()
	if !alive(exitCommand) {
		t.Errorf("the clean-up killed conmon's exit command (pid %d, [runner] podman)", exitCommand)
	}
	if alive(other) {
		t.Errorf("the clean-up left conmon's other child (pid %d) running", other)
	}
}
