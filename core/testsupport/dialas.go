package testsupport

import (
	"net"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// DialAs connects to the unix socket at path with the effective uid set
// to uid on one OS thread, keeping root's file system access (fsuid 0),
// so that the connection reaches a daemon through its 0700 directory
// while SO_PEERCRED reports uid. The thread is thrown away afterwards.
// It needs root.
func DialAs(uid int, path string) (net.Conn, error) {
	type result struct {
		c   net.Conn
		err error
	}
	ch := make(chan result)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread dies with the goroutine
		if _, _, e := unix.RawSyscall(unix.SYS_SETRESUID, ^uintptr(0), uintptr(uid), ^uintptr(0)); e != 0 {
			ch <- result{nil, e}
			return
		}
		unix.RawSyscall(unix.SYS_SETFSUID, 0, 0, 0)
		c, err := net.Dial("unix", path)
		ch <- result{c, err}
	}()
	r := <-ch
	return r.c, r.err
}

// Dial connects to the unix socket at path for a raw exchange of the
// test's own (a request line written by hand): the test fails when it
// cannot, the connection is closed when the test ends, and every read and
// write on it must be done within 10 s.
func Dial(tb testing.TB, path string) net.Conn {
	tb.Helper()
	c, err := net.Dial("unix", path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	return c
}
