package broker

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"boxmaker/core/atomicfile"
	"boxmaker/core/patherror"
	"boxmaker/core/policy"
	"boxmaker/runbook"
)

// A taint domain is the state a yaag Run's Agents share (D821): every
// Agent's session of a Run that brokerd started (yaag_run) is a member,
// starts at the domain's state and rises with it. The domain starts at
// the Run's floor, the join of the caller's state and the class of the
// program's directory; each member's rise raises the domain before the
// call that raised it answers, and each member's state is read joined
// with the domain's, so whatever one Agent read is what every Agent of
// the Run holds before its next call is decided.
//
// A domain is a file <home>/broker/domains/<id>.json holding
// {"taint":..,"untrusted":..,"run":..}; a member's state file names it
// ("domain":"<id>"). The id is the SHA-256 of the domain's key, 32 random
// bytes that brokerd's relay for the Run (yaagbox.go) holds in memory
// alone: it sets the key on each agent.spawn and agent.fork the Run sends
// through it, loopd passes it on with the new session's session.start,
// and a key whose domain brokerd does not hold is refused. The Run never
// sees the key, so membership is what brokerd made, not what the program
// says.

// domainKeyLen is the length of a domain's key, in hex.
const domainKeyLen = 64

// domainFile is what a domain's file holds.
type domainFile struct {
	policy.State
	Run string // the Run's id, once it has one
}

// domainID is the id of the domain whose key is key, or "" for a key
// that is not one.
func domainID(key string) string {
	if len(key) != domainKeyLen || strings.Trim(key, "0123456789abcdef") != "" {
		return ""
	}
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

func (s *sessions) domainPath(id string) string { return filepath.Join(s.domains, id+".json") }

// newDomain makes a domain at state floor: its key (for the Run alone)
// and its id.
func (s *sessions) newDomain(floor policy.State) (key, id string, err error) {
	var b [domainKeyLen / 2]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", "", err
	}
	key = hex.EncodeToString(b[:])
	id = domainID(key)
	if err := os.MkdirAll(s.domains, 0o700); err != nil {
		return "", "", runbook.Refuse(runbook.BrokerStateDamaged, "cannot prepare %s: %v", s.domains, patherror.Reason(err))
	}
	return key, id, s.writeDomain(id, domainFile{State: floor})
}

// readDomain reads a domain's file; a missing or damaged one is
// broker-state-damaged.
func (s *sessions) readDomain(id string) (domainFile, error) {
	p := s.domainPath(id)
	data, err := os.ReadFile(p)
	if err != nil {
		return domainFile{}, runbook.Refuse(runbook.BrokerStateDamaged, "cannot read the taint domain %s: %v", p, patherror.Reason(err))
	}
	d, err := parseDomainFile(data)
	if err != nil {
		return domainFile{}, runbook.Refuse(runbook.BrokerStateDamaged, "cannot read the taint domain %s: not a domain: %v", p, err)
	}
	return d, nil
}

// parseDomainFile reads a domain's file strictly: one object with exactly
// taint and untrusted, and run if any, nothing after it.
func parseDomainFile(data []byte) (domainFile, error) {
	var raw struct {
		Taint     *policy.Taint `json:"taint"`
		Untrusted *bool         `json:"untrusted"`
		Run       string        `json:"run"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(&raw)
	if err == nil {
		if _, end := dec.Token(); end != io.EOF {
			err = errors.New("something follows the object")
		}
	}
	if err == nil && (raw.Taint == nil || raw.Untrusted == nil) {
		err = errors.New(`it needs both "taint" and "untrusted"`)
	}
	if err != nil {
		return domainFile{}, err
	}
	return domainFile{State: policy.State{Taint: *raw.Taint, Untrusted: *raw.Untrusted}, Run: raw.Run}, nil
}

func (s *sessions) writeDomain(id string, d domainFile) error {
	p := s.domainPath(id)
	data, err := json.Marshal(struct {
		policy.State
		Run string `json:"run,omitempty"`
	}{d.State, d.Run})
	if err == nil {
		err = atomicfile.WriteFile(p, append(data, '\n'), 0o600)
	}
	if err != nil {
		return runbook.Refuse(runbook.BrokerStateDamaged, "cannot write the taint domain %s: %v", p, patherror.Reason(err))
	}
	return nil
}

// domainLock is the lock of a domain's file: a key no session id can be
// (they hold no "/").
func domainLock(id string) string { return "domain/" + id }

// raiseDomain raises a domain's state to st (never lowers it).
func (s *sessions) raiseDomain(id string, st policy.State) error {
	unlock := s.lock(domainLock(id))
	defer unlock()
	d, err := s.readDomain(id)
	if err != nil {
		return err
	}
	after := d.State.Raise(st.Taint, st.Untrusted)
	if after == d.State {
		return nil
	}
	d.State = after
	return s.writeDomain(id, d)
}

// nameDomainRun writes the Run's id into its domain, for yaag_status.
func (s *sessions) nameDomainRun(id, run string) error {
	unlock := s.lock(domainLock(id))
	defer unlock()
	d, err := s.readDomain(id)
	if err != nil {
		return err
	}
	d.Run = run
	return s.writeDomain(id, d)
}

// runDomain is the state of the domain of a Run brokerd started, found by
// the Run's id; ok is false when no domain names it (a Run the owner
// started, or one from before domains). A domain that cannot be read
// counts as secret and untrusted.
func (s *sessions) runDomain(run string) (st policy.State, ok bool) {
	if run == "" {
		return policy.State{}, false
	}
	ents, err := os.ReadDir(s.domains)
	if errors.Is(err, fs.ErrNotExist) {
		return policy.State{}, false
	}
	if err != nil {
		return policy.State{Taint: policy.Secret, Untrusted: true}, true
	}
	for _, e := range ents {
		id, isJSON := strings.CutSuffix(e.Name(), ".json")
		if !isJSON {
			continue
		}
		d, err := s.readDomain(id)
		if err != nil {
			continue
		}
		if d.Run == run {
			return d.State, true
		}
	}
	return policy.State{}, false
}

// joinDomain is a session's own state joined with its domain's.
func (s *sessions) joinDomain(f stateFile) (policy.State, error) {
	if f.Domain == "" {
		return f.State, nil
	}
	d, err := s.readDomain(f.Domain)
	if err != nil {
		return policy.State{}, err
	}
	return f.State.Raise(d.Taint, d.Untrusted), nil
}
