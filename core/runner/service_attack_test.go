package runner

// An attacker's review of the calls through the podman service
// (issue 29 item 2): what the model, which chooses every argument and
// runs several sessions at once, can make of the service route, and
// what a service that dies or hangs leaves.

import (
	"context"
	"syscall"
	"testing"
	"time"

	"boxmaker/runbook"
)

// TestACallLongerThanAServiceStepKeepsItsResult: a call whose tool runs
// longer than one of the service's own steps (create, start, remove) may
// take is answered as through podman run. Each step is bounded on its
// own; the whole call by [runner] timeout_ms. Failed when one budget of
// a step's length covered the call from its create to its wait: every
// call longer than a minute was refused as runner-service-down, though
// its tool ran (D1081).
func TestACallLongerThanAServiceStepKeepsItsResult(t *testing.T) {
	r := serviceRunner(t, func(c *Config) { c.Timeout = 30 * time.Second })
	r.svc.step = 3 * time.Second
	d := resolvedTempDir(t)
	got, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "run", Paths: []string{d}, Command: "sleep 5; echo done"})
	if err != nil || got.Stdout != "done\n" || got.ExitCode != 0 {
		t.Fatalf("a run of 5 s with steps of 3 s: %+v, %v; want its output", got, err)
	}
}

// TestAHungServiceIsReplaced: a service that stops answering (stopped
// here with SIGSTOP; a deadlock or a stuck storage lock does the same)
// fails the call it did not answer with runner-service-down, and the
// next call finds it still not answering, kills it and starts another,
// as the runbook says. Failed when only a service that had ended was
// replaced: every later call waited for the hung one and was refused
// (D1082).
func TestAHungServiceIsReplaced(t *testing.T) {
	r := serviceRunner(t, nil)
	r.svc.step = 3 * time.Second
	d := resolvedTempDir(t)
	if _, err := r.Run(context.Background(), Call{ID: callID(t) + "-first", Tool: "list_dir", Paths: []string{d}}); err != nil {
		t.Fatal(err)
	}
	r.svc.mu.Lock()
	hung := r.svc.cmd.Process
	r.svc.mu.Unlock()
	if err := hung.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hung.Signal(syscall.SIGCONT) })
	c := Call{ID: callID(t) + "-hung", Tool: "list_dir", Paths: []string{d}}
	got, err := r.Run(context.Background(), c)
	if e, _ := runbook.EntryOf(err); e != runbook.RunnerServiceDown {
		t.Fatalf("the call through a hung service: %+v, %v; want runner-service-down", got, err)
	}
	assertGone(t, r.ContainerName(c.ID))
	got, err = r.Run(context.Background(), Call{ID: callID(t) + "-after", Tool: "list_dir", Paths: []string{d}})
	if err != nil || got.Tool != "list_dir" {
		t.Fatalf("the call after the service hung: %+v, %v; want a new service's answer", got, err)
	}
	r.svc.mu.Lock()
	now := r.svc.cmd.Process
	r.svc.mu.Unlock()
	if now.Pid == hung.Pid {
		t.Error("the hung service still serves")
	}
	if err := hung.Signal(syscall.Signal(0)); err == nil {
		t.Errorf("the hung service (pid %d) is still there", hung.Pid)
	}
}
