package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
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
