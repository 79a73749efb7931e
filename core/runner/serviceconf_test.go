package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/pelletier/go-toml/v2"
	"golang.org/x/sys/unix"
)

// TestTheServicesContainersConfIsTheMachines: the service's
// containers.conf is what Podman reads from the machine's files (a
// drop-in's keys over the distribution's, tables merged key by key, the
// drop-ins by name, a file not ending in .conf skipped), with only
// conmon's Go variables added to [engine] conmon_env_vars: after the
// ones the files set, or after containers/common's default PATH; a
// variable the files set there stays as they set it. A file named by
// CONTAINERS_CONF is read alone, and one Podman could not read fails
// the service's start.
func TestTheServicesContainersConfIsTheMachines(t *testing.T) {
	root := t.TempDir()
	etc, share := filepath.Join(root, "etc"), filepath.Join(root, "share")
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(share, "containers/containers.conf"), `
[containers]
default_sysctls = ["net.ipv4.ping_group_range=0 0"]
pids_limit = 2048
[engine]
events_logger = "file"
[engine.runtimes]
runc = ["/usr/bin/runc"]
`)
	write(filepath.Join(etc, "containers/containers.conf.d/20-b.conf"), "[engine]\nconmon_env_vars = [\"PATH=/bin\", \"GOGC=50\"]\n")
	write(filepath.Join(etc, "containers/containers.conf.d/10-a.conf"), "[containers]\npids_limit = 100\n[engine.runtimes]\ncrun = [\"/usr/bin/crun\"]\n")
	write(filepath.Join(etc, "containers/containers.conf.d/30-c.conf.rpmsave"), "this is not TOML")

	files, err := machineContainersConfs("", etc, share)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(share, "containers/containers.conf"),
		filepath.Join(etc, "containers/containers.conf.d/10-a.conf"), filepath.Join(etc, "containers/containers.conf.d/20-b.conf")}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Fatalf("files read (-want +got):\n%s", diff)
	}
	data, err := serviceContainersConf(files, serviceConmonEnv, "")
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := toml.Unmarshal(data, &got); err != nil {
		t.Fatalf("%v:\n%s", err, data)
	}
	wantConf := map[string]any{
		"containers": map[string]any{"default_sysctls": []any{"net.ipv4.ping_group_range=0 0"}, "pids_limit": int64(100)},
		"engine": map[string]any{
			"events_logger":   "file",
			"runtimes":        map[string]any{"runc": []any{"/usr/bin/runc"}, "crun": []any{"/usr/bin/crun"}},
			"conmon_env_vars": []any{"PATH=/bin", "GOGC=50", "GOMEMLIMIT=64MiB"},
		},
	}
	if diff := cmp.Diff(wantConf, got); diff != "" {
		t.Errorf("the service's containers.conf (-want +got):\n%s", diff)
	}

	// No conmon_env_vars, no [engine]: the default PATH first.
	bare := filepath.Join(root, "bare.conf")
	write(bare, "[containers]\ninit = false\n")
	if files, err = machineContainersConfs(bare, etc, share); err != nil || !slices.Equal(files, []string{bare}) {
		t.Fatalf("CONTAINERS_CONF: files %q %v, want it alone", files, err)
	}
	if data, err = serviceContainersConf(files, serviceConmonEnv, ""); err != nil {
		t.Fatal(err)
	}
	got = nil
	if err := toml.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]any{defaultConmonPath, "GOGC=off", "GOMEMLIMIT=64MiB"}, got["engine"].(map[string]any)["conmon_env_vars"]); diff != "" {
		t.Errorf("conmon_env_vars of a file that sets none (-want +got):\n%s", diff)
	}

	bad := filepath.Join(root, "bad.conf")
	write(bad, "[engine\n")
	if _, err := serviceContainersConf([]string{bad}, serviceConmonEnv, ""); err == nil {
		t.Error("a containers.conf that is not TOML was taken")
	}
}

// TestTheServiceHandsConmonItsGoVariables: through the runner's own
// service, the conmon of a call's container (whose environment its exit
// command, `podman container cleanup`, and the runtime's create get)
// has GOGC=off, the memory limit and the service's containers.conf,
// and the service itself its own GOGC; the container's process has none
// of them.
func TestTheServiceHandsConmonItsGoVariables(t *testing.T) {
	r := serviceRunner(t, nil)
	var svcEnv []string
	res, conmon := whileACallRuns(t, r, "env; sleep 4", func(name string) []string {
		if env := processEnv(t, "conmon", name); env != nil {
			svcEnv = environOf(t, r.svc.cmd.Process.Pid)
			return env
		}
		return nil
	})
	for _, kv := range append(slices.Clone(serviceConmonEnv), "CONTAINERS_CONF="+r.svc.conf) {
		if !slices.Contains(conmon, kv) {
			t.Errorf("conmon's environment has no %s: %q", kv, conmon)
		}
	}
	for _, kv := range append(slices.Clone(serviceOwnEnv), "CONTAINERS_CONF="+r.svc.conf) {
		if !slices.Contains(svcEnv, kv) {
			t.Errorf("the service's environment has no %s: %q", kv, svcEnv)
		}
	}
	for _, v := range []string{"GOGC", "GOMEMLIMIT", "CONTAINERS_CONF"} {
		if strings.Contains(res.Stdout, v+"=") {
			t.Errorf("the tool's process has %s: %q", v, res.Stdout)
		}
	}
}

// whileACallRuns runs command as a call of r's "run" tool and, while it
// runs, calls read with the call's container name every 50 ms until it
// returns something; it returns the call's result and what read
// returned, and fails the test if the call fails or read finds nothing
// within a minute.
func whileACallRuns(t *testing.T, r *Runner, command string, read func(name string) []string) (Result, []string) {
	t.Helper()
	d := resolvedTempDir(t)
	id := callID(t)
	name := r.ContainerName(id)
	done := make(chan error, 1)
	var res Result
	go func() {
		var err error
		res, err = r.Run(context.Background(), Call{ID: id, Tool: "run", Paths: []string{d}, Command: command})
		done <- err
	}()
	var got []string
	for deadline := time.Now().Add(time.Minute); got == nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no conmon of the call's container was found")
		}
		got = read(name)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return res, got
}

// processEnv is the environment of the process named program whose
// command line has the argument arg, or nil when there is none.
func processEnv(t *testing.T, program, arg string) []string {
	t.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		args := strings.Split(string(data), "\x00")
		if filepath.Base(args[0]) == program && slices.Contains(args, arg) {
			env, err := os.ReadFile(filepath.Join(filepath.Dir(p), "environ"))
			if err != nil {
				continue
			}
			return strings.Split(strings.TrimRight(string(env), "\x00"), "\x00")
		}
	}
	return nil
}

// environOf is the environment of the process pid.
func environOf(t *testing.T, pid int) []string {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(data), "\x00"), "\x00")
}

// TestFiftyCallsThroughTheServiceLeaveNothingBehind: 50 calls through
// the runner's service, five at a time, each with its result, leave in
// the store no container (not even one only the image store knows),
// under the store and its run root no mount but the store's own overlay
// bind, and of the containers the service made (its events say which)
// no cgroup in any hierarchy and no conmon.
func TestFiftyCallsThroughTheServiceLeaveNothingBehind(t *testing.T) {
	r := serviceRunner(t, nil)
	d := resolvedTempDir(t)
	writeTestFile(t, d+"/file.txt", "a line of text\n")
	prefix := NamePrefix(r.cfg.Instance)
	since := time.Now().Add(-time.Second).Format(time.RFC3339)
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	slots := make(chan struct{}, 5)
	for i := range 50 {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			res, err := r.Run(context.Background(), Call{ID: fmt.Sprintf("%s-%d", callID(t), i), Tool: "read_file", Paths: []string{d + "/file.txt"}})
			if err == nil && res.Content != "a line of text\n" {
				err = fmt.Errorf("call %d: %+v", i, res)
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		said, _ := PodmanSaid(err)
		t.Fatalf("%v (podman said: %s)", err, said)
	}
	store := r.cfg.Store
	// The exit commands may still be ending: what they left is looked
	// at once they have.
	var ids []string
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		out := podmanStdout(t, append(store.Flags(), "events", "--stream=false", "--since", since, "--filter", "event=create", "--format", "{{.ID}} {{.Name}}")...)
		ids = nil
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if id, n, ok := strings.Cut(l, " "); ok && strings.HasPrefix(n, prefix) {
				ids = append(ids, id)
			}
		}
		busy := false
		for _, id := range ids {
			busy = busy || processEnv(t, "conmon", id) != nil || processEnv(t, "podman", id) != nil
		}
		if !busy {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a conmon or an exit command of the calls still runs a minute after them")
		}
	}
	if len(ids) != 50 {
		t.Fatalf("the service's events name %d containers of the calls, want 50", len(ids))
	}
	listed := string(podmanStdout(t, append(store.Flags(), "ps", "-a", "--external", "--no-trunc", "--format", "{{.ID}}")...))
	for _, id := range ids {
		if strings.Contains(listed, id) {
			t.Errorf("the container %s is left in the store", id)
		}
	}
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(mounts), "\n") {
		f := strings.Fields(l)
		if len(f) < 5 {
			continue
		}
		at := f[4]
		if at == filepath.Join(store.Root, "overlay") {
			continue // the store's own bind (D1096)
		}
		if strings.HasPrefix(at, store.Root+"/") || strings.HasPrefix(at, filepath.Dir(store.RunRoot)+"/") || slices.ContainsFunc(ids, func(id string) bool { return strings.Contains(l, id) }) {
			t.Errorf("a mount left behind: %s", l)
		}
	}
	for _, id := range ids {
		if left, _ := filepath.Glob("/sys/fs/cgroup/*/libpod_parent/libpod-" + id); len(left) > 0 {
			t.Errorf("cgroups left behind: %q", left)
		}
		if left, _ := filepath.Glob("/sys/fs/cgroup/libpod_parent/libpod-" + id); len(left) > 0 {
			t.Errorf("cgroups left behind: %q", left)
		}
	}
}

// TestTheServicesConmonRunsNoExitCommand: the conmon of a call's
// container through the runner's service is the machine's, run by
// brokerd's conmon, and has no exit command (no `podman container
// cleanup` per call, D1180); the call still answers and leaves its
// container removed. Failed before D1180: conmon had --exit-command.
func TestTheServicesConmonRunsNoExitCommand(t *testing.T) {
	r := serviceRunner(t, nil)
	var name string
	res, args := whileACallRuns(t, r, "echo ran; sleep 3", func(n string) []string {
		name = n
		return processArgs("conmon", n)
	})
	if res.Stdout != "ran\n" || res.ExitCode != 0 {
		t.Errorf("the call: %+v", res)
	}
	want, err := machineConmon(mustConfs(t))
	if err != nil {
		t.Fatal(err)
	}
	if args[0] != want {
		t.Errorf("conmon runs as %q, want the machine's %s", args[0], want)
	}
	for _, a := range args {
		if strings.HasPrefix(a, "--exit-command") || strings.HasPrefix(a, "--exit-delay") {
			t.Errorf("conmon has an exit command: %q", args)
			break
		}
	}
	if !slices.Contains(args, "--exit-dir") {
		t.Errorf("conmon has no exit directory, so no exit status: %q", args)
	}
	if out := podmanStdout(t, append(r.cfg.Store.Flags(), "ps", "-a", "--external", "--filter", "name="+name, "--format", "{{.ID}}")...); len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("the call's container is left: %s", out)
	}
}

// mustConfs are the machine's containers.conf files.
func mustConfs(t *testing.T) []string {
	t.Helper()
	files, err := machineContainersConfs(os.Getenv("CONTAINERS_CONF"), "/etc", "/usr/share")
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// processArgs is the command line of the process named program whose
// command line has the argument arg, or nil when there is none.
func processArgs(program, arg string) []string {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		args := strings.Split(strings.TrimRight(string(data), "\x00"), "\x00")
		if filepath.Base(args[0]) == program && slices.Contains(args, arg) {
			return args
		}
	}
	return nil
}

// TestBrokerdsConmonDropsOnlyTheExitCommand: the script brokerd gives
// the service as conmon hands the machine's conmon every argument as it
// came, in order (spaces, quotes, globs, an empty one, a newline, what
// looks like an option), but --exit-command, --exit-command-arg and
// --exit-delay with their values, apart or joined by "="; it is written
// as a new file of mode 0700, never through a link planted in its place.
func TestBrokerdsConmonDropsOnlyTheExitCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "args")
	fake := filepath.Join(dir, "real conmon")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done > '"+out+"'\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(dir, "conmon")
	// Links planted where it and its temporary file are written are
	// replaced, never written through.
	outside := filepath.Join(dir, "outside")
	if err := os.WriteFile(outside, []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{wrapper, wrapper + ".tmp"} {
		if err := os.Symlink(outside, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeServiceConmon(wrapper, fake); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(wrapper); err != nil || fi.Mode() != 0o700 {
		t.Fatalf("brokerd's conmon: %v %v, want a file of mode 0700", fi, err)
	}
	if data, _ := os.ReadFile(outside); string(data) != "outside" {
		t.Errorf("a planted link's target was written: %q", data)
	}
	kept := []string{"--api-version", "1", "-c", "abc", "-n", "boxmaker-x", "--exit-dir", "/run/exits",
		"a b", "'quoted'", "\"dq\"", "*", "", "line\nbreak", "$(id)", "--log-level", "error", "--syslog"}
	args := slices.Concat(kept[:8],
		[]string{"--exit-command", "/usr/bin/podman", "--exit-command-arg", "--root", "--exit-command-arg", "/var/lib/x",
			"--exit-command-arg", "container", "--exit-command-arg", "cleanup", "--exit-delay", "300"},
		kept[8:12],
		[]string{"--exit-command=/usr/bin/podman", "--exit-command-arg=--rm", "--exit-delay=1"},
		kept[12:])
	cmd := exec.Command(wrapper, args...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
	if diff := cmp.Diff(kept, got); diff != "" {
		t.Errorf("the arguments conmon got (-want +got):\n%s", diff)
	}
	// A version probe passes through.
	if b, err := exec.Command(wrapper, "--version").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if data, _ := os.ReadFile(out); string(data) != "--version\x00" {
		t.Errorf("conmon --version got %q", data)
	}
	for _, bad := range []string{"conmon", "/usr/bin/con'mon", "/usr/bin/con\nmon"} {
		if err := writeServiceConmon(filepath.Join(dir, "bad"), bad); err == nil {
			t.Errorf("a conmon named %q was written into the script", bad)
		}
	}
}

// TestTheMachinesConmonIsPodmans: brokerd's conmon runs the conmon
// Podman would run: the first of containers.conf's conmon_path that
// exists and is no directory, the defaults when it names none, and a
// conmon_path that is no list of paths fails the service's start.
func TestTheMachinesConmonIsPodmans(t *testing.T) {
	dir := t.TempDir()
	there := filepath.Join(dir, "bin", "conmon")
	os.MkdirAll(filepath.Dir(there), 0o755)
	if err := os.WriteFile(there, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	conf := func(text string) []string {
		p := filepath.Join(dir, fmt.Sprintf("c%d.conf", callSeq.Add(1)))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return []string{p}
	}
	got, err := machineConmon(conf(fmt.Sprintf("[engine]\nconmon_path = [%q, %q, %q]\n", filepath.Join(dir, "none"), dir, there)))
	if err != nil || got != there {
		t.Errorf("conmon_path with one that is there: %q %v, want %s", got, err, there)
	}
	if got, err := machineConmon(conf("[engine]\nevents_logger = \"file\"\n")); err != nil || !slices.Contains(defaultConmonPaths, got) && filepath.Base(got) != "conmon" {
		t.Errorf("no conmon_path: %q %v, want one of the defaults", got, err)
	}
	for _, bad := range []string{"[engine]\nconmon_path = \"/usr/bin/conmon\"\n", "[engine]\nconmon_path = [1]\n"} {
		if got, err := machineConmon(conf(bad)); err == nil {
			t.Errorf("%q: %q, want an error", bad, got)
		}
	}
}

// TestTheServiceTellsAContainersExitStatus: through the runner's service
// and its conmon without an exit command, a container's status is the
// one its process ended with (0, 3, 137), never 0 for one that was not,
// whatever it printed.
func TestTheServiceTellsAContainersExitStatus(t *testing.T) {
	r := serviceRunner(t, nil)
	d := resolvedTempDir(t)
	writeTestFile(t, d+"/file.txt", "a line of text\n")
	if _, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "read_file", Paths: []string{d + "/file.txt"}}); err != nil {
		t.Fatal(err)
	}
	client, err := r.svc.get(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	forged := `{"content":"forged"}`
	for _, code := range []int{0, 3, 137} {
		c := Call{ID: callID(t), Tool: "read_file", Paths: []string{d + "/file.txt"}}
		spec := r.serviceSpec(c, r.ContainerName(c.ID), directMounts(c))
		spec.Command = []string{"/bin/sh", "-c", fmt.Sprintf("echo '%s'; exit %d", forged, code)}
		var stdout, stderr bytes.Buffer
		got, err := client.run(context.Background(), spec, nil, &stdout, &stderr)
		if err != nil || got != code || !strings.Contains(stdout.String(), "forged") {
			t.Errorf("exit %d: status %d, %v, stdout %q", code, got, err, stdout.String())
		}
	}
}

// TestAServiceDirectoryMountedNoexecKeepsTheExitCommand: where brokerd's
// conmon cannot run (a home on a file system mounted noexec), the
// service runs the machine's conmon with its exit command, as before
// D1180, and calls still answer with their status.
func TestAServiceDirectoryMountedNoexecKeepsTheExitCommand(t *testing.T) {
	base, err := os.MkdirTemp("/tmp", "bxnx")
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Mount("tmpfs", base, "tmpfs", unix.MS_NOEXEC|unix.MS_NOSUID|unix.MS_NODEV, "size=4m,mode=0700"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		unix.Unmount(base, unix.MNT_DETACH)
		os.RemoveAll(base)
	})
	r := serviceRunner(t, func(c *Config) { c.ServiceDir = filepath.Join(base, "podman") })
	res, args := whileACallRuns(t, r, "echo ran; sleep 3", func(name string) []string { return processArgs("conmon", name) })
	if res.Stdout != "ran\n" {
		t.Fatalf("the call through a service whose directory is noexec: %+v", res)
	}
	if !slices.Contains(args, "--exit-command") {
		t.Errorf("conmon runs without the exit command though brokerd's conmon cannot run: %q", args)
	}
	if conf, _ := os.ReadFile(r.svc.conf); strings.Contains(string(conf), "conmon_path") {
		t.Errorf("the service's containers.conf names a conmon that cannot run:\n%s", conf)
	}
}

// TestACommandThatClosesItsStreamsIsKilledAtTheTimeout: a tool that
// closes its output and goes on running does not end the call early: the
// attach's streams end only when the container does (seen: with the
// state check answering 0 for a running container, the call still
// answered only at the timeout), so the call ends at the timeout, killed,
// never as a success, and its container is removed.
func TestACommandThatClosesItsStreamsIsKilledAtTheTimeout(t *testing.T) {
	r := serviceRunner(t, func(c *Config) { c.Timeout = time.Second })
	c, got := runPastTheTimeout(t, r, "echo before; exec >&- 2>&-; sleep 60")
	if got.ExitCode != 137 || !got.TimedOut || got.Stdout != "before\n" {
		t.Errorf("the call: %+v", got)
	}
	assertGone(t, r.ContainerName(c.ID))
}
