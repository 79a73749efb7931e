package broker

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"boxmaker/audit"
	"boxmaker/core/brokerwire"
	"boxmaker/core/policy"
	"boxmaker/runbook"
)

// seenMCP is an MCP that runs no server: it says the server "notes"
// declares paths and accepted "echo" and "read", and keeps each call
// it is asked to run, with what the ledger held as it began.
type seenMCP struct {
	t        *testing.T
	f        *fixture
	declared []string
	mu       sync.Mutex
	calls    []seenCall
}

type seenCall struct {
	session, server, tool string
	args                  string
	plan                  policy.MCPPlan
	recorded              bool // the call's decision record was in the ledger when it began
}

func (m *seenMCP) Server(server, tool string) ([]string, error) {
	if server != "notes" {
		return nil, runbook.Refuse(runbook.MCPServerInvalid, "there is no MCP server %s", server)
	}
	if tool != "echo" && tool != "read" {
		return nil, runbook.Refuse(runbook.MCPToolsWithheld, "%s is not a tool of the MCP server %s that the owner accepted", tool, server)
	}
	return m.declared, nil
}

func (m *seenMCP) Call(_ context.Context, session, callID, server, tool string, args json.RawMessage, plan policy.MCPPlan) (string, []string, []string, error) {
	recorded := false
	for _, r := range m.f.records(m.t) {
		if r.Type == audit.TypeDecision && r.Call == callID && r.Session == session {
			recorded = true
		}
	}
	m.mu.Lock()
	m.calls = append(m.calls, seenCall{session, server, tool, string(args), plan, recorded})
	m.mu.Unlock()
	return "ok", nil, nil, nil
}

func (m *seenMCP) Offer() []brokerwire.MCPTool { return nil }
func (m *seenMCP) Close() int                  { return 0 }

func (m *seenMCP) taken() []seenCall {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]seenCall(nil), m.calls...)
}

// The model names a tool: every name that is not exactly an accepted
// tool of a declared server that a grant covers is denied before
// anything runs: an extra "__", case variants, a look-alike letter, a
// server not declared or one no grant names, a space or a line feed.
func TestAnMCPNameThatIsNotExactlyGrantedIsDenied(t *testing.T) {
	f := newFixture(t, map[string]string{
		"notes.toml": mcpGrant("allow", "public", "secret", ""),
		"other.toml": "tool = \"mcp\"\nserver = \"other\"\neffect = \"allow\"\nclass = \"public\"\nmax_taint = \"secret\"\n",
	}, time.Minute)
	m := &seenMCP{t: t, f: f}
	f.b.cfg.MCP = m
	for i, name := range []string{
		"mcp__notes__echo__x", "mcp__notes___echo", "mcp__notes__", "mcp____notes__echo", "mcp__notes_echo",
		"MCP__notes__echo", "mcp__Notes__echo", "mcp__notes__Echo", "mcp__notes__ECHO",
		"mcp__notes__\u0435cho", "mcp__n\u043etes__echo", "mcp__notes__echo\u200b", "mcp\uff3f\uff3fnotes__echo",
		"mcp__notes__echo ", "mcp__notes__echo\n", " mcp__notes__echo", "mcp__notes__ech",
		"mcp__undeclared__echo", "mcp__other__echo", "mcp__notes/..__echo", "mcp__notes__../echo",
	} {
		a, err := f.b.Call(context.Background(), brokerwire.ToolCall{Session: "s1", CallID: fmt.Sprintf("c%d", i), Tool: name, Arguments: json.RawMessage(`{}`)}, nil)
		if err != nil {
			continue // refused before a decision: nothing ran either
		}
		if a.Outcome != brokerwire.OutcomeDenied {
			t.Errorf("%q: %+v", name, a)
		}
	}
	if got := m.taken(); len(got) != 0 {
		t.Errorf("run: %+v", got)
	}
	// The exact name runs, recorded before it ran.
	a := callMCP(t, f, "ok", "mcp__notes__echo", `{}`)
	if got := m.taken(); a.Outcome != brokerwire.OutcomeAllowed || len(got) != 1 || got[0].tool != "echo" || !got[0].recorded {
		t.Errorf("the exact name: %+v, %+v", a, got)
	}
}

// What a server's container is given is decided from the grants: a
// path in the arguments changes nothing of it. A server given a secret
// path and a public one that a write_file grant lets public sessions
// write is given the public one read-only: the call is decided at the
// taint it leaves behind (secret), where that grant does not apply, so
// the server cannot copy the secret where public sessions read. The
// session is raised to secret.
func TestAnMCPServersMountsComeFromTheGrantsNotTheArguments(t *testing.T) {
	root := t.TempDir()
	pub, sec := filepath.Join(root, "pub"), filepath.Join(root, "sec")
	for _, d := range []string{pub, sec} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	f := newFixture(t, map[string]string{
		"notes.toml":     mcpGrant("allow", "public", "secret", fmt.Sprintf("paths = [%q, %q]\n", pub, sec)),
		"read-sec.toml":  fmt.Sprintf("tool = \"read_file\"\neffect = \"allow\"\nclass = \"secret\"\nmax_taint = \"secret\"\npaths = [%q]\n", sec),
		"write-pub.toml": fmt.Sprintf("tool = \"write_file\"\neffect = \"allow\"\nclass = \"public\"\nmax_taint = \"public\"\npaths = [%q]\n", pub),
	}, time.Minute)
	m := &seenMCP{t: t, f: f, declared: []string{root}}
	f.b.cfg.MCP = m
	for i, args := range []string{`{}`, `{"path":"/etc/shadow"}`, fmt.Sprintf(`{"path":%q,"paths":[%q,"/"]}`, root+"/../..", f.dir)} {
		if a := callMCP(t, f, fmt.Sprintf("c%d", i), "mcp__notes__read", args); a.Outcome != brokerwire.OutcomeAllowed {
			t.Fatalf("%s: %+v", args, a)
		}
	}
	got := m.taken()
	if len(got) != 3 {
		t.Fatalf("%d calls ran", len(got))
	}
	want := []policy.MCPMount{{Path: pub}, {Path: sec}}
	for _, c := range got {
		if len(c.plan.Mounts) != 2 || c.plan.Class != policy.Secret || !c.recorded {
			t.Fatalf("%s: plan %+v, recorded %v", c.args, c.plan, c.recorded)
		}
		for j, m := range c.plan.Mounts {
			if m.Path != want[j].Path || m.Write {
				t.Errorf("%s: mount %+v, want %s read-only", c.args, m, want[j].Path)
			}
		}
	}
	if st, _ := f.b.SessionState("s1"); st.Taint != policy.Secret {
		t.Errorf("the session's taint %v, want secret", st.Taint)
	}
}

// A call's failure is the server's to choose (it ends, hangs, answers a
// protocol error, lists other tools), so its kind is a few bits of what
// the server read, given to the model with no answer to raise the taint:
// a failed call raises the session as an answered one does.
func TestAFailedMCPCallRaisesTheTaintAsAnAnsweredOne(t *testing.T) {
	f := mcpFixture(t, map[string]string{"notes.toml": mcpGrant("allow", "secret", "secret", "")})
	a := callMCP(t, f, "c1", "mcp__notes__crash", `{}`)
	if a.Outcome != brokerwire.OutcomeFailed || !strings.HasSuffix(a.Text, runbook.Link(runbook.MCPCallFailed)) {
		t.Fatalf("crash: %+v", a)
	}
	if st, err := f.b.SessionState("s1"); err != nil || st != (policy.State{Taint: policy.Secret, Untrusted: true}) {
		t.Errorf("after a failed call: %+v, %v; want secret and untrusted", st, err)
	}
	for _, r := range f.records(t) {
		if r.Call == "c1" && r.Type == audit.TypeResult && (r.Outcome != brokerwire.OutcomeFailed || r.TaintAfter != "secret" || !r.Untrusted) {
			t.Errorf("result record %+v", r)
		}
	}
}
