package yaagwire

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/sys/unix"

	"boxmaker/core/atomicfile"
	"boxmaker/core/role"
	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const (
	textNoRun        runbook.Quoted = "No Run with id"
	textAlreadyEnded runbook.Quoted = "already ended."
)

// Record statuses; StatusLost is shown for a running record whose
// process is gone (nobody holds its lock).
const (
	StatusRunning   = "running"
	StatusCompleted = EndCompleted
	StatusFailed    = EndFailed
	StatusStopped   = EndStopped
	StatusPaused    = EndPaused
	StatusLost      = "lost"
)

// Record is what is known of one Run.
type Record struct {
	ID          string     `json:"id"`
	Status      string     `json:"status"`
	PID         int        `json:"pid"`
	StartedAt   string     `json:"startedAt"`
	EndedAt     string     `json:"endedAt,omitempty"`
	Program     string     `json:"program"`
	Profile     string     `json:"profile,omitempty"`
	Mode        string     `json:"mode"` // live, replay, resume
	Cassette    string     `json:"cassette,omitempty"`
	Checkpoint  string     `json:"checkpoint,omitempty"`
	Control     string     `json:"control,omitempty"`
	Events      string     `json:"events"`
	Host        string     `json:"host,omitempty"`
	ResumedFrom string     `json:"resumedFrom,omitempty"` // the document it continued
	Predecessor string     `json:"predecessor,omitempty"` // that document's Run
	ResumedBy   string     `json:"resumedBy,omitempty"`
	Agents      []AgentRef `json:"agents"`
	Questions   []Question `json:"questions,omitempty"`
	// Identity is cassette.Identity of the document the Run published
	// to be continued (stopped, paused, failed): a resume must present
	// that document. Answers are the person's answers to its questions,
	// given with yaag answer.
	Identity string            `json:"identity,omitempty"`
	Answers  map[string]string `json:"answers,omitempty"`
	Result   json.RawMessage   `json:"result,omitempty"`
	Error    string            `json:"error,omitempty"`
}

// AgentRef is one Agent of a Run and its session.
type AgentRef struct {
	Agent      string `json:"agent"`
	Definition string `json:"definition"`
	Session    string `json:"session,omitempty"`
}

// Ended reports whether the record says the Run is over.
func (r Record) Ended() bool { return r.Status != StatusRunning && r.Status != StatusLost }

// Store is the Runs of one Boxmaker home.
type Store struct{ Home string }

// Dir is where the records are.
func (s Store) Dir() string { return filepath.Join(s.Home, role.Yaag.String(), "runs") }

// Path is a Run's record.
func (s Store) Path(id string) string { return filepath.Join(s.Dir(), id+".json") }

// EventsPath is a Run's events.
func (s Store) EventsPath(id string) string { return filepath.Join(s.Dir(), id+".events.jsonl") }

// CassettePath is where a Run that was given no --record publishes.
func (s Store) CassettePath(id string) string { return filepath.Join(s.Dir(), id+".cassette.json") }

// ControlDir is a Run's Control Channel's directory.
func (s Store) ControlDir(id string) string { return filepath.Join(s.ControlDirs(), id) }

// ControlDirs is the directory of every Run's control directory.
func (s Store) ControlDirs() string { return filepath.Join(s.Home, "run", role.Yaag.String()) }

// SocketPath is a Run's Control Channel.
func (s Store) SocketPath(id string) string { return filepath.Join(s.ControlDir(id), "control.sock") }

// LockPath is the lock a Run's process holds while it lives.
func (s Store) LockPath(id string) string { return filepath.Join(s.ControlDir(id), "run.lock") }

// BoxDir is where a Run that brokerd started keeps its record, events,
// journal and Cassette while it runs: its own disk, which brokerd
// mounted at its Control Channel's directory and copies into Dir when
// the Run ends. The Run, in its container, sees it as Dir.
func (s Store) BoxDir(id string) string { return filepath.Join(s.ControlDir(id), "runs") }

// MaxBoxRecord bounds a record read from a Run's disk.
const MaxBoxRecord = 4 << 20

// ReadBoxFile reads name in Run id's disk (BoxDir): a regular file of at
// most max bytes, opened beneath the disk without following any link
// or leaving its file system (the Run, the model's program, made every
// file there and may have made any of them a link). A disk or file that
// is not there is (nil, nil).
func (s Store) ReadBoxFile(id, name string, max int64) ([]byte, error) {
	dir, err := unix.Open(s.ControlDir(id), unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer unix.Close(dir)
	fd, err := unix.Openat2(dir, filepath.Join("runs", name), &unix.OpenHow{
		Flags:   uint64(unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NOFOLLOW | unix.O_NONBLOCK),
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV,
	})
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > max {
		return nil, fmt.Errorf("%s is not a regular file of at most %d bytes", name, max)
	}
	return io.ReadAll(io.LimitReader(f, max))
}

// readBoxed is the record of a Run that runs on its own disk, its
// paths the home's: its Control Channel where the home has it, its
// events on its disk; nil when there is none.
func (s Store) readBoxed(id string) *Record {
	data, err := s.ReadBoxFile(id, id+".json", MaxBoxRecord)
	if err != nil || data == nil {
		return nil
	}
	var r Record
	if json.Unmarshal(data, &r) != nil || r.ID != id {
		return nil
	}
	if r.Control != "" {
		r.Control = s.SocketPath(id)
	}
	r.Events = filepath.Join(s.BoxDir(id), id+".events.jsonl")
	return &r
}

// Write replaces a Run's record.
func (s Store) Write(r Record) error {
	if err := os.MkdirAll(s.Dir(), 0o700); err != nil {
		return fmt.Errorf("cannot make %s: %v", s.Dir(), err)
	}
	if r.Agents == nil {
		r.Agents = []AgentRef{}
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(s.Path(r.ID), append(data, '\n'), 0o600)
}

// NoRunError is a Run id no record has.
type NoRunError struct{ ID string }

func (e *NoRunError) Error() string {
	return runbook.Refuse(runbook.YaagPauseRefused, "%s %s (yaag runs lists the Runs of this home)", textNoRun, e.ID).Error()
}

// EndedError is a request to a Run that is over.
type EndedError struct{ Record Record }

func (e *EndedError) Error() string {
	return runbook.Refuse(runbook.YaagPauseRefused, "%s %s (it is %s; yaag status %s reads it)", e.Record.ID, textAlreadyEnded, e.Record.Status, e.Record.ID).Error()
}

// Read is a Run's record, with StatusLost for a running one whose
// process is gone.
func (s Store) Read(id string) (Record, error) {
	if !ValidRunID(id) {
		return Record{}, &NoRunError{ID: id}
	}
	data, err := os.ReadFile(s.Path(id))
	if errors.Is(err, fs.ErrNotExist) {
		if r := s.readBoxed(id); r != nil {
			if r.Status == StatusRunning && !s.Alive(id) {
				r.Status = StatusLost
			}
			return *r, nil
		}
		return Record{}, &NoRunError{ID: id}
	}
	if err != nil {
		return Record{}, fmt.Errorf("cannot read the record of %s: %v", id, err)
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil || r.ID != id {
		return Record{}, fmt.Errorf("%s is not the record of Run %s", s.Path(id), id)
	}
	if r.Status == StatusRunning && !s.Alive(id) {
		r.Status = StatusLost
	}
	return r, nil
}

// List is every Run's record, the oldest first.
func (s Store) List() ([]Record, error) {
	entries, err := os.ReadDir(s.Dir())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var out []Record
	seen := map[string]bool{}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !ValidRunID(id) {
			continue
		}
		r, err := s.Read(id)
		if err != nil {
			continue
		}
		seen[id] = true
		out = append(out, r)
	}
	// The Runs brokerd started that still run on their own disks.
	boxes, _ := os.ReadDir(filepath.Dir(s.ControlDir("x")))
	for _, e := range boxes {
		if id := e.Name(); ValidRunID(id) && !seen[id] {
			if r, err := s.Read(id); err == nil {
				out = append(out, r)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Alive reports whether a Run's process still holds its lock.
func (s Store) Alive(id string) bool {
	f, err := os.Open(s.LockPath(id))
	if err != nil {
		return false
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB); err != nil {
		return err == unix.EWOULDBLOCK
	}
	unix.Flock(int(f.Fd()), unix.LOCK_UN)
	return false
}
