package inferproxy

import (
	"errors"
	"net"
	"net/http"
	"os"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"boxmaker/core/testsupport"
	"boxmaker/runbook"
)

// failingListener fails Accept with its errors in turn.
type failingListener struct {
	net.Listener
	errs []error
}

func (l *failingListener) Accept() (net.Conn, error) {
	err := l.errs[0]
	l.errs = l.errs[1:]
	return nil, err
}

func acceptErr(errno syscall.Errno) error {
	return &net.OpError{Op: "accept", Net: "unix", Err: os.NewSyscallError("accept4", errno)}
}

// TestAcceptRidesOutAShortage: EMFILE is retried and said once, in
// listener-lost's line; another failure is returned; a closed proxy's
// listener says http.ErrServerClosed.
func TestAcceptRidesOutAShortage(t *testing.T) {
	log := &testsupport.Buffer{}
	gone := errors.New("the listener is gone")
	l := &guardedListener{Listener: &failingListener{errs: []error{acceptErr(unix.EMFILE), acceptErr(unix.EMFILE), gone}},
		log: log, done: make(chan struct{})}
	if _, err := l.Accept(); err != gone {
		t.Errorf("Accept after two EMFILE and another failure = %v, want %v", err, gone)
	}
	want := "inferproxy: cannot accept on accept-infer for now, retrying: too many open files; " + runbook.Link(runbook.ListenerLost) + "\n"
	if log.String() != want {
		t.Errorf("log %q, want it once: %q", log.String(), want)
	}
	close(l.done)
	l.Listener = &failingListener{errs: []error{net.ErrClosed}}
	if _, err := l.Accept(); err != http.ErrServerClosed {
		t.Errorf("Accept once closed = %v, want http.ErrServerClosed", err)
	}
}
