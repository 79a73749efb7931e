// Package daemon is the plumbing every Boxmaker daemon shares: the
// single-instance lock, socket preparation, the listener that survives
// transient accept failures, one JSON request and answer per connection
// with the peer's uid checked, the one strict reading of a request's body
// (DecodeBody), and the readiness notification.
//
// Nothing here parses flags, reads the environment or exits: the role
// packages pass in names, paths and writers.
package daemon

import (
	"errors"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"boxmaker/core/patherror"
	"boxmaker/runbook"
)

// Lock is an exclusive flock held for as long as the daemon runs. The
// kernel releases it when the process ends, however it ends, so a killed
// daemon never leaves a lock behind; the file stays and holds nothing.
// The lock is on the open file, and a child the daemon has forked holds a
// copy of it until the child execs or exits (close-on-exec closes it only
// at exec): after a kill of the daemon and its children, the lock is free
// once all of them are gone, as systemd waits for before a restart
// (docs/decisions-archive.md, D696).
type Lock struct {
	Path string
	f    *os.File
}

// TakeLock takes the exclusive lock at path for role, creating the file
// (0600) and its directory (0700) when missing. It never waits: a lock held
// by another process is the already-running refusal.
func TakeLock(role, path string) (*Lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, runbook.Refuse(runbook.AlreadyRunning, "cannot take the lock %s: %v", path, err)
	}
	l, err := Flock(path)
	switch {
	case errors.Is(err, ErrHeld):
		return nil, runbook.Refuse(runbook.AlreadyRunning, "another %s is running (it holds %s)", role, path)
	case err != nil:
		return nil, runbook.Refuse(runbook.AlreadyRunning, "cannot take the lock %s: %v", path, patherror.Reason(err))
	}
	return l, nil
}

// ErrHeld is a lock another process holds.
var ErrHeld = errors.New("the lock is held by another process")

// Flock takes the exclusive lock at path, creating the file (0600) but not
// its directory, without waiting: ErrHeld when another process holds it.
// It is the one lock of the code base: the daemons' single-instance locks
// (TakeLock) and the audit log's writer lock are both taken here.
func Flock(path string) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, ErrHeld
		}
		return nil, err
	}
	return &Lock{Path: path, f: f}, nil
}

// Release lets the lock go. Exiting does the same.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
