package broker

import (
	"context"
	"errors"
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
	"boxmaker/core/runner"
	"boxmaker/runbook"
)

// Each step of Call against a ledger and a runner that fail: the package
// doc's rule for records is what these hold (before the run, a record that
// cannot be written is Call's error and nothing runs; after it, the
// result is withheld).

// memLedger keeps records in memory and fails the appends fail says to.
type memLedger struct {
	mu   sync.Mutex
	recs []audit.Record
	fail func(audit.Record) bool
}

func (l *memLedger) Append(r audit.Record) (uint64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fail != nil && l.fail(r) {
		return 0, errors.New("disk on fire")
	}
	l.recs = append(l.recs, r)
	return uint64(len(l.recs)), nil
}

func (l *memLedger) types() []audit.Type {
	l.mu.Lock()
	defer l.mu.Unlock()
	var ts []audit.Type
	for _, r := range l.recs {
		ts = append(ts, r.Type)
	}
	return ts
}

// fakeRunner counts its runs and answers what result and err say; during
// says what happens while the tool runs.
type fakeRunner struct {
	mu     sync.Mutex
	runs   int
	result runner.Result
	err    error
	during func()
}

func (r *fakeRunner) Run(_ context.Context, c runner.Call) (runner.Result, error) {
	r.mu.Lock()
	r.runs++
	r.mu.Unlock()
	if r.during != nil {
		r.during()
	}
	return r.result, r.err
}

type stepRig struct {
	b        *Broker
	led      *memLedger
	run      *fakeRunner
	file     string // a file a read_file grant allows (or asks, with ask)
	sessions string
}

func newStepRig(t *testing.T, effect string, expire time.Duration) *stepRig {
	t.Helper()
	dir := t.TempDir()
	gdir := filepath.Join(dir, "grants")
	files := filepath.Join(dir, "files")
	os.MkdirAll(gdir, 0o700)
	os.MkdirAll(files, 0o700)
	file := filepath.Join(files, "a.txt")
	os.WriteFile(file, []byte("a line\n"), 0o600)
	g := fmt.Sprintf("tool = \"read_file\"\neffect = %q\npaths = [%q]\nclass = \"private\"\nmax_taint = \"secret\"\n", effect, files)
	if err := os.WriteFile(filepath.Join(gdir, "read.toml"), []byte(g), 0o600); err != nil {
		t.Fatal(err)
	}
	grants := policy.Open(gdir)
	t.Cleanup(func() { grants.Close() })
	r := &stepRig{led: &memLedger{}, run: &fakeRunner{result: runner.Result{Stdout: "a line\n"}}, file: file,
		sessions: filepath.Join(dir, "sessions")}
	b, err := New(Config{Ledger: r.led, Grants: grants, Runner: r.run, SessionsDir: r.sessions,
		MemorySocket: filepath.Join(dir, "none.sock"), MemoryTimeout: time.Second, ExpireAfter: expire, Log: &testLog{t: t}})
	if err != nil {
		t.Fatal(err)
	}
	r.b = b
	return r
}

func (r *stepRig) call(t *testing.T, id string, asked func(string)) (brokerwire.Answer, error) {
	t.Helper()
	return r.b.Call(context.Background(), brokerwire.ToolCall{Session: "s1", CallID: id, Tool: "read_file",
		Arguments: []byte(fmt.Sprintf(`{"path":%q}`, r.file))}, asked)
}

func wantEntry(t *testing.T, err error, e runbook.Entry) {
	t.Helper()
	if got, ok := runbook.EntryOf(err); !ok || got != e {
		t.Fatalf("error = %v, want the %s refusal", err, e)
	}
}

func TestDecideStepStopsWhenTheDecisionCannotBeRecorded(t *testing.T) {
	r := newStepRig(t, "allow", time.Minute)
	r.led.fail = func(rec audit.Record) bool { return rec.Type == audit.TypeDecision }
	_, err := r.call(t, "c1", nil)
	wantEntry(t, err, runbook.AuditUnavailable)
	if r.run.runs != 0 {
		t.Errorf("the tool ran %d times without its decision on disk", r.run.runs)
	}
	// Not decided: the same id may be tried again once the log works.
	r.led.fail = nil
	if ans, err := r.call(t, "c1", nil); err != nil || ans.Outcome != brokerwire.OutcomeAllowed {
		t.Fatalf("again: %+v, %v", ans, err)
	}
}

func TestDecideStepDeniesADamagedStateAndRecordsIt(t *testing.T) {
	r := newStepRig(t, "allow", time.Minute)
	os.MkdirAll(r.sessions, 0o700)
	os.WriteFile(filepath.Join(r.sessions, "s1.json"), []byte("not json"), 0o600)
	ans, err := r.call(t, "c1", nil)
	if err != nil || ans.Outcome != brokerwire.OutcomeDenied || !strings.Contains(ans.Text, "broker-state-damaged") {
		t.Fatalf("Call = %+v, %v", ans, err)
	}
	if got := r.led.types(); len(got) != 1 || got[0] != audit.TypeDecision {
		t.Errorf("records %v, want one decision", got)
	}
	if r.run.runs != 0 {
		t.Error("the tool ran")
	}
}

func TestAskStepStopsWhenTheRequestCannotBeRecorded(t *testing.T) {
	r := newStepRig(t, "ask", time.Minute)
	r.led.fail = func(rec audit.Record) bool { return rec.Type == audit.TypeApprovalRequested }
	called := false
	_, err := r.call(t, "c1", func(string) { called = true })
	wantEntry(t, err, runbook.AuditUnavailable)
	if called || len(r.b.Pending()) != 0 || r.run.runs != 0 {
		t.Errorf("asked=%v pending=%d runs=%d: an approval the log does not hold was offered", called, len(r.b.Pending()), r.run.runs)
	}
}

func TestAskStepStopsWhenTheExpiryCannotBeRecorded(t *testing.T) {
	r := newStepRig(t, "ask", 50*time.Millisecond)
	r.led.fail = func(rec audit.Record) bool { return rec.Type == audit.TypeApprovalExpired }
	_, err := r.call(t, "c1", nil)
	wantEntry(t, err, runbook.AuditUnavailable)
	if r.run.runs != 0 {
		t.Error("the tool ran")
	}
}

func TestAskStepRunsAnApprovedCallDecidedAgain(t *testing.T) {
	r := newStepRig(t, "ask", time.Minute)
	ans, err := r.call(t, "c1", func(id string) {
		go r.b.AnswerApproval(id, true, "test", "")
	})
	if err != nil || ans.Outcome != brokerwire.OutcomeApproved || !strings.Contains(ans.Text, "a line") {
		t.Fatalf("Call = %+v, %v", ans, err)
	}
	want := []audit.Type{audit.TypeDecision, audit.TypeApprovalRequested, audit.TypeApprovalAnswered, audit.TypeResult}
	if got := r.led.types(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("records %v, want %v", got, want)
	}
}

func TestRunStepRecordsTheToolsFailure(t *testing.T) {
	r := newStepRig(t, "allow", time.Minute)
	r.run.err = errors.New("podman is gone")
	ans, err := r.call(t, "c1", nil)
	if err != nil || ans.Outcome != brokerwire.OutcomeFailed || !strings.Contains(ans.Text, "podman is gone") {
		t.Fatalf("Call = %+v, %v", ans, err)
	}
	last := r.led.recs[len(r.led.recs)-1]
	if last.Type != audit.TypeResult || last.Outcome != brokerwire.OutcomeFailed || !strings.Contains(last.Note, "podman is gone") {
		t.Errorf("last record %+v", last)
	}
}

func TestRunStepWithholdsAFailureItCannotRecord(t *testing.T) {
	r := newStepRig(t, "allow", time.Minute)
	r.run.err = errors.New("podman is gone")
	r.led.fail = func(rec audit.Record) bool { return rec.Type == audit.TypeResult }
	ans, err := r.call(t, "c1", nil)
	if err != nil || ans.Outcome != brokerwire.OutcomeFailed || ans.Text != entryText(runbook.AuditUnavailable, ResultUnrecordedText) {
		t.Fatalf("Call = %+v, %v", ans, err)
	}
}

func TestRaiseStepWithholdsTheResultWhenTheStateCannotBeWritten(t *testing.T) {
	r := newStepRig(t, "allow", time.Minute)
	// While the tool runs, the state file's place becomes a directory:
	// the raised state cannot be put there.
	r.run.during = func() { os.MkdirAll(filepath.Join(r.sessions, "s1.json", "x"), 0o700) }
	ans, err := r.call(t, "c1", nil)
	if err != nil || ans.Outcome != brokerwire.OutcomeFailed || ans.Text != entryText(runbook.BrokerStateDamaged, ResultUnrecordedText) {
		t.Fatalf("Call = %+v, %v", ans, err)
	}
	if strings.Contains(ans.Text, "a line") {
		t.Error("the result reached the model")
	}
	last := r.led.recs[len(r.led.recs)-1]
	if last.Type != audit.TypeResult || last.Outcome != brokerwire.OutcomeFailed || !strings.Contains(last.Note, "withheld") {
		t.Errorf("last record %+v", last)
	}
}

func TestRecordStepWithholdsAResultItCannotRecord(t *testing.T) {
	r := newStepRig(t, "allow", time.Minute)
	r.led.fail = func(rec audit.Record) bool { return rec.Type == audit.TypeResult }
	ans, err := r.call(t, "c1", nil)
	if err != nil || ans.Outcome != brokerwire.OutcomeFailed || ans.Text != entryText(runbook.AuditUnavailable, ResultUnrecordedText) {
		t.Fatalf("Call = %+v, %v", ans, err)
	}
	if r.run.runs != 1 {
		t.Errorf("runs = %d", r.run.runs)
	}
	// The state was raised before the result: the session holds what it read.
	st, err := r.b.SessionState("s1")
	if err != nil || st.Taint != policy.Private {
		t.Errorf("state %+v, %v; want private", st, err)
	}
}

func TestStartSessionStopsWhenItsRecordCannotBeWritten(t *testing.T) {
	r := newStepRig(t, "allow", time.Minute)
	r.led.fail = func(rec audit.Record) bool { return rec.Type == audit.TypeSessionStart }
	_, err := r.b.StartSession(brokerwire.SessionStart{Session: "s2", Taint: "private"})
	wantEntry(t, err, runbook.AuditUnavailable)
	if _, err := os.Stat(filepath.Join(r.sessions, "s2.json")); !os.IsNotExist(err) {
		t.Errorf("the state was written without its record: %v", err)
	}
}

// A denied path that a link inside a granted directory made another
// path: the answer says where it resolved, for the person
// (Decision.Resolved), and the model's text names only the path the call
// gave; a path without a link says nothing more.
func TestADeniedLinkSaysWhereItResolvesToThePersonOnly(t *testing.T) {
	r := newStepRig(t, "allow", time.Minute)
	outside := filepath.Join(t.TempDir(), "outside.txt")
	os.WriteFile(outside, []byte("x\n"), 0o600)
	link := filepath.Join(filepath.Dir(r.file), "link.txt")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	ans, err := r.b.Call(context.Background(), brokerwire.ToolCall{Session: "s1", CallID: "c1", Tool: "read_file",
		Arguments: []byte(fmt.Sprintf(`{"path":%q}`, link))}, nil)
	if err != nil || ans.Outcome != brokerwire.OutcomeDenied || ans.Decision.Resolved != outside || strings.Contains(ans.Text, outside) {
		t.Errorf("answer %+v, %v; want denied, resolved %s, and a text without it", ans, err, outside)
	}
	ans, err = r.b.Call(context.Background(), brokerwire.ToolCall{Session: "s1", CallID: "c2", Tool: "read_file",
		Arguments: []byte(fmt.Sprintf(`{"path":%q}`, outside))}, nil)
	if err != nil || ans.Outcome != brokerwire.OutcomeDenied || ans.Decision.Resolved != "" {
		t.Errorf("a path without a link: %+v, %v", ans, err)
	}
}
