package broker

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"boxmaker/audit"
	"boxmaker/core/brokerwire"
	"boxmaker/core/mcp"
	"boxmaker/core/mcpconf"
	"boxmaker/core/mcppin"
	"boxmaker/core/mcpserve"
	"boxmaker/core/policy"
	"boxmaker/core/runner"
	"boxmaker/runbook"
)

// mcpPeer is core/testpeer/mcpserver, built once: the real server of the
// scripts, run here as a process so that the decision path is tested
// without Podman (containment is core/runner's and the scripts').
var mcpPeer struct {
	once sync.Once
	path string
	err  error
}

type peerStarter struct{ bin string }

func (s peerStarter) StartMCP(_ context.Context, m runner.MCPServe) (*runner.MCPStarted, error) {
	return &runner.MCPStarted{Cmd: exec.Command(s.bin, "calls"), Release: func() {}}, nil
}

func (peerStarter) ContainerName(id string) string { return id }

// mcpFixture is a broker whose MCP server "notes" runs the peer in its
// "calls" mode, accepted as it lists itself, with grants.
func mcpFixture(t *testing.T, grants map[string]string) *fixture {
	t.Helper()
	mcpPeer.once.Do(func() {
		dir, err := os.MkdirTemp("", "broker-mcp-peer-")
		if err != nil {
			mcpPeer.err = err
			return
		}
		mcpPeer.path = filepath.Join(dir, "mcpserver")
		if out, err := exec.Command("go", "build", "-o", mcpPeer.path, "boxmaker/core/testpeer/mcpserver").CombinedOutput(); err != nil {
			mcpPeer.err = fmt.Errorf("go build: %v: %s", err, out)
		}
	})
	if mcpPeer.err != nil {
		t.Fatal(mcpPeer.err)
	}
	f := newFixture(t, grants, time.Minute)
	home, dir := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.toml"), []byte("image = \"localhost/mcp@sha256:"+strings.Repeat("0", 64)+"\"\ncommand = [\"/srv\", \"calls\"]\n"), 0o600)
	s, err := mcpconf.Load(dir).Server("notes")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := mcp.Connect(context.Background(), exec.Command(mcpPeer.path, "calls"), mcp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := sess.Tools(context.Background())
	sess.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := mcppin.Save(home, mcppin.Accept(s, l.Listed())); err != nil {
		t.Fatal(err)
	}
	pool := mcpserve.New(mcpserve.Config{Runner: peerStarter{mcpPeer.path}, Home: home, Dir: dir, Idle: time.Hour,
		CallTimeout: 5 * time.Second, Lifetime: time.Hour, OutputLimit: 1 << 16, Log: t.Logf})
	t.Cleanup(func() { pool.Close() })
	f.b.cfg.MCP = pool
	return f
}

func mcpGrant(effect, class, maxTaint, extra string) string {
	return fmt.Sprintf("tool = \"mcp\"\nserver = \"notes\"\neffect = %q\nclass = %q\nmax_taint = %q\n%s", effect, class, maxTaint, extra)
}

func callMCP(t *testing.T, f *fixture, id, tool, args string) brokerwire.Answer {
	t.Helper()
	a, err := f.b.Call(context.Background(), brokerwire.ToolCall{Session: "s1", CallID: id, Tool: tool, Arguments: json.RawMessage(args)}, nil)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return a
}

// A deny on one tool while another of the same server is allowed; the
// allowed call is recorded before it runs, with what the server is sent,
// and raises the session to the grant's class, untrusted by default.
func TestAnMCPToolIsDecidedRecordedAndTainted(t *testing.T) {
	f := mcpFixture(t, map[string]string{
		"notes.toml":       mcpGrant("allow", "private", "private", ""),
		"notes-write.toml": "tool = \"mcp\"\nserver = \"notes\"\ntools = [\"write\"]\neffect = \"deny\"\nmax_taint = \"secret\"\n",
	})
	a := callMCP(t, f, "c1", "mcp__notes__echo", `{"text":"hi"}`)
	if a.Outcome != brokerwire.OutcomeAllowed || a.Text != "echo: hi" || a.Decision.Grant != "notes.toml" {
		t.Fatalf("echo: %+v", a)
	}
	a = callMCP(t, f, "c2", "mcp__notes__write", `{"path":"/tmp/x","text":"y"}`)
	if a.Outcome != brokerwire.OutcomeDenied || !strings.Contains(a.Text, "the grant notes-write.toml denies mcp__notes__write") {
		t.Fatalf("write: %+v", a)
	}
	st, err := f.b.SessionState("s1")
	if err != nil || st != (policy.State{Taint: policy.Private, Untrusted: true}) {
		t.Fatalf("state %+v, %v; want private and untrusted", st, err)
	}
	var kinds []string
	for _, r := range f.records(t) {
		if r.Call == "c1" {
			kinds = append(kinds, string(r.Type)+":"+r.Effect+r.Outcome)
			if r.Type == audit.TypeDecision && (r.Tool != "mcp__notes__echo" || !strings.Contains(r.Note, "arguments sha256 ")) {
				t.Errorf("decision record %+v", r)
			}
		}
	}
	if strings.Join(kinds, " ") != "decision:allow result:ran" {
		t.Errorf("records of c1: %v", kinds)
	}
}

// A tool the owner did not accept is denied even under a grant that
// covers every tool of the server; a call to a server not declared too.
func TestAnMCPToolNotAcceptedIsDenied(t *testing.T) {
	f := mcpFixture(t, map[string]string{"notes.toml": mcpGrant("allow", "public", "secret", "")})
	a := callMCP(t, f, "c1", "mcp__notes__grown", `{}`)
	if a.Outcome != brokerwire.OutcomeDenied || !strings.HasSuffix(a.Text, runbook.Link(runbook.MCPToolsWithheld)) {
		t.Fatalf("grown: %+v", a)
	}
	a = callMCP(t, f, "c2", "mcp__other__echo", `{}`)
	if a.Outcome != brokerwire.OutcomeDenied {
		t.Fatalf("another server: %+v", a)
	}
}

func TestMCPArgumentsMustBeAnObjectWithNoKeyTwice(t *testing.T) {
	f := mcpFixture(t, map[string]string{"notes.toml": mcpGrant("allow", "public", "secret", "")})
	for i, args := range []string{`[1]`, `"x"`, `{"text":"a","text":"b"}`, `{"o":{"k":1,"k":2}}`} {
		if a := callMCP(t, f, fmt.Sprintf("c%d", i), "mcp__notes__echo", args); a.Outcome != brokerwire.OutcomeDenied {
			t.Errorf("%s: %+v", args, a)
		}
	}
}

// A server that ends mid-call fails that call with its entry; the
// session goes on.
func TestAnMCPServerThatEndsFailsTheCallOnly(t *testing.T) {
	f := mcpFixture(t, map[string]string{"notes.toml": mcpGrant("allow", "public", "secret", "")})
	a := callMCP(t, f, "c1", "mcp__notes__crash", `{}`)
	if a.Outcome != brokerwire.OutcomeFailed || !strings.HasSuffix(a.Text, runbook.Link(runbook.MCPCallFailed)) {
		t.Fatalf("crash: %+v", a)
	}
	if a := callMCP(t, f, "c2", "mcp__notes__echo", `{"text":"on"}`); a.Outcome != brokerwire.OutcomeAllowed || a.Text != "echo: on" {
		t.Fatalf("after: %+v", a)
	}
}

// mcp.tools offers the accepted tools the grants allow or ask at the
// session's taint, and none a deny covers.
func TestMCPToolsOffersWhatTheGrantsAllow(t *testing.T) {
	f := mcpFixture(t, map[string]string{
		"notes.toml":      mcpGrant("allow", "private", "private", "tools = [\"echo\", \"read\"]\n"),
		"notes-read.toml": "tool = \"mcp\"\nserver = \"notes\"\ntools = [\"read\"]\neffect = \"deny\"\nmax_taint = \"secret\"\n",
		"notes-ask.toml":  mcpGrant("ask", "public", "public", "tools = [\"tags\"]\n"),
	})
	names := func() string {
		out, err := f.b.MCPTools("s1")
		if err != nil {
			t.Fatal(err)
		}
		var n []string
		for _, t := range out.Tools {
			n = append(n, t.Name)
		}
		return strings.Join(n, " ")
	}
	if got := names(); got != "mcp__notes__echo mcp__notes__tags" {
		t.Errorf("at public: %s", got)
	}
	callMCP(t, f, "c1", "mcp__notes__echo", `{"text":"x"}`) // private now
	if got := names(); got != "mcp__notes__echo" {
		t.Errorf("at private: %s", got)
	}
}

// A caller that goes (the person stops the reply, loopd's connection
// closes) cancels the call: the server is told, the call fails with its
// entry, and the session's server goes on.
func TestAnMCPCallIsCancelledWhenItsCallerGoes(t *testing.T) {
	f := mcpFixture(t, map[string]string{"notes.toml": mcpGrant("allow", "public", "secret", "")})
	gone := make(chan struct{})
	go func() { time.Sleep(300 * time.Millisecond); close(gone) }()
	a, err := f.b.Call(WithCallerGone(context.Background(), gone),
		brokerwire.ToolCall{Session: "s1", CallID: "c1", Tool: "mcp__notes__sleep", Arguments: json.RawMessage(`{}`)}, nil)
	if err != nil || a.Outcome != brokerwire.OutcomeFailed || !strings.Contains(a.Text, "the call of mcp__notes__sleep was cancelled: its caller went") {
		t.Fatalf("sleep: %+v, %v", a, err)
	}
	if a := callMCP(t, f, "c2", "mcp__notes__echo", `{"text":"on"}`); a.Outcome != brokerwire.OutcomeAllowed || a.Text != "echo: on" {
		t.Fatalf("after: %+v", a)
	}
}
