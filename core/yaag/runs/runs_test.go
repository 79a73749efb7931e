package runs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"boxmaker/core/loopwire"
	"boxmaker/core/testsupport"
	"boxmaker/core/yaag/agent"
	"boxmaker/core/yaag/cassette"
	"boxmaker/core/yaag/control"
	"boxmaker/core/yaag/engine"
	"boxmaker/core/yaag/program"
	"boxmaker/runbook"
)

// agents answer "echo: <prompt>", or wait for their context on "wait".
type agents struct {
	mu sync.Mutex
	n  int
}

type session struct{ id string }

func (a *agents) Spawn(_ context.Context, s agent.Spec) (agent.Session, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n++
	return &session{id: fmt.Sprintf("s-%d-%s", a.n, s.Run)}, nil // as loopd's, no two Runs share a session
}

func (s *session) ID() string { return s.id }

func (s *session) At() loopwire.SessionAt {
	return loopwire.SessionAt{ID: s.id, Bytes: 10, SHA256: strings.Repeat("a", 64)}
}

func (s *session) Ask(ctx context.Context, q agent.Ask, _ func(agent.Event)) (agent.Answer, error) {
	if q.Prompt == "wait" {
		<-ctx.Done()
		return agent.Answer{}, ctx.Err()
	}
	return agent.Answer{Text: "echo: " + q.Prompt, At: s.At()}, nil
}

const prog = `import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "p", async run(ctx) {
  const a = await ctx.spawn({ name: "w" });
  const r = await a.ask("one");
  if (ctx.input === "wait") await a.ask("wait");
  return r.text;
} });`

func home(t *testing.T) Store {
	t.Helper()
	return Store{Home: testsupport.ShortDir(t)} // a Run's control socket lives under it
}

func spec(t *testing.T, s Store, id, input string) Spec {
	t.Helper()
	b, err := program.Inline([]byte(prog), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return Spec{Store: s, Program: "inline", Engine: engine.Options{Bundle: b, Run: id, Agents: &agents{}, Input: json.RawMessage(input)}}
}

func TestARunIsRecordedAndPublished(t *testing.T) {
	s := home(t)
	id := "r-20261201-100000-00000001"
	end, err := Execute(context.Background(), spec(t, s, id, `"go"`))
	if err != nil || end.Status != cassette.EndCompleted || string(end.Result) != `"echo: one"` || end.Cassette != s.CassettePath(id) {
		t.Fatalf("%+v %v", end, err)
	}
	d, _, err := cassette.Read(end.Cassette)
	if err != nil || d.Ask("A1", 1) == nil {
		t.Fatalf("the Cassette: %v", err)
	}
	rec, err := s.Read(id)
	if err != nil || rec.Status != StatusCompleted || len(rec.Agents) != 1 || rec.Agents[0].Session != "s-1-"+id {
		t.Fatalf("the record %+v %v", rec, err)
	}
	events, _ := os.ReadFile(rec.Events)
	if lines := bytes.Split(bytes.TrimSpace(events), []byte("\n")); !bytes.Contains(lines[len(lines)-1], []byte(`"event":"run_end"`)) {
		t.Fatalf("the events do not end with run_end:\n%s", events)
	}
	if _, err := os.Stat(s.ControlDir(id)); !os.IsNotExist(err) {
		t.Fatalf("the Control Channel's directory is left: %v", err)
	}
	var nr *NoRunError
	if _, err := Request(context.Background(), s, "r-20261201-100000-00000009", control.KindStatus, nil, nil); !errors.As(err, &nr) {
		t.Fatalf("no such Run: %v", err)
	}
	var ended *EndedError
	if _, err := Request(context.Background(), s, id, control.KindPause, nil, nil); !errors.As(err, &ended) || !strings.Contains(err.Error(), id+" already ended.") {
		t.Fatalf("an ended Run: %v", err)
	}
	if list, err := s.List(); err != nil || len(list) != 1 {
		t.Fatalf("list %v %v", list, err)
	}
}

// stopWhenAsking stops the Run through its Control Channel once its
// second Ask waits.
func stopWhenAsking(t *testing.T, s Store, id string) {
	t.Helper()
	go func() {
		for i := 0; i < 500; i++ {
			var st control.Status
			if _, err := Request(context.Background(), s, id, control.KindStatus, struct{}{}, &st); err == nil && len(st.Agents) == 1 && st.Agents[0].Asks == 2 {
				Request(context.Background(), s, id, control.KindStop, control.Request{}, nil)
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
}

func TestAStoppedRunIsRestorable(t *testing.T) {
	s := home(t)
	id := "r-20261201-100000-00000002"
	sp := spec(t, s, id, `"wait"`)
	stopWhenAsking(t, s, id)
	end, err := Execute(context.Background(), sp)
	if err != nil || end.Status != cassette.EndStopped || end.Checkpoint != s.CassettePath(id) || !strings.Contains(end.Error, "RUN_STOPPED") {
		t.Fatalf("%+v %v", end, err)
	}
	d, _, err := cassette.Read(end.Checkpoint)
	if err != nil || d.End.Status != cassette.EndStopped || d.Resume == nil || d.Ask("A1", 1) == nil || d.Ask("A1", 2) != nil {
		t.Fatalf("the stopped Run's document: %+v %v", d, err)
	}
}

func TestAStoppedRunThatCannotPublishFails(t *testing.T) {
	s := home(t)
	id := "r-20261201-100000-00000003"
	sp := spec(t, s, id, `"wait"`)
	sp.Record = filepath.Join(t.TempDir(), "taken.json")
	os.MkdirAll(filepath.Join(sp.Record, "x"), 0o700)
	stopWhenAsking(t, s, id)
	end, err := Execute(context.Background(), sp)
	if err != nil || end.Status != cassette.EndFailed || !end.CheckpointLost || !strings.Contains(end.Error, "failed to publish cassette") ||
		!strings.Contains(end.Error, "the Run cannot be restored from it") {
		t.Fatalf("%+v %v", end, err)
	}
	if _, err := os.Stat(cassette.JournalPath(sp.Record)); err != nil {
		t.Fatalf("the journal is gone: %v", err)
	}
}

func TestFollowRefusesARunEndNamingAnotherCheckpoint(t *testing.T) {
	s := home(t)
	id := "r-20261201-100000-00000004"
	end, err := Execute(context.Background(), spec(t, s, id, `"go"`))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if got, err := Follow(context.Background(), s, id, false, &out); err != nil || got.Status != end.Status {
		t.Fatalf("%+v %v", got, err)
	}
	rec, _ := s.Read(id)
	rec.Checkpoint = "/elsewhere.json"
	s.Write(rec)
	if _, err := Follow(context.Background(), s, id, false, &out); err == nil || !strings.Contains(err.Error(), "Checkpoint path of run_end differs from the Run record. Refused.") {
		t.Fatalf("got %v", err)
	}
	rec.Checkpoint, rec.ResumedBy = "", "r-20261201-100000-00000005"
	s.Write(rec)
	if _, err := Follow(context.Background(), s, id, false, &out); err == nil || !strings.Contains(err.Error(), "was already resumed by r-20261201-100000-00000005") {
		t.Fatalf("a resumed Run: %v", err)
	}
}

// A Checkpoint is a file the Run's Agents may write: one whose resumedBy
// was set back to null still resumes one time, since the home's record of
// its Run says who continued it.
func TestARewrittenCheckpointDoesNotResumeTwice(t *testing.T) {
	s := home(t)
	id := "r-20261201-100000-00000006"
	sp := spec(t, s, id, `"wait"`)
	stopWhenAsking(t, s, id)
	end, err := Execute(context.Background(), sp)
	if err != nil || end.Status != cassette.EndStopped {
		t.Fatalf("%+v %v", end, err)
	}
	resume := func(run string) (End, error) {
		sp := spec(t, s, run, `"go"`)
		sp.Resume, sp.Record = end.Checkpoint, filepath.Join(t.TempDir(), "next.json")
		return Execute(context.Background(), sp)
	}
	first := "r-20261201-100000-00000007"
	if got, err := resume(first); err != nil || got.Status != cassette.EndCompleted {
		t.Fatalf("the resume: %+v %v", got, err)
	}
	d, _, err := cassette.Read(end.Checkpoint)
	if err != nil || d.ResumedBy == nil || *d.ResumedBy != first {
		t.Fatalf("resumedBy %v %v", d.ResumedBy, err)
	}
	d.ResumedBy = nil
	if err := cassette.Publish(end.Checkpoint, d); err != nil {
		t.Fatal(err)
	}
	if _, err := resume("r-20261201-100000-00000008"); err == nil || !strings.Contains(err.Error(), "was already resumed by "+first) {
		t.Fatalf("a second resume of the rewritten Checkpoint: %v", err)
	}
	// A completed Run's Cassette is a recording: it resumes again, and its
	// Run's record names no successor.
	rec := "r-20261201-100000-00000009"
	done, err := Execute(context.Background(), spec(t, s, rec, `"go"`))
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range []string{"r-20261201-100000-0000000a", "r-20261201-100000-0000000b"} {
		sp := spec(t, s, run, `"go"`)
		sp.Resume, sp.Record = done.Cassette, filepath.Join(t.TempDir(), "again.json")
		if got, err := Execute(context.Background(), sp); err != nil || got.Status != cassette.EndCompleted {
			t.Fatalf("a resume of the recording: %+v %v", got, err)
		}
	}
	if r, _ := s.Read(rec); r.ResumedBy != "" {
		t.Fatalf("the recording's Run says it was resumed by %s", r.ResumedBy)
	}
}

// A live Run's record names its Control Channel from its start, before
// its first spawn: yaag status, pause and stop reach it then too.
func TestTheRecordNamesTheControlChannelFromTheStart(t *testing.T) {
	s := home(t)
	id := "r-20261201-100000-0000000c"
	sp := spec(t, s, id, `"go"`)
	var at Record
	var status error
	sp.Engine.Events = func(e engine.Event) {
		if e.Event == "run_start" {
			at, _ = s.Read(id)
			var st control.Status
			_, status = Request(context.Background(), s, id, control.KindStatus, struct{}{}, &st)
		}
	}
	if _, err := Execute(context.Background(), sp); err != nil {
		t.Fatal(err)
	}
	if at.Control != s.SocketPath(id) || status != nil {
		t.Fatalf("at the start the record names %q; status: %v", at.Control, status)
	}
}

// The journal of a Run that is still recording is not a killed Run's: a
// resume of its path is refused, and the journal stays where it is.
func TestAResumeOfARunStillRecordingIsRefused(t *testing.T) {
	s := home(t)
	id := "r-20261201-100000-0000000d"
	sp := spec(t, s, id, `"wait"`)
	sp.Record = filepath.Join(t.TempDir(), "live.json")
	done := make(chan End, 1)
	go func() { end, _ := Execute(context.Background(), sp); done <- end }()
	for i := 0; ; i++ {
		var st control.Status
		if _, err := Request(context.Background(), s, id, control.KindStatus, struct{}{}, &st); err == nil && len(st.Agents) == 1 && st.Agents[0].Asks == 2 {
			break
		}
		if i == 500 {
			t.Fatal("the Run did not reach its second Ask")
		}
		time.Sleep(10 * time.Millisecond)
	}
	other := spec(t, s, "r-20261201-100000-0000000e", `"go"`)
	other.Resume, other.Record = sp.Record, filepath.Join(t.TempDir(), "next.json")
	if _, err := Execute(context.Background(), other); err == nil || !strings.Contains(err.Error(), "is the journal of Run "+id+", which is still recording to") {
		t.Fatalf("a resume of a live Run's path: %v", err)
	}
	if _, err := os.Stat(cassette.JournalPath(sp.Record)); err != nil {
		t.Fatalf("the live Run's journal: %v", err)
	}
	Request(context.Background(), s, id, control.KindStop, control.Request{}, nil)
	if end := <-done; end.Status != cassette.EndStopped || end.Checkpoint != sp.Record {
		t.Fatalf("the live Run ended %+v", end)
	}
	// Now that it ended, its Checkpoint resumes.
	if end, err := Execute(context.Background(), other); err != nil || end.Status != cassette.EndCompleted {
		t.Fatalf("the resume after its end: %+v %v", end, err)
	}
}

// refusingHost is agents whose loopd refuses the host's copy.
type refusingHost struct{ agents }

func (*refusingHost) ForkHost(context.Context, string, agent.Spec) (agent.Session, error) {
	return nil, fmt.Errorf("loopd refused the host's copy: %w", runbook.Refuse(runbook.SessionLogDamaged, "session chat-1's log is damaged at line 3"))
}

// TestARefusedHostCopyEndsWithTheCausesEntry: loopd refusing the host's
// copy is HOST_SESSION_UNUSABLE in loopd's words, ending with loopd's
// entry alone (D411), and no Run starts.
func TestARefusedHostCopyEndsWithTheCausesEntry(t *testing.T) {
	s := home(t)
	sp := spec(t, s, "r-20261201-100000-00000003", `"go"`)
	sp.Engine.Agents, sp.Host, sp.ForkHost = &refusingHost{}, "chat-1", true
	_, err := Execute(context.Background(), sp)
	if e, ok := runbook.EntryOf(err); !ok || e != runbook.SessionLogDamaged {
		t.Fatalf("%v: entry %v, %v", err, e, ok)
	}
	want := "this Boxmaker session has no session file (loopd refused the host's copy: session chat-1's log is damaged at line 3); no Run started: call yaag_run again without forkHost; " + runbook.Link(runbook.SessionLogDamaged)
	if msg := err.Error(); !strings.HasSuffix(msg, want) || strings.Count(msg, "see docs/") != 1 {
		t.Errorf("got  %q\nwant one ending %q", msg, want)
	}
	if list, _ := s.List(); len(list) != 0 {
		t.Errorf("a Run was recorded: %+v", list)
	}
}

// stopped runs a Run that stops at its second Ask and returns its
// Checkpoint.
func stopped(t *testing.T, s Store, id string) string {
	t.Helper()
	sp := spec(t, s, id, `"wait"`)
	sp.Record = filepath.Join(t.TempDir(), "cp.json")
	stopWhenAsking(t, s, id)
	end, err := Execute(context.Background(), sp)
	if err != nil || end.Status != cassette.EndStopped || end.Checkpoint != sp.Record {
		t.Fatalf("%+v %v", end, err)
	}
	return end.Checkpoint
}

func resumeOf(t *testing.T, s Store, run, path string) (End, error) {
	t.Helper()
	sp := spec(t, s, run, `"go"`)
	sp.Resume, sp.Record = path, filepath.Join(t.TempDir(), "next.json")
	return Execute(context.Background(), sp)
}

// A Checkpoint resumes once, whatever its copy says: the claim is the
// home's record of the Run, and the document must be the one the Run
// left (its sessions' boundaries, its questions, its status), whatever
// its run.id says. Each copy below is made after the first resume and
// refused; on the old code each resumed again.
func TestACheckpointResumesOnceWhateverTheDocumentSays(t *testing.T) {
	s := home(t)
	id := "r-20261201-110000-00000001"
	cp := stopped(t, s, id)
	original, _, err := cassette.Read(cp)
	if err != nil {
		t.Fatal(err)
	}
	first := "r-20261201-110000-00000002"
	if end, err := resumeOf(t, s, first, cp); err != nil || end.Status != cassette.EndCompleted {
		t.Fatalf("the first resume: %+v %v", end, err)
	}
	if rec, _ := s.Read(id); rec.ResumedBy != first {
		t.Fatalf("the record names %q as the Run that continued it", rec.ResumedBy)
	}
	// Another Run this home recorded, to rename the copy to.
	other := "r-20261201-110000-00000003"
	stopped(t, s, other)
	copyOf := func(change func(d *cassette.Doc)) string {
		d := *original
		change(&d)
		path := filepath.Join(t.TempDir(), "copy.json")
		if err := cassette.Publish(path, &d); err != nil {
			t.Fatal(err)
		}
		return path
	}
	journalOf := func(change func(d *cassette.Doc)) string {
		d := *original
		change(&d)
		path := filepath.Join(t.TempDir(), "made.json")
		j, err := cassette.CreateJournal(path, d.Run)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range d.Agents {
			if err := j.Spawned(a); err != nil {
				t.Fatal(err)
			}
		}
		for _, st := range d.Steps {
			st.Seq = 0
			if _, err := j.Step(st); err != nil {
				t.Fatal(err)
			}
		}
		j.Close()
		return path // no document there: its journal is read
	}
	resumedBy := "was already resumed by " + first + ": one Checkpoint resumes one time"
	notRecorded := "which this home has no record of: a Checkpoint or journal resumes, and takes answers, only in the home whose Run wrote it"
	notLeft := "is not the document that Run left: "
	for i, tt := range []struct {
		name string
		path string
		want string
	}{
		{"resumedBy set back to null", copyOf(func(d *cassette.Doc) { d.ResumedBy = nil }), resumedBy},
		{"run.id changed to one this home never recorded", copyOf(func(d *cassette.Doc) { d.Run.ID = "r-20261201-110000-000000ff" }), notRecorded},
		{"run.id changed to another Run of this home", copyOf(func(d *cassette.Doc) { d.Run.ID = other }), notLeft},
		{"status changed to completed (a recording)", copyOf(func(d *cassette.Doc) { d.End.Status = cassette.EndCompleted; d.Resume = nil }), notLeft},
		{"a journal made from it", journalOf(func(*cassette.Doc) {}), notLeft},
		{"a journal made from it under a new run.id", journalOf(func(d *cassette.Doc) { d.Run.ID = "r-20261201-110000-000000fe" }), notRecorded},
		{"a journal made from it under another Run's id", journalOf(func(d *cassette.Doc) { d.Run.ID = other }), notLeft},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run := fmt.Sprintf("r-20261201-110001-%08x", i+1)
			_, err := resumeOf(t, s, run, tt.path)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v\nwant ...%s", err, tt.want)
			}
			if _, err := s.Read(run); err == nil {
				t.Errorf("the refused resume %s was recorded", run)
			}
		})
	}
	if rec, _ := s.Read(other); rec.ResumedBy != "" {
		t.Errorf("the other Run was claimed by %s", rec.ResumedBy)
	}
	// The other Run's own Checkpoint still resumes, once.
	if rec, _ := s.Read(other); true {
		if end, err := resumeOf(t, s, "r-20261201-110002-00000001", rec.Checkpoint); err != nil || end.Status != cassette.EndCompleted {
			t.Fatalf("the other Run's own Checkpoint: %+v %v", end, err)
		}
	}
}

// A Run killed before it published leaves its journal: it resumes once,
// from the journal (published there as the interrupted Run's document),
// when the journal names only that Run's sessions.
func TestAKilledRunsJournalResumesOnce(t *testing.T) {
	s := home(t)
	id := "r-20261201-120000-00000001"
	cp := stopped(t, s, id)
	d, _, _ := cassette.Read(cp)
	// As a Run killed while it recorded leaves it: a journal and no
	// document, a record still "running" that nobody holds.
	rec, _ := s.Read(id)
	rec.Status, rec.Identity, rec.Checkpoint = StatusRunning, "", ""
	s.Write(rec)
	os.Remove(cp)
	j, err := cassette.CreateJournal(cp, d.Run)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range d.Agents {
		j.Spawned(a)
	}
	for _, st := range d.Steps {
		st.Seq = 0
		j.Step(st)
	}
	j.Close()
	journal, _ := os.ReadFile(j.Path)
	if end, err := resumeOf(t, s, "r-20261201-120000-00000002", cp); err != nil || end.Status != cassette.EndCompleted {
		t.Fatalf("the resume of the killed Run's journal: %+v %v", end, err)
	}
	// The same journal again, beside another path: refused.
	again := filepath.Join(t.TempDir(), "again.json")
	os.WriteFile(cassette.JournalPath(again), journal, 0o600)
	if _, err := resumeOf(t, s, "r-20261201-120000-00000003", again); err == nil || !strings.Contains(err.Error(), "was already resumed by r-20261201-120000-00000002") {
		t.Fatalf("the journal again: %v", err)
	}
}

// Copies of one Checkpoint at several paths, resumed at once (each path
// has its own lock): the home's record lets one continue the Run.
func TestCopiesResumedAtOnceContinueTheRunOnce(t *testing.T) {
	s := home(t)
	cp := stopped(t, s, "r-20261201-130000-00000001")
	data, _ := os.ReadFile(cp)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var won []string
	for i := range 4 {
		path := filepath.Join(t.TempDir(), "copy.json")
		os.WriteFile(path, data, 0o600)
		run := fmt.Sprintf("r-20261201-130001-%08x", i+1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			end, err := resumeOf(t, s, run, path)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && end.Status == cassette.EndCompleted:
				won = append(won, run)
			case err == nil || !strings.Contains(err.Error(), "was already resumed by r-20261201-130001-"):
				t.Errorf("%s: %+v %v", run, end, err)
			}
		}()
	}
	wg.Wait()
	if rec, _ := s.Read("r-20261201-130000-00000001"); len(won) != 1 || rec.ResumedBy != won[0] {
		t.Fatalf("continued by %v; the record names %q", won, rec.ResumedBy)
	}
}

// killedResume makes, by hand, what a resume of the document at from
// leaves when it is killed after its claim and before its record learns
// any session: its record (running, nobody holding its lock), the claim
// in its predecessor's record, and its journal at a path of its own,
// which has played back every Agent and step of the document it
// continues (their sessions are the predecessor's) and no document.
func killedResume(t *testing.T, s Store, id, from string) string {
	t.Helper()
	d, _, err := cassette.Read(from)
	if err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "killed.json")
	if err := s.Write(Record{ID: id, Status: StatusRunning, Program: "inline", Mode: "resume", Cassette: dest,
		Events: s.EventsPath(id), ResumedFrom: from, Predecessor: d.Run.ID}); err != nil {
		t.Fatal(err)
	}
	if err := Update(s, d.Run.ID, func(r *Record) error { r.ResumedBy = id; return nil }); err != nil {
		t.Fatal(err)
	}
	info := d.Run
	info.ID, info.ResumedFrom = id, from
	j, err := cassette.CreateJournal(dest, info)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range d.Agents {
		if err := j.Spawned(a); err != nil {
			t.Fatal(err)
		}
	}
	for _, st := range d.Steps {
		st.Seq = 0
		if _, err := j.Step(st); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	return dest
}

// A resumed Run carries the sessions of the Runs it continued, and its
// record learns them only as the engine plays them back: one killed
// before that leaves a journal naming its predecessors' sessions. It
// resumes (the home's records say whose Run each continued), and a
// journal naming them under a Run that did not continue theirs does
// not. On the old code the resume was refused ("none of that Run's").
func TestAKilledResumesJournalNamesItsPredecessorsSessions(t *testing.T) {
	s := home(t)
	first := "r-20261201-140000-00000001"
	cp := stopped(t, s, first)
	second := "r-20261201-140000-00000002"
	j2 := killedResume(t, s, second, cp)
	third := "r-20261201-140000-00000003"
	j3 := killedResume(t, s, third, j2) // two Runs back, through the second's record
	if rec, _ := s.Read(third); rec.Status != StatusLost || len(rec.Agents) != 0 {
		t.Fatalf("the killed resume's record: %+v", rec)
	}
	// A Run that says it continued the first, which the first's record
	// does not name: its journal may not name the first's sessions.
	liar := "r-20261201-140000-00000004"
	jl := killedResume(t, s, liar, cp)
	Update(s, first, func(r *Record) error { r.ResumedBy = second; return nil })
	if _, err := resumeOf(t, s, "r-20261201-140001-00000001", jl); err == nil || !strings.Contains(err.Error(), "which is none of that Run's") {
		t.Fatalf("a journal naming sessions of a Run its own did not continue: %v", err)
	}
	next := "r-20261201-140001-00000002"
	if end, err := resumeOf(t, s, next, j3); err != nil || end.Status != cassette.EndCompleted {
		t.Fatalf("the resume of the killed resume's journal: %+v %v", end, err)
	}
	if rec, _ := s.Read(third); rec.ResumedBy != next {
		t.Fatalf("the killed resume's record names %q as the Run that continued it", rec.ResumedBy)
	}
	if _, err := resumeOf(t, s, "r-20261201-140001-00000003", j2); err == nil || !strings.Contains(err.Error(), "was already resumed by "+third) {
		t.Fatalf("the second's journal again: %v", err)
	}
}

// hostKill is Agents whose host copy, made after a resume's claim and
// before the Run's record was written by the old code, keeps what a kill
// there would leave: the home's records and the Run's journal, as they
// are then.
type hostKill struct {
	agents
	s     Store
	files map[string][]byte // path: contents, nil for a file not there
}

func (h *hostKill) ForkHost(context.Context, string, agent.Spec) (agent.Session, error) {
	for path := range h.files {
		data, err := os.ReadFile(path)
		if err != nil {
			data = nil
		}
		h.files[path] = data
	}
	return nil, errors.New("killed here")
}

// restore puts the files back as the kill left them.
func (h *hostKill) restore(t *testing.T) {
	t.Helper()
	for path, data := range h.files {
		os.Remove(path)
		if data != nil {
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// A resume killed after its claim and before the rest of its start
// leaves its journal and the claim: the journal resumes, as the Run's
// continuation (the Checkpoint it claimed does not again). On the old
// code the Run's record was written after the claim, and the journal was
// refused as a Run this home has no record of.
func TestAResumeKilledRightAfterItsClaimLeavesAJournalThatResumes(t *testing.T) {
	s := home(t)
	first := "r-20261201-150000-00000001"
	cp := stopped(t, s, first)
	second := "r-20261201-150000-00000002"
	dest := filepath.Join(t.TempDir(), "second.json")
	h := &hostKill{s: s, files: map[string][]byte{s.Path(first): nil, s.Path(second): nil, cassette.JournalPath(dest): nil}}
	sp := spec(t, s, second, `"go"`)
	sp.Engine.Agents, sp.Host, sp.ForkHost = h, "host-session", true
	sp.Resume, sp.Record = cp, dest
	if _, err := Execute(context.Background(), sp); err == nil || !strings.Contains(err.Error(), "killed here") {
		t.Fatalf("the resume was not stopped at its host copy: %v", err)
	}
	if h.files[cassette.JournalPath(dest)] == nil {
		t.Fatal("the claim was made before the journal was")
	}
	h.restore(t)
	if rec, _ := s.Read(first); rec.ResumedBy != second {
		t.Fatalf("the killed resume's claim: %q", rec.ResumedBy)
	}
	next := "r-20261201-150001-00000001"
	if end, err := resumeOf(t, s, next, dest); err != nil || end.Status != cassette.EndCompleted {
		t.Fatalf("the resume of the journal the killed resume left: %+v %v", end, err)
	}
	if _, err := resumeOf(t, s, "r-20261201-150001-00000002", cp); err == nil || !strings.Contains(err.Error(), "was already resumed by "+second) {
		t.Fatalf("the claimed Checkpoint again: %v", err)
	}
}

// forkAgents also forks (a resumed Agent goes live on a fork of its
// recorded session) and answers.
type forkAgents struct{ agents }

func (a *forkAgents) Fork(ctx context.Context, _ loopwire.SessionAt, s agent.Spec) (agent.Session, error) {
	return a.Spawn(ctx, s)
}

func (a *forkAgents) Compact(context.Context, agent.Session, string) error { return nil }

func (a *forkAgents) Answer(_ context.Context, at loopwire.SessionAt, _ []loopwire.CallAnswer) (loopwire.SessionAt, error) {
	return at, nil
}

// The engine journals a spawn when loopd returns the session, and tells
// the Run (its spawned event) later, on the program's loop. A Run killed
// in between leaves a journal naming a session it made: the record must
// have it already. The first spawned event holds the loop here until
// the other Agent's spawn is in the journal, and the home's record and
// the journal are kept as a kill then would leave them. On the old code
// the record learned the session from the event only, and the journal
// was refused ("which is none of that Run's").
func TestASessionIsInTheRecordBeforeTheJournalNamesIt(t *testing.T) {
	s := home(t)
	id := "r-20261201-160000-00000001"
	b, err := program.Inline([]byte(`import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "p", async run(ctx) {
  const [a, b] = await Promise.all([ctx.spawn({ name: "w" }), ctx.spawn({ name: "v" })]);
  const r = await Promise.all([a.ask("one"), b.ask("two")]);
  return r.map((x) => x.text).join(",");
} });`), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "c.json")
	var once sync.Once
	var record, journal []byte
	sp := Spec{Store: s, Program: "inline", Record: dest, Engine: engine.Options{Bundle: b, Run: id, Agents: &forkAgents{}, Input: json.RawMessage(`"go"`),
		Events: func(e engine.Event) {
			if e.Event != engine.EventSpawned {
				return
			}
			once.Do(func() {
				for range 1000 {
					data, _ := os.ReadFile(cassette.JournalPath(dest))
					if bytes.Count(data, []byte(`"spawned"`)) == 2 {
						record, _ = os.ReadFile(s.Path(id))
						journal = data
						return
					}
					time.Sleep(5 * time.Millisecond)
				}
			})
		}}}
	if end, err := Execute(context.Background(), sp); err != nil || end.Status != cassette.EndCompleted {
		t.Fatalf("%+v %v", end, err)
	}
	if journal == nil {
		t.Fatal("the second spawn never reached the journal while the first's event was handled")
	}
	// As the kill left them: the journal and no document, the record
	// still running.
	os.Remove(dest)
	os.WriteFile(cassette.JournalPath(dest), journal, 0o600)
	os.WriteFile(s.Path(id), record, 0o600)
	sp2 := spec(t, s, "r-20261201-160000-00000002", `"go"`)
	sp2.Engine.Agents, sp2.Engine.Bundle = &forkAgents{}, b
	sp2.Resume, sp2.Record = dest, filepath.Join(t.TempDir(), "next.json")
	end, err := Execute(context.Background(), sp2)
	if err != nil || end.Status != cassette.EndCompleted || string(end.Result) != `"echo: one,echo: two"` {
		t.Fatalf("the resume of the journal: %+v %v", end, err)
	}
}
