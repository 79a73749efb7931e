package testsupport

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"boxmaker/core/role"
)

// HangWatchdog, started by a TestMain after flag.Parse, ends a test
// binary that is about to reach its -test.timeout a little before it,
// having printed a short account of the hang: the tests' goroutines
// where they wait, and the machine's Podman, conmon, runc and boxmaker
// processes with their state and what they wait in. Go's own timeout
// prints every goroutine first and the tests running at the top, and a
// CI that keeps only the end of the output shows neither; this account
// is the last thing printed. A timeout under ten minutes (or none) is
// left to Go.
func HangWatchdog(name string) {
	f := flag.Lookup("test.timeout")
	if f == nil {
		return
	}
	d, err := time.ParseDuration(f.Value.String())
	if err != nil || d < 10*time.Minute {
		return
	}
	watch(d-2*time.Minute, os.Stderr, name, os.Exit)
}

// watch writes the account to w after the time given and then exits
// (with 3).
func watch(after time.Duration, w io.Writer, name string, exit func(int)) {
	time.AfterFunc(after, func() {
		hangAccount(w, name, after)
		exit(3)
	})
}

// watched are the programs whose processes the account lists: Podman's,
// the binary's under any of its roles', and test binaries.
var watched = append([]string{"podman", "conmon", "runc", "boxmaker", ".test"}, role.Names(role.All())...)

// hangAccount writes the account HangWatchdog prints.
func hangAccount(w io.Writer, name string, after time.Duration) {
	fmt.Fprintf(w, "\n=== %s: still running after %s, 2 minutes before -test.timeout: where it waits\n", name, after)
	buf := make([]byte, 8<<20)
	buf = buf[:runtime.Stack(buf, true)]
	lines := 0
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		s := string(g)
		// A test's own goroutine, not one waiting for its subtests.
		if !strings.Contains(s, "testing.tRunner(") || strings.Contains(s, "testing.(*T).Run(") {
			continue
		}
		for i, l := range strings.Split(s, "\n") {
			if i >= 24 || lines >= 200 {
				break
			}
			fmt.Fprintln(w, l)
			lines++
		}
		fmt.Fprintln(w)
	}
	out, _ := exec.Command("ps", "-eo", "pid,ppid,stat,etimes,wchan:28,args", "--sort=start_time").Output()
	fmt.Fprintln(w, "=== processes of Podman, conmon, runc and boxmaker's roles (pid ppid state seconds wait command)")
	n := 0
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if n >= 80 || len(f) < 6 || !containsAny(f[5], watched...) {
			continue
		}
		if len(l) > 300 {
			l = l[:300] + "..."
		}
		fmt.Fprintln(w, strings.TrimRight(l, " "))
		n++
	}
	fmt.Fprintf(w, "=== %s: ended by its hang watchdog (testsupport.HangWatchdog)\n", name)
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
