package testsupport

import (
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

func TestStaticBinaryIsStaticAndBuiltOnce(t *testing.T) {
	exe, err := StaticBinary()
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("%s has a program interpreter: not static", exe)
		}
	}
	out, err := exec.Command(exe, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "boxmaker dev ") {
		t.Errorf("%s version = %q, %v; want boxmaker dev ...", exe, out, err)
	}
	// Another process of the same run finds the same file: the key is the
	// sources', not the process's.
	staticMu.Lock()
	delete(staticBuilt, "dev")
	staticMu.Unlock()
	again, err := StaticBinary()
	if err != nil || again != exe {
		t.Errorf("StaticBinary again = %q, %v; want %q", again, err, exe)
	}
}

func TestProcessCPUReadsAProcess(t *testing.T) {
	own, all := ProcessCPU(t, os.Getpid())
	if own <= 0 || all < own {
		t.Errorf("ProcessCPU(self) = %v, %v", own, all)
	}
	if CPUTime() <= 0 {
		t.Error("CPUTime() is 0")
	}
}

func TestExitCodeIsTheStatusOfACommandThatRan(t *testing.T) {
	for _, tt := range []struct {
		cmd  *exec.Cmd
		want int
	}{
		{exec.Command("true"), 0},
		{exec.Command("sh", "-c", "exit 3"), 3},
		{exec.Command("sh", "-c", "kill -9 $$"), -1},
	} {
		if got, err := ExitCode(tt.cmd.Run()); got != tt.want || err != nil {
			t.Errorf("%v: ExitCode = %d, %v; want %d", tt.cmd.Args, got, err, tt.want)
		}
	}
	if _, err := ExitCode(exec.Command("/nonexistent/prog").Run()); err == nil {
		t.Error("a command that did not run has an exit status")
	}
}

func TestBufferTakesConcurrentWriters(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				b.Write([]byte("x"))
			}
		}()
	}
	wg.Wait()
	if n := len(b.String()); n != 800 {
		t.Errorf("len = %d, want 800", n)
	}
}

func TestShortDirIsShort(t *testing.T) {
	d := ShortDir(t)
	if len(d) > 20 {
		t.Errorf("ShortDir = %q: %d bytes", d, len(d))
	}
}

// errorsOf records what a helper reports instead of failing the test.
type errorsOf struct {
	testing.TB
	errs []string
}

func (e *errorsOf) Helper() {}
func (e *errorsOf) Errorf(format string, args ...any) {
	e.errs = append(e.errs, fmt.Sprintf(format, args...))
}

func TestContainsAllReportsEachMissingPart(t *testing.T) {
	rec := &errorsOf{TB: t}
	ContainsAll(rec, "the answer", "alpha beta", "alpha", "gamma", "beta", "delta")
	want := []string{"the answer lacks \"gamma\":\nalpha beta", "the answer lacks \"delta\":\nalpha beta"}
	if strings.Join(rec.errs, "|") != strings.Join(want, "|") {
		t.Errorf("reported %q, want %q", rec.errs, want)
	}
}
