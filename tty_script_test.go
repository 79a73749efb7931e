package main

// ttyscript: a program on a real pseudo-terminal (standard input, output
// and error, and its controlling terminal), driven step by step as a
// person at the keyboard would, so that a Ctrl-C reaches it as the
// terminal delivers it (SIGINT, or a line's end where the program set
// the terminal so) while it is busy. testscript's own ttyin writes all
// its input at once, before the program is ready.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"
)

// ttyscript N STEPS prog args...: runs prog on a new terminal, plays the
// file STEPS, and requires exit status N. Each line of STEPS is
//
//	send "TEXT"     types TEXT (a Go string: "\n" is Enter, "\x03" Ctrl-C, "\x04" Ctrl-D)
//	expect REGEXP   waits up to 20 s until the output since the last expect matches
//
// (blank lines and # comments are skipped). Afterwards stdout is all the
// terminal showed, with \r\n as \n; stderr is empty.
func cmdTTYScript(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: ttyscript N STEPS prog [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("ttyscript: %v", err)
	}
	prog := lookPathIn(ts.Getenv("PATH"), args[2])
	if prog == "" {
		ts.Fatalf("ttyscript: %s is not on PATH", args[2])
	}
	master, tty, err := openPTY()
	if err != nil {
		ts.Fatalf("ttyscript: %v", err)
	}
	defer master.Close()
	cmd := exec.Command(prog, args[3:]...)
	cmd.Args[0] = args[2]
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = append(os.Environ(), "TERM=xterm")
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "BOXMAKER_HOME", "WORK"} {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		ts.Fatalf("ttyscript: %v", err)
	}
	tty.Close()

	var mu sync.Mutex
	var screen strings.Builder
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	shown := func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.ReplaceAll(screen.String(), "\r\n", "\n")
	}
	fail := func(format string, a ...any) {
		cmd.Process.Kill()
		cmd.Wait()
		ts.Fatalf("ttyscript: %s\nthe terminal showed:\n%s", fmt.Sprintf(format, a...), shown())
	}
	from := 0
	for i, line := range strings.Split(ts.ReadFile(args[1]), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		verb, arg, _ := strings.Cut(line, " ")
		switch verb {
		case "send":
			text, err := strconv.Unquote(arg)
			if err != nil {
				fail("%s:%d: send takes a quoted Go string: %v", args[1], i+1, err)
			}
			if _, err := master.Write([]byte(text)); err != nil {
				fail("%s:%d: %v", args[1], i+1, err)
			}
		case "expect":
			re, err := regexp.Compile(arg)
			if err != nil {
				fail("%s:%d: %v", args[1], i+1, err)
			}
			deadline := time.Now().Add(20 * time.Second)
			for {
				s := shown()
				if loc := re.FindStringIndex(s[from:]); loc != nil {
					from += loc[1]
					break
				}
				if time.Now().After(deadline) {
					fail("%s:%d: no %q within 20s", args[1], i+1, arg)
				}
				time.Sleep(10 * time.Millisecond)
			}
		default:
			fail("%s:%d: unknown step %q", args[1], i+1, verb)
		}
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-exited:
	case <-time.After(20 * time.Second):
		fail("%s did not exit within 20s of the last step", args[2])
	}
	<-readDone
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(werr, &ee):
		got = ee.ExitCode()
	case werr != nil:
		ts.Fatalf("ttyscript: %v", werr)
	}
	fmt.Fprint(ts.Stdout(), shown())
	if got != want {
		ts.Fatalf("ttyscript: %s exited %d, want %d\nthe terminal showed:\n%s", args[2], got, want, shown())
	}
}

// openPTY opens a new pseudo-terminal pair: the master, and the terminal.
func openPTY() (master, tty *os.File, err error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	var unlock int32
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, m.Fd(), unix.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		m.Close()
		return nil, nil, e
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	t, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	return m, t, nil
}

// lookPathIn finds an executable named name in the directories of path.
func lookPathIn(path, name string) string {
	if strings.Contains(name, "/") {
		return name
	}
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}
