package testsupport

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// CPUTime is this process's user and system CPU time so far. On a machine
// whose cores are shared, a benchmark's wall time measures the neighbours
// as much as the code; its CPU time does not.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err) // RUSAGE_SELF with a valid pointer cannot fail
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ReportCPU reports this process's CPU time since start (a CPUTime taken
// before b's loop) per operation, as cpu-ms/op:
//
//	defer testsupport.ReportCPU(b, testsupport.CPUTime())
func ReportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(CPUTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// Throughput runs op in b's loop over size bytes and reports, besides
// b's MB/s, the bytes per second of this process's CPU time (cpu-MB/s,
// over all its goroutines).
func Throughput(b *testing.B, size int64, op func()) {
	b.SetBytes(size)
	cpu0 := CPUTime()
	for b.Loop() {
		op()
	}
	if d := CPUTime() - cpu0; d > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/d.Seconds()/1e6, "cpu-MB/s")
	}
}

// ProcessCPU is another process's own user and system CPU time, and that
// plus its waited-for children's, from /proc/<pid>/stat (in clock ticks
// of 1/100 s). A process it cannot read fails the test.
func ProcessCPU(tb testing.TB, pid int) (own, withChildren time.Duration) {
	tb.Helper()
	own, withChildren, err := processCPU(pid)
	if err != nil {
		tb.Fatal(err)
	}
	return own, withChildren
}

func processCPU(pid int) (own, withChildren time.Duration, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, err
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 15 {
		return 0, 0, fmt.Errorf("/proc/%d/stat: %d fields after the name", pid, len(f))
	}
	var t [4]int
	for i := range t {
		if t[i], err = strconv.Atoi(f[11+i]); err != nil { // utime, stime, cutime, cstime
			return 0, 0, fmt.Errorf("/proc/%d/stat: %v", pid, err)
		}
	}
	const tick = 10 * time.Millisecond
	return time.Duration(t[0]+t[1]) * tick, time.Duration(t[0]+t[1]+t[2]+t[3]) * tick, nil
}
