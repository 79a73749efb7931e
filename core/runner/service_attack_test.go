package runner

// An attacker's review of the calls through the podman service
// (issue 29 item 2): what the model, which chooses every argument and
// runs several sessions at once, can make of the service route, and
// what a service that dies or hangs leaves.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/policy"
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
// fails the call it did not answer with runner-service-down, is killed
// before that call ends, and the next call starts another, as the
// runbook says. Failed when only a service that had ended was replaced:
// every later call waited for the hung one and was refused (D1082); and
// when the hung one was killed only at the next call: until then it
// kept the locks it held, and the `podman ps` below, like every other
// Podman process on the machine that wanted one of them, waited for
// ever (D1221; CI hung so for 40 minutes).
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
	// Whatever this test does not get to, no stopped Podman outlives it.
	t.Cleanup(func() { hung.Kill() })
	c := Call{ID: callID(t) + "-hung", Tool: "list_dir", Paths: []string{d}}
	got, err := r.Run(context.Background(), c)
	if e, _ := runbook.EntryOf(err); e != runbook.RunnerServiceDown {
		t.Fatalf("the call through a hung service: %+v, %v; want runner-service-down", got, err)
	}
	if err := hung.Signal(syscall.Signal(0)); err == nil {
		t.Fatalf("the hung service (pid %d) is still there after the call it did not answer", hung.Pid)
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

// recordingRuntime is an OCI runtime for Podman's --runtime that copies
// the config.json of every bundle it is asked to create into dir, named
// after the container, then runs runc: what runc is given, whichever
// route made the container.
func recordingRuntime(t *testing.T) (program, dir string) {
	t.Helper()
	base := t.TempDir()
	dir = filepath.Join(base, "configs")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	runc, err := exec.LookPath("runc")
	if err != nil {
		t.Fatal(err)
	}
	program = filepath.Join(base, "recording-runc")
	script := `#!/bin/sh
prev=
for a in "$@"; do
	case "$prev" in
	--bundle|-b) cp "$a/config.json" "` + dir + `/$(basename "$(dirname "$a")").json" ;;
	esac
	prev=$a
done
exec ` + runc + ` "$@"
`
	if err := os.WriteFile(program, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return program, dir
}

// recordedConfig is the config.json recorded for the container name, as
// ociConfig normalises one.
func recordedConfig(t *testing.T, dir, name string) map[string]any {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			Annotations map[string]string `json:"annotations"`
		}
		if json.Unmarshal(data, &c) != nil || c.Annotations[nameAnnotation] != name {
			continue
		}
		return normalConfig(t, data, strings.TrimSuffix(e.Name(), ".json"), name)
	}
	t.Fatalf("no config.json was recorded for %s", name)
	return nil
}

// TestEachToolsContainerIsTheSameThroughTheService: for every tool, with
// arguments a model would choose to find a difference (a command of
// quotes, control bytes, a newline and 100 KB; names with spaces,
// commas, '=' and non-ASCII; content with NUL and escape bytes; a run
// with denied paths masked below its directory), the config.json runc
// is given through the service route is the one it is given through
// `podman run`, but for the container's own name, ID and paths, and the
// results are the same. Each route runs as brokerd runs it (Run: the
// runner's store, its staged mounts, the service it starts itself).
// Each config.json has the CPU limit (cpus 0.29, a quota that Podman's
// own --cpus would truncate to 28999) and the cgroup parent of all of
// brokerd's containers ([runner] total_cpus): a route without either
// fails.
func TestEachToolsContainerIsTheSameThroughTheService(t *testing.T) {
	program, configs := recordingRuntime(t)
	d := resolvedTempDir(t)
	odd := d + "/a b,c=d é\t~x"
	mkdirOwned(t, odd)
	writeTestFile(t, odd+"/file ,=é.txt", "a line\x00with a NUL and \x1b[31m escapes\n")
	writeTestFile(t, odd+"/a name with a\nnewline and \x01", "n")
	mkdirOwned(t, d+"/keys")
	writeTestFile(t, d+"/keys/id", "KEY")
	long := "echo " + strings.Repeat("x", 100<<10) + " | wc -c"
	calls := []Call{
		{Tool: "read_file", Paths: []string{odd + "/file ,=é.txt"}},
		{Tool: "write_file", Paths: []string{odd + "/new ,=é.bin"}, Content: []byte("\x00\x10\x11\x1b\x03\x04\r\n" + strings.Repeat("z", 1<<20))},
		{Tool: "list_dir", Paths: []string{odd}},
		{Tool: "yaag_setup_workspace", Paths: []string{odd}},
		{Tool: "run", Paths: []string{odd, d + "/keys"}, Command: "printf '%s\\n' \"$(id -u)\" '\"q\"' \x01\x02 `echo b`; ls -A\ncat /proc/self/status | grep -E '^(CapEff|NoNewPrivs|Seccomp):'"},
		{Tool: "run", Paths: []string{d}, Command: long},
		{Tool: "run", Paths: []string{d}, Command: "cat keys/id 2>&1; ls keys | wc -l",
			Masks: []policy.Mask{{Path: d + "/keys", Hide: true, Grant: "deny-keys.toml", Tool: policy.ReadFile}}},
	}
	const cpus = 0.29
	viaRun := newTestRunner(t, func(c *Config) { c.Launch, c.Runtime, c.CPUs = LaunchRun, program, cpus })
	viaService := serviceRunner(t, func(c *Config) { c.Runtime, c.CPUs = program, cpus })
	// A target with a newline is refused before any container, on
	// both routes alike.
	bad := Call{ID: callID(t), Tool: "read_file", Paths: []string{odd + "/a name with a\nnewline and \x01"}}
	_, werr := viaRun.Run(context.Background(), bad)
	_, gerr := viaService.Run(context.Background(), bad)
	if werr == nil || gerr == nil || werr.Error() != gerr.Error() {
		t.Errorf("a target with a newline: podman run %v; service %v; want the same refusal", werr, gerr)
	}
	for i, c := range calls {
		t.Run(fmt.Sprintf("%d-%s", i, c.Tool), func(t *testing.T) {
			c.ID = fmt.Sprintf("%s-%d-run", callID(t), i)
			runName := viaRun.ContainerName(c.ID)
			want, werr := viaRun.Run(context.Background(), c)
			switch c.Tool {
			case "write_file":
				os.Remove(c.Paths[0])
			case "yaag_setup_workspace":
				os.RemoveAll(filepath.Join(c.Paths[0], ".yaag"))
			}
			c.ID = fmt.Sprintf("%s-%d-svc", callID(t), i)
			svcName := viaService.ContainerName(c.ID)
			got, gerr := viaService.Run(context.Background(), c)
			if werr != nil || gerr != nil {
				t.Fatalf("podman run: %v; service: %v", werr, gerr)
			}
			if want.Error != "" {
				t.Errorf("the call failed in the tool: %q", want.Error)
			}
			if c.Command == long && got.Stdout != fmt.Sprintf("%d\n", 100<<10+1) {
				t.Errorf("the 100 KB command: %+v", got)
			}
			if diff := cmp.Diff(want, got, ignoreMounted); diff != "" {
				t.Errorf("the service's result differs from podman run's (-run +service):\n%s", diff)
			}
			runConfig, svcConfig := recordedConfig(t, configs, runName), recordedConfig(t, configs, svcName)
			if diff := cmp.Diff(runConfig, svcConfig); diff != "" {
				t.Errorf("runc's config.json through the service differs from podman run's (-run +service):\n%s", diff)
			}
			limit := map[string]any{"quota": float64(29000), "period": float64(cpuPeriod)}
			for route, config := range map[string]map[string]any{"podman run": runConfig, "service": svcConfig} {
				if diff := cmp.Diff(any(limit), configCPU(config)); diff != "" {
					t.Errorf("runc's config.json through %s has not the CPU limit (-want +got):\n%s", route, diff)
				}
				linux, _ := config["linux"].(map[string]any)
				if got, want := linux["cgroupsPath"], viaRun.parent+"/libpod-ID"; got != want {
					t.Errorf("runc's config.json through %s puts the container in the cgroup %v, want %s, under the parent of all of brokerd's containers", route, got, want)
				}
			}
		})
	}
}

// configCPU is linux.resources.cpu of a config.json's JSON values.
func configCPU(config map[string]any) any {
	linux, _ := config["linux"].(map[string]any)
	resources, _ := linux["resources"].(map[string]any)
	return resources["cpu"]
}

// TestAToolSeesNothingOfTheServiceNorAnotherCall: from inside a call's
// container started through the service, as the model's command, none
// of the service's socket and directory, the runner's store (root, run
// root, temporary directory), the staging directories or Podman's and
// runc's own state is there, and another call's container, running at
// the same time, is not seen (its processes, its mounts).
func TestAToolSeesNothingOfTheServiceNorAnotherCall(t *testing.T) {
	r := serviceRunner(t, nil)
	d := resolvedTempDir(t)
	other := resolvedTempDir(t)
	writeTestFile(t, other+"/marker-of-the-other-call", "x")
	otherID := callID(t) + "-other"
	done := make(chan error, 1)
	go func() {
		_, err := r.Run(context.Background(), Call{ID: otherID, Tool: "run", Paths: []string{other}, Command: "sleep 8.5"})
		done <- err
	}()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		out, _ := exec.Command("podman", append(testStore.Flags(), "ps", "--filter", "status=running", "--format", "{{.Names}}")...).Output()
		if slices.Contains(strings.Fields(string(out)), r.ContainerName(otherID)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the other call's container never ran")
		}
	}
	s := r.cfg.Store
	var script []string
	for _, p := range []string{r.svc.dir, r.svc.socket, s.Root, s.RunRoot, s.TmpDir, filepath.Dir(s.RunRoot), StoreRunRoot,
		r.cfg.StageDir, StageRoot, other, "/run/containers", "/var/lib/containers", "/run/runc", "/run/crun", "/run/netns"} {
		script = append(script, fmt.Sprintf("test -e '%s' && echo 'there: %s'", p, p))
	}
	script = append(script,
		"for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline; echo; done | grep -q 'sleep 8[.]5' && echo 'the other call is seen'",
		"grep -q marker-of-the-other-call /proc/self/mountinfo && echo 'its mount is seen'",
		"find / -xdev -name 'marker-of-the-other-call' 2>/dev/null | grep -q . && echo 'its file is seen'",
		"grep -F "+fmt.Sprintf("'%s'", other)+" /proc/self/mountinfo && echo 'its mount is listed'",
		"exit 0")
	got, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "run", Paths: []string{d}, Command: strings.Join(script, "; ")})
	if err != nil {
		t.Fatal(err)
	}
	if got.Stdout != "" {
		t.Errorf("inside the tool's container:\n%s(stderr %q)", got.Stdout, got.Stderr)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestAYaagRunSeesNothingOfTheServiceNorTheStore: a yaag Run's container
// (the model's program; here the executor's run in its place, so that a
// shell probes what the program could) started while brokerd's service
// runs sees none of the service's socket and directory, the runner's
// store, the staging directories or Podman's and runc's state, and has
// no capability and no new privileges.
func TestAYaagRunSeesNothingOfTheServiceNorTheStore(t *testing.T) {
	r := serviceRunner(t, nil)
	d := resolvedTempDir(t)
	if _, err := r.Run(context.Background(), Call{ID: callID(t) + "-first", Tool: "list_dir", Paths: []string{d}}); err != nil {
		t.Fatal(err)
	}
	box := resolvedTempDir(t)
	if err := os.Chown(box, testToolUID, testToolUID); err != nil {
		t.Fatal(err)
	}
	s := r.cfg.Store
	script := []string{"grep -E '^(CapEff|CapPrm|NoNewPrivs):' /proc/self/status"}
	for _, p := range []string{r.svc.dir, r.svc.socket, s.Root, s.RunRoot, s.TmpDir, StoreRunRoot,
		r.cfg.StageDir, StageRoot, "/run/containers", "/var/lib/containers", "/run/runc", "/run/crun"} {
		script = append(script, fmt.Sprintf("test -e '%s' && echo 'there: %s'", p, p))
	}
	script = append(script, "exit 0")
	req, _ := json.Marshal(Request{Tool: "run", Path: d, Command: strings.Join(script, "; "), Limit: 64 << 10, TimeoutMS: 20000})
	c, err := r.StartYaag(YaagSpec{ID: callID(t), Dir: d, Mounts: []Mount{{Source: box, Dest: box}},
		Args: []string{CommandToolExec, string(req)}, MemoryMB: 256, PidsLimit: 64, CPUSeconds: 20, Wall: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	read := make(chan struct{})
	go func() {
		defer close(read)
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := c.Stdout.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		out = []byte(b.String())
	}()
	go io.Copy(io.Discard, c.Stderr)
	<-read
	if code := c.ExitCode(); code != 0 {
		t.Fatalf("the Run's container ended with %d: %s", code, out)
	}
	var res Result
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := "CapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nNoNewPrivs:\t1\n"
	if res.Stdout != want {
		t.Errorf("inside the Run's container:\n%s\nwant:\n%s(stderr %q)", res.Stdout, want, res.Stderr)
	}
}

// TestAServiceOfAnUncheckedPodmanIsNotUsed: the service takes a spec
// without refusing fields it does not know, and serviceSpec is checked
// against one Podman version's (TestServiceSpecMatchesCommandLine): a
// service of any other version is stopped at once and never started
// again, and every call goes by podman run, whose command line Podman
// parses strictly. Failed when any Podman's service was used (D1084).
func TestAServiceOfAnUncheckedPodmanIsNotUsed(t *testing.T) {
	r := serviceRunner(t, nil)
	r.svc.checked = []string{"0.0."} // as if this host's Podman were a later one
	d := resolvedTempDir(t)
	writeTestFile(t, d+"/a.txt", "a")
	for i := range 2 {
		got, err := r.Run(context.Background(), Call{ID: fmt.Sprintf("%s-%d", callID(t), i), Tool: "read_file", Paths: []string{d + "/a.txt"}})
		if err != nil || got.Content != "a" {
			t.Fatalf("call %d: %+v, %v; want the file, by podman run", i, got, err)
		}
	}
	r.svc.mu.Lock()
	running, unchecked := r.svc.cmd != nil, r.svc.unchecked
	r.svc.mu.Unlock()
	if running || !strings.HasPrefix(unchecked, "4.") {
		t.Errorf("the service: running %v, unchecked version %q; want stopped, this host's version", running, unchecked)
	}
	if out, err := exec.Command("pgrep", "-f", "system service --time 0 unix://"+r.svc.socket).Output(); err == nil {
		t.Errorf("a service of an unchecked Podman still runs: %s", out)
	}
}

// TestACancelledCallKillsNoServiceThatAnswers: the ping that decides
// whether a service that left a call unanswered hangs is not cut short
// by the call that sends it: a model that cancels its calls (several
// sessions at once) cannot have a service that answers killed under the
// others' calls.
func TestACancelledCallKillsNoServiceThatAnswers(t *testing.T) {
	r := serviceRunner(t, nil)
	d := resolvedTempDir(t)
	if _, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "list_dir", Paths: []string{d}}); err != nil {
		t.Fatal(err)
	}
	r.svc.mu.Lock()
	first := r.svc.cmd.Process
	r.svc.unanswered = true // as after a call it did not answer
	client := r.svc.client
	r.svc.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := r.svc.get(ctx)
	if err != nil || got != client {
		t.Errorf("get with a cancelled call: %v, %v; want the running service's client", got, err)
	}
	if err := first.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the service that answers was killed: %v", err)
	}
}

// TestPlantedStoreAndServiceDirectoriesAreRefused: where brokerd makes
// its store's directories and its service's socket directory, something
// already there that is not a directory of root's alone (a symbolic link
// to a directory of root's, a directory of another user, a file) is
// refused, and nothing is made or changed through it; a directory of
// root's with a wider mode is narrowed to 0700 for the store, and
// refused for the socket.
func TestPlantedStoreAndServiceDirectoriesAreRefused(t *testing.T) {
	base := t.TempDir()
	target := filepath.Join(base, "target")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	plant := map[string]func(p string) error{
		"a link to a directory of root's": func(p string) error { return os.Symlink(target, p) },
		"a directory of another user": func(p string) error {
			if err := os.Mkdir(p, 0o700); err != nil {
				return err
			}
			return os.Chown(p, testOwnerUID, testOwnerGID)
		},
		"a file": func(p string) error { return os.WriteFile(p, nil, 0o600) },
	}
	n := 0
	for what, make := range plant {
		n++
		t.Run(what, func(t *testing.T) {
			store := filepath.Join(base, fmt.Sprintf("store%d", n))
			if err := make(store); err != nil {
				t.Fatal(err)
			}
			if err := ownerOnlyDir(store); err == nil {
				t.Error("the store took it")
			}
			sock := filepath.Join(base, fmt.Sprintf("svc%d", n))
			if err := make(sock); err != nil {
				t.Fatal(err)
			}
			svc, err := newPodmanService(sock, []string{"podman"}, "")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := svc.get(context.Background()); err == nil {
				svc.close()
				t.Error("the service took it")
			}
			if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o755 {
				t.Errorf("the link's target was changed: %v %v", fi.Mode(), err)
			}
			if entries, _ := os.ReadDir(target); len(entries) > 0 {
				t.Errorf("something was made through the link: %v", entries)
			}
		})
	}
	wide := filepath.Join(base, "wide")
	if err := os.Mkdir(wide, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := ownerOnlyDir(wide); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(wide); fi.Mode().Perm() != 0o700 {
		t.Errorf("the store's directory is %v, want 0700", fi.Mode().Perm())
	}
	os.Chmod(wide, 0o750)
	svc, err := newPodmanService(wide, []string{"podman"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.get(context.Background()); err == nil || !strings.Contains(fmt.Sprint(err), "runner-unavailable") {
		svc.close()
		t.Errorf("a socket directory of mode 0750: %v; want runner-unavailable", err)
	}
}

// TestAServiceThatNeverAnswersIsKilledAtStart: a podman service that
// never answers and ignores SIGTERM (a podman hung at its start; here a
// program in podman's place that does just that) fails the call as
// runner-unavailable once its start wait is over, and is killed: the
// runner does not wait for it for ever, with every other call waiting
// behind it. Failed when the runner sent SIGTERM and waited for the
// service to end (D1085).
func TestAServiceThatNeverAnswersIsKilledAtStart(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	hung := filepath.Join(dir, "hung-podman")
	script := "#!/bin/sh\ntrap '' TERM\necho $$ > " + pidFile + "\nexec sleep 1000\n"
	if err := os.WriteFile(hung, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	r := serviceRunner(t, nil)
	r.svc.argv[0] = hung
	r.svc.startWait = 2 * time.Second
	d := resolvedTempDir(t)
	type answer struct {
		res Result
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "list_dir", Paths: []string{d}})
		done <- answer{res, err}
	}()
	select {
	case a := <-done:
		if e, _ := runbook.EntryOf(a.err); e != runbook.RunnerUnavailable {
			t.Errorf("the call through a service that never answers: %+v, %v; want runner-unavailable", a.res, a.err)
		}
	case <-time.After(45 * time.Second):
		t.Fatal("the call through a service that never answers and ignores SIGTERM did not return")
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	fmt.Sscan(string(data), &pid)
	if pid <= 0 {
		t.Fatalf("the hung service's pid: %q", data)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the hung service (pid %d) is still there", pid)
	}
}

// TestAContainerRemovedUnderItsCallIsNotCalledUnstarted: a call whose
// container ran (it wrote a file) and was then removed by something
// else than its call (an operator's podman rm, a second brokerd of the
// same home) is not refused as runner-unavailable, whose entry says that
// nothing ran: the service's answer to the wait is not the container's,
// and the call is refused as one it did not answer. The wait usually
// answers the container's status first (status 137); when the removal
// wins, the wait's 404 read as "nothing ran" before D1086.
func TestAContainerRemovedUnderItsCallIsNotCalledUnstarted(t *testing.T) {
	r := serviceRunner(t, nil)
	d := resolvedTempDir(t)
	c := Call{ID: callID(t), Tool: "run", Paths: []string{d}, Command: "echo ran > ran.txt; sleep 20"}
	name := r.ContainerName(c.ID)
	go func() {
		for range 300 {
			if _, err := os.Stat(d + "/ran.txt"); err == nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		exec.Command("podman", append(testStore.Flags(), "rm", "-f", "-t", "0", name)...).Run()
	}()
	got, err := r.Run(context.Background(), c)
	if _, serr := os.Stat(d + "/ran.txt"); serr != nil {
		t.Fatalf("the command did not run: %v (%+v, %v)", serr, got, err)
	}
	if e, _ := runbook.EntryOf(err); err == nil || e == runbook.RunnerUnavailable {
		t.Errorf("a call that ran, its container removed under it: %+v, %v; want an error that does not say nothing ran", got, err)
	}
	assertGone(t, name)
}
