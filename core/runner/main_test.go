package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"boxmaker/core/testsupport"
)

// The tests run real containers from a tools image built here: TestMain
// takes the static binary of the test run (testsupport.StaticBinary),
// builds the image from it and /bin/busybox, and loads it.
var (
	testImage    string // the loaded image's ID
	testExe      string // the static binary in it
	testInstance string // this run's label value
	testStage    string // the staging directory
	testSeccomp  string // the tools' seccomp profile
	testStore    Store  // the runner's own Podman store, as brokerd's
)

func TestMain(m *testing.M) {
	os.Exit(mainWithImage(m))
}

func mainWithImage(m *testing.M) int {
	dir, err := os.MkdirTemp("", "runner-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	testStage = filepath.Join(dir, "stage")
	testSeccomp = filepath.Join(dir, "seccomp.json")
	if err := buildTestImage(dir); err != nil {
		fmt.Fprintf(os.Stderr, "runner tests: cannot prepare the tools image: %v\n", err)
		return 1
	}
	var b [4]byte
	rand.Read(b[:])
	testInstance = "test-" + hex.EncodeToString(b[:])
	testStore = StoreFor(dir, testInstance)
	defer removeStore(testStore)
	r, _ := New(testConfig())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	_, err = r.PrepareStore(ctx)
	cancel()
	if err != nil {
		fmt.Fprintf(os.Stderr, "runner tests: cannot prepare the runner's store: %v\n", err)
		return 1
	}
	flag.Parse()
	testsupport.HangWatchdog("boxmaker/core/runner")
	code := m.Run()
	removePrivateStores()
	if left, err := r.CleanLeftovers(context.Background()); err != nil || len(left) > 0 {
		fmt.Fprintf(os.Stderr, "runner tests: containers left behind: %v %v\n", left, err)
		code = 1
	}
	removeCgroupParent(CgroupParent(testInstance))
	return code
}

// removeStore removes a store the tests made, and its image.
func removeStore(s Store) {
	exec.Command("podman", append(s.Flags(), "rmi", "-a", "-f")...).Run()
	os.RemoveAll(s.Root)
	os.RemoveAll(filepath.Dir(s.RunRoot))
}

func buildTestImage(dir string) error {
	var err error
	if testExe, err = testsupport.StaticBinary(); err != nil {
		return err
	}
	archive := filepath.Join(dir, "tools.tar")
	f, err := os.Create(archive)
	if err != nil {
		return err
	}
	testImage, err = ToolsImage{Executor: testExe, Busybox: "/bin/busybox"}.WriteArchive(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return LoadImage(ctx, "podman", archive, testImage)
}

// testConfig is the configuration the tests run with: Debian 12's runc,
// the limits of the template.
func testConfig() Config {
	return Config{
		Podman: "podman", Runtime: "runc", Image: testImage, Instance: testInstance, StageDir: testStage, Store: testStore,
		OwnerUID: testOwnerUID, OwnerGID: testOwnerGID, ToolUID: testToolUID, SeccompProfile: testSeccomp,
		UlimitNofile: 1024, UlimitNproc: 4096, PidsLimit: 128, MemoryMB: 256, CPUs: 1, TmpMB: 16,
		TotalCPUs: 1, TotalMemoryMB: 2048, CgroupRoot: CgroupRoot, CgroupRecord: testStage + ".cgroup",
		Timeout: 20 * time.Second, OutputLimit: 64 << 10,
	}
}

func newTestRunner(t testing.TB, change func(*Config)) *Runner {
	t.Helper()
	cfg := testConfig()
	if change != nil {
		change(&cfg)
	}
	if os.Getenv("BOXMAKER_TEST_LAUNCH") == LaunchService && cfg.ServiceDir == "" && cfg.Launch != LaunchRun {
		cfg.ServiceDir = testServiceDir(t)
	}
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// testServiceDir is a directory for a podman service's socket, short
// enough for a unix socket's path (a test's TempDir may not be).
// BOXMAKER_TEST_LAUNCH=service gives one to every test's runner, so that
// the runner's tests run their calls through a service.
func testServiceDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "bxsvc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "podman")
}

// resolvedTempDir is a temporary directory of the owner's with its links
// resolved, as the policy hands targets to the runner.
func resolvedTempDir(t testing.TB) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(d, testOwnerUID, testOwnerGID); err != nil {
		t.Fatal(err)
	}
	return d
}

// writeTestFile writes a file of the owner's.
func writeTestFile(t testing.TB, path, content string) {
	t.Helper()
	writeOwnedFile(t, path, content, 0o644)
}

// directMounts mounts each path of c at itself, as the runner did before
// it staged objects: the command line of a bare `podman run`, the
// benchmarks' anchor.
func directMounts(c Call) []Mount {
	var ms []Mount
	for _, p := range c.Paths {
		ms = append(ms, Mount{Source: p, Dest: p, ReadOnly: c.Tool == "read_file" || c.Tool == "list_dir"})
	}
	return ms
}

// shellInContainer runs script with sh in a container started with the
// runner's own command line for c (its objects staged as Run stages
// them), in place of the executor: what a tool could do in that
// container.
func shellInContainer(t *testing.T, r *Runner, c Call, script string) (string, int) {
	t.Helper()
	st, answer, err := r.stageCall(c, r.ContainerName(c.ID))
	if err != nil || answer != nil {
		t.Fatalf("staging %v: %v %v", c.Paths, answer, err)
	}
	defer st.release()
	args := r.Args(c, r.ContainerName(c.ID), st.mounts)
	i := len(args) - 3 // ExecutorPath, "tool-exec", request
	if args[i] != ExecutorPath {
		t.Fatalf("the command line does not end with the executor: %q", args)
	}
	args = append(args[:i:i], "/bin/sh", "-c", script)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "podman", args...).CombinedOutput()
	code, err := testsupport.ExitCode(err)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}
