package runner

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"boxmaker/core/daemon"
	"boxmaker/core/policy"
	"boxmaker/core/testsupport"
	"boxmaker/runbook"
)

// The grants cannot name the harness's directories (core/policy), but a
// path may still reach them another way: here a bind mount of the home
// made inside a granted directory after the grants were read. The runner
// judges the object it holds and never mounts the harness. (Issue 8,
// item 3.)
func TestRunnerNeverMountsTheHarness(t *testing.T) {
	d := resolvedTempDir(t)
	home := d + "/home"
	mkdirOwned(t, home)
	mkdirOwned(t, home+"/etc")
	writeTestFile(t, home+"/etc/brokerd.toml", "home = \"x\"\n")
	mkdirOwned(t, d+"/proj")
	mkdirOwned(t, d+"/proj/mnt")
	writeTestFile(t, d+"/proj/a.txt", "a")
	if err := unix.Mount(home, d+"/proj/mnt", "", unix.MS_BIND, ""); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Unmount(d+"/proj/mnt", unix.MNT_DETACH) })
	r := newTestRunner(t, func(c *Config) {
		c.Protected = policy.Protect([]policy.Harness{{What: "brokerd's home", Path: home}})
	})
	for _, tt := range []struct {
		call Call
		why  string
	}{
		{Call{Tool: "read_file", Paths: []string{d + "/proj/mnt/etc/brokerd.toml"}}, d + "/proj/mnt/etc/brokerd.toml lies inside brokerd's home (" + home + ")"},
		{Call{Tool: "write_file", Paths: []string{d + "/proj/mnt/etc/brokerd.toml"}, Content: []byte("x")}, d + "/proj/mnt/etc/brokerd.toml lies inside brokerd's home (" + home + ")"},
		{Call{Tool: "list_dir", Paths: []string{d + "/proj/mnt/etc"}}, d + "/proj/mnt/etc lies inside brokerd's home (" + home + ")"},
		{Call{Tool: "run", Paths: []string{d + "/proj/mnt"}, Command: "ls"}, d + "/proj/mnt is brokerd's home (" + home + ")"},
		{Call{Tool: "run", Paths: []string{d}, Command: "ls"}, d + " contains brokerd's home (" + home + ")"},
	} {
		tt.call.ID = callID(t)
		_, err := r.Run(context.Background(), tt.call)
		if e, _ := runbook.EntryOf(err); e != runbook.HarnessRefused || !strings.Contains(err.Error(), HarnessRefusedText) {
			t.Errorf("%s %v: got %v, want harness-refused", tt.call.Tool, tt.call.Paths, err)
			continue
		}
		var re *runbook.Refusal
		asRefusal(err, &re)
		if want := tt.why + "; the call was not run"; re.Cause == nil || re.Cause.Error() != want {
			t.Errorf("%s %v: the cause is %v, want %q", tt.call.Tool, tt.call.Paths, re.Cause, want)
		}
	}
	if data, _ := os.ReadFile(home + "/etc/brokerd.toml"); string(data) != "home = \"x\"\n" {
		t.Errorf("the home's file now holds %q", data)
	}
	// The project beside the bind mount is the owner's and is given; the
	// mount inside it is not carried into the container.
	res, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "run", Paths: []string{d + "/proj"}, Command: "ls mnt | wc -l; cat a.txt"})
	if err != nil || res.Stdout != "0\na" {
		t.Errorf("run in the project: %+v, %v; want an empty mnt and a.txt", res, err)
	}
}

func asRefusal(err error, re **runbook.Refusal) { errors.As(err, re) }

// A tool that reaches a daemon's socket (here one the test mounts into its
// container, with every permission open) is still refused by the peer
// check: it runs as the tools' uid, which no socket accepts. (Issue 8,
// item 3.)
func TestAToolNeverPassesASocketsPeerCheck(t *testing.T) {
	d := resolvedTempDir(t)
	build := exec.Command("go", "build", "-trimpath", "-o", d+"/peerprobe", "./testdata/peerprobe")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./testdata/peerprobe: %v\n%s", err, out)
	}
	sockDir := resolvedTempDir(t)
	sock := filepath.Join(sockDir, "admin.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{sockDir, sock} {
		if err := os.Chmod(p, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	var log strings.Builder
	s := &daemon.Socket{Role: "brokerd", Name: "admin", Path: sock, Log: &log, ListenerLost: runbook.BrokerdListenerLost,
		AllowUIDs: []uint32{testOwnerUID},
		Kinds: map[string]daemon.Handler{"ping": func(context.Context, daemon.Peer, json.RawMessage, *daemon.Stream) (any, error) {
			return "pong", nil
		}}}
	testsupport.Serve(t, func(ctx context.Context) error { return s.Serve(ctx, ln) })

	r := newTestRunner(t, nil)
	c := Call{ID: callID(t), Tool: "run", Paths: []string{d}}
	st, early, err := r.stageCall(c, r.ContainerName(c.ID))
	if err != nil || early != nil {
		t.Fatal(early, err)
	}
	defer st.release()
	args := r.Args(c, r.ContainerName(c.ID), st.mounts)
	i := len(args) - 4 // the image, ExecutorPath, "tool-exec", request
	args = append(append(args[:i:i], "-v", sockDir+":"+sockDir), args[i], d+"/peerprobe", sock)
	cctx, ccancel := context.WithTimeout(context.Background(), time.Minute)
	defer ccancel()
	out, _ := exec.CommandContext(cctx, "podman", args...).CombinedOutput()
	var a daemon.Answer
	if err := json.Unmarshal(out, &a); err != nil {
		t.Fatalf("the probe's answer: %s (%v)", out, err)
	}
	if a.Entry != runbook.SocketPeerRefused.String() || !strings.Contains(a.Error, "from uid 65533") {
		t.Errorf("the tool's connection was answered %+v, want socket-peer-refused for uid 65533", a)
	}
	if !strings.Contains(log.String(), "refused a connection on "+sock+" from uid 65533") {
		t.Errorf("the daemon's log: %q", log.String())
	}
}
