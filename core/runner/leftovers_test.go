package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The runtime's state is trusted only in a root-only directory, only for
// this instance's annotation, and only for the container's own cgroups:
// a state that names a shared parent cgroup must not get its processes
// killed.
func TestRuntimeLeftoversTrustOnlyTheirOwnState(t *testing.T) {
	root := t.TempDir()
	const id, other = "aaaa1111", "bbbb2222"
	state := func(id, instance string) {
		dir := filepath.Join(root, id)
		if err := os.Mkdir(dir, 0o711); err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf(`{"id":%q,"init_process_pid":%d,"init_process_start":1,
			"cgroup_paths":{"pids":"/sys/fs/cgroup/pids/libpod_parent","memory":"/sys/fs/cgroup/memory/libpod_parent/libpod-%s"},
			"config":{"labels":["bundle=/x","boxmaker.instance=%s"]}}`, id, os.Getpid(), id, instance)
		if err := os.WriteFile(filepath.Join(dir, "state.json"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	state(id, "mine")
	state(other, "theirs")
	got := findRuntimeLeftovers(root, "mine")
	if len(got) != 1 || got[0].id != id {
		t.Fatalf("found %+v, want the one state of instance mine", got)
	}
	if want := []string{"/sys/fs/cgroup/memory/libpod_parent/libpod-" + id}; !slices.Equal(got[0].cgroups, want) {
		t.Errorf("cgroups %q, want only the container's own %q", got[0].cgroups, want)
	}
	if got[0].pid != 0 {
		t.Errorf("pid %d kept though its start time is not the state's", got[0].pid)
	}
	if err := os.Chmod(root, 0o733); err != nil {
		t.Fatal(err)
	}
	if got := findRuntimeLeftovers(root, "mine"); len(got) != 0 {
		t.Errorf("a state directory others can write was trusted: %+v", got)
	}
}

// crun keeps a container's state in <root>/<id>/status and its
// annotations in the bundle's config.json: the same trust holds, the
// bundle's directory root's only too, and only the container's own
// cgroup is taken.
func TestCrunLeftoversTrustOnlyTheirOwnState(t *testing.T) {
	root := t.TempDir()
	self := os.Getpid()
	start := startTime(self)
	if start == 0 {
		t.Fatal("no start time for this process")
	}
	state := func(id, instance string, bundleMode os.FileMode, cgroup string) {
		dir := filepath.Join(root, id)
		bundle := filepath.Join(t.TempDir(), "userdata")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(bundle, bundleMode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(bundle, bundleMode); err != nil {
			t.Fatal(err)
		}
		config := fmt.Sprintf(`{"annotations":{"boxmaker.instance":%q,"boxmaker.container":"boxmaker-x-%s"}}`, instance, id)
		if err := os.WriteFile(filepath.Join(bundle, "config.json"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
		status := fmt.Sprintf(`{"pid":%d,"process-start-time":%d,"cgroup-path":%q,"bundle":%q,"rootfs":"/x"}`, self, start, cgroup, bundle)
		if err := os.WriteFile(filepath.Join(dir, "status"), []byte(status), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	state("cccc3333", "mine", 0o700, "/libpod_parent")                   // a shared parent: no cgroup taken
	state("dddd4444", "theirs", 0o700, "/libpod_parent/libpod-dddd4444") // another instance's
	state("eeee5555", "mine", 0o777, "/libpod_parent/libpod-eeee5555")   // a bundle anyone could write
	got := findRuntimeLeftovers(root, "mine")
	if len(got) != 1 || got[0].id != "cccc3333" || got[0].name != "boxmaker-x-cccc3333" {
		t.Fatalf("found %+v, want crun's one state of instance mine with a root-only bundle", got)
	}
	if got[0].pid != self || len(got[0].cgroups) != 0 {
		t.Errorf("pid %d, cgroups %q; want this process (its start time matches) and no shared cgroup", got[0].pid, got[0].cgroups)
	}
}

// A tool's program can call itself conmon, with -n of this home's prefix
// and -c naming someone else's container: the clean-up must not take it
// for a leftover (it would end that container). Only root's conmon in
// brokerd's pid namespace, with a container ID, counts.
func TestAConmonCommandLineIsNotEnoughToBeALeftover(t *testing.T) {
	prefix := NamePrefix(testInstance + "-spoof")
	id := strings.Repeat("ab", 32)
	start := func(uid int, cid string) int {
		cmd := exec.Command("/bin/sh")
		cmd.Args = []string{"conmon", "-c", "sleep 30; :", "-n", prefix + "x", "-c", cid}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd.Process.Pid
	}
	tool := start(testToolUID, id)
	named := start(0, "postgres")
	real := start(0, id)
	var pids []int
	deadline := time.Now().Add(5 * time.Second)
	for !slices.Contains(pids, real) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // until its credentials and exec are done
		pids = pids[:0]
		for _, l := range findLeftovers(prefix) {
			pids = append(pids, l.pid)
		}
	}
	if !slices.Contains(pids, real) {
		t.Fatalf("root's conmon with a container ID was not found: %v", pids)
	}
	if slices.Contains(pids, tool) {
		t.Errorf("a process of the tools' uid calling itself conmon was taken for a leftover")
	}
	if slices.Contains(pids, named) {
		t.Errorf("a conmon whose -c is a name, not a container ID, was taken for a leftover")
	}
}

// A call cancelled at the moment runc has created its container (the
// Podman client killed between runc's create and start) leaves nothing
// running: not runc init waiting for its start, not conmon, not the
// runtime's state, whether Podman still knows the container or not.
func TestACallCancelledMidStartLeavesNoProcess(t *testing.T) {
	r := newTestRunner(t, nil)
	for i := 0; i < 3; i++ {
		c := Call{ID: fmt.Sprintf("%s-%d", callID(t), i), Tool: "run", Paths: []string{resolvedTempDir(t)}, Command: "sleep 60"}
		name := r.ContainerName(c.ID)
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			defer cancel()
			deadline := time.Now().Add(time.Minute)
			for time.Now().Before(deadline) {
				for _, l := range findRuntimeLeftovers(r.runtimeRoot(), r.cfg.Instance) {
					if l.name == name {
						return
					}
				}
				time.Sleep(time.Millisecond)
			}
		}()
		if _, err := r.Run(ctx, c); err == nil {
			t.Fatalf("the cancelled call gave a result")
		}
		for _, l := range findRuntimeLeftovers(r.runtimeRoot(), r.cfg.Instance) {
			if l.name == name {
				t.Errorf("runc still keeps %s (processes %v)", name, l.processes())
			}
		}
		for _, l := range findLeftovers(NamePrefix(r.cfg.Instance)) {
			if l.name == name {
				t.Errorf("the conmon of %s still runs (pid %d)", name, l.pid)
			}
		}
		assertGone(t, name)
	}
}
