package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
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
// sync per record (this is the benchmark's input, not what it measures).
func writeBenchLog(b *testing.B, dir string, n int) (files []string, size int64) {
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
			w, fsz = bufio.NewWriterSize(f, 1<<20), 0
			files = append(files, path)
		}
		r := benchRecord(i)
		if i%2 == 0 {
			r = Record{Type: TypeResult, Call: fmt.Sprintf("call-%08d", i-1), Outcome: "ran", TaintAfter: "private"}
		}
		r.Seq, r.Prev, r.Time = uint64(i), hashHex(hash), t0.Add(time.Duration(i)*time.Millisecond)
		line = appendLine(line[:0], &r)
		hash = lineHash(line)
		line = append(line, '\n')
		w.Write(line)
		fsz += int64(len(line))
		size += int64(len(line))
	}
	closeFile()
	return files, size
}

// BenchmarkVerify verifies a log of 1,000,000 records and, for scale,
// times sha256sum over the same files (both read from the page cache).
//
//	go test -tags '...' -run '^$' -bench 'Verify' -benchtime 3x ./audit/
func BenchmarkVerify(b *testing.B) {
	const records = 1_000_000
	dir := filepath.Join(b.TempDir(), "audit")
	files, size := writeBenchLog(b, dir, records)

	// sha256sum runs beside each Verify, so that both see the same load
	// on a shared machine; the first run warms the page cache.
	sha := func() time.Duration {
		start := time.Now()
		cmd := exec.Command("sha256sum", files...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("sha256sum: %v: %s", err, out)
		}
		lastChildCPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		return time.Since(start)
	}
	sha()

	// CPU time too: on a loaded machine wall-clock time measures the load
	// as much as the work.
	var shaTime, verifyTime, shaCPU, verifyCPU time.Duration
	b.SetBytes(size)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		shaTime += sha()
		shaCPU += lastChildCPU
		b.StartTimer()
		start, startCPU := time.Now(), selfCPU(b)
		rep, err := Verify(dir)
		verifyTime += time.Since(start)
		verifyCPU += selfCPU(b) - startCPU
		if err != nil {
			b.Fatal(err)
		}
		if !rep.OK() || rep.Records != records {
			b.Fatalf("Verify: %d records, errors %v", rep.Records, rep.Errors[:min(3, len(rep.Errors))])
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(size)*float64(b.N)/shaTime.Seconds()/1e6, "sha256sum-MB/s")
	b.ReportMetric(shaTime.Seconds()/verifyTime.Seconds(), "x-sha256sum")
	b.ReportMetric(shaCPU.Seconds()/verifyCPU.Seconds(), "x-sha256sum-cpu")
}

// lastChildCPU is the CPU time of the last command sha ran.
var lastChildCPU time.Duration

func selfCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

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
