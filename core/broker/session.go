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
	p := s.path(id)
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return policy.State{}, nil
	}
	if err != nil {
		return policy.State{}, runbook.Refuse(runbook.BrokerStateDamaged, "cannot read %s: %v", p, pathErr(err))
	}
	st, err := ParseState(data)
	if err != nil {
		return policy.State{}, runbook.Refuse(runbook.BrokerStateDamaged, "cannot read %s: %v", p, err)
	}
	return st, nil
}

// write replaces a session's state atomically.
func (s *sessions) write(id string, st policy.State) error {
	p := s.path(id)
	data, err := json.Marshal(st)
	if err == nil {
		err = atomicfile.WriteFile(p, append(data, '\n'), 0o600)
	}
	if err != nil {
		return runbook.Refuse(runbook.BrokerStateDamaged, "cannot write %s: %v", p, pathErr(err))
	}
	return nil
}

// ParseState reads a state file strictly: one JSON object with exactly
// the keys taint and untrusted, nothing after it.
func ParseState(data []byte) (policy.State, error) {
	var raw struct {
		Taint     *policy.Taint `json:"taint"`
		Untrusted *bool         `json:"untrusted"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return policy.State{}, fmt.Errorf("not a session state: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return policy.State{}, errors.New("not a session state: something follows the object")
	}
	if raw.Taint == nil || raw.Untrusted == nil {
		return policy.State{}, errors.New(`not a session state: it needs both "taint" and "untrusted"`)
	}
	return policy.State{Taint: *raw.Taint, Untrusted: *raw.Untrusted}, nil
}

func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
