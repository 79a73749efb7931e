package audit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"boxmaker/core/testsupport"

	"github.com/google/go-cmp/cmp"
)

// eachParsedLine gives the lines eachLine gives, in order, and the same
// tail: across chunk ends, for lines longer than a chunk, empty lines,
// and with or without a torn last line; with one goroutine, two, and
// eight racing to give lines (under -race, two calls of fn at once would
// show).
func TestParsedLinesAreTheLinesInOrder(t *testing.T) {
	for _, procs := range []int{1, 2, 8} {
		t.Run(fmt.Sprintf("procs=%d", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			testParsedLinesAreTheLinesInOrder(t)
		})
	}
}

func testParsedLinesAreTheLinesInOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var b bytes.Buffer
	for i := 0; b.Len() < 5*chunkSize; i++ {
		switch {
		case i == 100:
			b.WriteString(strings.Repeat("x", 2*chunkSize+17) + "\n") // longer than a chunk
		case i%50 == 0:
			b.WriteString("\n")
		default:
			r := result(i)
			r.Seq, r.Prev, r.Time = uint64(i), zeroPrev, testTime
			r.Note = strings.Repeat("n", rng.Intn(600))
			b.Write(append(appendLine(nil, &r), '\n'))
		}
	}
	for _, tail := range []string{"", `{"seq":9,"prev":"0`} {
		data := append(bytes.Clone(b.Bytes()), tail...)
		var want []parsedLine
		wantTail, wantN, err := eachLine(bytes.NewReader(data), func(n int, raw []byte) {
			var p parsedLine
			p.parse(raw)
			want = append(want, p)
		})
		if err != nil {
			t.Fatal(err)
		}
		i, differs := 0, 0
		gotTail, gotN, err := eachParsedLine(bytes.NewReader(data), func(n int, p *parsedLine) {
			// fn runs on eachParsedLine's goroutines, where t.Fatal may not.
			if differs == 0 && (n != i+1 || i >= len(want) || p.hash != want[i].hash || p.length != want[i].length || (p.err == nil) != (want[i].err == nil) || p.rec.Seq != want[i].rec.Seq) {
				differs = n
			}
			i++
		}, nil)
		if differs != 0 {
			t.Fatalf("line %d differs", differs)
		}
		if err != nil || gotN != wantN || i != wantN || string(gotTail) != string(wantTail) || string(gotTail) != tail {
			t.Fatalf("got %d lines, tail %q, %v; want %d, %q", gotN, gotTail, err, wantN, wantTail)
		}
	}
}

// fn runs for one line at a time, in order, however many goroutines parse
// and however long fn takes (it dawdles now and then, so that the other
// goroutines finish chunks while it runs).
func TestFnIsGivenOneLineAtATimeInOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var b bytes.Buffer
	for i := 1; b.Len() < 40*chunkSize; i++ {
		b.WriteString(strings.Repeat("x", i%500) + "\n")
	}
	var inFlight, overlaps, disorders atomic.Int32
	next := 1
	_, n, err := eachParsedLine(bytes.NewReader(b.Bytes()), func(lineNo int, _ *parsedLine) {
		if inFlight.Add(1) != 1 {
			overlaps.Add(1)
		}
		if lineNo != next {
			disorders.Add(1)
		}
		next = lineNo + 1
		if lineNo%97 == 0 {
			time.Sleep(20 * time.Microsecond)
		}
		inFlight.Add(-1)
	}, nil)
	if err != nil || n != strings.Count(b.String(), "\n") {
		t.Fatalf("%d lines, %v", n, err)
	}
	if overlaps.Load() != 0 || disorders.Load() != 0 {
		t.Fatalf("fn ran beside itself %d times and out of order %d times", overlaps.Load(), disorders.Load())
	}
}

// A read that fails ends eachParsedLine with its error, after every line
// of the chunks read before it was given, in order.
func TestAFailedReadEndsTheLinesWithItsError(t *testing.T) {
	var b bytes.Buffer
	for i := 1; b.Len() < 6*chunkSize; i++ {
		r := result(i)
		r.Seq, r.Prev, r.Time = uint64(i), zeroPrev, testTime
		b.Write(append(appendLine(nil, &r), '\n'))
	}
	broken := errors.New("the disk is gone")
	r := io.MultiReader(bytes.NewReader(b.Bytes()), iotest.ErrReader(broken))
	var seqs []uint64
	tail, n, err := eachParsedLine(r, func(_ int, p *parsedLine) { seqs = append(seqs, p.rec.Seq) }, nil)
	if !errors.Is(err, broken) || tail != nil {
		t.Fatalf("eachParsedLine = %q, %d, %v; want the read's error", tail, n, err)
	}
	if n != len(seqs) || n < 3*chunkSize/300 {
		t.Fatalf("%d lines given, %d counted, before the error", len(seqs), n)
	}
	for i, s := range seqs {
		if s != uint64(i+1) {
			t.Fatalf("line %d has seq %d", i+1, s)
		}
	}
}

// Records' strings point into chunks that go back to the pool: whatever the
// report keeps must have been copied. With every released chunk
// overwritten, a log of many chunks with something of every kind to keep
// (unfinished calls, pending approvals with their hashes, a recovery, an
// accepted break and the failures it covers, a broken line, a call's
// records, witnessed heads that do and do not match) gives the same
// report.
func TestNothingOfAReleasedChunkIsKept(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "audit")
	var recs []Record
	var heads []Witness
	for k := 1; k <= 14000; k++ {
		r := Record{Type: TypeDecision, Session: fmt.Sprintf("s-%d", k%7), Call: fmt.Sprintf("call_%d", k), Tool: "write_file",
			Target: fmt.Sprintf("/home/o/src/file-%d.go", k), Effect: EffectAllow, ContentSHA256: strings.Repeat("c", 64), Note: strings.Repeat("n", k%300)}
		switch k % 1000 {
		case 7:
			r.Effect = effectAsk
		case 8:
			r = Record{Type: TypeApprovalRequested, Session: "s-0", Call: fmt.Sprintf("call_%d", k-1), Approval: fmt.Sprintf("a%d", k),
				CallSHA256: strings.Repeat("d", 64), ArgumentsSHA256: strings.Repeat("e", 64)}
		}
		recs = append(recs, r)
		if k%3 != 0 && k%1000 != 7 && k%1000 != 8 && k%5000 != 1 { // most calls finish; some stay unfinished
			recs = append(recs, Record{Type: TypeResult, Session: r.Session, Call: r.Call, Outcome: "ran"})
		}
	}
	// Written as the ledger writes them, without a sync per record.
	os.MkdirAll(dir, 0o700)
	file := filepath.Join(dir, "000001.jsonl")
	var out []byte
	var hash [32]byte
	for i := range recs {
		recs[i].Seq, recs[i].Prev, recs[i].Time = uint64(i+1), hashHex(hash), testTime
		start := len(out)
		out = appendLine(out, &recs[i])
		hash = lineHash(out[start:])
		out = append(out, '\n')
	}
	os.WriteFile(file, out, 0o600)
	// A broken line in the middle, accepted; then a torn line, recovered.
	testsupport.EditFile(t, file, func(b []byte) []byte { return bytes.Replace(b, []byte(`"call_12345"`), []byte(`"call_1234X"`), 1) })
	l := openLedger(t, dir, Options{AcceptBreak: true})
	l.Close()
	f, _ := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"seq":99,"prev":"00`)
	f.Close()
	l = openLedger(t, dir, Options{})
	l.Close()
	data, _ := os.ReadFile(file)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for _, n := range []int{100, 9000, len(lines)} {
		r, _ := ParseLine([]byte(lines[n-1]))
		heads = append(heads, Witness{Head: Head{Position: Position{File: "000001.jsonl", Line: n}, Seq: r.Seq, SHA256: hashHex(lineHash([]byte(lines[n-1])))},
			Source: Position{File: "w", Line: len(heads) + 1}})
	}
	heads[0].SHA256 = strings.Repeat("f", 64) // one that does not match
	opts := VerifyOptions{Witnesses: heads, Session: "s-0", Call: "call_7007"}
	want, err := VerifyWith(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Unfinished) < 100 || len(want.Pending) == 0 || len(want.Breaks) != 1 || len(want.Recoveries) != 1 ||
		len(want.WitnessErrors) != 1 || len(want.CallRecords) != 2 || want.Files != 1 || want.Bytes < 3*chunkSize {
		t.Fatalf("the log lacks something to keep: %d unfinished, %d pending, %d breaks, %d recoveries, %d witness errors, %d call records, %d bytes",
			len(want.Unfinished), len(want.Pending), len(want.Breaks), len(want.Recoveries), len(want.WitnessErrors), len(want.CallRecords), want.Bytes)
	}
	poisonReleased = true
	defer func() { poisonReleased = false }()
	got, err := VerifyWith(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the report changed when released chunks were overwritten (-clean +poisoned):\n%s", diff)
	}
}

// The chain compares a record's prev as the bytes it spells (decoded on
// the worker goroutines), not as text: a change of any one of its 64
// digits is still found, and the right hash spelt in upper case is not a
// record, as before.
func TestEveryDigitOfPrevIsChecked(t *testing.T) {
	var lines [][]byte
	var hash [32]byte
	for i := 1; i <= 3; i++ {
		r := result(i)
		r.Seq, r.Prev, r.Time = uint64(i), hashHex(hash), testTime
		line := appendLine(nil, &r)
		hash = lineHash(line)
		lines = append(lines, line)
	}
	verifyWith := func(second string) []string {
		t.Helper()
		dir := t.TempDir()
		data := string(lines[0]) + "\n" + second + "\n" + string(lines[2]) + "\n"
		if err := os.WriteFile(filepath.Join(dir, "000001.jsonl"), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		rep, err := Verify(dir)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range rep.Errors {
			got = append(got, f.String())
		}
		return got
	}
	if got := verifyWith(string(lines[1])); len(got) != 0 {
		t.Fatalf("the whole chain: %v", got)
	}
	prev := hashHex(lineHash(lines[0]))
	const field = `"prev":"`
	at := strings.Index(string(lines[1]), field) + len(field)
	for i := range 64 {
		digit := "0123456789abcdef"[(strings.IndexByte("0123456789abcdef", prev[i])+1)%16]
		second := string(lines[1][:at+i]) + string(digit) + string(lines[1][at+i+1:])
		want := []string{"000001.jsonl:2: prev is not the hash of 000001.jsonl:1", "000001.jsonl:3: prev is not the hash of 000001.jsonl:2"}
		if diff := cmp.Diff(want, verifyWith(second)); diff != "" {
			t.Errorf("digit %d of prev changed (-want +got):\n%s", i, diff)
		}
	}
	upper := string(lines[1][:at]) + strings.ToUpper(prev) + string(lines[1][at+64:])
	want := []string{"000001.jsonl:2: not a record: prev is not 64 lower-case hex digits", "000001.jsonl:3: prev is not the hash of 000001.jsonl:2"}
	if diff := cmp.Diff(want, verifyWith(upper)); diff != "" {
		t.Errorf("prev in upper case (-want +got):\n%s", diff)
	}
}
