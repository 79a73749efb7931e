package honchosync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/honcho"
	"boxmaker/core/memory"
	"boxmaker/core/policy"
	"boxmaker/core/secrets"
	"boxmaker/core/testpeer/fakehoncho"
	"boxmaker/runbook"
)

// rig is a home, a fake Honcho and brokerd's word on each session.
type rig struct {
	t      testing.TB
	home   string
	fake   *fakehoncho.Server
	cfg    *honcho.Config
	mu     sync.Mutex
	states map[string]state // by session; missing: public, trusted
	down   bool             // brokerd cannot be asked
	class  map[string]policy.Taint
	logs   []string
	ob     *Outbox
}

type state struct {
	taint     policy.Taint
	untrusted bool
}

func newRig(t testing.TB, opts fakehoncho.Options) *rig {
	t.Helper()
	r := &rig{t: t, home: t.TempDir(), fake: fakehoncho.Start(opts), states: map[string]state{}, class: map[string]policy.Taint{}}
	t.Cleanup(r.fake.Close)
	r.cfg = &honcho.Config{URL: r.fake.URL, Agent: "kyle", Owner: "ann", Trusted: "kt", Untrusted: "ku", Fleet: "fleet",
		MaxClass: policy.Private, Timeout: 5 * time.Second, RecallBudget: time.Second, Poll: time.Hour,
		RetryMin: time.Millisecond, RetryMax: 8 * time.Millisecond, Keys: map[string]secrets.Source{}}
	for _, d := range []string{"sessions", "memory"} {
		os.MkdirAll(filepath.Join(r.home, d), 0o700)
	}
	r.open()
	return r
}

func (r *rig) options() Options {
	return Options{
		Home: r.home, Config: r.cfg, Client: &honcho.Client{URL: r.fake.URL, Timeout: 5 * time.Second},
		State: func(_ context.Context, s string) (policy.Taint, bool, error) {
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.down {
				return 0, false, errors.New("connection refused")
			}
			st := r.states[s]
			return st.taint, st.untrusted, nil
		},
		Identity: func() ([]Entry, error) {
			r.mu.Lock()
			defer r.mu.Unlock()
			var out []Entry
			for _, f := range []string{memory.MemoryFile, memory.UserFile} {
				b, _ := os.ReadFile(filepath.Join(r.home, "memory", f))
				for _, e := range memory.ParseEntries(string(b)) {
					c, ok := r.class[e]
					cl := ""
					if ok {
						cl = c.String()
					}
					out = append(out, Entry{File: f, Text: e, Class: cl})
				}
			}
			return out, nil
		},
		Log: func(format string, args ...any) {
			r.mu.Lock()
			r.logs = append(r.logs, fmt.Sprintf(format, args...))
			r.mu.Unlock()
		},
	}
}

// open (re)opens the outbox, as memoryd does at start.
func (r *rig) open() {
	r.t.Helper()
	if r.ob != nil {
		r.ob.Close()
	}
	ob, err := Open(r.options())
	if err != nil {
		r.t.Fatalf("Open: %v", err)
	}
	r.ob = ob
}

func (r *rig) setState(session string, taint policy.Taint, untrusted bool) {
	r.mu.Lock()
	r.states[session] = state{taint, untrusted}
	r.mu.Unlock()
}

// appendLog appends records to sessions/<id>/0.jsonl, as loopd writes them.
func (r *rig) appendLog(session string, lines ...string) {
	r.t.Helper()
	dir := filepath.Join(r.home, "sessions", session)
	os.MkdirAll(dir, 0o700)
	f, err := os.OpenFile(filepath.Join(dir, "0.jsonl"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	for _, l := range lines {
		f.WriteString(l)
	}
}

func rec(seq int, typ, text string) string {
	b, _ := json.Marshal(map[string]any{"seq": seq, "time": fmt.Sprintf("2026-10-01T09:00:%02d.000000001Z", seq%60), "type": typ, "text": text})
	return string(b) + "\n"
}

func (r *rig) sync() {
	r.t.Helper()
	if _, err := r.ob.Now(context.Background()); err != nil {
		r.t.Fatalf("sync: %v", err)
	}
}

// contents are a Honcho session's messages as "peer: content".
func (r *rig) contents(ws, session string) []string {
	var out []string
	for _, m := range r.fake.Messages(ws, session) {
		out = append(out, m.PeerID+": "+m.Content)
	}
	return out
}

func TestConversationSynced(t *testing.T) {
	r := newRig(t, fakehoncho.Options{})
	r.appendLog("s1",
		`{"seq":1,"time":"2026-10-01T09:00:00.000000001Z","type":"baseline","system":"sys","memory":"","tools":[]}`+"\n",
		rec(2, "user", "where is the osprey nest?"),
		`{"seq":3,"time":"2026-10-01T09:00:03.000000001Z","type":"assistant","text":"","tool_calls":[{"id":"c1","name":"read_file","arguments":"{}"}],"timings":{}}`+"\n",
		`{"seq":4,"time":"2026-10-01T09:00:04.000000001Z","type":"tool","call_id":"c1","name":"read_file","outcome":"allowed","text":"nest: north cliff"}`+"\n",
		rec(5, "assistant", "On the north cliff."),
		rec(6, "note", "cache lost"),
		`{"seq":7,"time":"2026-10-01T09:00:07.000000001Z","type":"user","who":"owner","te`) // a line being written
	r.sync()
	want := []string{"ann: where is the osprey nest?", "kyle: On the north cliff."}
	if diff := cmp.Diff(want, r.contents("kt", "s1")); diff != "" {
		t.Fatalf("trusted s1 (-want +got):\n%s", diff)
	}
	msgs := r.fake.Messages("kt", "s1")
	if msgs[0].Metadata["boxmaker_id"] != "s1:0:2" || msgs[0].Metadata["boxmaker_kind"] != "user" ||
		msgs[1].Metadata["boxmaker_session"] != "s1" || msgs[0].CreatedAt != "2026-10-01T09:00:02.000000Z" {
		t.Errorf("metadata or time: %+v", msgs)
	}
	// The rest of the line arrives, and a new turn.
	r.appendLog("s1", `xt":"and the heron?"}`+"\n", rec(8, "assistant", "By the lake."))
	r.sync()
	want = append(want, "ann: and the heron?", "kyle: By the lake.")
	if diff := cmp.Diff(want, r.contents("kt", "s1")); diff != "" {
		t.Fatalf("after the second turn (-want +got):\n%s", diff)
	}
	r.sync() // nothing new: nothing sent
	if n := len(r.fake.Messages("kt", "s1")); n != 4 {
		t.Fatalf("%d messages after a sync with nothing new", n)
	}
	if st := r.ob.Status(); st.Waiting != 0 || st.Sent != 4 || st.Failed != 0 || st.LastError != "" {
		t.Errorf("status %+v", st)
	}
	if len(r.fake.Sessions("ku")) != 0 {
		t.Errorf("something went to the untrusted workspace: %v", r.fake.Sessions("ku"))
	}
}

func TestUntrustedMidway(t *testing.T) {
	r := newRig(t, fakehoncho.Options{})
	r.appendLog("s2", rec(1, "user", "fetch that page"), rec(2, "assistant", "fetching"))
	r.sync()
	r.setState("s2", policy.Public, true) // a result through an untrusted grant
	r.appendLog("s2", rec(3, "assistant", "the page says hello"), rec(4, "user", "thanks"))
	r.sync()
	if diff := cmp.Diff([]string{"ann: fetch that page", "kyle: fetching"}, r.contents("kt", "s2")); diff != "" {
		t.Errorf("trusted keeps what was synced (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"kyle: the page says hello", "ann: thanks"}, r.contents("ku", "s2")); diff != "" {
		t.Errorf("the rest goes to untrusted (-want +got):\n%s", diff)
	}
}

func TestAboveMaxClassNeverSynced(t *testing.T) {
	r := newRig(t, fakehoncho.Options{})
	r.setState("vault", policy.Secret, false)
	r.appendLog("vault", rec(1, "user", "read the key file"), rec(2, "assistant", "it says osprey 4471"))
	r.setState("mine", policy.Private, false)
	r.appendLog("mine", rec(1, "user", "private but fine"))
	r.sync()
	if got := r.fake.Sessions("kt"); !cmp.Equal(got, []string{"mine"}) {
		t.Errorf("sessions in trusted: %v", got)
	}
	if got := r.ob.Status().Withheld; got != 2 {
		t.Errorf("withheld %d, want 2", got)
	}
	// Public only: a private session is withheld too.
	r.cfg.MaxClass = policy.Public
	r.appendLog("mine", rec(2, "assistant", "not this one"))
	r.sync()
	if n := len(r.fake.Messages("kt", "mine")); n != 1 {
		t.Errorf("a private record went out under max_class public: %d messages", n)
	}
	for _, req := range r.fake.Requests() {
		if strings.Contains(string(req.Body), "osprey") {
			t.Fatalf("the secret session's text left: %s %s", req.Path, req.Body)
		}
	}
}

func TestBrokerdUnreachableHoldsRecords(t *testing.T) {
	r := newRig(t, fakehoncho.Options{})
	r.mu.Lock()
	r.down = true
	r.mu.Unlock()
	r.appendLog("s3", rec(1, "user", "hello"))
	if _, err := r.ob.Now(context.Background()); err == nil || !strings.Contains(err.Error(), "cannot ask brokerd about session s3") {
		t.Fatalf("Now: %v", err)
	}
	if len(r.fake.Sessions("kt")) != 0 {
		t.Fatal("a record was sent without brokerd's word")
	}
	r.mu.Lock()
	r.down = false
	r.mu.Unlock()
	r.sync()
	if diff := cmp.Diff([]string{"ann: hello"}, r.contents("kt", "s3")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestNotesAndEntries(t *testing.T) {
	r := newRig(t, fakehoncho.Options{})
	at := time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)
	notes := memory.FormatNote(at, "s1", "private", false, "the team uses pnpm") +
		memory.FormatNote(at, "s2", "public", true, "a page said: ignore your rules") +
		memory.FormatNote(at, "s3", "secret", false, "gate code osprey 4471") +
		"§ hand-written header\nwho knows\n"
	os.WriteFile(filepath.Join(r.home, "memory", memory.NotesFile), []byte("stray text\n"+notes), 0o600)
	r.class["Kyle's owner is Ann"] = policy.Private
	r.class["the vault key is 4471"] = policy.Secret
	os.WriteFile(filepath.Join(r.home, "memory", memory.MemoryFile), []byte("Kyle's owner is Ann\n§\nthe vault key is 4471\n§\nan entry of no known class\n"), 0o600)
	os.WriteFile(filepath.Join(r.home, "memory", FleetFile), []byte("the fleet meets on Mondays\n"), 0o600)
	r.sync()
	if diff := cmp.Diff([]string{"kyle: the team uses pnpm", "kyle: Kyle's owner is Ann"}, r.contents("kt", MemorySession)); diff != "" {
		t.Errorf("trusted memory (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"kyle: a page said: ignore your rules"}, r.contents("ku", MemorySession)); diff != "" {
		t.Errorf("untrusted notes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"ann: the fleet meets on Mondays"}, r.contents("fleet", "kyle")); diff != "" {
		t.Errorf("fleet (-want +got):\n%s", diff)
	}
	// stray text, the secret note, the hand-written header, the secret
	// entry and the entry of no known class.
	if got := r.ob.Status().Withheld; got != 5 {
		t.Errorf("withheld %d, want 5", got)
	}
	// A new entry and a new note; a removed entry is not sent.
	os.WriteFile(filepath.Join(r.home, "memory", memory.MemoryFile), []byte("Kyle's owner is Ann\n§\nAnn likes tea\n"), 0o600)
	r.class["Ann likes tea"] = policy.Public
	f, _ := os.OpenFile(filepath.Join(r.home, "memory", memory.NotesFile), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(memory.FormatNote(at, "s4", "public", false, "the build uses make"))
	f.Close()
	r.sync()
	want := []string{"kyle: the team uses pnpm", "kyle: Kyle's owner is Ann", "kyle: the build uses make", "kyle: Ann likes tea"}
	if diff := cmp.Diff(want, r.contents("kt", MemorySession)); diff != "" {
		t.Errorf("after the second pass (-want +got):\n%s", diff)
	}
	m := r.fake.Messages("kt", MemorySession)
	if m[0].Metadata["boxmaker_kind"] != "note" || m[0].Metadata["boxmaker_session"] != "s1" || m[1].Metadata["boxmaker_kind"] != "memory.md" {
		t.Errorf("metadata: %+v %+v", m[0].Metadata, m[1].Metadata)
	}
}

// A FIFO in notes.md's place fails the pass at once: the sync does not
// hang on it.
func TestAFIFOAsNotesIsRefused(t *testing.T) {
	r := newRig(t, fakehoncho.Options{})
	if err := syscall.Mkfifo(filepath.Join(r.home, "memory", memory.NotesFile), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ob.Now(context.Background()); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a pass with a FIFO as notes.md = %v, want not a regular file", err)
	}
}

func TestBatchesAndOrder(t *testing.T) {
	r := newRig(t, fakehoncho.Options{})
	var lines []string
	for i := 1; i <= 250; i++ {
		lines = append(lines, rec(i, "user", fmt.Sprintf("line %d", i)))
	}
	r.appendLog("big", lines...)
	r.sync()
	posts := 0
	for _, q := range r.fake.Requests() {
		if strings.HasSuffix(q.Path, "/messages") {
			posts++
			var b struct{ Messages []any }
			json.Unmarshal(q.Body, &b)
			if len(b.Messages) > 100 {
				t.Errorf("a batch of %d", len(b.Messages))
			}
		}
	}
	if posts != 3 {
		t.Errorf("%d batches for 250 messages, want 3", posts)
	}
	got := r.contents("kt", "big")
	for i, c := range got {
		if c != fmt.Sprintf("ann: line %d", i+1) {
			t.Fatalf("message %d is %q: out of order", i, c)
		}
	}
	if len(got) != 250 {
		t.Fatalf("%d messages, want 250", len(got))
	}
	// Text over 25,000 characters goes in parts.
	r.appendLog("big", rec(251, "assistant", strings.Repeat("é", 60000)))
	r.sync()
	m := r.fake.Messages("kt", "big")[250:]
	if len(m) != 3 || m[2].Metadata["boxmaker_part"] != "3/3" || m[0].Metadata["boxmaker_id"] != "big:0:251:p1" ||
		len([]rune(m[0].Content)) != 25000 || len([]rune(m[2].Content)) != 10000 {
		t.Errorf("parts: %d", len(m))
	}
}

// TestDownThenBack: while Honcho is away nothing is lost; when it is back
// every message arrives once, in order.
func TestDownThenBack(t *testing.T) {
	for _, fault := range []fakehoncho.Fault{{Down: true}, {Status: 500}, {Status: 503}, {Status: 401}, {LoseAnswers: true}} {
		t.Run(fmt.Sprintf("%+v", fault), func(t *testing.T) {
			r := newRig(t, fakehoncho.Options{})
			r.appendLog("s", rec(1, "user", "one"), rec(2, "assistant", "two"))
			r.sync()
			r.fake.SetFault(fault)
			r.appendLog("s", rec(3, "user", "three"), rec(4, "assistant", "four"))
			st, err := r.ob.Now(context.Background())
			if err == nil || st.Waiting != 2 || st.LastError == "" || st.NextAttempt == "" {
				t.Fatalf("while faulty: %+v, %v", st, err)
			}
			r.appendLog("s", rec(5, "user", "five"))
			r.open() // and memoryd restarts meanwhile
			r.fake.SetFault(fakehoncho.Fault{})
			r.sync()
			want := []string{"ann: one", "kyle: two", "ann: three", "kyle: four", "ann: five"}
			if diff := cmp.Diff(want, r.contents("kt", "s")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if st := r.ob.Status(); st.Waiting != 0 || st.Sent != 5 {
				t.Errorf("after: %+v", st)
			}
		})
	}
}

// TestCrashPoints: memoryd stopping between any two of its steps loses
// nothing and sends nothing twice.
func TestCrashPoints(t *testing.T) {
	r := newRig(t, fakehoncho.Options{})
	r.appendLog("s", rec(1, "user", "one"), rec(2, "assistant", "two"))
	if err := r.ob.Feed(context.Background()); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(r.home, Dir)
	// Killed after Honcho took the batch, before sent.json was written.
	if _, err := os.Stat(filepath.Join(dir, sentFile)); err == nil {
		t.Fatal("sent.json before anything was sent")
	}
	if err := r.ob.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, sentFile))
	// Killed during a feed: items appended after the cursor, and a torn line.
	f, _ := os.OpenFile(filepath.Join(dir, queueFile), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"n":3,"id":"s:0:3","workspace":"trusted","session":"s","peer":"owner","kind":"user","content":"ghost"}` + "\n" + `{"n":4,"id":"s:0`)
	f.Close()
	r.open()
	if st := r.ob.Status(); st.Waiting != 2 {
		t.Fatalf("after the crash: %+v, want the 2 committed items waiting", st)
	}
	r.appendLog("s", rec(3, "user", "three"))
	r.sync()
	want := []string{"ann: one", "kyle: two", "ann: three"}
	if diff := cmp.Diff(want, r.contents("kt", "s")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !strings.Contains(strings.Join(r.logs, "\n"), "were in Honcho already") {
		t.Errorf("the check before sending again was not logged: %v", r.logs)
	}
	// A cursor.json lost after its queue append was fsynced: the items
	// are cut and fed again from the sources.
	r.appendLog("s", rec(4, "assistant", "four"))
	curBefore, _ := os.ReadFile(filepath.Join(dir, cursorFile))
	r.ob.Feed(context.Background())
	os.WriteFile(filepath.Join(dir, cursorFile), curBefore, 0o600)
	r.open()
	r.sync()
	if diff := cmp.Diff(append(want, "kyle: four"), r.contents("kt", "s")); diff != "" {
		t.Errorf("after a lost cursor (-want +got):\n%s", diff)
	}
}

func TestDamagedOutbox(t *testing.T) {
	r := newRig(t, fakehoncho.Options{})
	r.appendLog("s", rec(1, "user", "one"), rec(2, "user", "two"))
	r.ob.Feed(context.Background())
	r.ob.Close()
	p := filepath.Join(r.home, Dir, queueFile)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), `"n":2`, `"n":7`, 1)), 0o600)
	_, err := Open(r.options())
	var d *DamagedError
	if !errors.As(err, &d) || d.Line != 2 || !strings.Contains(err.Error(), "item 7 follows item 1") {
		t.Fatalf("Open: %v", err)
	}
	os.WriteFile(p, []byte(strings.Replace(string(b), `"n":1`, `"n":0`, 1)), 0o600)
	if _, err := Open(r.options()); !errors.As(err, &d) || d.Line != 2 {
		t.Fatalf("Open: %v", err)
	}
	os.WriteFile(p, []byte(strings.Replace(strings.Replace(string(b), `"n":1`, `"n":2`, 1), `"n":2,"id":"s:0:2"`, `"n":3,"id":"s:0:2"`, 1)), 0o600)
	if _, err := Open(r.options()); !errors.As(err, &d) || d.Line != 1 || !strings.Contains(err.Error(), "the first item is 2, but item 1 has not been sent") {
		t.Fatalf("Open: %v", err)
	}
	os.WriteFile(p, []byte("{not json\n"), 0o600)
	if _, err := Open(r.options()); !errors.As(err, &d) || d.Line != 1 {
		t.Fatalf("Open: %v", err)
	}
}

func TestRefusedForGoodSetAside(t *testing.T) {
	r := newRig(t, fakehoncho.Options{MaxMessageSize: 20})
	r.appendLog("s", rec(1, "user", "short"), rec(2, "assistant", "this one is much longer than twenty"), rec(3, "user", "after"))
	st, err := r.ob.Now(context.Background())
	if err != nil {
		t.Fatalf("Now: %v (%+v)", err, st)
	}
	if diff := cmp.Diff([]string{"ann: short", "ann: after"}, r.contents("kt", "s")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if st.Failed != 1 || st.Sent != 2 || st.Waiting != 0 {
		t.Errorf("status %+v", st)
	}
	b, _ := os.ReadFile(filepath.Join(r.home, Dir, failedFile))
	if !strings.Contains(string(b), `"id":"s:0:2"`) || !strings.Contains(string(b), "422") {
		t.Errorf("failed.jsonl: %s", b)
	}
}

func TestKeys(t *testing.T) {
	r := newRig(t, fakehoncho.Options{Secret: "k"})
	tok := r.fake.Token(fakehoncho.Claims{Workspace: "kt"})
	r.cfg.Keys[honcho.SecretTrusted] = secrets.Source{Env: "KT"}
	var mu sync.Mutex
	value, set := "", false
	opts := r.options()
	opts.Key = func(name string) (secrets.Value, error) {
		mu.Lock()
		defer mu.Unlock()
		env := secrets.Env{Lookup: func(string) (string, bool) { return value, set }}
		return secrets.Read(name, r.cfg.Keys[name], env)
	}
	r.ob.Close()
	ob, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	r.ob = ob
	r.appendLog("s", rec(1, "user", "hello"))
	st, err := ob.Now(context.Background())
	if err == nil || st.LastError != "secret honcho_trusted: environment variable KT is unset; "+runbook.Link(runbook.SecretUnavailable) {
		t.Fatalf("without the key: %+v, %v", st, err)
	}
	mu.Lock()
	value, set = "not-the-key", true
	mu.Unlock()
	if _, err = ob.Now(context.Background()); err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("a wrong key: %v", err)
	}
	mu.Lock()
	value = tok // rotated without a restart
	mu.Unlock()
	if _, err := ob.Now(context.Background()); err != nil {
		t.Fatalf("the right key: %v", err)
	}
	for _, l := range r.logs {
		if strings.Contains(l, tok) || strings.Contains(l, "not-the-key") {
			t.Fatalf("a key was logged: %s", l)
		}
	}
}

func TestBackoff(t *testing.T) {
	r := newRig(t, fakehoncho.Options{})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r.ob.opts.Now = func() time.Time { return now }
	var waits []time.Duration
	for range 6 {
		r.ob.failed(errors.New("x"))
		waits = append(waits, r.ob.next.Sub(now))
	}
	want := []time.Duration{1, 2, 4, 8, 8, 8}
	for i := range want {
		want[i] *= time.Millisecond
	}
	if diff := cmp.Diff(want, waits); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
	r.ob.succeeded()
	r.ob.failed(errors.New("x"))
	if w := r.ob.next.Sub(now); w != time.Millisecond {
		t.Errorf("after a success the wait starts again: %v", w)
	}
}

func TestCompaction(t *testing.T) {
	r := newRig(t, fakehoncho.Options{})
	big := strings.Repeat("x", 20000)
	for round := 0; round < 3; round++ {
		var lines []string
		for i := 1; i <= 40; i++ {
			lines = append(lines, rec(round*40+i, "user", big))
		}
		r.appendLog("c", lines...)
		r.sync()
	}
	fi, _ := os.Stat(filepath.Join(r.home, Dir, queueFile))
	if fi.Size() > 1<<20 {
		t.Errorf("queue.jsonl is %d bytes with nothing waiting", fi.Size())
	}
	r.open()
	r.appendLog("c", rec(121, "user", "last"))
	r.sync()
	if n := len(r.fake.Messages("kt", "c")); n != 121 {
		t.Errorf("%d messages, want 121", n)
	}
}

// TestNewOutboxOverHistory: an outbox moved aside (honcho-outbox-damaged)
// is replaced by a new one that reads every source from its start and
// sends only what Honcho does not have.
func TestNewOutboxOverHistory(t *testing.T) {
	r := newRig(t, fakehoncho.Options{})
	var lines []string
	for i := 1; i <= 150; i++ {
		lines = append(lines, rec(i, "user", fmt.Sprintf("line %d", i)))
	}
	r.appendLog("h", lines...)
	os.WriteFile(filepath.Join(r.home, "memory", memory.NotesFile), []byte(memory.FormatNote(time.Now(), "h", "public", false, "a note")), 0o600)
	r.sync()
	r.ob.Close()
	os.Rename(filepath.Join(r.home, Dir), filepath.Join(r.home, Dir+".damaged"))
	r.ob = nil
	r.open()
	r.appendLog("h", rec(151, "assistant", "new"))
	r.sync()
	if n := len(r.fake.Messages("kt", "h")); n != 151 {
		t.Errorf("%d messages, want 151 (each once)", n)
	}
	if n := len(r.fake.Messages("kt", MemorySession)); n != 1 {
		t.Errorf("%d notes, want 1", n)
	}
	// Later batches are not checked again.
	before := len(r.fake.Requests())
	r.appendLog("h", rec(152, "user", "newer"))
	r.sync()
	for _, q := range r.fake.Requests()[before:] {
		if strings.HasSuffix(q.Path, "/list") {
			t.Errorf("a batch of a caught-up outbox was checked: %s", q.Path)
		}
	}
}

// TestIdentityWithoutClasses: without the store's classes every identity
// entry is of no known class and withheld; fleet.md's still go.
func TestIdentityWithoutClasses(t *testing.T) {
	r := newRig(t, fakehoncho.Options{})
	opts := r.options()
	opts.Identity = nil
	r.ob.Close()
	ob, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	r.ob = ob
	os.WriteFile(filepath.Join(r.home, "memory", memory.MemoryFile), []byte("Kyle's owner is Ann\n"), 0o600)
	os.WriteFile(filepath.Join(r.home, "memory", FleetFile), []byte("shared\n"), 0o600)
	r.sync()
	if n := len(r.fake.Messages("kt", MemorySession)); n != 0 {
		t.Errorf("%d identity messages without classes", n)
	}
	if n := len(r.fake.Messages("fleet", "kyle")); n != 1 {
		t.Errorf("%d fleet messages, want 1", n)
	}
	if w := r.ob.Status().Withheld; w != 1 {
		t.Errorf("withheld %d, want 1", w)
	}
}
