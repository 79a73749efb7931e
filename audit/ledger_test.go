package audit

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/testsupport"
	"boxmaker/runbook"
)

func fixedNow() time.Time { return testTime }

// openLedger opens dir with a fixed clock and closes it at the end.
func openLedger(t *testing.T, dir string, opts Options) *Ledger {
	t.Helper()
	opts.Now = fixedNow
	l, err := Open(dir, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// result is the k-th record of a fixture: the lines have the same length.
func result(k int) Record {
	return Record{Type: TypeResult, Call: fmt.Sprintf("c-%03d", k), Outcome: "ran", TaintAfter: "public"}
}

// fixture writes n records, each file holding perFile of them (0: one file).
func fixture(t *testing.T, n, perFile int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "audit")
	opts := Options{}
	if perFile > 0 {
		line := appendLine(nil, &Record{Seq: 1, Prev: zeroPrev, Time: testTime, Type: TypeResult, Call: "c-001", Outcome: "ran", TaintAfter: "public"})
		opts.MaxFileSize = int64(perFile-1)*int64(len(line)+1) + 1
	}
	l := openLedger(t, dir, opts)
	for k := 1; k <= n; k++ {
		seq, err := l.Append(result(k))
		if err != nil {
			t.Fatalf("Append %d: %v", k, err)
		}
		if seq != uint64(k) {
			t.Fatalf("Append %d returned seq %d", k, seq)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// survivors describes what is on disk: per file, each line's seq, "?" for
// a line that is not a record, and "torn" for an unended last line.
func survivors(t *testing.T, dir string) []string {
	t.Helper()
	nums, err := logFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range nums {
		data, err := os.ReadFile(logPath(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		var words []string
		lines := strings.SplitAfter(string(data), "\n")
		for _, l := range lines {
			if l == "" {
				continue
			}
			if !strings.HasSuffix(l, "\n") {
				words = append(words, "torn")
				continue
			}
			r, err := ParseLine([]byte(strings.TrimSuffix(l, "\n")))
			switch {
			case err != nil:
				words = append(words, "?")
			case r.Type == TypeRecovery:
				words = append(words, fmt.Sprintf("%d(recovery)", r.Seq))
			case r.Type == TypeAcceptedBreak:
				words = append(words, fmt.Sprintf("%d(break)", r.Seq))
			default:
				words = append(words, fmt.Sprint(r.Seq))
			}
		}
		out = append(out, fileName(n)+": "+strings.Join(words, " "))
	}
	return out
}

func findingStrings(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.String())
	}
	return out
}

func breakStrings(bs []Break) []string {
	var out []string
	for _, b := range bs {
		out = append(out, fmt.Sprintf("%s names %s, covers %s", b.Position, b.Failure, strings.Join(findingStrings(b.Covers), " | ")))
	}
	return out
}

func verify(t *testing.T, dir string) *Report {
	t.Helper()
	rep, err := Verify(dir)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	return rep
}

// lineSpan returns the byte offsets of line k (1-based, newline included).
func lineSpan(t *testing.T, data []byte, k int) (int, int) {
	t.Helper()
	start := 0
	for i := 1; i < k; i++ {
		j := bytes.IndexByte(data[start:], '\n')
		if j < 0 {
			t.Fatalf("no line %d", k)
		}
		start += j + 1
	}
	end := bytes.IndexByte(data[start:], '\n')
	if end < 0 {
		return start, len(data)
	}
	return start, start + end + 1
}

func TestDamage(t *testing.T) {
	one := func(dir string) string { return filepath.Join(dir, "000001.jsonl") }
	for _, tc := range []struct {
		name    string
		perFile int // 0: all 9 records in one file; else records per file
		damage  func(t *testing.T, dir string)
		// what Verify reports before anything is done
		wantErrors []string
		wantTorn   string
		// what a plain Open says: "" opens, else the refusal's first line
		wantRefusal   string
		wantRecovered string
		// after Open (with --accept-break when refused) and one Append
		wantBreaks     []string
		wantRecoveries []string
		wantSurvivors  []string
	}{
		{
			name:          "no damage",
			damage:        func(*testing.T, string) {},
			wantSurvivors: []string{"000001.jsonl: 1 2 3 4 5 6 7 8 9 10"},
		},
		{
			name: "tear the last line",
			damage: func(t *testing.T, dir string) {
				testsupport.EditFile(t, one(dir), func(b []byte) []byte { return b[:len(b)-20] })
			},
			wantTorn:       "000001.jsonl:9",
			wantRecovered:  "000001.jsonl:9",
			wantRecoveries: []string{"000001.jsonl:9"},
			wantSurvivors:  []string{"000001.jsonl: 1 2 3 4 5 6 7 8 ? 9(recovery) 10"},
		},
		{
			name: "tear only the newline: the line looks whole but is not a record",
			damage: func(t *testing.T, dir string) {
				testsupport.EditFile(t, one(dir), func(b []byte) []byte { return b[:len(b)-1] })
			},
			wantTorn:       "000001.jsonl:9",
			wantRecovered:  "000001.jsonl:9",
			wantRecoveries: []string{"000001.jsonl:9"},
			wantSurvivors:  []string{"000001.jsonl: 1 2 3 4 5 6 7 8 9 9(recovery) 10"},
		},
		{
			name: "truncate in the middle of line 5",
			damage: func(t *testing.T, dir string) {
				testsupport.EditFile(t, one(dir), func(b []byte) []byte {
					s, e := lineSpan(t, b, 5)
					return b[:(s+e)/2]
				})
			},
			wantTorn:       "000001.jsonl:5",
			wantRecovered:  "000001.jsonl:5",
			wantRecoveries: []string{"000001.jsonl:5"},
			wantSurvivors:  []string{"000001.jsonl: 1 2 3 4 ? 5(recovery) 6"},
		},
		{
			name: "zero the second 512-byte sector",
			damage: func(t *testing.T, dir string) {
				testsupport.EditFile(t, one(dir), func(b []byte) []byte {
					copy(b[512:1024], make([]byte, 512))
					return b
				})
			},
			// Lines are 194 bytes: the zeros run from line 3 into line 6
			// and end two newlines; what is left of lines 3 to 6 is one line.
			wantErrors: []string{
				"000001.jsonl:3: not a record: byte 125: control character in a string",
				"000001.jsonl:4: prev is not the hash of 000001.jsonl:3",
			},
			wantRefusal:   "000001.jsonl:3: not a record: byte 125: control character in a string",
			wantBreaks:    []string{"000001.jsonl:7 names 000001.jsonl:3, covers 000001.jsonl:3: not a record: byte 125: control character in a string | 000001.jsonl:4: prev is not the hash of 000001.jsonl:3"},
			wantSurvivors: []string{"000001.jsonl: 1 2 ? 7 8 9 10(break) 11"},
		},
		{
			name: "edit a byte of line 4",
			damage: func(t *testing.T, dir string) {
				testsupport.EditFile(t, one(dir), func(b []byte) []byte {
					s, _ := lineSpan(t, b, 4)
					i := s + bytes.Index(b[s:], []byte("c-004")) + 4
					b[i] = '5'
					return b
				})
			},
			wantErrors:    []string{"000001.jsonl:5: prev is not the hash of 000001.jsonl:4"},
			wantRefusal:   "000001.jsonl:5: prev is not the hash of 000001.jsonl:4",
			wantBreaks:    []string{"000001.jsonl:10 names 000001.jsonl:5, covers 000001.jsonl:5: prev is not the hash of 000001.jsonl:4"},
			wantSurvivors: []string{"000001.jsonl: 1 2 3 4 5 6 7 8 9 10(break) 11"},
		},
		{
			name: "delete line 4",
			damage: func(t *testing.T, dir string) {
				testsupport.EditFile(t, one(dir), func(b []byte) []byte {
					s, e := lineSpan(t, b, 4)
					return append(b[:s:s], b[e:]...)
				})
			},
			wantErrors:    []string{"000001.jsonl:4: seq 5 should be 4; prev is not the hash of 000001.jsonl:3"},
			wantRefusal:   "000001.jsonl:4: seq 5 should be 4; prev is not the hash of 000001.jsonl:3",
			wantBreaks:    []string{"000001.jsonl:9 names 000001.jsonl:4, covers 000001.jsonl:4: seq 5 should be 4; prev is not the hash of 000001.jsonl:3"},
			wantSurvivors: []string{"000001.jsonl: 1 2 3 5 6 7 8 9 10(break) 11"},
		},
		{
			name: "swap lines 4 and 5",
			damage: func(t *testing.T, dir string) {
				testsupport.EditFile(t, one(dir), func(b []byte) []byte {
					s4, e4 := lineSpan(t, b, 4)
					_, e5 := lineSpan(t, b, 5)
					out := append([]byte(nil), b[:s4]...)
					out = append(out, b[e4:e5]...)
					out = append(out, b[s4:e4]...)
					return append(out, b[e5:]...)
				})
			},
			wantErrors: []string{
				"000001.jsonl:4: seq 5 should be 4; prev is not the hash of 000001.jsonl:3",
				"000001.jsonl:5: seq 4 should be 6; prev is not the hash of 000001.jsonl:4",
				"000001.jsonl:6: seq 6 should be 5; prev is not the hash of 000001.jsonl:5",
			},
			wantRefusal:   "000001.jsonl:4: seq 5 should be 4; prev is not the hash of 000001.jsonl:3",
			wantBreaks:    []string{"000001.jsonl:10 names 000001.jsonl:4, covers 000001.jsonl:4: seq 5 should be 4; prev is not the hash of 000001.jsonl:3 | 000001.jsonl:5: seq 4 should be 6; prev is not the hash of 000001.jsonl:4 | 000001.jsonl:6: seq 6 should be 5; prev is not the hash of 000001.jsonl:5"},
			wantSurvivors: []string{"000001.jsonl: 1 2 3 5 4 6 7 8 9 10(break) 11"},
		},
		{
			name:    "the middle file restored from an older copy",
			perFile: 3,
			damage: func(t *testing.T, dir string) {
				// An older copy of an append-only file is a prefix of it.
				testsupport.EditFile(t, filepath.Join(dir, "000002.jsonl"), func(b []byte) []byte {
					_, e := lineSpan(t, b, 2)
					return b[:e]
				})
			},
			wantErrors:    []string{"000003.jsonl:1: seq 7 should be 6; prev is not the hash of 000002.jsonl:2"},
			wantRefusal:   "000003.jsonl:1: seq 7 should be 6; prev is not the hash of 000002.jsonl:2",
			wantBreaks:    []string{"000003.jsonl:4 names 000003.jsonl:1, covers 000003.jsonl:1: seq 7 should be 6; prev is not the hash of 000002.jsonl:2"},
			wantSurvivors: []string{"000001.jsonl: 1 2 3", "000002.jsonl: 4 5", "000003.jsonl: 7 8 9 10(break) 11"},
		},
		{
			name:    "the middle file missing",
			perFile: 3,
			damage: func(t *testing.T, dir string) {
				if err := os.Remove(filepath.Join(dir, "000002.jsonl")); err != nil {
					t.Fatal(err)
				}
			},
			wantErrors:    []string{"000003.jsonl:1: 000002.jsonl missing; seq 7 should be 4; prev is not the hash of 000001.jsonl:3"},
			wantRefusal:   "000003.jsonl:1: 000002.jsonl missing; seq 7 should be 4; prev is not the hash of 000001.jsonl:3",
			wantBreaks:    []string{"000003.jsonl:4 names 000003.jsonl:1, covers 000003.jsonl:1: 000002.jsonl missing; seq 7 should be 4; prev is not the hash of 000001.jsonl:3"},
			wantSurvivors: []string{"000001.jsonl: 1 2 3", "000003.jsonl: 7 8 9 10(break) 11"},
		},
		{
			name:    "an older file edited: only the whole check sees it",
			perFile: 3,
			damage: func(t *testing.T, dir string) {
				testsupport.EditFile(t, filepath.Join(dir, "000001.jsonl"), func(b []byte) []byte {
					return bytes.Replace(b, []byte("c-002"), []byte("c-222"), 1)
				})
			},
			wantErrors: []string{"000001.jsonl:3: prev is not the hash of 000001.jsonl:2"},
			// an ordinary start checks the latest file only
			wantSurvivors: []string{"000001.jsonl: 1 2 3", "000002.jsonl: 4 5 6", "000003.jsonl: 7 8 9", "000004.jsonl: 10"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := fixture(t, 9, tc.perFile)
			tc.damage(t, dir)

			rep := verify(t, dir)
			if diff := cmp.Diff(tc.wantErrors, findingStrings(rep.Errors)); diff != "" {
				t.Errorf("Verify errors (-want +got):\n%s", diff)
			}
			gotTorn := ""
			if rep.TornTail != nil {
				gotTorn = rep.TornTail.String()
			}
			if gotTorn != tc.wantTorn {
				t.Errorf("Verify torn tail = %q, want %q", gotTorn, tc.wantTorn)
			}

			before := survivors(t, dir)
			l, err := Open(dir, Options{Now: fixedNow})
			if tc.wantRefusal != "" {
				want := tc.wantRefusal + "; " + runbook.Link(runbook.AuditChainBroken)
				if err == nil || err.Error() != want {
					t.Fatalf("Open = %v, want the refusal %q", err, want)
				}
				if diff := cmp.Diff(before, survivors(t, dir)); diff != "" {
					t.Fatalf("a refused Open changed the log (-before +after):\n%s", diff)
				}
				l, err = Open(dir, Options{Now: fixedNow, AcceptBreak: true})
				if err != nil {
					t.Fatalf("Open with AcceptBreak: %v", err)
				}
				if b := l.AcceptedBreak(); b == nil || b.Failure.String()+": "+b.What != tc.wantErrors[0] {
					t.Errorf("AcceptedBreak = %+v, want the first failure %q", b, tc.wantErrors[0])
				}
			} else if err != nil {
				t.Fatalf("Open: %v", err)
			}
			gotRecovered := ""
			if r := l.Recovered(); r != nil {
				gotRecovered = r.Position.String()
			}
			if gotRecovered != tc.wantRecovered {
				t.Errorf("Recovered = %q, want %q", gotRecovered, tc.wantRecovered)
			}
			if _, err := l.Append(result(99)); err != nil {
				t.Fatalf("Append after Open: %v", err)
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}

			if tc.wantRefusal == "" && len(tc.wantErrors) > 0 {
				return // the damage is in an older file; Open did not look there
			}
			rep = verify(t, dir)
			if !rep.OK() {
				t.Errorf("Verify after Open: %v", findingStrings(rep.Errors))
			}
			if diff := cmp.Diff(tc.wantBreaks, breakStrings(rep.Breaks)); diff != "" {
				t.Errorf("breaks (-want +got):\n%s", diff)
			}
			var recs []string
			for _, r := range rep.Recoveries {
				recs = append(recs, r.Position.String())
			}
			if diff := cmp.Diff(tc.wantRecoveries, recs); diff != "" {
				t.Errorf("recoveries (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantSurvivors, survivors(t, dir)); diff != "" {
				t.Errorf("survivors (-want +got):\n%s", diff)
			}
		})
	}
}

// The runbook's innocent cause of a broken chain: brokerd killed again
// while writing the recovery record.
func TestSecondCrashDuringRecovery(t *testing.T) {
	dir := fixture(t, 9, 0)
	path := filepath.Join(dir, "000001.jsonl")
	testsupport.EditFile(t, path, func(b []byte) []byte { return b[:len(b)-30] })
	// What the recovery writes, cut short: the newline that ends the torn
	// line and the first part of the recovery record.
	s, _ := lineSpan(t, mustRead(t, path), 9)
	torn := mustRead(t, path)[s:]
	rec := Record{Seq: 9, Prev: hashHex(lineHash(lineOf(t, path, 8))), Time: testTime, Type: TypeRecovery,
		TornLength: int64(len(torn)), TornSHA256: hashHex(lineHash(torn))}
	partial := appendLine([]byte{'\n'}, &rec)
	testsupport.EditFile(t, path, func(b []byte) []byte { return append(b, partial[:40]...) })

	rep := verify(t, dir)
	wantErr := `000001.jsonl:9: not a record: field "outcome": byte 165: expected a string`
	if diff := cmp.Diff([]string{wantErr}, findingStrings(rep.Errors)); diff != "" {
		t.Fatalf("Verify errors (-want +got):\n%s", diff)
	}
	if rep.TornTail == nil || rep.TornTail.String() != "000001.jsonl:10" {
		t.Fatalf("torn tail = %v, want 000001.jsonl:10: the failure is within the last three lines and the last is cut", rep.TornTail)
	}
	_, err := Open(dir, Options{Now: fixedNow})
	if err == nil || err.Error() != wantErr+"; "+runbook.Link(runbook.AuditChainBroken) {
		t.Fatalf("Open = %v, want audit-chain-broken at line 9", err)
	}
	l, err := Open(dir, Options{Now: fixedNow, AcceptBreak: true})
	if err != nil {
		t.Fatalf("Open with AcceptBreak: %v", err)
	}
	if l.Recovered() != nil {
		t.Errorf("an accepted break also claims a recovery: %+v", l.Recovered())
	}
	if got := l.Notices(); len(got) != 1 || !strings.HasPrefix(got[0], "audit: accepted the break at 000001.jsonl:9 ") {
		t.Errorf("Notices = %q", got)
	}
	if seq, err := l.Append(result(10)); err != nil || seq != 10 {
		t.Fatalf("Append = %d, %v; want seq 10", seq, err)
	}
	l.Close()
	rep = verify(t, dir)
	if !rep.OK() {
		t.Fatalf("Verify after the break: %v", findingStrings(rep.Errors))
	}
	want := []string{`000001.jsonl:11 names 000001.jsonl:9, covers 000001.jsonl:9: not a record: field "outcome": byte 165: expected a string | 000001.jsonl:10: not a record: field "prev": unterminated string`}
	if diff := cmp.Diff(want, breakStrings(rep.Breaks)); diff != "" {
		t.Errorf("breaks (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"000001.jsonl: 1 2 3 4 5 6 7 8 ? ? 9(break) 10"}, survivors(t, dir)); diff != "" {
		t.Errorf("survivors (-want +got):\n%s", diff)
	}
}

func TestDamageAfterABreakNeedsItsOwnBreak(t *testing.T) {
	dir := fixture(t, 5, 0)
	path := filepath.Join(dir, "000001.jsonl")
	testsupport.EditFile(t, path, func(b []byte) []byte { return bytes.Replace(b, []byte("c-002"), []byte("c-992"), 1) })
	l := openLedger(t, dir, Options{AcceptBreak: true})
	for k := 6; k <= 8; k++ {
		if _, err := l.Append(result(k)); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	if rep := verify(t, dir); !rep.OK() || len(rep.Breaks) != 1 {
		t.Fatalf("after the first break: errors %v, breaks %v", findingStrings(rep.Errors), breakStrings(rep.Breaks))
	}
	// Line 6 is the break; line 8 holds c-007.
	testsupport.EditFile(t, path, func(b []byte) []byte { return bytes.Replace(b, []byte("c-007"), []byte("c-997"), 1) })
	rep := verify(t, dir)
	if diff := cmp.Diff([]string{"000001.jsonl:9: prev is not the hash of 000001.jsonl:8"}, findingStrings(rep.Errors)); diff != "" {
		t.Fatalf("the second damage (-want +got):\n%s", diff)
	}
	if _, err := Open(dir, Options{Now: fixedNow}); err == nil {
		t.Fatal("Open accepted damage after the break")
	}
	l = openLedger(t, dir, Options{AcceptBreak: true})
	l.Close()
	rep = verify(t, dir)
	if !rep.OK() {
		t.Fatalf("after the second break: %v", findingStrings(rep.Errors))
	}
	want := []string{
		"000001.jsonl:6 names 000001.jsonl:3, covers 000001.jsonl:3: prev is not the hash of 000001.jsonl:2",
		"000001.jsonl:10 names 000001.jsonl:9, covers 000001.jsonl:9: prev is not the hash of 000001.jsonl:8",
	}
	if diff := cmp.Diff(want, breakStrings(rep.Breaks)); diff != "" {
		t.Errorf("breaks (-want +got):\n%s", diff)
	}
}

func TestABreakNamingNoFailureIsAnError(t *testing.T) {
	dir := fixture(t, 3, 0)
	// Forge what only Open writes: a break over a stretch that is whole.
	testsupport.EditFile(t, filepath.Join(dir, "000001.jsonl"), func(b []byte) []byte {
		last := b[bytes.LastIndexByte(b[:len(b)-1], '\n')+1 : len(b)-1]
		r := Record{Seq: 4, Prev: hashHex(lineHash(last)), Time: testTime, Type: TypeAcceptedBreak, BreakFile: "000001.jsonl", BreakLine: 2, BreakWhat: "nothing"}
		return append(appendLine(b, &r), '\n')
	})
	rep := verify(t, dir)
	if diff := cmp.Diff([]string{"000001.jsonl:4: accepted_break names 000001.jsonl:2, where the chain does not fail"}, findingStrings(rep.Errors)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestRotationContinuesTheChain(t *testing.T) {
	dir := fixture(t, 10, 3)
	if diff := cmp.Diff([]string{"000001.jsonl: 1 2 3", "000002.jsonl: 4 5 6", "000003.jsonl: 7 8 9", "000004.jsonl: 10"}, survivors(t, dir)); diff != "" {
		t.Fatalf("files (-want +got):\n%s", diff)
	}
	first := lineOf(t, filepath.Join(dir, "000002.jsonl"), 1)
	r, err := ParseLine(first)
	if err != nil {
		t.Fatal(err)
	}
	if want := hashHex(lineHash(lineOf(t, filepath.Join(dir, "000001.jsonl"), 3))); r.Prev != want {
		t.Errorf("000002.jsonl:1 prev = %s, want the hash of 000001.jsonl:3 %s", r.Prev, want)
	}
	// A new start goes on from the latest file.
	l := openLedger(t, dir, Options{MaxFileSize: 1 << 20})
	if seq, err := l.Append(result(11)); err != nil || seq != 11 {
		t.Fatalf("Append after reopening = %d, %v", seq, err)
	}
	l.Close()
	rep := verify(t, dir)
	if !rep.OK() || rep.Records != 11 || rep.Files != 4 {
		t.Errorf("Verify: ok %v, %d records in %d files, errors %v", rep.OK(), rep.Records, rep.Files, findingStrings(rep.Errors))
	}
	for _, name := range []string{"", "000001.jsonl", "000004.jsonl"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		want := os.FileMode(0o600)
		if name == "" {
			want = 0o700 | os.ModeDir
		}
		if fi.Mode() != want {
			t.Errorf("%s: mode %v, want %v", filepath.Join(dir, name), fi.Mode(), want)
		}
	}
}

func TestAnEmptyLatestFileContinuesFromTheOneBefore(t *testing.T) {
	dir := fixture(t, 3, 3)
	// brokerd stopped right after beginning a new file.
	if err := os.WriteFile(filepath.Join(dir, "000002.jsonl"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	l := openLedger(t, dir, Options{})
	if seq, err := l.Append(result(4)); err != nil || seq != 4 {
		t.Fatalf("Append = %d, %v", seq, err)
	}
	l.Close()
	if rep := verify(t, dir); !rep.OK() || rep.Records != 4 {
		t.Errorf("Verify: %v, %d records", findingStrings(rep.Errors), rep.Records)
	}
}

func TestConcurrentAppendsMakeOneChain(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "audit")
	l := openLedger(t, dir, Options{MaxFileSize: 16 << 10})
	const workers, each = 16, 100
	var wg sync.WaitGroup
	seqs := make(chan uint64, workers*each)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range each {
				seq, err := l.Append(Record{Type: TypeDecision, Call: fmt.Sprintf("w%d-%d", w, k), Effect: "deny"})
				if err != nil {
					t.Error(err)
					return
				}
				seqs <- seq
			}
		}()
	}
	wg.Wait()
	close(seqs)
	l.Close()
	seen := map[uint64]bool{}
	for s := range seqs {
		if seen[s] {
			t.Fatalf("seq %d returned twice", s)
		}
		seen[s] = true
	}
	for s := uint64(1); s <= workers*each; s++ {
		if !seen[s] {
			t.Fatalf("seq %d never returned", s)
		}
	}
	rep := verify(t, dir)
	if !rep.OK() || rep.Records != workers*each || rep.Files < 2 {
		t.Errorf("Verify: ok %v, %d records in %d files: %v", rep.OK(), rep.Records, rep.Files, findingStrings(rep.Errors))
	}
}

func TestASecondOpenIsRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "audit")
	l := openLedger(t, dir, Options{})
	_, err := Open(dir, Options{})
	want := "brokerd is already running; " + runbook.Link(runbook.BrokerdAlreadyRunning)
	if err == nil || err.Error() != want {
		t.Fatalf("second Open = %v, want %q", err, want)
	}
	l.Close()
	l2, err := Open(dir, Options{})
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	l2.Close()
}

func TestAFailedWritePoisonsTheLedger(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "audit")
	l := openLedger(t, dir, Options{})
	if _, err := l.Append(result(1)); err != nil {
		t.Fatal(err)
	}
	// The file goes away under the writer: every write from now on fails.
	l.f.Close()
	_, err := l.Append(result(2))
	if e, _ := runbook.EntryOf(err); e != runbook.AuditUnavailable || !strings.Contains(err.Error(), "cannot write the audit log: ") {
		t.Fatalf("the failing Append = %v, want audit-unavailable naming the write", err)
	}
	wantLater := "an earlier audit write failed; every call is denied until brokerd is restarted; " + runbook.Link(runbook.AuditUnavailable)
	for range 2 {
		if _, err := l.Append(result(3)); err == nil || err.Error() != wantLater {
			t.Fatalf("a later Append = %v, want %q", err, wantLater)
		}
	}
}

func TestAPanicWhileHoldingTheLedgerPoisonsIt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "audit")
	var log bytes.Buffer
	var mu sync.Mutex
	calls := 0
	l := openLedger(t, dir, Options{Log: &log, beforeWrite: func() {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 2 {
			panic("boom")
		}
	}})
	if _, err := l.Append(result(1)); err != nil {
		t.Fatal(err)
	}
	want := "a thread panicked while holding the ledger; every call is denied until brokerd is restarted; " + runbook.Link(runbook.AuditUnavailable)
	for range 3 {
		if _, err := l.Append(result(2)); err == nil || err.Error() != want {
			t.Fatalf("Append after the panic = %v, want %q", err, want)
		}
	}
	l.Close()
	if !strings.Contains(log.String(), "audit: panic while holding the ledger: boom") {
		t.Errorf("the panic is not described in the log: %q", log.String())
	}
	if rep := verify(t, dir); !rep.OK() || rep.Records != 1 {
		t.Errorf("Verify: %v, %d records", findingStrings(rep.Errors), rep.Records)
	}
}

func TestAppendRefusesRecordsOnlyOpenWrites(t *testing.T) {
	l := openLedger(t, filepath.Join(t.TempDir(), "audit"), Options{})
	for _, typ := range []Type{TypeRecovery, TypeAcceptedBreak, "", "reboot"} {
		if _, err := l.Append(Record{Type: typ}); err == nil {
			t.Errorf("Append of type %q succeeded", typ)
		}
	}
	if _, err := l.Append(result(1)); err != nil {
		t.Errorf("a refused type poisoned the ledger: %v", err)
	}
}

func TestVerifyListsUnfinishedCallsAndPendingApprovals(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "audit")
	l := openLedger(t, dir, Options{})
	for _, r := range []Record{
		{Type: TypeStart},
		{Type: TypeDecision, Call: "done", Tool: "read_file", Target: "/a", Effect: "allow"},
		{Type: TypeResult, Call: "done", Outcome: "ran"},
		{Type: TypeDecision, Call: "running", Tool: "run", Target: "/b", Effect: "allow"},
		{Type: TypeDecision, Call: "denied", Tool: "run", Target: "/c", Effect: "deny"},
		{Type: TypeDecision, Call: "asked", Tool: "write_file", Target: "/d", Effect: "ask"},
		{Type: TypeApprovalRequested, Call: "asked", Approval: "k3"},
		{Type: TypeApprovalAnswered, Call: "asked", Approval: "k3", Answer: AnswerApproved, By: "owner"},
		{Type: TypeDecision, Call: "waiting", Tool: "write_file", Target: "/e", Effect: "ask"},
		{Type: TypeApprovalRequested, Call: "waiting", Approval: "k4"},
		{Type: TypeDecision, Call: "gone", Tool: "write_file", Target: "/f", Effect: "ask"},
		{Type: TypeApprovalRequested, Call: "gone", Approval: "k5"},
		{Type: TypeApprovalAbandoned, Call: "gone", Approval: "k5"},
		{Type: TypeDecision, Call: "late", Tool: "write_file", Target: "/g", Effect: "ask"},
		{Type: TypeApprovalRequested, Call: "late", Approval: "k6"},
		{Type: TypeApprovalExpired, Call: "late", Approval: "k6"},
		// Withdrawn (the caller went): the approval and its call end, as
		// an expired one's do.
		{Type: TypeDecision, Call: "stopped", Tool: "write_file", Target: "/h", Effect: "ask"},
		{Type: TypeApprovalRequested, Call: "stopped", Approval: "k7"},
		{Type: TypeApprovalWithdrawn, Call: "stopped", Approval: "k7"},
	} {
		if _, err := l.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	rep := verify(t, dir)
	if !rep.OK() {
		t.Fatal(findingStrings(rep.Errors))
	}
	wantCalls := []Call{
		{Position: Position{"000001.jsonl", 4}, Call: "running", Tool: "run", Target: "/b"},
		{Position: Position{"000001.jsonl", 8}, Call: "asked", Tool: "write_file", Target: "/d"},
	}
	if diff := cmp.Diff(wantCalls, rep.Unfinished); diff != "" {
		t.Errorf("unfinished (-want +got):\n%s", diff)
	}
	wantApprovals := []Approval{
		{Position: Position{"000001.jsonl", 10}, Approval: "k4", Call: "waiting"},
		{Position: Position{"000001.jsonl", 12}, Approval: "k5", Call: "gone", Abandoned: true},
	}
	if diff := cmp.Diff(wantApprovals, rep.Pending); diff != "" {
		t.Errorf("pending (-want +got):\n%s", diff)
	}
}

func TestOpenOfAnUnwritableDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(filepath.Join(file, "audit"), Options{})
	if e, _ := runbook.EntryOf(err); e != runbook.AuditUnavailable {
		t.Fatalf("Open under a file = %v, want audit-unavailable", err)
	}
	var r *runbook.Refusal
	if !errors.As(err, &r) || r.Cause == nil {
		t.Errorf("the refusal keeps no cause: %#v", err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// lineOf returns line k of the file, without its newline.
func lineOf(t *testing.T, path string, k int) []byte {
	t.Helper()
	b := mustRead(t, path)
	s, e := lineSpan(t, b, k)
	return bytes.TrimSuffix(b[s:e], []byte{'\n'})
}

// mountTmpfs mounts a small tmpfs at a new directory for the test and
// unmounts it at the end. It needs root; without it the test cannot make
// a full or read-only file system and says so.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", dir).CombinedOutput()
	if err != nil {
		t.Skipf("cannot mount a tmpfs (root is needed): %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

func TestAFullFileSystemPoisonsTheLedger(t *testing.T) {
	fs := mountTmpfs(t, "64k")
	dir := filepath.Join(fs, "audit")
	l, err := Open(dir, Options{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var failed error
	written := 0
	for k := 1; k <= 10000 && failed == nil; k++ {
		r := result(k)
		r.Note = strings.Repeat("x", 1000)
		if _, failed = l.Append(r); failed == nil {
			written++
		}
	}
	if failed == nil {
		t.Fatal("10,000 records of 1 kB fit on a 64 kB file system")
	}
	if !strings.Contains(failed.Error(), "no space left on device") {
		t.Errorf("the failing Append = %v, want it to say the disk is full", failed)
	}
	if e, _ := runbook.EntryOf(failed); e != runbook.AuditUnavailable {
		t.Errorf("entry %q, want audit-unavailable", e)
	}
	// Space comes back, but the ledger does not try again.
	if err := os.WriteFile(filepath.Join(fs, "spare"), nil, 0o600); err != nil {
		t.Log(err)
	}
	_, err = l.Append(result(0))
	want := "an earlier audit write failed; every call is denied until brokerd is restarted; " + runbook.Link(runbook.AuditUnavailable)
	if err == nil || err.Error() != want {
		t.Fatalf("Append after the failure = %v, want %q", err, want)
	}
	l.Close()
	// What is on disk: every record whose Append succeeded, then at most a
	// torn line; a restart recovers it.
	rep := verify(t, dir)
	if !rep.OK() || rep.Records != written {
		t.Errorf("Verify: %v, %d records, want %d", findingStrings(rep.Errors), rep.Records, written)
	}
	// The operator makes room and restarts: the start deals with the
	// torn line the failed write left, if it left one.
	if out, err := exec.Command("mount", "-o", "remount,size=1m", fs).CombinedOutput(); err != nil {
		t.Fatalf("remount larger: %v: %s", err, out)
	}
	l2, err := Open(dir, Options{Now: fixedNow})
	if err != nil {
		t.Fatalf("Open after making room: %v", err)
	}
	if (rep.TornTail != nil) != (l2.Recovered() != nil) {
		t.Errorf("torn tail %v, but Open recovered %v", rep.TornTail, l2.Recovered())
	}
	if _, err := l2.Append(result(1)); err != nil {
		t.Fatalf("Append after the restart: %v", err)
	}
	l2.Close()
	if rep := verify(t, dir); !rep.OK() {
		t.Errorf("Verify after the restart: %v", findingStrings(rep.Errors))
	}
}

// chattr makes a file or directory immutable (or not): not even root may
// then write to it, which is how a test as root gets a write refused.
func chattr(t *testing.T, flag, path string) {
	t.Helper()
	out, err := exec.Command("chattr", flag, path).CombinedOutput()
	if err != nil {
		if flag == "+i" {
			t.Skipf("cannot make %s immutable (root and chattr are needed): %v: %s", path, err, out)
		}
		t.Errorf("chattr %s %s: %v: %s", flag, path, err, out)
	}
}

func TestAReadOnlyFilePoisonsTheLedger(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "audit")
	file := filepath.Join(dir, "000001.jsonl")
	var l *Ledger
	writes := 0
	l = openLedger(t, dir, Options{beforeWrite: func() {
		writes++
		if writes == 2 {
			// chattr changes the file's status, which the check before a
			// write reports as a change (TestAReplacedFilePoisonsTheLedger);
			// here the write itself is to fail, so the ledger is told.
			chattr(t, "+i", file)
			l.remember()
		}
	}})
	if _, err := l.Append(result(1)); err != nil {
		t.Fatal(err)
	}
	defer chattr(t, "-i", file)
	_, err := l.Append(result(2))
	if err == nil || !strings.Contains(err.Error(), "operation not permitted") {
		t.Fatalf("Append to a read-only file = %v", err)
	}
	want := "an earlier audit write failed; every call is denied until brokerd is restarted; " + runbook.Link(runbook.AuditUnavailable)
	if _, err := l.Append(result(3)); err == nil || err.Error() != want {
		t.Fatalf("a later Append = %v, want %q", err, want)
	}
}

func TestAReadOnlyDirectoryPoisonsTheLedgerWhenItRotates(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "audit")
	l := openLedger(t, dir, Options{MaxFileSize: 1}) // every batch begins a file
	if _, err := l.Append(result(1)); err != nil {
		t.Fatal(err)
	}
	chattr(t, "+i", dir)
	defer chattr(t, "-i", dir)
	_, err := l.Append(result(2))
	if err == nil || !strings.Contains(err.Error(), "000002.jsonl: operation not permitted") {
		t.Fatalf("Append needing a new file in a read-only directory = %v", err)
	}
	want := "an earlier audit write failed; every call is denied until brokerd is restarted; " + runbook.Link(runbook.AuditUnavailable)
	if _, err := l.Append(result(3)); err == nil || err.Error() != want {
		t.Fatalf("a later Append = %v, want %q", err, want)
	}
}

func TestOpenOnAReadOnlyFileSystem(t *testing.T) {
	fs := mountTmpfs(t, "1m")
	if out, err := exec.Command("mount", "-o", "remount,ro", fs).CombinedOutput(); err != nil {
		t.Fatalf("remount read-only: %v: %s", err, out)
	}
	_, err := Open(filepath.Join(fs, "audit"), Options{})
	if e, _ := runbook.EntryOf(err); e != runbook.AuditUnavailable || !strings.Contains(err.Error(), "read-only file system") {
		t.Errorf("Open on a read-only file system = %v, want audit-unavailable", err)
	}
}

func TestATornFirstLineOfANewFileIsRecovered(t *testing.T) {
	dir := fixture(t, 4, 3)
	// brokerd began 000002.jsonl and was killed while writing its first line.
	testsupport.EditFile(t, filepath.Join(dir, "000002.jsonl"), func(b []byte) []byte { return b[:len(b)/2] })
	l := openLedger(t, dir, Options{})
	if r := l.Recovered(); r == nil || r.Position.String() != "000002.jsonl:1" {
		t.Fatalf("Recovered = %+v, want 000002.jsonl:1", r)
	}
	want := []string{"audit: recovered a torn final line; " + runbook.Link(runbook.AuditRecovered)}
	if diff := cmp.Diff(want, l.Notices()); diff != "" {
		t.Errorf("Notices (-want +got):\n%s", diff)
	}
	if seq, err := l.Append(result(5)); err != nil || seq != 5 {
		t.Fatalf("Append = %d, %v; want seq 5 (the recovery took 4)", seq, err)
	}
	l.Close()
	rep := verify(t, dir)
	if !rep.OK() || len(rep.Recoveries) != 1 || rep.Recoveries[0].Position.String() != "000002.jsonl:1" {
		t.Errorf("Verify: errors %v, recoveries %+v", findingStrings(rep.Errors), rep.Recoveries)
	}
	if diff := cmp.Diff([]string{"000001.jsonl: 1 2 3", "000002.jsonl: ? 4(recovery) 5"}, survivors(t, dir)); diff != "" {
		t.Errorf("survivors (-want +got):\n%s", diff)
	}
}

func TestAcceptBreakOnAWholeLogChangesNothing(t *testing.T) {
	dir := fixture(t, 3, 0)
	before := mustRead(t, filepath.Join(dir, "000001.jsonl"))
	l := openLedger(t, dir, Options{AcceptBreak: true})
	if l.AcceptedBreak() != nil || len(l.Notices()) != 0 {
		t.Errorf("a whole log got a break: %+v %q", l.AcceptedBreak(), l.Notices())
	}
	l.Close()
	if !bytes.Equal(before, mustRead(t, filepath.Join(dir, "000001.jsonl"))) {
		t.Error("Open with AcceptBreak changed a whole log")
	}
}

// The attack of issue 9: a call that ran without a result stays
// unfinished when another session later uses the same call id (models
// reuse call_0), and the other session's result closes only its own call.
func TestUnfinishedCallsAreKeyedBySessionAndCallID(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "audit")
	l := openLedger(t, dir, Options{})
	for _, r := range []Record{
		{Type: TypeDecision, Session: "s1", Call: "call_0", Tool: "write_file", Target: "/a", Effect: "allow", ContentSHA256: strings.Repeat("c", 64)},
		{Type: TypeDecision, Session: "s2", Call: "call_0", Tool: "read_file", Target: "/b", Effect: "allow"},
		{Type: TypeResult, Session: "s2", Call: "call_0", Outcome: "ran"},
		{Type: TypeDecision, Session: "s3", Call: "call_0", Tool: "run", Target: "/c", Effect: "ask"},
		{Type: TypeApprovalRequested, Session: "s3", Call: "call_0", Approval: "k7", CallSHA256: strings.Repeat("d", 64), ArgumentsSHA256: strings.Repeat("e", 64)},
		{Type: TypeApprovalAnswered, Session: "s3", Call: "call_0", Approval: "k7", Answer: AnswerApproved},
		{Type: TypeResult, Session: "s1", Call: "call_1", Outcome: "ran"},
		{Type: TypeApprovalRequested, Session: "s4", Call: "call_0", Approval: "k8", CallSHA256: strings.Repeat("f", 64), ArgumentsSHA256: strings.Repeat("a", 64)},
	} {
		if _, err := l.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	rep := verify(t, dir)
	want := []Call{
		{Position: Position{"000001.jsonl", 1}, Session: "s1", Call: "call_0", Tool: "write_file", Target: "/a", ContentSHA256: strings.Repeat("c", 64)},
		{Position: Position{"000001.jsonl", 6}, Session: "s3", Call: "call_0", Tool: "run", Target: "/c"},
	}
	if diff := cmp.Diff(want, rep.Unfinished); diff != "" {
		t.Errorf("unfinished (-want +got):\n%s", diff)
	}
	wantApprovals := []Approval{{Position: Position{"000001.jsonl", 8}, Approval: "k8", Session: "s4", Call: "call_0",
		CallSHA256: strings.Repeat("f", 64), ArgumentsSHA256: strings.Repeat("a", 64)}}
	if diff := cmp.Diff(wantApprovals, rep.Pending); diff != "" {
		t.Errorf("pending (-want +got):\n%s", diff)
	}
}
