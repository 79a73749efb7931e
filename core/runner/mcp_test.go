package runner

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"boxmaker/core/policy"
	"boxmaker/runbook"
)

// An MCP server's container: the lockdown, exactly the decided paths
// (read-only unless Write, a denied path below hidden), its secrets in
// podman's environment but not on its command line, the tools' uid; and
// Release leaves no container and no staged mount.
func TestStartMCPGivesTheDecidedPathsAndHidesTheSecret(t *testing.T) {
	d := resolvedTempDir(t)
	mkdirOwned(t, d+"/ro")
	mkdirOwned(t, d+"/ro/private")
	mkdirOwned(t, d+"/rw")
	mkdirOwned(t, d+"/other")
	writeTestFile(t, d+"/ro/a.txt", "given")
	writeTestFile(t, d+"/ro/private/p.txt", "hidden")
	writeTestFile(t, d+"/other/o.txt", "not given")
	r := newTestRunner(t, nil)
	name := r.ContainerName(callID(t))
	script := "cat " + d + "/ro/a.txt; echo; " +
		"(echo x > " + d + "/ro/new) 2>/dev/null && echo wrote-ro || echo refused-ro; " +
		"echo y > " + d + "/rw/new && echo wrote-rw; " +
		"cat " + d + "/ro/private/p.txt 2>/dev/null || echo hidden; " +
		"cat " + d + "/other/o.txt 2>/dev/null || echo absent; " +
		"echo token=$MCP_TOKEN plain=$PLAIN; id -u"
	st, err := r.StartMCP(context.Background(), MCPServe{Name: name, Image: testImage, Argv: []string{"/bin/sh", "-c", script},
		Env: []string{"PLAIN=p"}, Secrets: []string{"MCP_TOKEN=s3cret"}, Lifetime: time.Minute,
		Mounts: []policy.MCPMount{
			{Path: d + "/ro", Masks: []policy.Mask{{Path: d + "/ro/private", Hide: true, Grant: "no.toml", Tool: policy.ReadFile}}},
			{Path: d + "/rw", Write: true},
		}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range st.Cmd.Args {
		if strings.Contains(a, "s3cret") {
			t.Errorf("the secret is on podman's command line: %q", st.Cmd.Args)
		}
	}
	for _, want := range [][]string{{"--network", "none"}, {"--pull", "never"}, {"--cap-drop", "all"}, {"--env", "MCP_TOKEN"}} {
		if i := slices.Index(st.Cmd.Args, want[0]); i < 0 || !slices.Contains(st.Cmd.Args[i:], want[1]) {
			t.Errorf("no %s %s in %q", want[0], want[1], st.Cmd.Args)
		}
	}
	out, err := st.Cmd.Output()
	st.Release()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := "given\nrefused-ro\nwrote-rw\nhidden\nabsent\ntoken=s3cret plain=p\n65533\n"
	if string(out) != want {
		t.Errorf("the server saw:\n%s\nwant:\n%s", out, want)
	}
	if _, err := os.Stat(d + "/ro/new"); err == nil {
		t.Error("the read-only path was written")
	}
	fi, err := os.Stat(d + "/rw/new")
	if err != nil {
		t.Fatal(err)
	}
	if uid := fi.Sys().(*syscall.Stat_t).Uid; uid != testOwnerUID {
		t.Errorf("the server's file is uid %d's, want the owner's %d", uid, testOwnerUID)
	}
	if entries, _ := os.ReadDir(r.cfg.StageDir); len(entries) != 0 {
		t.Errorf("the staging directory holds %d entries after Release", len(entries))
	}
	if out, err := exec.Command("podman", "ps", "-a", "--filter", "name="+name, "--format", "{{.Names}}").Output(); err != nil || len(out) != 0 {
		t.Errorf("the container is left after Release: %q, %v", out, err)
	}
}

// The object decided is the object mounted: a path that is another object
// by the time the runner holds it is refused, nothing started.
func TestStartMCPRefusesAnotherObjectAtTheDecidedPath(t *testing.T) {
	d := resolvedTempDir(t)
	r := newTestRunner(t, nil)
	var st syscall.Stat_t
	if err := syscall.Stat(d, &st); err != nil {
		t.Fatal(err)
	}
	_, err := r.StartMCP(context.Background(), MCPServe{Name: r.ContainerName(callID(t)), Image: testImage, Argv: []string{"/bin/true"},
		Lifetime: time.Minute, Mounts: []policy.MCPMount{{Path: d, Dev: st.Dev, Ino: st.Ino + 1}}})
	if e, _ := runbook.EntryOf(err); e != runbook.TargetChanged {
		t.Fatalf("another object: %v", err)
	}
	if entries, _ := os.ReadDir(r.cfg.StageDir); len(entries) != 0 {
		t.Errorf("the staging directory holds %d entries after the refusal", len(entries))
	}
}
