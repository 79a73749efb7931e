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
	"strings"
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
	dir     string
	domains string // the yaag Runs' taint domains (domain.go)

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
// other failure is broker-state-damaged, naming the file. The state of a
// yaag Agent's session is its own joined with its Run's taint domain's.
func (s *sessions) read(id string) (policy.State, error) {
	f, _, err := s.readFile(id)
	if err != nil {
		return policy.State{}, err
	}
	return s.joinDomain(f)
}

// stateFile is what a session's state file holds: its state, audit_from,
// the number of the audit file its first decision went to (0: the file
// does not say; older.go), and the id of the taint domain of the yaag Run
// whose Agent it is ("" for none; domain.go).
type stateFile struct {
	policy.State
	AuditFrom int
	Domain    string
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
// this run knows for it, else the one the file holds, and its domain. A
// member of a taint domain raises the domain to its new state before
// write returns: every other Agent of its Run holds it from then on.
func (s *sessions) write(id string, st policy.State) error {
	s.mu.Lock()
	from, known := s.from[id]
	s.mu.Unlock()
	old, _, err := s.readFile(id)
	if err != nil {
		return err // a damaged file may name a domain: it is not written over
	}
	if !known {
		from = old.AuditFrom
	}
	if err := s.writeFile(id, stateFile{State: st, AuditFrom: from, Domain: old.Domain}); err != nil {
		return err
	}
	if old.Domain != "" {
		return s.raiseDomain(old.Domain, st)
	}
	return nil
}

func (s *sessions) writeFile(id string, f stateFile) error {
	p := s.path(id)
	data, err := json.Marshal(struct {
		policy.State
		AuditFrom int    `json:"audit_from,omitempty"`
		Domain    string `json:"domain,omitempty"`
	}{f.State, f.AuditFrom, f.Domain})
	if err == nil {
		err = atomicfile.WriteFile(p, append(data, '\n'), 0o600)
	}
	if err != nil {
		return runbook.Refuse(runbook.BrokerStateDamaged, "cannot write %s: %v", p, patherror.Reason(err))
	}
	return nil
}

// ParseState reads a state file strictly: one JSON object with exactly
// the keys taint and untrusted, and audit_from and domain if any, nothing
// after it. (The state it returns is the file's own, without its
// domain's.)
func ParseState(data []byte) (policy.State, error) {
	f, err := parseStateFile(data)
	return f.State, err
}

func parseStateFile(data []byte) (stateFile, error) {
	var raw struct {
		Taint     *policy.Taint `json:"taint"`
		Untrusted *bool         `json:"untrusted"`
		AuditFrom int           `json:"audit_from"`
		Domain    string        `json:"domain"`
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
	if raw.Domain != "" && (len(raw.Domain) != domainKeyLen || strings.Trim(raw.Domain, "0123456789abcdef") != "") {
		return stateFile{}, errors.New("not a session state: domain is not a domain's id")
	}
	return stateFile{State: policy.State{Taint: *raw.Taint, Untrusted: *raw.Untrusted}, AuditFrom: raw.AuditFrom, Domain: raw.Domain}, nil
}
