package loop

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"boxmaker/core/atomicfile"
	"boxmaker/core/loopwire"
	"boxmaker/core/sessionid"
	"boxmaker/core/sessionlog"
)

// ValidSessionID reports whether id may name a session.
func ValidSessionID(id string) bool { return sessionid.Valid(id) }

// Log is one session's log file of one epoch, opened for appending.
type Log struct {
	Path    string
	Session string
	Epoch   int
	next    int // the seq of the next record
	size    int64
}

// LogPath is where a session's epoch lives under the sessions directory.
func LogPath(sessionsDir, id string, epoch int) string {
	return filepath.Join(sessionsDir, id, sessionlog.FileName(epoch))
}

// LatestEpoch finds the highest epoch of a session; ok is false when the
// session has no log at all.
func LatestEpoch(sessionsDir, id string) (epoch int, ok bool, err error) {
	entries, err := os.ReadDir(filepath.Join(sessionsDir, id))
	if errors.Is(err, os.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	for _, e := range entries {
		n, isLog := sessionlog.Epoch(e.Name())
		if !isLog {
			continue
		}
		if !ok || int(n) > epoch {
			epoch, ok = int(n), true
		}
	}
	return epoch, ok, nil
}

// OpenLog reads a session's latest epoch and returns its records and the
// log, ready to append. A damaged line is a *DamageError.
func OpenLog(sessionsDir, id string) (*Log, []Record, error) {
	epoch, ok, err := LatestEpoch(sessionsDir, id)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, fmt.Errorf("session %s has no log in %s: %w", id, filepath.Join(sessionsDir, id), fs.ErrNotExist)
	}
	path := LogPath(sessionsDir, id, epoch)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	recs, err := ParseLog(path, data)
	if err != nil {
		return nil, nil, err
	}
	return &Log{Path: path, Session: id, Epoch: epoch, next: len(recs) + 1, size: int64(len(data))}, recs, nil
}

// CreateLog makes a new session's directory and its epoch 0 log, empty.
// It refuses a session that exists.
func CreateLog(sessionsDir, id string) (*Log, error) {
	return createLog(sessionsDir, id, 0, nil, 0, true)
}

// CreateLogFrom makes a new session whose epoch 0 log starts with data,
// the first n records of another session's log, byte for byte (a fork):
// its next record is n+1.
func CreateLogFrom(sessionsDir, id string, data []byte, n int) (*Log, error) {
	return createLog(sessionsDir, id, 0, data, n, true)
}

// CreateEpoch makes the next epoch of a session that exists, empty: its
// first record will be a baseline of its own (a compaction).
func CreateEpoch(sessionsDir, id string, epoch int) (*Log, error) {
	return createLog(sessionsDir, id, epoch, nil, 0, false)
}

func createLog(sessionsDir, id string, epoch int, data []byte, n int, newSession bool) (*Log, error) {
	if !ValidSessionID(id) {
		return nil, fmt.Errorf("%q is not a session id ([a-z0-9-]{1,64})", id)
	}
	dir := filepath.Join(sessionsDir, id)
	if newSession {
		if err := os.MkdirAll(sessionsDir, 0o700); err != nil {
			return nil, err
		}
		if err := os.Mkdir(dir, 0o700); err != nil {
			return nil, err
		}
	}
	path := LogPath(sessionsDir, id, epoch)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	if err := atomicfile.SyncDir(dir); err != nil {
		return nil, err
	}
	return &Log{Path: path, Session: id, Epoch: epoch, next: n + 1, size: int64(len(data))}, nil
}

// Append numbers the records, writes them in one write and syncs the
// file: when it returns nil they are on disk. The records' Seq fields are
// set.
func (l *Log) Append(recs ...*Record) error {
	var buf bytes.Buffer
	for i, r := range recs {
		r.Seq = l.next + i
		line, err := r.Encode()
		if err != nil {
			return err
		}
		buf.Write(line)
	}
	f, err := os.OpenFile(l.Path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		return fmt.Errorf("cannot append to %s: %w", l.Path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("cannot sync %s: %w", l.Path, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	l.next += len(recs)
	l.size += int64(buf.Len())
	return nil
}

// Next is the seq the next record will have.
func (l *Log) Next() int { return l.next }

// Size is the file's length as this Log last wrote or read it.
func (l *Log) Size() int64 { return l.size }

// At is the log as it stands on disk: its length and SHA-256.
func (l *Log) At() (loopwire.SessionAt, error) {
	data, err := os.ReadFile(l.Path)
	if err != nil {
		return loopwire.SessionAt{}, err
	}
	return SessionAtOf(l.Session, l.Epoch, data), nil
}

// SessionAtOf is the boundary of a log whose bytes are data.
func SessionAtOf(id string, epoch int, data []byte) loopwire.SessionAt {
	sum := sha256.Sum256(data)
	return loopwire.SessionAt{ID: id, Epoch: epoch, Bytes: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}
}
