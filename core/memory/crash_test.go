package memory

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const crashChildEnv = "BOXMAKER_MEMORY_CRASH_CHILD"

// TestCrashChild is the writer the crash test kills: run by the parent as
// a child process with crashChildEnv naming the memory directory, it writes
// batches forever and prints "ack N" after each one is acknowledged.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv(crashChildEnv)
	if dir == "" {
		return // only as the crash test's child
	}
	s, err := Open(dir, Options{})
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(3)
	}
	for i := 1; ; i++ {
		acts := []Action{add("memory", fmt.Sprintf("m-%d", i)), add("user", fmt.Sprintf("u-%d", i)),
			{Action: "note", Text: fmt.Sprintf("n-%d\nsecond line", i)}}
		if i > 3 {
			acts = append(acts, Action{Action: "remove", File: "memory", Old: fmt.Sprintf("m-%d", i-3)},
				Action{Action: "remove", File: "user", Old: fmt.Sprintf("u-%d", i-3)})
		}
		r, err := s.Write(Call{Session: "crash", Class: "public", Actions: acts})
		if err != nil || r.Outcome != Updated {
			fmt.Println("write:", err, r.Answer)
			os.Exit(3)
		}
		os.Stdout.WriteString("ack " + strconv.Itoa(i) + "\n")
	}
}

var numRE = regexp.MustCompile(`^[mun]-(\d+)`)

func numbers(t *testing.T, texts []string) []int {
	var out []int
	for _, s := range texts {
		m := numRE.FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("unexpected text %q", s)
		}
		n, _ := strconv.Atoi(m[1])
		out = append(out, n)
	}
	return out
}

// TestCrashLosesNoAcknowledgedWrite kills a writing process with SIGKILL at
// random moments and checks, after reopening, that every acknowledged
// batch is there whole, that at most the one unacknowledged batch after
// it was applied (whole, across all three files), and that every file
// parses.
func TestCrashLosesNoAcknowledgedWrite(t *testing.T) {
	rounds := 12
	for round := 0; round < rounds; round++ {
		dir := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		acked := 0
		killAfter := 3 + rand.IntN(30)
		sc := bufio.NewScanner(out)
		var other []string
		for sc.Scan() {
			if n, ok := strings.CutPrefix(sc.Text(), "ack "); ok {
				acked, _ = strconv.Atoi(n)
				if acked == killAfter {
					time.Sleep(time.Duration(rand.IntN(4000)) * time.Microsecond)
					cmd.Process.Signal(syscall.SIGKILL)
				}
			} else {
				other = append(other, sc.Text())
			}
		}
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("round %d: child ended without being killed: %v %v", round, err, other)
		}

		s, err := Open(dir, Options{})
		if err != nil {
			t.Fatalf("round %d: reopen after the crash: %v", round, err)
		}
		mem := numbers(t, ParseEntries(readFile(t, s, MemoryFile)))
		usr := numbers(t, ParseEntries(readFile(t, s, UserFile)))
		var noteTexts []string
		for _, n := range ParseNotes(readFile(t, s, NotesFile)) {
			if n.Session != "crash" || n.Untrusted || !strings.HasSuffix(n.Text, "\nsecond line") {
				t.Fatalf("round %d: damaged note %#v", round, n)
			}
			noteTexts = append(noteTexts, n.Text)
		}
		notes := numbers(t, noteTexts)
		last := len(notes)
		if last != acked && last != acked+1 {
			t.Fatalf("round %d: %d batches acknowledged, %d notes found", round, acked, last)
		}
		for i, n := range notes {
			if n != i+1 {
				t.Fatalf("round %d: notes %v are not 1..%d", round, notes, last)
			}
		}
		var want []int
		for i := max(1, last-2); i <= last; i++ {
			want = append(want, i)
		}
		if fmt.Sprint(mem) != fmt.Sprint(want) || fmt.Sprint(usr) != fmt.Sprint(want) {
			t.Fatalf("round %d: after %d notes memory.md has %v and user.md %v, want %v", round, last, mem, usr, want)
		}
		log, err := s.Log()
		if err != nil {
			t.Fatalf("round %d: journal: %v", round, err)
		}
		if len(log) != last {
			t.Fatalf("round %d: %d journal lines for %d batches", round, len(log), last)
		}
		s.Close()
	}
}
