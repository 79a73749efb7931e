package runner

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"boxmaker/runbook"
)

// A call's container is in the runner's own store, and Podman's default
// store, which the operator's and every other program's podman use, does
// not see it at all: not as a container, not as a storage-only one.
func TestACallsContainerIsInTheRunnersStoreOnly(t *testing.T) {
	d := resolvedTempDir(t)
	r := newTestRunner(t, nil)
	name := r.ContainerName("in-store")
	done := make(chan error, 1)
	go func() {
		_, err := r.Run(context.Background(), Call{ID: "in-store", Tool: "run", Paths: []string{d}, Command: "sleep 5"})
		done <- err
	}()
	listed := func(s Store) bool {
		out := podmanOut(t, append(s.Flags(), "ps", "-a", "--external", "--format", "{{.Names}}")...)
		return slices.Contains(strings.Fields(out), name)
	}
	deadline := time.Now().Add(time.Minute)
	for !listed(testStore) {
		if time.Now().After(deadline) {
			t.Fatalf("the call's container %s never showed in the runner's store", name)
		}
		select {
		case err := <-done:
			t.Fatalf("the call ended before its container was seen in the runner's store: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
	if listed(Store{}) {
		t.Errorf("the call's container %s is listed in Podman's default store", name)
	}
	if out := podmanOut(t, "ps", "-a", "--filter", "label=boxmaker="+testInstance, "--format", "{{.Names}}"); out != "" {
		t.Errorf("Podman's default store lists the instance's containers: %q", out)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// PrepareStore makes the store's directories root's only and copies the
// tools image into a new store; a directory of the store that is a
// symbolic link (to somewhere a tool could reach) is refused, and every
// call is then runner-unavailable without a container started.
func TestPrepareStore(t *testing.T) {
	home := t.TempDir()
	instance := testInstance + "-p"
	s := StoreFor(home, instance)
	t.Cleanup(func() { removeStore(s) })
	r := newTestRunner(t, func(c *Config) { c.Store = s; c.Instance = instance })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	did, err := r.PrepareStore(ctx)
	if err != nil || !strings.Contains(did, "copied") {
		t.Fatalf("PrepareStore: %q, %v", did, err)
	}
	for _, dir := range []string{s.Root, filepath.Dir(s.RunRoot), s.RunRoot, s.TmpDir} {
		fi, err := os.Lstat(dir)
		if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v, want a directory 0700", dir, fi.Mode(), err)
		}
	}
	if got, err := os.Readlink(filepath.Join(filepath.Dir(s.RunRoot), StoreRootLink)); got != s.Root {
		t.Errorf("the store's root link: %q, %v; want %s", got, err, s.Root)
	}
	if has, err := r.storeHas(ctx, s, testImage); !has || err != nil {
		t.Fatalf("the store has not the tools image: %v", err)
	}
	if did, err := r.PrepareStore(ctx); did != "" || err != nil {
		t.Errorf("PrepareStore again: %q, %v; want nothing done", did, err)
	}
	if found := r.Check(ctx); len(found) > 0 {
		t.Errorf("Check: %v", found)
	}

	evil := StoreFor(t.TempDir(), instance+"-l")
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(evil.RunRoot)) })
	reach := t.TempDir()
	if err := os.MkdirAll(filepath.Dir(evil.RunRoot), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(reach, evil.RunRoot); err != nil {
		t.Fatal(err)
	}
	r = newTestRunner(t, func(c *Config) { c.Store = evil; c.Instance = instance + "-l" })
	if _, err := r.PrepareStore(ctx); err == nil {
		t.Fatal("PrepareStore took a run root that is a symbolic link")
	}
	_, err = r.Run(ctx, Call{ID: "x", Tool: "read_file", Paths: []string{resolvedTempDir(t)}})
	said, _ := PodmanSaid(err)
	if e, _ := runbook.EntryOf(err); e != runbook.RunnerUnavailable || !strings.Contains(said, "not a directory") {
		t.Errorf("a call after the store was refused: %v, want runner-unavailable", err)
	}
	if entries, _ := os.ReadDir(reach); len(entries) > 0 {
		t.Errorf("Podman wrote through the link: %v", entries)
	}
}

// A store someone made with `podman --root` alone before brokerd's first
// start records Podman's default run root: Podman then refuses brokerd's
// own, and every call is runner-unavailable, nothing started, with
// Podman's reason (the runbook's fix: move the store away).
func TestAStoreMadeWithAnotherRunRootFailsClosed(t *testing.T) {
	instance := testInstance + "-m"
	s := StoreFor(t.TempDir(), instance)
	t.Cleanup(func() { removeStore(s) })
	podmanOut(t, "--root", s.Root, "ps")
	r := newTestRunner(t, func(c *Config) { c.Store = s; c.Instance = instance })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := r.PrepareStore(ctx); err == nil || !strings.Contains(err.Error(), "database configuration mismatch") {
		t.Fatalf("PrepareStore: %v, want Podman's database configuration mismatch", err)
	}
	_, err := r.Run(ctx, Call{ID: "m", Tool: "read_file", Paths: []string{resolvedTempDir(t)}})
	if e, _ := runbook.EntryOf(err); e != runbook.RunnerUnavailable {
		t.Errorf("a call: %v, want runner-unavailable", err)
	}
}

// TestClosingTheRunnerLetsGoOfItsStoresMount: after a call through the
// service of a store of its own, the Runner's Close leaves no mount in
// the store, so the home that holds it can be removed. Before, the
// service ended by SIGTERM left the store's overlay directory bound on
// itself, and `rm -rf` of the home (the demo's temporary home, an
// ordinary user's) failed with "Device or resource busy".
func TestClosingTheRunnerLetsGoOfItsStoresMount(t *testing.T) {
	home, err := os.MkdirTemp("/tmp", "bxcl")
	if err != nil {
		t.Fatal(err)
	}
	store := StoreFor(home, Instance(home))
	t.Cleanup(func() { removeStore(store); os.RemoveAll(home) })
	r := serviceRunner(t, func(c *Config) { c.Store = store })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := r.PrepareStore(ctx); err != nil {
		t.Fatal(err)
	}
	d := resolvedTempDir(t)
	writeTestFile(t, filepath.Join(d, "hello.txt"), "hello\n")
	if got, err := r.Run(ctx, Call{ID: callID(t), Tool: "read_file", Paths: []string{d + "/hello.txt"}}); err != nil || got.Content != "hello\n" {
		t.Fatalf("the call: %+v, %v", got, err)
	}
	r.Close()
	overlay := filepath.Join(store.Root, "overlay")
	info, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(info), "\n") {
		if f := strings.Fields(line); len(f) > 4 && f[4] == overlay {
			t.Errorf("after Close the store's %s is still a mount point: %s", overlay, line)
		}
	}
	if err := os.RemoveAll(home); err != nil {
		t.Errorf("the home that held the store cannot be removed after Close: %v", err)
	}
}
