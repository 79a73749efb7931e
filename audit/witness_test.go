package audit

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/testsupport"
	"boxmaker/runbook"
)

// witnessed writes n records with heads witnessed every `every` records
// into a witness file beside the log, and returns the log's directory, the
// witness file and what went to the Log.
func witnessed(t *testing.T, n, every int) (dir, wfile string, log string) {
	t.Helper()
	root := t.TempDir()
	dir, wfile = filepath.Join(root, "audit"), filepath.Join(root, "broker", "audit-witness")
	var buf testsupport.Buffer
	l := openLedger(t, dir, Options{WitnessFile: wfile, WitnessEvery: every, Log: &buf})
	for k := 1; k <= n; k++ {
		if _, err := l.Append(result(k)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, wfile, buf.String()
}

func readWitnesses(t *testing.T, path string) []Witness {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ws, err := ReadWitnesses(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func verifyWith(t *testing.T, dir string, ws []Witness) *Report {
	t.Helper()
	rep, err := VerifyWith(dir, VerifyOptions{Witnesses: ws})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// The head goes to the Log and the witness file every `every` records and
// at Close; each names the line it says, and the log verifies against all.
func TestHeadsAreWitnessed(t *testing.T) {
	dir, wfile, log := witnessed(t, 25, 10)
	ws := readWitnesses(t, wfile)
	var seqs []uint64
	for _, w := range ws {
		seqs = append(seqs, w.Seq)
	}
	if diff := cmp.Diff([]uint64{10, 20, 25}, seqs); diff != "" {
		t.Errorf("witnessed seqs (-want +got):\n%s", diff)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "000001.jsonl"))
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	last := ws[len(ws)-1]
	if want := (Head{Position: Position{File: "000001.jsonl", Line: 25}, Seq: 25, SHA256: hashHex(lineHash([]byte(lines[24])))}); last.Head != want {
		t.Errorf("the last head is %v, want %v", last.Head, want)
	}
	for _, w := range ws {
		if !strings.Contains(log, w.Head.String()+"\n") {
			t.Errorf("%s is not in the Log:\n%s", w.Head, log)
		}
	}
	if rep := verifyWith(t, dir, ws); !rep.OK() || rep.Witnessed != 3 {
		t.Errorf("verify: %v %v", findingStrings(rep.Errors), rep.WitnessErrors)
	}
	// A second Open checks the last head, witnesses it at start, and
	// appends after it.
	var buf testsupport.Buffer
	l := openLedger(t, dir, Options{WitnessFile: wfile, Log: &buf})
	if !strings.Contains(buf.String(), last.Head.String()) {
		t.Errorf("Open did not witness the head it found: %q", buf.String())
	}
	l.Close()
}

// Records not yet witnessed are witnessed within WitnessEvery seconds even
// when no more come.
func TestHeadsAreWitnessedWhenIdle(t *testing.T) {
	root := t.TempDir()
	wfile := filepath.Join(root, "w")
	l := openLedger(t, filepath.Join(root, "audit"), Options{WitnessFile: wfile, WitnessEvery: 1})
	if _, err := l.Append(result(1)); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if data, _ := os.ReadFile(wfile); strings.Contains(string(data), " seq 1 ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the head was not witnessed while idle")
		}
	}
}

// rechain rewrites a log file as someone covering their tracks would:
// the records drop keeps are left out, and every later seq and prev is
// recomputed, so that the chain holds.
func rechain(t *testing.T, path string, drop func(Record) bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	var seq uint64
	prev := zeroPrev
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		r, err := ParseLine([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		if drop(r) {
			continue
		}
		seq++
		r.Seq, r.Prev = seq, prev
		enc := appendLine(nil, &r)
		prev = hashHex(lineHash(enc))
		out = append(append(out, enc...), '\n')
	}
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
}

// The attacks of issue 9: the last 40 lines cut, and one call's records
// deleted with every later prev recomputed. The chain alone says ok; the
// witnessed heads do not, each a finding of its own with the witnessed and
// the found values; and brokerd refuses to open the log.
func TestWitnessesCatchWhatTheChainCannot(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(t *testing.T, file string)
		want   []string
	}{
		{"the last 40 lines cut", func(t *testing.T, file string) {
			testsupport.EditFile(t, file, func(b []byte) []byte {
				lines := strings.SplitAfter(string(b), "\n")
				return []byte(strings.Join(lines[:60], ""))
			})
		}, []string{"000001.jsonl ends at line 60", "000001.jsonl ends at line 60", "000001.jsonl ends at line 60", "000001.jsonl ends at line 60"}},
		{"one call's records deleted, the chain recomputed", func(t *testing.T, file string) {
			rechain(t, file, func(r Record) bool { return r.Call == "c-055" })
		}, []string{"the log has seq 60 with sha256 ", "the log has seq 70 with sha256 ", "the log has seq 80 with sha256 ", "the log has seq 90 with sha256 ", "000001.jsonl ends at line 99"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, wfile, _ := witnessed(t, 100, 10)
			ws := readWitnesses(t, wfile)
			c.damage(t, filepath.Join(dir, "000001.jsonl"))
			if rep := verify(t, dir); !rep.OK() {
				t.Fatalf("the damage is seen by the chain alone: %v", findingStrings(rep.Errors))
			}
			rep := verifyWith(t, dir, ws)
			if rep.OK() || len(rep.Errors) > 0 || len(rep.WitnessErrors) != len(c.want) {
				t.Fatalf("verify with the witnesses: %v %v", findingStrings(rep.Errors), rep.WitnessErrors)
			}
			for i, f := range rep.WitnessErrors {
				s := f.String()
				if !strings.Contains(s, c.want[i]) || !strings.HasPrefix(s, wfile+":") || !strings.Contains(s, "sha256 "+f.SHA256) {
					t.Errorf("finding %d: %s; want it to name %q", i, s, c.want[i])
				}
			}
			_, err := Open(dir, Options{WitnessFile: wfile})
			if e, _ := runbook.EntryOf(err); e != runbook.AuditWitnessMismatch || !strings.Contains(err.Error(), "witnessed head 000001.jsonl:100 seq 100") {
				t.Fatalf("Open = %v, want audit-witness-mismatch naming the last head", err)
			}
		})
	}
}

// The witness file must be outside the log's directory, even through a
// symbolic link.
func TestTheWitnessFileIsKeptApart(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "audit")
	os.MkdirAll(dir, 0o700)
	os.Symlink(dir, filepath.Join(root, "link"))
	for _, p := range []string{filepath.Join(dir, "witness"), filepath.Join(root, "link", "witness"), filepath.Join(dir, "sub", "witness")} {
		_, err := Open(dir, Options{WitnessFile: p})
		if err == nil || !strings.Contains(err.Error(), "inside the audit directory") {
			t.Errorf("Open with the witness file %s = %v", p, err)
		}
	}
}

// A FIFO in the witness file's place is refused at once: brokerd's start
// does not hang on it.
func TestAFIFOAsTheWitnessFileIsRefused(t *testing.T) {
	root := t.TempDir()
	fifo := filepath.Join(root, "witness")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(filepath.Join(root, "audit"), Options{WitnessFile: fifo})
	if e, _ := runbook.EntryOf(err); e != runbook.AuditUnavailable || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Open with a FIFO as the witness file = %v, want audit-unavailable: not a regular file", err)
	}
}

// Only whole head lines count: a head quoted in another line of the
// journal is not one.
func TestReadWitnessesTakesWholeLinesOnly(t *testing.T) {
	h := "audit: head 000001.jsonl:3 seq 3 sha256 " + strings.Repeat("a", 64)
	in := "brokerd: serving\n" + h + "\n" + "brokerd: denied: " + h + "\n" + h + "x\n" + h + "\r\n" +
		"audit: head 000001.jsonl:0 seq 3 sha256 " + strings.Repeat("a", 64) + "\n"
	ws, err := ReadWitnesses(strings.NewReader(in), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws {
		got = append(got, w.Source.String())
	}
	if diff := cmp.Diff([]string{"stdin:2", "stdin:5"}, got); diff != "" {
		t.Errorf("witness lines (-want +got):\n%s", diff)
	}
}

// A witness line reads back as the head it was written from, and only a
// whole head line is one.
func FuzzParseHead(f *testing.F) {
	f.Add("audit: head 000001.jsonl:3 seq 3 sha256 " + strings.Repeat("a", 64))
	f.Add("audit: head 1234567.jsonl:99 seq 12345678901 sha256 " + strings.Repeat("0", 64) + "\r")
	f.Add("brokerd: audit: head 000001.jsonl:3 seq 3 sha256 " + strings.Repeat("a", 64))
	f.Fuzz(func(t *testing.T, line string) {
		h, ok := ParseHead(line)
		if !ok {
			return
		}
		if !strings.HasPrefix(line, "audit: head ") || strings.Contains(strings.TrimSuffix(line, "\r"), "\n") {
			t.Fatalf("ParseHead took %q", line)
		}
		back, ok := ParseHead(h.String())
		if !ok || back != h {
			t.Fatalf("%q: %v reads back as %v, %v", line, h, back, ok)
		}
	})
}

// With Heads apart from Log (brokerd), the head lines go to Heads alone
// and the ledger's other lines (a witness file that cannot be written) to
// Log alone: brokerd begins those with its name, and its heads stay whole
// lines that --witness reads from the journal.
func TestHeadsApartFromLog(t *testing.T) {
	root := t.TempDir()
	var heads, log testsupport.Buffer
	l := openLedger(t, filepath.Join(root, "audit"), Options{WitnessFile: filepath.Join(root, "witness"), WitnessEvery: 1, Heads: &heads, Log: &log})
	l.witness.file.Close() // its next write fails
	if _, err := l.Append(result(1)); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(heads.String(), "\n"), "\n") {
		if _, ok := ParseHead(line); !ok {
			t.Errorf("Heads holds a line that is no head: %q", line)
		}
	}
	if heads.String() == "" {
		t.Error("no head went to Heads")
	}
	if !strings.HasPrefix(log.String(), "audit: cannot write the witness file ") || strings.Contains(log.String(), "audit: head ") {
		t.Errorf("Log = %q, want the witness file's failure alone", log.String())
	}
}
