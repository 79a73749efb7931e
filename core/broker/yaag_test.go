package broker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/audit"
	"boxmaker/core/brokerwire"
	"boxmaker/core/daemon"
	"boxmaker/core/loopwire"
	"boxmaker/core/policy"
	"boxmaker/core/runner"
)

func TestYaagArguments(t *testing.T) {
	script := func(s string) *string { return &s }
	tests := []struct {
		name    string
		a       arguments
		targets []string
		problem string
	}{
		{"a file is decided on its directory", arguments{File: "/home/o/progs/review.ts"}, []string{"/home/o/progs"}, ""},
		{"a file path is cleaned first", arguments{File: "/home/o/progs/../x/./p.ts"}, []string{"/home/o/x"}, ""},
		{"a script on its dir", arguments{Script: script("export default 1;"), Dir: "/home/o/progs"}, []string{"/home/o/progs"}, ""},
		{"a relative file", arguments{File: "progs/p.ts"}, nil, "yaag_run needs an absolute file"},
		{"a script without dir", arguments{Script: script("x")}, nil, "needs dir"},
		{"both", arguments{File: "/p.ts", Script: script("x")}, nil, "a file or a script, not both"},
		{"neither", arguments{}, nil, "needs a file"},
		{"a script over the limit", arguments{Script: script(strings.Repeat("x", 65537)), Dir: "/d"}, nil, "yaag_run: script is too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, targets, _, problem := yaagArguments(tt.a)
			if diff := cmp.Diff(tt.targets, targets); diff != "" {
				t.Error(diff)
			}
			if (tt.problem == "") != (problem == "") || !strings.Contains(problem, tt.problem) {
				t.Errorf("problem %q, want %q", problem, tt.problem)
			}
		})
	}
}

func TestAForkStartsAtItsParentsState(t *testing.T) {
	f := newFixture(t, nil, time.Minute)
	if _, err := f.b.StartSession(brokerwire.SessionStart{Session: "parent", Taint: "private"}); err != nil {
		t.Fatal(err)
	}
	st, err := f.b.StartSession(brokerwire.SessionStart{Session: "child", Taint: "public", From: "parent"})
	if err != nil || st.Taint != policy.Private {
		t.Fatalf("the fork starts at %+v (%v), want its parent's private", st, err)
	}
	recs := f.records(t)
	if last := recs[len(recs)-1]; last.Type != audit.TypeSessionStart || last.Session != "child" || last.Taint != "private" || !strings.Contains(last.Note, "a fork of session parent") {
		t.Fatalf("the audit record %+v", last)
	}
	if _, err := f.b.StartSession(brokerwire.SessionStart{Session: "child2", Taint: "public", From: "../x"}); err == nil {
		t.Fatal("a fork from a session id that is not one")
	}
}

// A Run's Agents share one taint domain (issue 23, item 3; D821): each
// starts at the Run's floor, and what one reads raises every other before
// its next call is decided. Agent A recalls private text; Agent B, a new
// session of the same Run, may no longer use a grant that stops at public
// (its memory write, here, as a public write_file would be): on the old
// code B started public and independent, and the write was allowed.
func TestARunsAgentsRiseTogether(t *testing.T) {
	f := newFixture(t, map[string]string{
		"recall.toml": grant("recall", "allow", "public", "secret", false),
		"memory.toml": grant("memory", "allow", "public", "public", false),
	}, time.Minute)
	key, domain, err := f.b.sessions.newDomain(policy.State{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"agent-a", "agent-b"} {
		if st, err := f.b.StartSession(brokerwire.SessionStart{Session: s, Taint: "public", Domain: key}); err != nil || st != (policy.State{}) {
			t.Fatalf("%s starts at %+v (%v), want the domain's public", s, st, err)
		}
	}
	call := func(session, id, tool, args string) brokerwire.Answer {
		t.Helper()
		a, err := f.b.Call(context.Background(), brokerwire.ToolCall{Session: session, CallID: id, Tool: tool, Arguments: json.RawMessage(args)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	if a := call("agent-b", "m1", "memory", `{"actions":[{"action":"note","file":"memory","text":"x"}]}`); a.Outcome != brokerwire.OutcomeAllowed {
		t.Fatalf("B's memory call while the Run is public: %+v", a)
	}
	if a := call("agent-a", "r1", "recall", `{"query":"taint:private"}`); a.Outcome != brokerwire.OutcomeAllowed {
		t.Fatalf("A's recall: %+v", a)
	}
	if a := call("agent-b", "m2", "memory", `{"actions":[{"action":"note","file":"memory","text":"x"}]}`); a.Outcome != brokerwire.OutcomeDenied ||
		!strings.Contains(a.Text, "once the session's taint is private") {
		t.Fatalf("B's memory call after A read private data: %+v", a)
	}
	// Untrusted travels the same way, and memoryd is told so.
	call("agent-a", "r2", "recall", `{"query":"tainted"}`)
	if st, err := f.b.SessionState("agent-b"); err != nil || st != (policy.State{Taint: policy.Private, Untrusted: true}) {
		t.Fatalf("B's state as memoryd reads it: %+v %v", st, err)
	}
	// A third Agent, made now, starts where the domain is.
	if st, err := f.b.StartSession(brokerwire.SessionStart{Session: "agent-c", Taint: "public", Domain: key}); err != nil || st != (policy.State{Taint: policy.Private, Untrusted: true}) {
		t.Fatalf("C starts at %+v (%v)", st, err)
	}
	recs := f.records(t)
	if !slices.ContainsFunc(recs, func(r audit.Record) bool {
		return r.Type == audit.TypeSessionStart && r.Session == "agent-c" && strings.Contains(r.Note, "at its taint domain "+domain)
	}) {
		t.Errorf("no session_start of agent-c naming its domain")
	}
	// The key is written nowhere: the files hold the domain's id only.
	for _, p := range []string{filepath.Join(f.dir, "sessions", "agent-a.json"), filepath.Join(f.dir, "domains", domain+".json"), filepath.Join(f.dir, "audit", "000001.jsonl")} {
		data, err := os.ReadFile(p)
		if err != nil || strings.Contains(string(data), key) {
			t.Errorf("%s holds the domain's key (%v)", p, err)
		}
	}
}

// A session joins a domain only with a key brokerd made: a key of no
// domain, or text that is no key, starts no session.
func TestOnlyADomainsKeyJoinsIt(t *testing.T) {
	f := newFixture(t, nil, time.Minute)
	key, domain, err := f.b.sessions.newDomain(policy.State{Taint: policy.Secret})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{strings.Repeat("0", 64), domain, key[:63], strings.ToUpper(key)} {
		if st, err := f.b.StartSession(brokerwire.SessionStart{Session: "s1", Taint: "public", Domain: bad}); err == nil {
			t.Errorf("key %q: the session started at %+v", bad, st)
		}
	}
	if _, err := os.Stat(filepath.Join(f.dir, "sessions", "s1.json")); err == nil {
		t.Error("a refused session has a state file")
	}
	// A session that exists already is not taken into a domain (its
	// state file would say otherwise than what it read).
	if _, err := f.b.StartSession(brokerwire.SessionStart{Session: "s2", Taint: "public"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.b.StartSession(brokerwire.SessionStart{Session: "s2", Taint: "public", Domain: key}); err == nil {
		t.Error("an existing session joined a domain")
	}
}

// The caller takes the Run's domain when yaag_status answers, whichever
// session asks and whatever the Run's record names as its Agents.
func TestTheCallerTakesTheRunsDomain(t *testing.T) {
	f := newFixture(t, nil, time.Minute)
	f.b.cfg.Yaag = &YaagRuns{Home: f.dir}
	_, domain, err := f.b.sessions.newDomain(policy.State{Taint: policy.Private, Untrusted: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.b.sessions.nameDomainRun(domain, "r-1"); err != nil {
		t.Fatal(err)
	}
	if st := f.b.runState("r-1", nil); st != (policy.State{Taint: policy.Private, Untrusted: true}) {
		t.Errorf("the state of Run r-1: %+v", st)
	}
	if st := f.b.runState("r-2", nil); st != (policy.State{}) {
		t.Errorf("a Run with no domain: %+v", st)
	}
	os.WriteFile(filepath.Join(f.dir, "domains", domain+".json"), []byte(`{"taint":"pub`), 0o600)
	if st := f.b.runState("r-1", nil); st != (policy.State{}) {
		t.Errorf("a damaged domain is skipped by the scan, not trusted: %+v", st)
	}
}

// A member whose domain cannot be read is denied, as a damaged state is.
func TestAMemberOfADamagedDomainIsDenied(t *testing.T) {
	f := newFixture(t, map[string]string{"recall.toml": grant("recall", "allow", "public", "secret", false)}, time.Minute)
	key, domain, err := f.b.sessions.newDomain(policy.State{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.b.StartSession(brokerwire.SessionStart{Session: "agent-a", Taint: "public", Domain: key}); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(f.dir, "domains", domain+".json"))
	a, err := f.b.Call(context.Background(), brokerwire.ToolCall{Session: "agent-a", CallID: "r1", Tool: "recall", Arguments: json.RawMessage(`{}`)}, nil)
	if err != nil || a.Outcome != brokerwire.OutcomeDenied || !strings.HasPrefix(a.Text, StateDamagedText+"; see ") {
		t.Fatalf("%+v %v", a, err)
	}
}

// A Run reads its directory's files (its program imports text and JSON as
// well as code) on the host: a yaag_run is decided on the class of every
// grant that overlaps its directory, and a deny inside it refuses the Run
// before yaag starts (D820). On the old code both started the Run.
func TestYaagRunIsDecidedOnWhatItsDirectoryHolds(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"pub/keys", "den/keys"} {
		os.MkdirAll(filepath.Join(dir, d), 0o700)
	}
	paths := func(p string) string { return fmt.Sprintf("paths = [%q]\n", filepath.Join(dir, p)) }
	f := newFixture(t, map[string]string{
		"yaag.toml":      paths("pub") + grant("yaag_run", "allow", "public", "public", false),
		"yaag-den.toml":  paths("den") + grant("yaag_run", "allow", "public", "secret", false),
		"read-keys.toml": paths("pub/keys") + grant("read_file", "allow", "secret", "secret", false),
		"deny-keys.toml": paths("den/keys") + grant("read_file", "deny", "public", "secret", false),
	}, time.Minute)
	f.b.cfg.Yaag = &YaagRuns{Home: filepath.Join(dir, "no-such-home")}
	for _, tt := range []struct{ prog, want string }{
		{"pub/p.ts", `denied: the call reads "` + filepath.Join(dir, "pub/keys") + `" through read-keys.toml, which is secret, so it is decided at the taint it would leave behind; at secret, no grant allows yaag_run`},
		{"den/p.ts", `denied: the grant deny-keys.toml denies read_file on "` + filepath.Join(dir, "den/keys") + `", which is inside`},
	} {
		a, err := f.b.Call(context.Background(), brokerwire.ToolCall{Session: "s1", CallID: "y-" + filepath.Dir(tt.prog), Tool: "yaag_run",
			Arguments: json.RawMessage(fmt.Sprintf(`{"file":%q}`, filepath.Join(dir, tt.prog)))}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if a.Outcome != brokerwire.OutcomeDenied || !strings.HasPrefix(a.Text, tt.want) {
			t.Errorf("yaag_run %s: %+v\nwant %s", tt.prog, a, tt.want)
		}
	}
}

// The Run reaches loopd only through brokerd's relay (yaagbox.go): the
// relay puts every session it makes in the Run's taint domain, with the
// key brokerd holds, whatever key (or none) the Run sent, so the key
// never enters the Run's container; and it refuses a request on a
// session the Run did not make through it, or a copy of a session that
// is not its host's. loopd here is a socket that answers as loopd and
// keeps the requests it got.
func TestTheRelayGivesLoopdTheDomainsKeyAndOnlyTheRunsSessions(t *testing.T) {
	dir := t.TempDir()
	var mu sync.Mutex
	var got []string
	n := 0
	answer := func(kind string) daemon.Handler {
		return func(_ context.Context, _ daemon.Peer, body json.RawMessage, _ *daemon.Stream) (any, error) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, kind+" "+string(body))
			n++
			return map[string]any{"session": fmt.Sprintf("agent-%d", n), "at": map[string]any{"id": fmt.Sprintf("agent-%d", n)}}, nil
		}
	}
	loop := filepath.Join(dir, "loop.sock")
	ln, err := net.Listen("unix", loop)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]daemon.Handler{}
	for _, k := range []string{loopwire.KindAgentSpawn, loopwire.KindAgentFork, loopwire.KindAgentAsk, loopwire.KindAgentCompact, loopwire.KindAgentAnswer} {
		kinds[k] = answer(k)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go (&daemon.Socket{Role: "loopd", Name: "loop", Path: loop, Kinds: kinds, Log: io.Discard}).Serve(ctx, ln)

	key := strings.Repeat("ab", 32)
	y := &YaagRuns{Runner: fakeYaagRunner{}, LoopSocket: loop, Home: dir}
	run := &yaagRun{id: "r-20261207-000000-00000000", done: make(chan struct{})}
	boxDir := filepath.Join(dir, "box")
	os.Mkdir(boxDir, 0o700)
	relay, stop, err := y.serveRelay(run, &box{dir: boxDir}, "host-1", key)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	call := func(kind string, body any) error {
		var out json.RawMessage
		return daemon.Call(context.Background(), relay, kind, body, &out, nil)
	}
	if err := call(loopwire.KindAgentSpawn, loopwire.SpawnRequest{Run: run.id, Agent: "A1", Domain: "forged"}); err != nil {
		t.Fatal(err)
	}
	if err := call(loopwire.KindAgentFork, loopwire.ForkRequest{Run: run.id, From: loopwire.SessionAt{ID: "host-1"}, Host: true, Latest: true}); err != nil {
		t.Fatal(err)
	}
	if err := call(loopwire.KindAgentAsk, loopwire.AskRequest{Session: "agent-1", Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	for _, refused := range []struct {
		kind string
		body any
	}{
		{loopwire.KindAgentAsk, loopwire.AskRequest{Session: "someone-elses", Text: "hi"}},
		{loopwire.KindAgentCompact, loopwire.CompactRequest{Session: "host-1"}},
		{loopwire.KindAgentAnswer, loopwire.AnswerRequest{At: loopwire.SessionAt{ID: "someone-elses"}}},
		{loopwire.KindAgentFork, loopwire.ForkRequest{Run: run.id, From: loopwire.SessionAt{ID: "someone-elses"}, Host: true, Latest: true}},
		{loopwire.KindAgentFork, loopwire.ForkRequest{Run: run.id, From: loopwire.SessionAt{ID: "someone-elses"}}},
		{loopwire.KindAgentSpawn, loopwire.SpawnRequest{Run: "r-20261207-000000-11111111", Agent: "A9"}},
		{"turn", map[string]string{"text": "hi"}},
		// A person's view of the sessions is loopd's to the owner, never
		// the Run's: the relay does not take its kinds.
		{loopwire.KindSessionsList, struct{}{}},
		{loopwire.KindSessionHistory, loopwire.HistoryRequest{Session: "host-1", Turns: 1}},
	} {
		if err := call(refused.kind, refused.body); err == nil {
			t.Errorf("%s %+v went through", refused.kind, refused.body)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 3 || !strings.Contains(got[0], `"domain":"`+key+`"`) || !strings.Contains(got[1], `"domain":"`+key+`"`) || strings.Contains(strings.Join(got, "\n"), "forged") {
		t.Fatalf("loopd got:\n%s", strings.Join(got, "\n"))
	}
	if diff := cmp.Diff([]string{"agent-1", "agent-2"}, run.agentSessions()); diff != "" {
		t.Errorf("the Run's sessions: %s", diff)
	}
}

// Agents of one Run calling at once: Agent A's recall raises the domain
// to private while Agents B, C and D make memory calls that only a public
// session may. In the log's order, no call of any Agent is decided allow
// (or decided below private) once a result of A's has said private: the
// domain rose before A's result was recorded, so before any program
// could hand A's answer on.
func TestARunsAgentsRiseTogetherUnderConcurrentCalls(t *testing.T) {
	f := newFixture(t, map[string]string{
		"recall.toml": grant("recall", "allow", "private", "secret", false),
		"memory.toml": grant("memory", "allow", "public", "public", false),
	}, time.Minute)
	key, _, err := f.b.sessions.newDomain(policy.State{})
	if err != nil {
		t.Fatal(err)
	}
	agents := []string{"agent-a", "agent-b", "agent-c", "agent-d"}
	for _, s := range agents {
		if _, err := f.b.StartSession(brokerwire.SessionStart{Session: s, Taint: "public", Domain: key}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := brokerwire.ToolCall{Session: agents[1+i%3], CallID: fmt.Sprintf("m%d", i), Tool: "memory",
				Arguments: json.RawMessage(`{"actions":[{"action":"note","file":"memory","text":"x"}]}`)}
			if i%8 == 0 {
				c = brokerwire.ToolCall{Session: "agent-a", CallID: fmt.Sprintf("r%d", i), Tool: "recall", Arguments: json.RawMessage(`{"query":"q"}`)}
			}
			if _, err := f.b.Call(context.Background(), c, nil); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	private := false
	for _, r := range f.records(t) {
		switch {
		case r.Type == audit.TypeResult && r.Session == "agent-a" && r.TaintAfter == "private":
			private = true
		case r.Type == audit.TypeDecision && private && (r.Effect == "allow" && r.Tool == "memory" || r.Taint != "private"):
			t.Errorf("%s's call %s decided %s at %s after agent-a's result said private", r.Session, r.Call, r.Effect, r.Taint)
		}
	}
	if !private {
		t.Fatal("agent-a's recall never raised it")
	}
	for _, s := range agents {
		if st, err := f.b.SessionState(s); err != nil || st.Taint != policy.Private {
			t.Errorf("%s ends at %+v (%v)", s, st, err)
		}
	}
}

type fakeYaagRunner struct{}

func (fakeYaagRunner) StartYaag(runner.YaagSpec) (*runner.YaagContainer, error) {
	return nil, errors.New("no containers here")
}
func (fakeYaagRunner) ToolUID() int { return 65533 }

// A Run that goes while its Ask is in flight (stopped; its Ask timed out
// or stalled) ends the relay's request to loopd with it: loopd's turn
// sees its client go, as it does for the owner's yaag.
func TestTheRelayEndsAnAskItsRunLeft(t *testing.T) {
	dir := t.TempDir()
	reached, gone := make(chan struct{}), make(chan struct{})
	loop := filepath.Join(dir, "loop.sock")
	ln, err := net.Listen("unix", loop)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	kinds := map[string]daemon.Handler{
		loopwire.KindAgentSpawn: func(context.Context, daemon.Peer, json.RawMessage, *daemon.Stream) (any, error) {
			return map[string]any{"session": "agent-1", "at": map[string]any{"id": "agent-1"}}, nil
		},
		loopwire.KindAgentAsk: func(_ context.Context, _ daemon.Peer, _ json.RawMessage, s *daemon.Stream) (any, error) {
			close(reached)
			select {
			case <-s.Gone():
				close(gone)
			case <-time.After(20 * time.Second):
			}
			return nil, errors.New("stopped")
		},
	}
	go (&daemon.Socket{Role: "loopd", Name: "loop", Path: loop, Kinds: kinds, Log: io.Discard}).Serve(ctx, ln)
	y := &YaagRuns{Runner: fakeYaagRunner{}, LoopSocket: loop, Home: dir}
	run := &yaagRun{id: "r-20261207-000000-00000000", done: make(chan struct{})}
	boxDir := filepath.Join(dir, "box")
	os.Mkdir(boxDir, 0o700)
	relay, stop, err := y.serveRelay(run, &box{dir: boxDir}, "", strings.Repeat("ab", 32))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	var out json.RawMessage
	if err := daemon.Call(context.Background(), relay, loopwire.KindAgentSpawn, loopwire.SpawnRequest{Run: run.id, Agent: "A1"}, &out, nil); err != nil {
		t.Fatal(err)
	}
	askCtx, stopAsk := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- daemon.Call(askCtx, relay, loopwire.KindAgentAsk, loopwire.AskRequest{Session: "agent-1", Text: "hi"}, &out, nil)
	}()
	<-reached
	stopAsk() // the Run stopped: its connection closes
	<-done
	select {
	case <-gone:
	case <-time.After(10 * time.Second):
		t.Fatal("loopd's ask went on after the Run left it")
	}
}
