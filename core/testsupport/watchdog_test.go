package testsupport

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTheHangAccountNamesTheWaitingTestAndPodman: the account names the
// test that waits, where, and a Podman process running beside it.
func TestTheHangAccountNamesTheWaitingTestAndPodman(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	stand := filepath.Join(t.TempDir(), "podman-stand-for-the-account")
	if err := os.Symlink(sleep, stand); err != nil {
		t.Fatal(err)
	}
	p := exec.Command(stand, "30")
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { p.Process.Kill(); p.Wait() }()
	var b strings.Builder
	hangAccount(&b, "boxmaker/core/testsupport", 38*time.Minute)
	got := b.String()
	for _, want := range []string{
		"still running after 38m0s",
		"TestTheHangAccountNamesTheWaitingTestAndPodman",
		"watchdog_test.go:",
		"podman-stand-for-the-account",
		"ended by its hang watchdog",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the account lacks %q:\n%s", want, got)
		}
	}
}

// TestTheWatchdogWritesTheAccountThenEnds: at its time the watchdog
// writes the account and only then ends the binary, with 3.
func TestTheWatchdogWritesTheAccountThenEnds(t *testing.T) {
	var b strings.Builder
	ended := make(chan int, 1)
	watch(50*time.Millisecond, &b, "boxmaker/core/testsupport", func(code int) { ended <- code })
	select {
	case code := <-ended:
		if code != 3 || !strings.Contains(b.String(), "ended by its hang watchdog") {
			t.Errorf("the watchdog ended with %d after writing:\n%s", code, b.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("the watchdog never ended the binary")
	}
}
