package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"boxmaker/runbook"
)

// TestServiceSpecMatchesCommandLine: the OCI configuration the podman
// service makes from serviceSpec is the one `podman create` makes from
// the runner's command line (Args), but for the container's own name,
// ID and paths. The service decodes the spec without refusing unknown
// fields: a misspelt field would drop a lockdown option silently, and
// this is where it shows.
func TestServiceSpecMatchesCommandLine(t *testing.T) {
	d := resolvedTempDir(t)
	file := d + "/file.txt"
	writeTestFile(t, file, "a line of text\n")
	r := newTestRunner(t, nil)
	if why := r.ready(true); why != "" {
		t.Fatal(why)
	}
	// The service as the runner starts it, with its own containers.conf
	// (D1121), in Podman's default store as the podman create it is
	// compared with.
	rs := newTestRunner(t, func(c *Config) { c.ServiceDir = testServiceDir(t); c.Store = Store{} })
	client, err := rs.svc.get(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []Call{
		{ID: "spec-read", Tool: "read_file", Paths: []string{file}},
		{ID: "spec-write", Tool: "write_file", Paths: []string{file}, Content: []byte("x")},
		{ID: "spec-run", Tool: "run", Paths: []string{d}, Command: "ls"},
	} {
		t.Run(tc.Tool, func(t *testing.T) {
			mounts := directMounts(tc)
			cliName := r.ContainerName(tc.ID + "-cli")
			args := r.Args(tc, cliName, mounts)
			create := append([]string{"create"}, args[1:]...)
			cliID := strings.TrimSpace(string(podmanStdout(t, create...)))
			t.Cleanup(func() { exec.Command("podman", "rm", "-f", "-t", "0", cliID).Run() })
			podmanStdout(t, "init", cliID)

			svcName := r.ContainerName(tc.ID + "-svc")
			ctx := context.Background()
			svcID, err := client.create(ctx, r.serviceSpec(tc, svcName, mounts))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { client.remove(context.Background(), svcID, true) })
			if err := client.do(ctx, "POST", "/containers/"+svcID+"/init", nil, nil); err != nil {
				t.Fatal(err)
			}
			cli := ociConfig(t, cliID, cliName)
			viaService := ociConfig(t, svcID, svcName)
			if diff := cmp.Diff(cli, viaService); diff != "" {
				t.Errorf("the service's OCI configuration differs from podman create's (-cli +service):\n%s", diff)
			}
			// What is not in config.json: conmon's --timeout, the log
			// driver, the labels CleanLeftovers finds, the stop timeout.
			if diff := cmp.Diff(inspected(t, cliID, cliName), inspected(t, svcID, svcName)); diff != "" {
				t.Errorf("podman inspect of the service's container differs from podman create's (-cli +service):\n%s", diff)
			}
		})
	}
}

// ociConfig is the config.json Podman wrote for the container id, as
// JSON values, with its ID and name replaced by placeholders and what
// differs between any two containers (the container's own paths)
// dropped.
func ociConfig(t *testing.T, id, name string) map[string]any {
	t.Helper()
	path := strings.TrimSpace(string(podmanStdout(t, "inspect", "--format", "{{.OCIConfigPath}}", id)))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return normalConfig(t, data, id, name)
}

// normalConfig is ociConfig's normal form of a config.json, data.
func normalConfig(t *testing.T, data []byte, id, name string) map[string]any {
	t.Helper()
	text := strings.NewReplacer(id, "ID", id[:12], "SHORTID", name, "NAME").Replace(string(data))
	var c map[string]any
	if err := json.Unmarshal([]byte(text), &c); err != nil {
		t.Fatal(err)
	}
	// The root's overlay mount point is named after the layer, not the
	// container.
	delete(c["root"].(map[string]any), "path")
	annotations := c["annotations"].(map[string]any)
	delete(annotations, "io.kubernetes.cri-o.Created")
	// The service's container is removed by the runner, not by the
	// cleanup process (serviceClient.run).
	delete(annotations, "io.podman.annotations.autoremove")
	// Mounts in the order of their destinations: Podman lists the ones
	// it adds from a map.
	mounts := c["mounts"].([]any)
	slices.SortFunc(mounts, func(a, b any) int {
		return strings.Compare(a.(map[string]any)["destination"].(string), b.(map[string]any)["destination"].(string))
	})
	// The environment in any order: Podman makes it from a map.
	env := c["process"].(map[string]any)["env"].([]any)
	slices.SortFunc(env, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
	return c
}

// inspected is `podman inspect` of the container id, as JSON values,
// with its ID and name replaced by placeholders, less what differs
// between any two containers (when and where it was made) and the three
// fields the service route leaves as they are on purpose: AutoRemove
// (the runner removes the container after its wait, serviceClient.run),
// CreateCommand (a podman client records its command line) and
// sdNotifyMode (a client's default is "container", which passes on a
// $NOTIFY_SOCKET the daemons have dropped at start, D525).
func inspected(t *testing.T, id, name string) map[string]any {
	t.Helper()
	data := podmanStdout(t, "inspect", id)
	text := strings.NewReplacer(id, "ID", id[:12], "SHORTID", name, "NAME").Replace(string(data))
	var all []map[string]any
	if err := json.Unmarshal([]byte(text), &all); err != nil || len(all) != 1 {
		t.Fatalf("podman inspect %s: %v", id, err)
	}
	c := all[0]
	for _, k := range []string{"Created", "State", "GraphDriver", "OCIConfigPath"} {
		delete(c, k)
	}
	config := c["Config"].(map[string]any)
	for _, k := range []string{"CreateCommand", "sdNotifyMode"} {
		delete(config, k)
	}
	if env, ok := config["Env"].([]any); ok { // from a map
		slices.SortFunc(env, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
	}
	annotations := config["Annotations"].(map[string]any)
	delete(annotations, "io.kubernetes.cri-o.Created")
	delete(annotations, "io.podman.annotations.autoremove")
	delete(c["HostConfig"].(map[string]any), "AutoRemove")
	return c
}

func podmanStdout(t *testing.T, args ...string) []byte {
	t.Helper()
	out, err := exec.Command("podman", args...).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("podman %s: %v: %s", strings.Join(args, " "), err, stderr)
	}
	return out
}

// serviceRunner is a test runner whose calls go through a podman service
// of its own.
func serviceRunner(t *testing.T, change func(*Config)) *Runner {
	t.Helper()
	return newTestRunner(t, func(c *Config) {
		c.ServiceDir = testServiceDir(t)
		if change != nil {
			change(c)
		}
	})
}

// TestTheServiceRunsEachTool: every tool the service route takes gives
// through it what it gives through `podman run`, with the same
// limits: a write_file of bytes a terminal would read as keys (ctrl-p
// ctrl-q, Podman's default detach keys) and of a NUL arrives whole, and
// a command is killed at its time.
func TestTheServiceRunsEachTool(t *testing.T) {
	d := resolvedTempDir(t)
	writeTestFile(t, filepath.Join(d, "hello.txt"), "hello, world\n")
	mkdirOwned(t, filepath.Join(d, "listed"))
	writeTestFile(t, filepath.Join(d, "listed", "b.txt"), "bb")
	content := []byte("one\x10\x11two\x00three\x03\x04\n")
	calls := []Call{
		{Tool: "read_file", Paths: []string{d + "/hello.txt"}},
		{Tool: "write_file", Paths: []string{d + "/written.bin"}, Content: content},
		{Tool: "list_dir", Paths: []string{d + "/listed"}},
		{Tool: "run", Paths: []string{d + "/listed"}, Command: "ls; id -u; echo oops >&2; exit 3"},
		{Tool: "run", Paths: []string{d}, Command: "echo before; sleep 60"},
	}
	short := func(c *Config) { c.Timeout = 2 * time.Second }
	viaRun := newTestRunner(t, func(c *Config) { c.Launch = LaunchRun; short(c) })
	viaService := serviceRunner(t, short)
	if viaService.svc == nil || viaRun.svc != nil {
		t.Fatal("the runners do not launch as the test needs")
	}
	for i, c := range calls {
		c.ID = fmt.Sprintf("%s-%d-run", callID(t), i)
		want, werr := viaRun.Run(context.Background(), c)
		if c.Tool == "write_file" {
			os.Remove(c.Paths[0])
		}
		c.ID = fmt.Sprintf("%s-%d-svc", callID(t), i)
		got, gerr := viaService.Run(context.Background(), c)
		if werr != nil || gerr != nil {
			t.Fatalf("%s: podman run: %v; service: %v", c.Tool, werr, gerr)
		}
		if diff := cmp.Diff(want, got, ignoreMounted); diff != "" {
			t.Errorf("%s %q: the service's result differs from podman run's (-run +service):\n%s", c.Tool, c.Command, diff)
		}
		assertGone(t, viaService.ContainerName(c.ID))
	}
	if data, err := os.ReadFile(d + "/written.bin"); err != nil || !bytes.Equal(data, content) {
		t.Errorf("the file written through the service holds %q (%v), want %q", data, err, content)
	}
}

// TestAToolCannotReachTheServiceSocket: the service's socket is in a
// directory of root's alone, 0700, which no call mounts; from inside a
// tool's container, as the tool's uid, it is not there to connect to,
// and the directory refuses the tool's uid on the host too.
func TestAToolCannotReachTheServiceSocket(t *testing.T) {
	r := serviceRunner(t, nil)
	d := resolvedTempDir(t)
	c := Call{ID: callID(t), Tool: "run", Paths: []string{d},
		Command: fmt.Sprintf("ls -la %[1]s %[2]s; test -S %[2]s && echo connectable; grep %[2]s /proc/net/unix; exit 0", r.svc.dir, r.svc.socket)}
	got, err := r.Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if got.Stdout != "" || strings.Count(got.Stderr, "No such file or directory") != 2 {
		t.Errorf("inside the tool's container: stdout %q, stderr %q", got.Stdout, got.Stderr)
	}
	// The service is running, its socket answering root on the host.
	if _, err := os.Stat(r.svc.socket); err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	if err := unix.Stat(r.svc.dir, &st); err != nil || st.Uid != 0 || st.Mode&0o077 != 0 {
		t.Errorf("the socket's directory: uid %d mode %#o (%v), want root's, 0700", st.Uid, st.Mode&0o7777, err)
	}
	// As the tool's uid on the host, the socket's path cannot be
	// resolved, so no connect reaches it.
	cmd := exec.Command("/bin/busybox", "ls", "-l", r.svc.socket)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(testToolUID), Gid: uint32(testToolUID)}}
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "ermission denied") {
		t.Errorf("the tool's uid reached the socket on the host: %v %s", err, out)
	}
}

// TestAKilledServiceFailsTheCallClosed: a service killed while a call's
// container runs fails that call with runner-service-down and no result,
// the container is removed without the service, and the next call starts
// a new service.
func TestAKilledServiceFailsTheCallClosed(t *testing.T) {
	r := serviceRunner(t, nil)
	d := resolvedTempDir(t)
	if _, err := r.Run(context.Background(), Call{ID: callID(t) + "-first", Tool: "list_dir", Paths: []string{d}}); err != nil {
		t.Fatal(err)
	}
	r.svc.mu.Lock()
	first := r.svc.cmd.Process
	r.svc.mu.Unlock()
	c := Call{ID: callID(t), Tool: "run", Paths: []string{d}, Command: "echo started; sleep 5; echo done"}
	go func() {
		// Once the call's container runs.
		name := r.ContainerName(c.ID)
		for range 300 {
			out, _ := exec.Command("podman", append(testStore.Flags(), "ps", "--filter", "name=^"+name+"$", "--filter", "status=running", "--format", "{{.Names}}")...).Output()
			if strings.TrimSpace(string(out)) == name {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		first.Kill()
	}()
	got, err := r.Run(context.Background(), c)
	if e, _ := runbook.EntryOf(err); e != runbook.RunnerServiceDown {
		t.Fatalf("the call through a killed service: %+v, %v; want runner-service-down", got, err)
	}
	if !strings.HasSuffix(err.Error(), runbook.Link(runbook.RunnerServiceDown)) {
		t.Errorf("the refusal does not end with its runbook entry: %v", err)
	}
	assertGone(t, r.ContainerName(c.ID))
	got, err = r.Run(context.Background(), Call{ID: callID(t) + "-after", Tool: "read_file", Paths: []string{d}})
	if err != nil || got.Tool != "read_file" {
		t.Fatalf("the call after: %+v, %v", got, err)
	}
	r.svc.mu.Lock()
	second := r.svc.cmd.Process
	r.svc.mu.Unlock()
	if second.Pid == first.Pid {
		t.Error("the service was not started again")
	}
}
