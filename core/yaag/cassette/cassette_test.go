package cassette

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const (
	h1 = "sha256:1111111111111111111111111111111111111111111111111111111111111111"
	h2 = "sha256:2222222222222222222222222222222222222222222222222222222222222222"
	x1 = "1111111111111111111111111111111111111111111111111111111111111111"
)

func runInfo() RunInfo {
	return RunInfo{ID: "r-20261201-100000-0123abcd", StartedAt: "2026-12-01T10:00:00Z", Seed: 7, UserInputProtocol: UserInputProtocol, Program: "p.ts"}
}

func agentA1() Agent {
	return Agent{Agent: "A1", Definition: "reader", SpawnHash: h1, Fields: map[string]string{"system": h2},
		Session: &SessionAt{ID: "20261201-100000-aaaaaaaa", Bytes: 300, SHA256: x1}}
}

func askStep(n int, text string) Step {
	return Step{Kind: KindAsk, Agent: "A1", N: n, AskHash: h2, Status: StatusOK, Result: &Result{Text: text, Turns: 1},
		Session: &SessionAt{ID: "20261201-100000-aaaaaaaa", Bytes: int64(300 + 100*n), SHA256: x1}}
}

// record writes a journal of one Agent, two Asks and a clock reading.
func record(t *testing.T, dest string) *Journal {
	t.Helper()
	j, err := CreateJournal(dest, runInfo())
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Spawned(agentA1()); err != nil {
		t.Fatal(err)
	}
	v := int64(1767225600000)
	for _, s := range []Step{{Kind: KindClock, Value: &v}, askStep(2, "second"), askStep(1, "first")} {
		if _, err := j.Step(s); err != nil {
			t.Fatal(err)
		}
	}
	return j
}

func TestJournalPublishAndReadBack(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "made", "run.json")
	j := record(t, dest)
	data, err := os.ReadFile(j.Path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ParseJournal(j.Path, data)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Torn || len(rec.Agents) != 1 || len(rec.Steps) != 3 || rec.Steps[2].Seq != 4 {
		t.Fatalf("read back %+v", rec)
	}
	d := rec.Doc(End{Status: EndCompleted, Result: json.RawMessage(`{"ok":true}`)})
	if err := Publish(dest, d); err != nil {
		t.Fatal(err)
	}
	j.Remove()
	got, recovered, err := Read(dest)
	if err != nil || recovered {
		t.Fatalf("read: %v %v", err, recovered)
	}
	if got.Ask("A1", 1).Result.Text != "first" || got.Ask("A1", 2).Result.Text != "second" || !cmp.Equal(got.Clock(), []int64{1767225600000}) {
		t.Fatalf("steps: %+v", got.Steps)
	}
	if _, err := os.Stat(j.Path); !os.IsNotExist(err) {
		t.Fatalf("the journal is still there: %v", err)
	}
}

func TestATornLastLineIsDroppedAndTheJournalRecovered(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "run.json")
	j := record(t, dest)
	j.Close()
	f, _ := os.OpenFile(j.Path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"seq":5,"kind":"ask","agent":"A1","n":3,"askHash":"sha`)
	f.Close()
	d, recovered, err := Read(dest)
	if err != nil || !recovered {
		t.Fatalf("read: %v %v", err, recovered)
	}
	if len(d.Steps) != 3 || d.End.Status != EndInterrupted || d.Ask("A1", 3) != nil {
		t.Fatalf("recovered %+v", d)
	}
	if _, err := os.Stat(j.Path); !os.IsNotExist(err) {
		t.Fatalf("the journal is still there after recovery: %v", err)
	}
	if _, _, err := Read(dest); err != nil {
		t.Fatalf("the recovered document does not read: %v", err)
	}
}

func TestJournalDamage(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "run.json")
	j := record(t, dest)
	j.Close()
	good, _ := os.ReadFile(j.Path)
	lines := strings.SplitAfter(string(good), "\n")
	tests := []struct {
		name   string
		damage func() string
		want   string
	}{
		{"a damaged middle line", func() string { return lines[0] + "{not json\n" + strings.Join(lines[2:], "") }, ":2: not a journal line"},
		{"a line twice", func() string { return strings.Join(lines[:4], "") + lines[3] }, ":5: seq 3 on line 5"},
		{"no Run line", func() string { return strings.Join(lines[1:], "") }, ":1: the first line is not the Run"},
		{"an unknown field", func() string { return lines[0] + strings.Replace(lines[1], `"kind"`, `"extra":1,"kind"`, 1) }, `unknown field "extra"`},
		{"an ask before its Agent", func() string { return lines[0] + strings.Replace(lines[3], `"seq":3`, `"seq":1`, 1) }, "before its Agent's spawn"},
		{"the same Ask twice", func() string {
			return strings.Join(lines[:5], "") + strings.Replace(lines[4], `"seq":4`, `"seq":5`, 1)
		}, "ask A1/1 is recorded twice"},
		{"a clock with an agent", func() string {
			return strings.Join(lines[:2], "") + strings.Replace(lines[2], `"kind":"clock"`, `"kind":"clock","agent":"A1"`, 1)
		}, "a clock step has value and nothing else"},
		{"an ok ask without its result", func() string {
			return strings.Join(lines[:3], "") + `{"seq":3,"kind":"ask","agent":"A1","n":2,"askHash":"` + h2 + `","status":"ok"}` + "\n"
		}, "a ok ask step has result missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseJournal(j.Path, []byte(tt.damage()))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

func TestTheCassetteDirectoryIsMadeOrTheRunStops(t *testing.T) {
	dir := t.TempDir()
	if err := MakeDir(filepath.Join(dir, "a", "b", "run.json")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "file"), []byte("x"), 0o600)
	err := MakeDir(filepath.Join(dir, "file", "sub", "run.json"))
	if err == nil || !strings.Contains(err.Error(), "cannot create the Cassette directory "+filepath.Join(dir, "file", "sub")) ||
		!strings.HasSuffix(err.Error(), "see docs/yaag/troubleshooting.md#cannot-create-the-cassette-directory") {
		t.Fatalf("got %v", err)
	}
}

func TestAPublishThatCannotWriteSaysSo(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "run.json")
	os.Mkdir(dest, 0o700) // a directory occupies the name
	os.WriteFile(filepath.Join(dest, "x"), []byte("x"), 0o600)
	err := Publish(dest, &Doc{Format: Format, Version: Version, Run: runInfo(), End: &End{Status: EndCompleted}})
	if err == nil || !strings.Contains(err.Error(), "failed to publish cassette "+dest) {
		t.Fatalf("got %v", err)
	}
}

func paused(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cp.json")
	st := askStep(2, "")
	st.Status, st.Result = StatusPaused, nil
	st.Questions = []Question{{Key: "A1/2/q1", CallID: "abc", Question: "Which file?"}}
	d := &Doc{Format: Format, Version: Version, Run: runInfo(), Agents: []Agent{agentA1()}, Steps: []Step{askStep(1, "first"), st},
		Questions: []Question{{Key: "A1/2/q1", Agent: "A1", N: 2, CallID: "abc", Question: "Which file?"}},
		Resume:    &Resume{AnswersTemplate: map[string]string{"A1/2/q1": ""}, Command: "yaag run p.ts --resume cp.json --answers answers.json"},
		End:       &End{Status: EndPaused}}
	d.Steps[1].Seq, d.Steps[0].Seq = 2, 1
	if err := Publish(path, d); err != nil {
		t.Fatal(err)
	}
	return path
}

// given records answers in the document only, as CheckAnswers takes
// them: the home's part (runs.Store.Answer) is runs' to test.
func given(path string, answers map[string]string) func(d *Doc) (map[string]string, error) {
	return func(d *Doc) (map[string]string, error) { return CheckAnswers(path, d, answers) }
}

func TestAnswers(t *testing.T) {
	path := paused(t)
	if _, err := RecordAnswers(path, given(path, map[string]string{"A1/3/q1": "x"})); err == nil ||
		!strings.Contains(err.Error(), `the answer key "A1/3/q1" names no open question of this checkpoint `+path+" (its questions: A1/2/q1)") {
		t.Fatalf("unknown key: %v", err)
	}
	if _, err := RecordAnswers(path, given(path, map[string]string{"A1/2/q1": "a.txt"})); err != nil {
		t.Fatal(err)
	}
	if _, err := RecordAnswers(path, given(path, map[string]string{"A1/2/q1": "a.txt"})); err != nil {
		t.Fatalf("the same answer again: %v", err)
	}
	if _, err := RecordAnswers(path, given(path, map[string]string{"A1/2/q1": "b.txt"})); err == nil ||
		!strings.Contains(err.Error(), `question A1/2/q1 of `+path+` was answered "a.txt"; it cannot be answered with "b.txt"`) {
		t.Fatalf("a different answer: %v", err)
	}
	d, _, _ := Read(path)
	if d.Answers["A1/2/q1"] != "a.txt" {
		t.Fatalf("answers %v", d.Answers)
	}
}

func TestACheckpointResumesOneTime(t *testing.T) {
	path := paused(t)
	var mu sync.Mutex
	won := map[string]bool{}
	var wg sync.WaitGroup
	for _, run := range []string{"r-20261201-100001-00000001", "r-20261201-100001-00000002", "r-20261201-100001-00000003"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := Claim(path, run, func(d *Doc) error {
				var err error
				d.Answers, err = CheckAnswers(path, d, map[string]string{"A1/2/q1": "a.txt"})
				return err
			})
			mu.Lock()
			won[run] = err == nil
			if err != nil && !strings.Contains(err.Error(), "was already resumed by r-") {
				t.Errorf("%s: %v", run, err)
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	n := 0
	for _, ok := range won {
		if ok {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d claims succeeded: %v", n, won)
	}
	d, _, _ := Read(path)
	if d.ResumedBy == nil || !won[*d.ResumedBy] || d.Answers["A1/2/q1"] != "a.txt" {
		t.Fatalf("resumedBy %v answers %v", d.ResumedBy, d.Answers)
	}
	if _, err := RecordAnswers(path, given(path, map[string]string{"A1/2/q1": "a.txt"})); err == nil || !strings.Contains(err.Error(), "was already resumed by") {
		t.Fatalf("answers after the resume: %v", err)
	}
}

func TestARefusalBeforeTheClaimConsumesNothing(t *testing.T) {
	path := paused(t)
	before, _ := os.ReadFile(path)
	_, err := Claim(path, "r-20261201-100001-00000001", func(*Doc) error { return os.ErrPermission })
	if err == nil {
		t.Fatal("the claim went on")
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Fatal("the document changed")
	}
}

func TestACompletedCassetteIsNotClaimed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	Publish(path, &Doc{Format: Format, Version: Version, Run: runInfo(), End: &End{Status: EndCompleted}})
	for range 2 {
		d, err := Claim(path, "r-20261201-100001-00000001", nil)
		if err != nil || d.ResumedBy != nil {
			t.Fatalf("%v %v", err, d.ResumedBy)
		}
	}
}

func TestWithhold(t *testing.T) {
	if w := Withhold("plain text", `{"a":1}`); w != nil {
		t.Fatalf("withheld plain text: %+v", w)
	}
	w := Withhold("the key is ghp_"+strings.Repeat("a1", 18), "")
	if w == nil || !cmp.Equal(w.Rules, []string{"secret-github"}) || len(w.SHA256) != 64 || !strings.Contains(w.Reasons()[0], "GitHub") {
		t.Fatalf("got %+v", w)
	}
}

func FuzzParse(f *testing.F) {
	path := filepath.Join(f.TempDir(), "run.json")
	j, _ := CreateJournal(path, runInfo())
	j.Spawned(agentA1())
	j.Step(askStep(1, "one"))
	data, _ := os.ReadFile(j.Path)
	rec, _ := ParseJournal(j.Path, data)
	doc, _ := rec.Doc(End{Status: EndCompleted}).Encode()
	f.Add(doc)
	f.Add(data)
	f.Add([]byte(`{"format":"yaag-cassette","version":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if d, err := Parse("f.json", data); err == nil {
			out, err := d.Encode()
			if err != nil {
				t.Fatalf("a document that parsed does not encode: %v", err)
			}
			if _, err := Parse("f.json", out); err != nil {
				t.Fatalf("a document read back differently: %v\n%s", err, out)
			}
		}
		if rec, err := ParseJournal("f.journal", data); err == nil {
			if err := rec.Doc(End{Status: EndInterrupted}).Check(); err != nil && !strings.Contains(err.Error(), "agents") && !strings.Contains(err.Error(), "steps") {
				t.Fatalf("a journal that parsed gives a document that does not check: %v", err)
			}
		}
	})
}

// FuzzCheckpoint reads Checkpoints (paused documents with questions and
// answers) and answers them: an answer is accepted only for a question of
// the document, and never replaces a different one.
func FuzzCheckpoint(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "cp.json")
	st := askStep(2, "")
	st.Status, st.Result = StatusPaused, nil
	st.Questions = []Question{{Key: "A1/2/q1", CallID: "abc", Question: "Which file?"}}
	d := &Doc{Format: Format, Version: Version, Run: runInfo(), Agents: []Agent{agentA1()}, Steps: []Step{askStep(1, "first"), st},
		Questions: []Question{{Key: "A1/2/q1", Agent: "A1", N: 2, CallID: "abc", Question: "Which file?"}},
		Answers:   map[string]string{"A1/2/q1": "a.txt"},
		Resume:    &Resume{AnswersTemplate: map[string]string{"A1/2/q1": ""}}, End: &End{Status: EndPaused}}
	d.Steps[0].Seq, d.Steps[1].Seq = 1, 2
	data, _ := d.Encode()
	os.WriteFile(path, data, 0o600)
	f.Add(data, "A1/2/q1", "a.txt")
	f.Add(data, "A1/2/q1", "b.txt")
	f.Add(data, "A1/9/q1", "x")
	f.Fuzz(func(t *testing.T, data []byte, key, answer string) {
		d, err := Parse("cp.json", data)
		if err != nil {
			return
		}
		old, had := d.Answers[key]
		open := false
		for _, q := range d.Questions {
			open = open || q.Key == key
		}
		got, err := CheckAnswers("cp.json", d, map[string]string{key: answer})
		switch {
		case !open && err == nil:
			t.Fatalf("an answer to %q, no question of the document, was accepted", key)
		case open && had && old != answer && err == nil:
			t.Fatalf("question %q answered %q took %q too", key, old, answer)
		case err == nil && got[key] != answer:
			t.Fatalf("accepted, and the answers hold %q", got[key])
		case open && (!had || old == answer) && err != nil:
			t.Fatalf("a good answer refused: %v", err)
		}
	})
}

// Cassettes, Checkpoints and journals are files the Run's Agents may have
// written (write_file, a program they ran in the directory). What a
// hostile one can put at the names yaag reads and writes makes yaag
// neither hang, nor read without bound, nor write through a link.
func TestFilesTheModelMayHaveWritten(t *testing.T) {
	dir := t.TempDir()
	withTimeout := func(what string, f func() error) error {
		t.Helper()
		done := make(chan error, 1)
		go func() { done <- f() }()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatalf("%s hangs", what)
			return nil
		}
	}
	// A FIFO where the Cassette is: refused, not read.
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := withTimeout("reading a FIFO", func() error { _, _, err := Read(fifo); return err }); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a FIFO: %v", err)
	}
	// A journal where the Cassette is missing, and the journal is a FIFO.
	if err := syscall.Mkfifo(JournalPath(filepath.Join(dir, "gone.json")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := withTimeout("reading a FIFO journal", func() error { _, _, err := Read(filepath.Join(dir, "gone.json")); return err }); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a FIFO journal: %v", err)
	}
	// A document over the bound is refused before it is read.
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxDocument+1); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Read(big); err == nil || !strings.Contains(err.Error(), "over the") {
		t.Fatalf("a document over the bound: %v", err)
	}
	// A link where the lock goes: the answer command does not create or
	// open its target.
	cp := paused(t)
	target := filepath.Join(dir, "made-through-the-link")
	if err := os.Symlink(target, cp+".lock"); err != nil {
		t.Fatal(err)
	}
	if _, err := RecordAnswers(cp, given(cp, map[string]string{"A1/2/q1": "a.txt"})); err == nil || !strings.Contains(err.Error(), "cannot lock") {
		t.Fatalf("a linked lock: %v", err)
	}
	if _, err := os.Lstat(target); !os.IsNotExist(err) {
		t.Fatalf("the lock's link was followed: %v", err)
	}
	// A link where the Checkpoint's temporary file goes: the publish does
	// not write through it.
	os.Remove(cp + ".lock")
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o600)
	if err := os.Symlink(victim, cp+".tmp"); err != nil {
		t.Fatal(err)
	}
	if _, err := RecordAnswers(cp, given(cp, map[string]string{"A1/2/q1": "a.txt"})); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep" {
		t.Fatalf("the publish wrote through the link: %q", data)
	}
}

// The Cassette is published from what the Run journaled, read back
// through the journal's own file: a journal replaced at its path while
// the Run goes (by whoever can write the directory) is not what lands.
func TestTheJournalIsReadBackFromItsOwnFile(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "run.json")
	j := record(t, dest)
	forged := record(t, filepath.Join(t.TempDir(), "other.json"))
	forged.Step(askStep(3, "forged"))
	forged.Close()
	if err := os.Rename(forged.Path, j.Path); err != nil {
		t.Fatal(err)
	}
	got, err := j.Contents()
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ParseJournal(j.Path, got)
	if err != nil || len(rec.Steps) != 3 || bytes.Contains(got, []byte("forged")) {
		t.Fatalf("read back %d steps %v:\n%s", len(rec.Steps), err, got)
	}
}

// The Run's own end passes the refuse rules too: a result that holds a
// secret is withheld whole from the Cassette, an error's text is worded.
func TestWithholdEnd(t *testing.T) {
	token := "ghp_" + strings.Repeat("a1", 18)
	e := WithholdEnd(End{Status: EndCompleted, Result: json.RawMessage(`"the token is ` + token + `"`)})
	if e.Result != nil || e.Withheld == nil || !cmp.Equal(e.Withheld.Rules, []string{"secret-github"}) {
		t.Fatalf("got %+v", e)
	}
	d := &Doc{Format: Format, Version: Version, Run: runInfo(), End: &e}
	data, err := d.Encode()
	if err != nil || bytes.Contains(data, []byte(token)) {
		t.Fatalf("%v\n%s", err, data)
	}
	if _, err := Parse("w.json", data); err != nil {
		t.Fatal(err)
	}
	f := WithholdEnd(End{Status: EndFailed, Error: "ASK_INVALID_OUTPUT: the answer " + token + " is no JSON"})
	if strings.Contains(f.Error, token) || !strings.Contains(f.Error, "withheld from the Cassette: it held what looks like a GitHub token") {
		t.Fatalf("the error %q", f.Error)
	}
	if g := WithholdEnd(End{Status: EndCompleted, Result: json.RawMessage(`{"ok":true}`), Error: ""}); string(g.Result) != `{"ok":true}` || g.Withheld != nil {
		t.Fatalf("a plain end changed: %+v", g)
	}
}

// Cassettes, Checkpoints and journals are files the model may have
// written; they are read with the sockets' key walk (core/jsonkeys, D733):
// a key twice, or a field's key in another case, is refused in each kind,
// where encoding/json alone took the last value or the folded key.
func TestDocumentsRefuseKeysTwiceOrInAnotherCase(t *testing.T) {
	completed := filepath.Join(t.TempDir(), "run.json")
	step := askStep(1, "first")
	step.Seq = 1
	if err := Publish(completed, &Doc{Format: Format, Version: Version, Run: runInfo(), Agents: []Agent{agentA1()},
		Steps: []Step{step}, End: &End{Status: EndCompleted}}); err != nil {
		t.Fatal(err)
	}
	cassette, _ := os.ReadFile(completed)
	checkpoint, _ := os.ReadFile(paused(t))
	dest := filepath.Join(t.TempDir(), "run.json")
	j := record(t, dest)
	j.Close()
	journal, _ := os.ReadFile(j.Path)
	lines := strings.SplitAfter(string(journal), "\n")
	once := func(data []byte, old, new string) []byte {
		t.Helper()
		if !bytes.Contains(data, []byte(old)) {
			t.Fatalf("%q is not in the document", old)
		}
		return bytes.Replace(data, []byte(old), []byte(new), 1)
	}
	tests := []struct {
		name    string
		journal bool
		data    []byte
		want    string
	}{
		{"a Cassette's key twice", false, once(cassette, `"format": "yaag-cassette",`, `"format": "yaag-cassette", "format": "yaag-cassette",`),
			`not a Cassette: the key "format" appears twice`},
		{"a Cassette's step result twice", false, once(cassette, `"text": "first",`, `"text": "first", "text": "forged",`),
			`not a Cassette: the key "text" appears twice`},
		{"a Cassette's key in another case", false, once(cassette, `"run_end":`, `"Run_End":`),
			`not a Cassette: the key "Run_End" is "run_end" in another case`},
		{"a Checkpoint's answer twice", false, once(checkpoint, `"answers": {}`, `"answers": {"A1/2/q1": "a.txt", "A1/2/q1": "b.txt"}`),
			`not a Cassette: the key "A1/2/q1" appears twice`},
		{"a Checkpoint's resumedBy in another case", false, once(checkpoint, `"resumedBy": null`, `"resumedBy": null, "ResumedBy": null`),
			`not a Cassette: the key "ResumedBy" is "resumedBy" in another case`},
		{"a journal line's key twice", true, []byte(lines[0] + strings.Replace(lines[1], `"kind":"agent"`, `"kind":"agent","kind":"ask"`, 1) + strings.Join(lines[2:], "")),
			`:2: not a journal line: the key "kind" appears twice`},
		{"a journal line's key in another case", true, []byte(strings.Join(lines[:3], "") + strings.Replace(lines[3], `"status":`, `"Status":`, 1) + strings.Join(lines[4:], "")),
			`:4: not a journal line: the key "Status" is "status" in another case`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.journal {
				_, err = ParseJournal(j.Path, tt.data)
			} else {
				_, err = Parse("doc.json", tt.data)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
	// Unchanged, each reads.
	if _, err := Parse("doc.json", cassette); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("doc.json", checkpoint); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseJournal(j.Path, journal); err != nil {
		t.Fatal(err)
	}
}

// A Run killed at any moment leaves no journal or one that reads: a
// reader watching the journal's path while journals are started there
// never finds one without its Run line (which a kill would leave). On
// the old code the file was made empty and the line written after, and
// the reader caught it between (yaag-crash: "the journal has no Run
// line").
func TestAJournalAppearsWithItsRunLine(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "c.json")
	path := JournalPath(dest)
	stop := make(chan struct{})
	found := make(chan string, 1)
	go func() {
		for {
			select {
			case <-stop:
				found <- ""
				return
			default:
			}
			data, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			if _, err := ParseJournal(path, data); err != nil {
				found <- err.Error()
				return
			}
		}
	}()
	for range 3000 {
		j, err := CreateJournal(dest, runInfo())
		if err != nil {
			t.Fatal(err)
		}
		j.Remove()
	}
	close(stop)
	if why := <-found; why != "" {
		t.Fatalf("a journal was seen without its Run line: %s", why)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left in the directory: %v", entries)
	}
}
