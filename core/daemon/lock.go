// Package daemon is the plumbing every Boxmaker daemon shares: the
// single-instance lock, socket preparation, the listener that survives
// transient accept failures, one JSON request and answer per connection
// with the peer's uid checked, and the readiness notification.
//
// Nothing here parses flags, reads the environment or exits: the role
// packages pass in names, paths and writers.
package daemon

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"boxmaker/runbook"
)

// Lock is an exclusive flock held for as long as the daemon runs. The
// kernel releases it when the process ends, however it ends, so a killed
// daemon never leaves a lock behind; the file stays and holds nothing.
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
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, runbook.Refuse(runbook.AlreadyRunning, "cannot take the lock %s: %v", path, unwrapPathError(err))
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if err == unix.EWOULDBLOCK {
			return nil, runbook.Refuse(runbook.AlreadyRunning, "another %s is running (it holds %s)", role, path)
		}
		return nil, runbook.Refuse(runbook.AlreadyRunning, "cannot take the lock %s: %v", path, err)
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

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
