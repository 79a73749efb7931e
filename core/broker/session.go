package broker

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"boxmaker/core/atomicfile"
	"boxmaker/core/patherror"
	"boxmaker/core/policy"
	"boxmaker/runbook"
)

// StateDamagedText is what the model is told for a call of a session
// whose state file cannot be read.
const StateDamagedText = "this session's broker state is damaged"

// sessions keeps the state files and one lock per session in use.
type sessions struct {
	dir string

	mu    sync.Mutex
	locks map[string]*sessionLock
	// from is each session's audit_from as this run knows it (older.go):
	// write keeps it in the file. A session not in it has not been
	// looked at yet this run.
	from map[string]int
}

type sessionLock struct {
	mu   sync.Mutex
	refs int
}

// lock takes the session's lock and returns its release.
func (s *sessions) lock(id string) func() {
	s.mu.Lock()
	l := s.locks[id]
	if l == nil {
		l = &sessionLock{}
		s.locks[id] = l
	}
	l.refs++
	s.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		s.mu.Lock()
		l.refs--
		if l.refs == 0 {
			delete(s.locks, id)
		}
		s.mu.Unlock()
	}
}

func (s *sessions) path(id string) string { return filepath.Join(s.dir, id+".json") }

// read reads a session's state; a missing file is a new session. Any
// other failure is broker-state-damaged, naming the file.
func (s *sessions) read(id string) (policy.State, error) {
	f, _, err := s.readFile(id)
	return f.State, err
}

// stateFile is what a session's state file holds: its state, and
// audit_from, the number of the audit file its first decision went to (0:
// the file does not say; older.go).
type stateFile struct {
	policy.State
	AuditFrom int
}

// readFile reads the whole state file; exists is false for a missing one.
func (s *sessions) readFile(id string) (f stateFile, exists bool, err error) {
	p := s.path(id)
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return stateFile{}, false, nil
	}
	if err != nil {
		return stateFile{}, true, runbook.Refuse(runbook.BrokerStateDamaged, "cannot read %s: %v", p, patherror.Reason(err))
	}
	f, err = parseStateFile(data)
	if err != nil {
		return stateFile{}, true, runbook.Refuse(runbook.BrokerStateDamaged, "cannot read %s: %v", p, err)
	}
	return f, true, nil
}

// write replaces a session's state atomically, keeping the audit_from
// this run knows for it, else the one the file holds.
func (s *sessions) write(id string, st policy.State) error {
	s.mu.Lock()
	from, known := s.from[id]
	s.mu.Unlock()
	if !known {
		old, _, _ := s.readFile(id)
		from = old.AuditFrom
	}
	return s.writeFile(id, stateFile{State: st, AuditFrom: from})
}

func (s *sessions) writeFile(id string, f stateFile) error {
	p := s.path(id)
	data, err := json.Marshal(struct {
		policy.State
		AuditFrom int `json:"audit_from,omitempty"`
	}{f.State, f.AuditFrom})
	if err == nil {
		err = atomicfile.WriteFile(p, append(data, '\n'), 0o600)
	}
	if err != nil {
		return runbook.Refuse(runbook.BrokerStateDamaged, "cannot write %s: %v", p, patherror.Reason(err))
	}
	return nil
}

// ParseState reads a state file strictly: one JSON object with exactly
// the keys taint and untrusted, and audit_from if any, nothing after it.
func ParseState(data []byte) (policy.State, error) {
	f, err := parseStateFile(data)
	return f.State, err
}

func parseStateFile(data []byte) (stateFile, error) {
	var raw struct {
		Taint     *policy.Taint `json:"taint"`
		Untrusted *bool         `json:"untrusted"`
		AuditFrom int           `json:"audit_from"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return stateFile{}, fmt.Errorf("not a session state: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return stateFile{}, errors.New("not a session state: something follows the object")
	}
	if raw.Taint == nil || raw.Untrusted == nil {
		return stateFile{}, errors.New(`not a session state: it needs both "taint" and "untrusted"`)
	}
	if raw.AuditFrom < 0 {
		return stateFile{}, errors.New("not a session state: audit_from is below 0")
	}
	return stateFile{State: policy.State{Taint: *raw.Taint, Untrusted: *raw.Untrusted}, AuditFrom: raw.AuditFrom}, nil
}
