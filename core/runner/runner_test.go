package runner

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"golang.org/x/sys/unix"

	"boxmaker/runbook"
)

var callSeq atomic.Int64

// ignoreMounted leaves out what the runner says it mounted (device and
// inode numbers differ from run to run); TestRunSaysWhatItMounted checks it.
var ignoreMounted = cmpopts.IgnoreFields(Result{}, "Mounted")

func callID(t testing.TB) string {
	return fmt.Sprintf("%s-%d", t.Name(), callSeq.Add(1))
}

func TestRunTools(t *testing.T) {
	d := resolvedTempDir(t)
	writeTestFile(t, filepath.Join(d, "hello.txt"), "hello, world\n")
	writeTestFile(t, filepath.Join(d, "big.txt"), strings.Repeat("x", 100))
	writeTestFile(t, filepath.Join(d, "old.txt"), "old content that is longer")
	mkdirOwned(t, filepath.Join(d, "listed"))
	writeTestFile(t, filepath.Join(d, "listed", "b.txt"), "bb")
	mkdirOwned(t, filepath.Join(d, "listed", "a-dir"))
	os.Symlink("b.txt", filepath.Join(d, "listed", "c-link"))

	small := func(c *Config) { c.OutputLimit = 10 }
	tests := []struct {
		name   string
		change func(*Config)
		call   Call
		want   Result
		file   string // write_file: the host file's content afterwards
	}{
		{
			name: "read_file returns the file",
			call: Call{Tool: "read_file", Paths: []string{d + "/hello.txt"}},
			want: Result{Tool: "read_file", Path: d + "/hello.txt", Content: "hello, world\n", Size: 13},
		},
		{
			name: "read_file past the limit is cut with a note", change: small,
			call: Call{Tool: "read_file", Paths: []string{d + "/big.txt"}},
			want: Result{Tool: "read_file", Path: d + "/big.txt", Size: 100, Truncated: true,
				Content: "xxxxxxxxxx\n[boxmaker: file truncated: 100 bytes, the first 10 shown]"},
		},
		{
			name: "read_file of a directory is the tool's error",
			call: Call{Tool: "read_file", Paths: []string{d + "/listed"}},
			want: Result{Tool: "read_file", Path: d + "/listed", Error: d + "/listed is not a regular file"},
		},
		{
			name: "read_file of a missing file is the tool's error",
			call: Call{Tool: "read_file", Paths: []string{d + "/missing.txt"}},
			want: Result{Tool: "read_file", Path: d + "/missing.txt", Error: "open " + d + "/missing.txt: no such file or directory"},
		},
		{
			name: "write_file creates a missing file",
			call: Call{Tool: "write_file", Paths: []string{d + "/new.txt"}, Content: []byte("fresh\n")},
			want: Result{Tool: "write_file", Path: d + "/new.txt", Size: 6},
			file: "fresh\n",
		},
		{
			name: "write_file replaces what the file held",
			call: Call{Tool: "write_file", Paths: []string{d + "/old.txt"}, Content: []byte("new")},
			want: Result{Tool: "write_file", Path: d + "/old.txt", Size: 3},
			file: "new",
		},
		{
			name: "list_dir lists names, types and sizes by name",
			call: Call{Tool: "list_dir", Paths: []string{d + "/listed"}},
			want: Result{Tool: "list_dir", Path: d + "/listed", Entries: []DirEntry{
				{Name: "a-dir", Type: "dir"}, {Name: "b.txt", Type: "file", Size: 2}, {Name: "c-link", Type: "symlink"}}},
		},
		{
			name: "run gives exit code, stdout and stderr, in the first path",
			call: Call{Tool: "run", Paths: []string{d + "/listed"}, Command: "ls; echo oops >&2; exit 3"},
			want: Result{Tool: "run", Path: d + "/listed", ExitCode: 3, Stdout: "a-dir\nb.txt\nc-link\n", Stderr: "oops\n"},
		},
		{
			name: "run cuts stdout and stderr each at the limit with a note", change: small,
			call: Call{Tool: "run", Paths: []string{d}, Command: "seq 1 20; seq 1 10 >&2"},
			want: Result{Tool: "run", Path: d,
				Stdout: "1\n2\n3\n4\n5\n\n[boxmaker: stdout truncated: 51 bytes, the first 10 shown]", StdoutTruncated: true,
				Stderr: "1\n2\n3\n4\n5\n\n[boxmaker: stderr truncated: 21 bytes, the first 10 shown]", StderrTruncated: true},
		},
		{
			name: "run may write in its granted paths",
			call: Call{Tool: "run", Paths: []string{d + "/listed"}, Command: "echo made > made.txt"},
			want: Result{Tool: "run", Path: d + "/listed"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTestRunner(t, tt.change)
			tt.call.ID = callID(t)
			got, err := r.Run(context.Background(), tt.call)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, ignoreMounted); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if tt.file != "" {
				data, err := os.ReadFile(tt.call.Paths[0])
				if err != nil || string(data) != tt.file {
					t.Errorf("the host file holds %q (%v), want %q", data, err, tt.file)
				}
			}
		})
	}
	if data, err := os.ReadFile(d + "/listed/made.txt"); err != nil || string(data) != "made\n" {
		t.Errorf("run's file on the host: %q, %v", data, err)
	}
}

// runPastTheTimeout runs command as a run call in a temporary directory
// through r (whose timeout is short) and returns the call and its result,
// failing the test when the call gives no result or takes 30 s.
func runPastTheTimeout(t *testing.T, r *Runner, command string) (Call, Result) {
	t.Helper()
	d := resolvedTempDir(t)
	c := Call{ID: callID(t), Tool: "run", Paths: []string{d}, Command: command}
	start := time.Now()
	got, err := r.Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("the call took %s", took)
	}
	return c, got
}

func TestRunKillsACommandAtTheTimeout(t *testing.T) {
	r := newTestRunner(t, func(c *Config) { c.Timeout = time.Second })
	c, got := runPastTheTimeout(t, r, "echo before; sleep 60 & sleep 60")
	d := c.Paths[0]
	want := Result{Tool: "run", Path: d, ExitCode: 137, TimedOut: true, Stdout: "before\n",
		Stderr: "\n[boxmaker: the command was killed after 1000 ms]"}
	if diff := cmp.Diff(want, got, ignoreMounted); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	assertGone(t, r.ContainerName(c.ID))
}

func assertGone(t *testing.T, name string) {
	t.Helper()
	for _, s := range []Store{testStore, {}} {
		// Bounded: a Podman process that holds a lock `podman ps` wants
		// (a stopped service) fails the test rather than hanging it.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		out, err := exec.CommandContext(ctx, "podman", append(s.Flags(), "ps", "-a", "--filter", "name=^"+name+"$", "--format", "{{.Names}}")...).Output()
		timedOut := ctx.Err() != nil
		cancel()
		if timedOut {
			t.Fatalf("podman ps in store %q did not end within 2 minutes: something holds a lock it waits for", s.Root)
		}
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.TrimSpace(string(out)); n != "" {
			t.Errorf("container %s is still there (store %q)", n, s.Root)
		}
	}
}

func TestReadToolsMountTheirTargetReadOnlyAndAlone(t *testing.T) {
	d := resolvedTempDir(t)
	writeTestFile(t, d+"/target.txt", "target")
	writeTestFile(t, d+"/sibling.txt", "sibling")
	mkdirOwned(t, d+"/dir")
	writeTestFile(t, d+"/dir/inner.txt", "inner")
	r := newTestRunner(t, nil)

	tests := []struct {
		name   string
		call   Call
		script string
		want   string
	}{
		{"read_file sees its file and no sibling", Call{Tool: "read_file", Paths: []string{d + "/target.txt"}},
			"cat " + d + "/target.txt; echo; ls " + d, "target\ntarget.txt\n"},
		{"read_file's file is read-only", Call{Tool: "read_file", Paths: []string{d + "/target.txt"}},
			"(echo x > " + d + "/target.txt) 2>/dev/null && echo wrote || echo refused", "refused\n"},
		{"list_dir's directory is read-only", Call{Tool: "list_dir", Paths: []string{d + "/dir"}},
			"touch " + d + "/dir/new 2>/dev/null && echo wrote || echo refused; ls " + d, "refused\ndir\n"},
		{"write_file's file is writable, its siblings absent", Call{Tool: "write_file", Paths: []string{d + "/target.txt"}},
			"echo -n changed > " + d + "/target.txt && cat " + d + "/target.txt; echo; ls " + d, "changed\ntarget.txt\n"},
		{"run mounts every granted path and nothing else", Call{Tool: "run", Paths: []string{d + "/dir", d + "/sibling.txt"}},
			"ls " + d, "dir\nsibling.txt\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.call.ID = callID(t)
			got, code := shellInContainer(t, r, tt.call, tt.script)
			if code != 0 || got != tt.want {
				t.Errorf("got %q (status %d), want %q", got, code, tt.want)
			}
		})
	}
}

// The policy resolves a target's links before it decides; the runner
// mounts what was resolved. Swapping the link afterwards changes nothing
// the container sees.
func TestLinkSwappedAfterTheDecisionCannotRedirectTheMount(t *testing.T) {
	d := resolvedTempDir(t)
	writeTestFile(t, d+"/allowed.txt", "allowed")
	writeTestFile(t, d+"/secret.txt", "secret")
	link := d + "/link"
	if err := os.Symlink("allowed.txt", link); err != nil {
		t.Fatal(err)
	}
	decided, err := filepath.EvalSymlinks(link) // what the policy does
	if err != nil {
		t.Fatal(err)
	}
	// The swap, between the decision and the run.
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("secret.txt", link); err != nil {
		t.Fatal(err)
	}
	r := newTestRunner(t, nil)
	got, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "read_file", Paths: []string{decided}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Content != "allowed" || got.Path != d+"/allowed.txt" {
		t.Errorf("the container read %q at %s, want the decided file's content", got.Content, got.Path)
	}
	out, _ := shellInContainer(t, r, Call{ID: callID(t), Tool: "read_file", Paths: []string{decided}}, "ls "+d+"; cat "+decided)
	if out != "allowed.txt\nallowed" {
		t.Errorf("the container sees %q; want only the decided file", out)
	}

	// And when the decided path itself is made a link after the decision,
	// the runner refuses rather than follow it.
	if err := os.Remove(decided); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("secret.txt", decided); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"read_file", "write_file"} {
		_, err = r.Run(context.Background(), Call{ID: callID(t), Tool: tool, Paths: []string{decided}, Content: []byte("x")})
		if err == nil {
			t.Errorf("%s: a target turned into a link was run", tool)
		}
	}
	if data, _ := os.ReadFile(d + "/secret.txt"); string(data) != "secret" {
		t.Errorf("secret.txt now holds %q", data)
	}
}

func TestUnavailablePodmanImageOrRuntime(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Config)
		said   *regexp.Regexp // what Podman said, as the operator sees it
	}{
		{"a missing program", func(c *Config) { c.Podman = "/nonexistent/podman" }, regexp.MustCompile(`no such file or directory`)},
		{"an image that is not loaded", func(c *Config) { c.Image = "sha256:" + strings.Repeat("0", 64) }, regexp.MustCompile(`image not known`)},
		{"a missing runtime", func(c *Config) { c.Runtime = "no-such-runtime" }, regexp.MustCompile(`"no-such-runtime" not found`)},
		{"an empty image", func(c *Config) { c.Image = "" }, regexp.MustCompile(`\[runner\] image is empty`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTestRunner(t, tt.change)
			d := resolvedTempDir(t)
			target := d + "/would-be-written.txt"
			for _, c := range []Call{
				{ID: callID(t), Tool: "read_file", Paths: []string{d}},
				{ID: callID(t), Tool: "write_file", Paths: []string{target}, Content: []byte("x")},
			} {
				_, err := r.Run(context.Background(), c)
				if e, ok := runbook.EntryOf(err); !ok || e != runbook.RunnerUnavailable {
					t.Fatalf("%s: got %v, want a runner-unavailable refusal", c.Tool, err)
				}
				if want := "the tool runner could not start the container; " + runbook.Link(runbook.RunnerUnavailable); err.Error() != want {
					t.Errorf("%s: the message is %q, want %q", c.Tool, err, want)
				}
				said, ok := PodmanSaid(err)
				if !ok || !tt.said.MatchString(said) {
					t.Errorf("%s: Podman said %q, want it to match %s", c.Tool, said, tt.said)
				}
			}
			if _, err := os.Lstat(target); !os.IsNotExist(err) {
				t.Errorf("write_file left %s behind though nothing ran (%v)", target, err)
			}
		})
	}
}

func TestCleanLeftoversRemovesThisInstancesContainersOnly(t *testing.T) {
	r := newTestRunner(t, func(c *Config) { c.Instance = testInstance + "-leftovers" })
	other := testInstance + "-other"
	mine, theirs := r.ContainerName("left-1"), "boxmaker-other-"+other
	for _, c := range []struct{ name, label string }{{mine, "boxmaker=" + testInstance + "-leftovers"}, {theirs, "boxmaker=" + other}} {
		if out, err := exec.Command("podman", "create", "--runtime", "runc", "--name", c.name, "--label", c.label, testImage, "/bin/true").CombinedOutput(); err != nil {
			t.Fatalf("podman create: %v: %s", err, out)
		}
	}
	defer exec.Command("podman", "rm", "-f", "-i", theirs).Run()
	got, err := r.CleanLeftovers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{mine}, got); diff != "" {
		t.Errorf("removed (-want +got):\n%s", diff)
	}
	assertGone(t, mine)
	if out, _ := exec.Command("podman", "ps", "-a", "--filter", "name=^"+theirs+"$", "--format", "{{.Names}}").Output(); strings.TrimSpace(string(out)) != theirs {
		t.Errorf("another instance's container was removed")
	}
	if got, err := r.CleanLeftovers(context.Background()); err != nil || len(got) != 0 {
		t.Errorf("a second clean found %v, %v", got, err)
	}
}

// A podman client killed while it created a container leaves it in the
// image store only (D1001): the clean-up removes this instance's, found by
// name, and leaves another's. buildah, which Debian's podman recommends,
// makes such a container without killing anything (a killed podman
// would also lose a lock of the machine's table, D740).
func TestCleanLeftoversRemovesThisInstancesStorageOnlyContainers(t *testing.T) {
	if _, err := exec.LookPath("buildah"); err != nil {
		t.Fatalf("buildah (Debian's podman recommends it) makes the storage-only container this test needs: %v", err)
	}
	r := newTestRunner(t, func(c *Config) { c.Instance = testInstance + "-storage" })
	other := newTestRunner(t, func(c *Config) { c.Instance = testInstance + "-storage-other" })
	mine, theirs := r.ContainerName("left-in-store"), other.ContainerName("left-in-store")
	for _, name := range []string{mine, theirs} {
		if out, err := exec.Command("buildah", "from", "--pull=never", "--name", name, testImage).CombinedOutput(); err != nil {
			t.Fatalf("buildah from: %v: %s", err, out)
		}
	}
	defer exec.Command("buildah", "rm", theirs, mine).Run()
	inStore := func(name string) bool {
		out, err := exec.Command("podman", "ps", "-a", "--external", "--format", "{{.Names}}").Output()
		if err != nil {
			t.Fatal(err)
		}
		return slices.Contains(strings.Fields(string(out)), name)
	}
	if !inStore(mine) {
		t.Fatalf("buildah's container %s is not in the store", mine)
	}
	got, err := r.CleanLeftovers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{mine}, got); diff != "" {
		t.Errorf("removed (-want +got):\n%s", diff)
	}
	if inStore(mine) {
		t.Errorf("this instance's storage-only container %s is still in the store", mine)
	}
	if !inStore(theirs) {
		t.Errorf("another instance's storage-only container was removed")
	}
}

func TestCleanLeftoversWithoutPodmanIsUnavailable(t *testing.T) {
	r := newTestRunner(t, func(c *Config) { c.Podman = "/nonexistent/podman" })
	_, err := r.CleanLeftovers(context.Background())
	if e, _ := runbook.EntryOf(err); e != runbook.RunnerUnavailable {
		t.Errorf("got %v, want runner-unavailable", err)
	}
}

func TestCallsTheRunnerRefusesToMount(t *testing.T) {
	r := newTestRunner(t, nil)
	tests := []struct {
		name string
		call Call
		want string
	}{
		{"no id", Call{Tool: "read_file", Paths: []string{"/srv/a"}}, "the call has no id"},
		{"an unknown tool", Call{ID: "x", Tool: "read_files", Paths: []string{"/srv/a"}}, `the runner does not run the tool "read_files"`},
		{"http_fetch mounts no paths", Call{ID: "x", Tool: "http_fetch", Paths: []string{"/srv/a"}, URL: "http://docs.example/"}, "http_fetch takes a URL and no paths"},
		{"http_fetch without a URL", Call{ID: "x", Tool: "http_fetch"}, `the URL "" is not http or https`},
		{"http_fetch of a URL with a port", Call{ID: "x", Tool: "http_fetch", URL: "http://docs.example:8080/"}, `the URL "http://docs.example:8080/" names a port; only the scheme's own is fetched`},
		{"two targets for a file tool", Call{ID: "x", Tool: "read_file", Paths: []string{"/srv/a", "/srv/b"}}, "read_file takes one target, not 2"},
		{"run without paths", Call{ID: "x", Tool: "run", Command: "ls"}, "run needs at least one granted path"},
		{"a relative path", Call{ID: "x", Tool: "read_file", Paths: []string{"srv/a"}}, `the target "srv/a" is not a clean absolute path`},
		{"an unclean path", Call{ID: "x", Tool: "read_file", Paths: []string{"/srv/../etc/shadow"}}, `the target "/srv/../etc/shadow" is not a clean absolute path`},
		{"a trailing slash", Call{ID: "x", Tool: "list_dir", Paths: []string{"/srv/"}}, `the target "/srv/" is not a clean absolute path`},
		{"the root", Call{ID: "x", Tool: "list_dir", Paths: []string{"/"}}, "the runner does not mount /"},
		{"a colon", Call{ID: "x", Tool: "read_file", Paths: []string{"/srv/a:b"}}, `the runner cannot mount "/srv/a:b": it holds ':', a NUL or a newline`},
		{"the image's /bin", Call{ID: "x", Tool: "list_dir", Paths: []string{"/bin"}}, "the runner cannot mount /bin: /bin is the container's own"},
		{"inside /proc", Call{ID: "x", Tool: "read_file", Paths: []string{"/proc/1/environ"}}, "the runner cannot mount /proc/1/environ: /proc is the container's own"},
		{"the container's /tmp", Call{ID: "x", Tool: "run", Paths: []string{"/tmp"}}, "the runner cannot mount /tmp: it is the container's own"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := r.Run(context.Background(), tt.call)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}

func TestNewRefusesABadConfig(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Config)
		want   string
	}{
		{"an image by name", func(c *Config) { c.Image = "localhost/boxmaker-tools:latest" },
			`[runner]: image "localhost/boxmaker-tools:latest" is not an image ID (sha256: and 64 hex digits, as boxmaker tools-image prints it)`},
		{"a short ID", func(c *Config) { c.Image = "sha256:abc" },
			`[runner]: image "sha256:abc" is not an image ID (sha256: and 64 hex digits, as boxmaker tools-image prints it)`},
		{"no program", func(c *Config) { c.Podman = "" }, "[runner]: podman is empty"},
		{"zero limits", func(c *Config) { c.PidsLimit, c.MemoryMB, c.Timeout = 0, 0, 0 },
			"[runner]: pids_limit must be more than 0; memory_mb must be more than 0; timeout_ms must be more than 0"},
		{"nproc below two containers' pids", func(c *Config) { c.UlimitNproc, c.PidsLimit = 200, 128 },
			"[runner]: ulimit_nproc 200 must be at least twice pids_limit 128: ulimit_nproc bounds the processes of all calls together (the kernel counts them per uid across the host), pids_limit one container's"},
		{"an instance a label cannot hold", func(c *Config) { c.Instance = "a b" }, `[runner]: instance "a b" is not a label value of [a-zA-Z0-9_.-]`},
		// No CPU limit is not "unlimited": a Config that forgot it
		// starts nothing.
		{"no CPU limit", func(c *Config) { c.CPUs = 0 }, "[runner]: cpus 0 must be at least 0.01"},
		{"a CPU limit that is not a number", func(c *Config) { c.CPUs, c.MCPCPUs = math.NaN(), -1 },
			"[runner]: cpus NaN must be at least 0.01; [mcp] cpus -1 must be at least 0.01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig()
			tt.change(&cfg)
			_, err := New(cfg)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}

var podmanNameRE = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_.-]*$`)

func TestContainerNames(t *testing.T) {
	r := newTestRunner(t, func(c *Config) { c.Instance = "home1" })
	r2 := newTestRunner(t, func(c *Config) { c.Instance = "home2" })
	names := map[string]string{}
	for _, id := range []string{"c-1", "c 1", "c/1", "c_1", strings.Repeat("long", 30), "ünïcode"} {
		n := r.ContainerName(id)
		if !podmanNameRE.MatchString(n) || len(n)+len("-egress") > 63 {
			t.Errorf("%q gives %q, not a Podman name (with -egress, a DNS label)", id, n)
		}
		if prev, ok := names[n]; ok {
			t.Errorf("%q and %q share the name %s", id, prev, n)
		}
		names[n] = id
		if r2.ContainerName(id) == n {
			t.Errorf("two homes name the call %q alike", id)
		}
	}
	if got := r.ContainerName("c-1"); !strings.HasPrefix(got, NamePrefix("home1")+"c-1-") || !strings.HasPrefix(got, "boxmaker-") {
		t.Errorf("the name %q does not show the call id", got)
	}
}

func FuzzContainerName(f *testing.F) {
	r, err := New(Config{Podman: "podman", Instance: "fuzz", UlimitNofile: 1, UlimitNproc: 2, PidsLimit: 1,
		MemoryMB: 1, CPUs: 1, TotalCPUs: 1, TotalMemoryMB: 64, TmpMB: 1, Timeout: time.Second, OutputLimit: 1})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"c-1", "", "\x00", "../../etc", strings.Repeat("é", 50)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if n := r.ContainerName(id); !podmanNameRE.MatchString(n) || len(n)+len("-egress") > 63 {
			t.Errorf("%q gives %q", id, n)
		}
	})
}

// TestArgsLockTheContainerDown: the tool's container, the egress
// proxy's, a yaag Run's and an MCP server's are confined alike, each
// with its CPU limit (an MCP server's its own).
func TestArgsLockTheContainerDown(t *testing.T) {
	r := newTestRunner(t, func(c *Config) { c.EgressNetwork, c.CPUs, c.MCPCPUs = "egress-net", 0.29, 0.5 })
	confined := []string{
		"--rm", "--pull never", "--name NAME", "--label boxmaker=" + testInstance, "--read-only",
		"--cap-drop all", "--security-opt no-new-privileges", fmt.Sprintf("--user %d:%d", testToolUID, testToolUID), "--ulimit nofile=1024:1024", "--ulimit nproc=4096:4096",
		"--memory-swap", "--runtime runc", "--log-driver none",
	}
	mcp, err := r.MCPCommand("NAME", "localhost/server@sha256:"+strings.Repeat("0", 64), []string{"serve"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tool := []string{"--pids-limit 128", "--memory 256m", "--cpu-period 100000 --cpu-quota 29000"}
	for _, line := range []struct {
		name string
		args []string
		more []string
	}{
		{"tool", r.Args(Call{ID: "c", Tool: "read_file", Paths: []string{"/srv/a"}}, "NAME",
			[]Mount{{Source: "/stage/NAME/m0", Dest: "/srv/a", ReadOnly: true}}),
			append(tool, "--network none", "-v /stage/NAME/m0:/srv/a:ro,rbind,nosuid,nodev "+testImage+" /bin/boxmaker tool-exec ")},
		{"egress proxy", r.ProxyArgs("NAME", "/srv/egress/c", []string{"docs.example"}),
			append(tool, "--network egress-net", "-v /srv/egress/c:/egress:rw "+testImage+" /bin/boxmaker egress-proxy ")},
		{"yaag Run", r.yaagArgs(YaagSpec{MemoryMB: 512, PidsLimit: 64, CPUSeconds: 60, Wall: time.Minute}, "NAME", nil),
			[]string{"--network none", "--pids-limit 64", "--memory 512m", "--ulimit cpu=60:62", "--cpu-period 100000 --cpu-quota 29000"}},
		{"MCP server", mcp.Args[1:],
			[]string{"--network none", "--pids-limit 128", "--memory 256m", "--cpu-period 100000 --cpu-quota 50000"}},
	} {
		args := strings.Join(line.args, " ")
		for _, want := range append(confined, line.more...) {
			if !strings.Contains(args, want) {
				t.Errorf("the %s's command line lacks %q: %s", line.name, want, args)
			}
		}
	}
}

func TestCancellingACallRemovesItsContainer(t *testing.T) {
	r := newTestRunner(t, nil)
	c := Call{ID: callID(t), Tool: "run", Paths: []string{resolvedTempDir(t)}, Command: "sleep 60"}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := r.Run(ctx, c)
	if err == nil || !strings.HasPrefix(err.Error(), "the call was cancelled; its container was removed") {
		t.Errorf("got %v", err)
	}
	assertGone(t, r.ContainerName(c.ID))
}

func TestRunSaysWhatItMounted(t *testing.T) {
	d := resolvedTempDir(t)
	writeTestFile(t, d+"/a.txt", "a")
	var st syscall.Stat_t
	if err := syscall.Stat(d+"/a.txt", &st); err != nil {
		t.Fatal(err)
	}
	r := newTestRunner(t, nil)
	got, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "read_file", Paths: []string{d + "/a.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{fmt.Sprintf("%s/a.txt (ro, device %d:%d, inode %d)", d, unix.Major(st.Dev), unix.Minor(st.Dev), st.Ino)}
	if diff := cmp.Diff(want, got.Mounted); diff != "" {
		t.Errorf("Mounted (-want +got):\n%s", diff)
	}
	if entries, _ := os.ReadDir(r.cfg.StageDir); len(entries) != 0 {
		t.Errorf("the staging directory holds %d entries after the call", len(entries))
	}
}

// A brokerd killed while a call's objects were staged leaves them mounted;
// CleanLeftovers detaches and removes them.
func TestCleanLeftoversDetachesAKilledCallsStage(t *testing.T) {
	d := resolvedTempDir(t)
	writeTestFile(t, d+"/a.txt", "a")
	r := newTestRunner(t, func(c *Config) { c.StageDir, c.Instance = resolvedTempDir(t), testInstance+"-stage" })
	c := Call{ID: callID(t), Tool: "read_file", Paths: []string{d + "/a.txt"}}
	st, early, err := r.stageCall(c, r.ContainerName(c.ID))
	if err != nil || early != nil {
		t.Fatal(early, err)
	}
	for _, h := range st.held {
		h.close() // as the process's death would
	}
	if !isMountPoint(t, st.mounts[0].Source) {
		t.Fatalf("%s is not a mount point", st.mounts[0].Source)
	}
	if _, err := r.CleanLeftovers(context.Background()); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(r.cfg.StageDir); len(entries) != 0 {
		t.Errorf("the staging directory holds %d entries after the clean", len(entries))
	}
	if isMountPoint(t, st.mounts[0].Source) {
		t.Errorf("%s is still mounted", st.mounts[0].Source)
	}
}

func isMountPoint(t *testing.T, path string) bool {
	t.Helper()
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) > 4 && f[4] == path {
			return true
		}
	}
	return false
}
