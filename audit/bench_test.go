package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"boxmaker/core/testsupport"
)

// benchRecord is a decision as brokerd writes one.
func benchRecord(i int) Record {
	return Record{Type: TypeDecision, Call: fmt.Sprintf("call-%08d", i), Tool: "read_file",
		Target: "/home/owner/src/boxmaker/core/policy/decide.go", Effect: "allow", Grant: "src-read",
		Session: "s-20260918-0001", Taint: "private"}
}

// BenchmarkAppend compares one appender with 64 concurrent ones on the
// real file system of the temporary directory: every record is fsync'd
// before Append returns, and concurrent appenders share the syncs.
//
//	go test -tags '...' -run '^$' -bench 'Append' -benchtime 3s ./audit/
func BenchmarkAppend(b *testing.B) {
	for _, appenders := range []int{1, 64} {
		b.Run(fmt.Sprintf("appenders=%d", appenders), func(b *testing.B) {
			l, err := Open(filepath.Join(b.TempDir(), "audit"), Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			var next atomic.Int64
			var wg sync.WaitGroup
			b.ResetTimer()
			for range appenders {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
						if _, err := l.Append(benchRecord(int(i))); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

// writeBenchLog writes a log of n records in files of 64 MiB, without a
// sync per record (this is the benchmark's input, not what it measures),
// and the heads brokerd would witness, one every DefaultWitnessEvery
// records.
func writeBenchLog(b *testing.B, dir string, n int) (files []string, size int64, heads []Witness) {
	b.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	var (
		f    *os.File
		w    *bufio.Writer
		num  int
		fsz  int64
		hash [32]byte
		line []byte

		fileLines int
	)
	t0 := time.Date(2026, 9, 18, 12, 0, 0, 0, time.UTC)
	closeFile := func() {
		if w != nil {
			if err := w.Flush(); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
	}
	for i := 1; i <= n; i++ {
		if w == nil || fsz >= DefaultMaxFileSize {
			closeFile()
			num++
			path := logPath(dir, num)
			var err error
			if f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err != nil {
				b.Fatal(err)
			}
			w, fsz, fileLines = bufio.NewWriterSize(f, 1<<20), 0, 0
			files = append(files, path)
		}
		r := benchRecord(i)
		if i%2 == 0 {
			r = Record{Type: TypeResult, Call: fmt.Sprintf("call-%08d", i-1), Session: "s-20260918-0001", Outcome: "ran", TaintAfter: "private"}
		}
		r.Seq, r.Prev, r.Time = uint64(i), hashHex(hash), t0.Add(time.Duration(i)*time.Millisecond)
		line = appendLine(line[:0], &r)
		hash = lineHash(line)
		line = append(line, '\n')
		w.Write(line)
		fsz += int64(len(line))
		size += int64(len(line))
		fileLines++
		if i%DefaultWitnessEvery == 0 || i == n {
			heads = append(heads, Witness{Head: Head{Position: Position{File: fileName(num), Line: fileLines}, Seq: uint64(i), SHA256: hashHex(hash)},
				Source: Position{File: "witness", Line: len(heads) + 1}})
		}
	}
	closeFile()
	return files, size, heads
}

// BenchmarkVerify verifies a log of 1,000,000 records with its witnessed
// heads and, as the anchor, times `openssl dgst -sha256` over the same
// files (both read from the page cache). openssl uses the CPU's SHA
// instructions, as Go does; Debian's sha256sum does not.
//
//	go test -tags '...' -run '^$' -bench 'Verify' -benchtime 3x -count 6 ./audit/
func BenchmarkVerify(b *testing.B) {
	const records = 1_000_000
	dir := filepath.Join(b.TempDir(), "audit")
	files, size, heads := writeBenchLog(b, dir, records)

	// openssl runs beside each Verify, so that both see the same load on
	// a shared machine; the first run warms the page cache.
	openssl := func() time.Duration {
		start := time.Now()
		cmd := exec.Command("openssl", append([]string{"dgst", "-sha256"}, files...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("openssl: %v: %s", err, out)
		}
		lastChildCPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		return time.Since(start)
	}
	openssl()

	// CPU time too: on a loaded machine wall-clock time measures the load
	// as much as the work.
	var sslTime, verifyTime, sslCPU, verifyCPU time.Duration
	b.SetBytes(size)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		sslTime += openssl()
		sslCPU += lastChildCPU
		b.StartTimer()
		start, startCPU := time.Now(), testsupport.CPUTime()
		rep, err := VerifyWith(dir, VerifyOptions{Witnesses: heads})
		verifyTime += time.Since(start)
		verifyCPU += testsupport.CPUTime() - startCPU
		if err != nil {
			b.Fatal(err)
		}
		if !rep.OK() || rep.Records != records || rep.Witnessed != len(heads) {
			b.Fatalf("Verify: %d records, errors %v %v", rep.Records, rep.Errors[:min(3, len(rep.Errors))], rep.WitnessErrors[:min(3, len(rep.WitnessErrors))])
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(size)*float64(b.N)/sslTime.Seconds()/1e6, "openssl-MB/s")
	b.ReportMetric(sslTime.Seconds()/verifyTime.Seconds(), "x-openssl")
	b.ReportMetric(sslCPU.Seconds()/verifyCPU.Seconds(), "x-openssl-cpu")
}

// lastChildCPU is the CPU time of the last command sha ran.
var lastChildCPU time.Duration

// BenchmarkParseLine compares the narrow line decoder with encoding/json
// on a decision record.
//
//	go test -tags '...' -run '^$' -bench ParseLine ./audit/
func BenchmarkParseLine(b *testing.B) {
	r := benchRecord(1)
	r.Seq, r.Prev, r.Time = 1, zeroPrev, testTime
	line := appendLine(nil, &r)
	b.Run("narrow", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for range b.N {
			if _, err := ParseLine(line); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for range b.N {
			var r Record
			if err := json.Unmarshal(line, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkLineWork splits what Verify's workers do for each line of a
// chunk of the log (writeBenchLog's records, decisions and results in
// turn) into its two parts, one after the other on one goroutine in each
// iteration: the line's SHA-256 (the floor: the chain is made of the
// lines' hashes) and its decoding with every check of a record
// (parsedLine.decode). It reports the CPU time of each per line and
// decode/hash, their ratio: the cost of parsing against the hash in the
// same run, which the machine's load moves less than wall-clock time.
//
//	go test -tags '...' -run '^$' -bench LineWork -count 10 ./audit/
func BenchmarkLineWork(b *testing.B) {
	var data []byte
	var hash [32]byte
	for i := 1; len(data) < chunkSize; i++ {
		r := benchRecord(i)
		if i%2 == 0 {
			r = Record{Type: TypeResult, Call: fmt.Sprintf("call-%08d", i-1), Session: "s-20260918-0001", Outcome: "ran", TaintAfter: "private"}
		}
		r.Seq, r.Prev, r.Time = uint64(i), hashHex(hash), testTime.Add(time.Duration(i)*time.Millisecond)
		line := appendLine(nil, &r)
		hash = lineHash(line)
		data = append(append(data, line...), '\n')
	}
	var lines [][]byte
	for rest := data; len(rest) > 0; {
		end := bytes.IndexByte(rest, '\n')
		lines = append(lines, rest[:end])
		rest = rest[end+1:]
	}
	str := string(data)
	var p parsedLine
	var minutes minuteCache
	var hashCPU, decodeCPU time.Duration
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		start := testsupport.CPUTime()
		for _, l := range lines {
			p.hash = lineHash(l)
		}
		mid := testsupport.CPUTime()
		off := 0
		for _, l := range lines {
			p.decode(l, str[off:off+len(l)], &minutes)
			if p.err != nil {
				b.Fatal(p.err)
			}
			off += len(l) + 1
		}
		hashCPU, decodeCPU = hashCPU+mid-start, decodeCPU+testsupport.CPUTime()-mid
	}
	n := float64(b.N * len(lines))
	b.ReportMetric(float64(hashCPU.Nanoseconds())/n, "hash-cpu-ns/line")
	b.ReportMetric(float64(decodeCPU.Nanoseconds())/n, "decode-cpu-ns/line")
	b.ReportMetric(decodeCPU.Seconds()/hashCPU.Seconds(), "decode/hash")
}
