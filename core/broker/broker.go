package broker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"boxmaker/audit"
	"boxmaker/core/brokerwire"
	"boxmaker/core/patherror"
	"boxmaker/core/policy"
	"boxmaker/core/runner"
	"boxmaker/core/sessionid"
	"boxmaker/runbook"
)

// The texts of the failures the runbook names.
const (
	AuditUnavailableText  = "the audit log cannot be written"
	ResultUnrecordedText  = "the result could not be recorded"
	RefusalUnrecordedText = "the refusal could not be recorded"
	ApprovalUnrecorded    = "the approval could not be recorded"
	MemoryUnavailableText = "memory is unavailable: memoryd did not answer"
	CallIDReusedText      = "denied: this session already used this call id for a call brokerd decided; a call id names one call"
)

// Runner runs the file tools and run (core/runner's *Runner).
type Runner interface {
	Run(ctx context.Context, c runner.Call) (runner.Result, error)
}

// Ledger is where records go (audit's *Ledger).
type Ledger interface {
	Append(r audit.Record) (uint64, error)
}

// Config is what a Broker works with. Every field but Now and Log is
// needed.
type Config struct {
	Ledger Ledger
	Grants *policy.Grants
	Runner Runner
	// SessionsDir is <home>/broker/sessions; DomainsDir, where the yaag
	// Runs' taint domains are, <home>/broker/domains (when "", the
	// directory domains beside SessionsDir).
	SessionsDir string
	DomainsDir  string
	// MemorySocket is memoryd's tool socket; MemoryTimeout bounds one
	// forwarded call.
	MemorySocket  string
	MemoryTimeout time.Duration
	// ExpireAfter is how long an approval waits.
	ExpireAfter time.Duration
	// OwnerUID and OwnerGID are the user brokerd acts for ([runner]
	// owner_uid): an approval shows a file only when they may read it.
	OwnerUID, OwnerGID int
	Now                func() time.Time
	// Log receives brokerd's lines for the operator.
	Log io.Writer
	// MinFree is the free space (bytes) of the home's file system below
	// which every new call is refused (home-disk-low), as Free measures
	// it; 0 or a nil Free: never. A ledger with ReserveShort() true (its
	// reserve could not be kept) refuses new calls the same way.
	MinFree int64
	Free    func() (int64, error)
	// Decided are the (session, call id) pairs the audit log already holds
	// a decision for (audit.Ledger.Decided): a call under one of them is
	// denied.
	Decided [][2]string
	// Yaag starts the Runs of yaag_run; nil: yaag_run fails.
	Yaag *YaagRuns
	// Courier, when brokerd.toml has [gateway], carries each pending
	// approval to gatewayd (nil: none).
	Courier *Courier
	// MCP runs the tools of MCP servers (nil: none is called).
	MCP MCP
}

// Broker decides, records and runs tool calls. It is safe for concurrent
// use.
type Broker struct {
	cfg       Config
	sessions  sessions
	approvals approvals
	decided   decidedCalls

	mu          sync.Mutex
	inflight    map[callKey]bool
	lastProblem string // the grants' problems last printed
	// diskLowShown: the home-disk-low line was printed for this episode.
	diskLowShown bool
}

// New prepares the sessions directory and returns a Broker.
func New(cfg Config) (*Broker, error) {
	if cfg.Ledger == nil || cfg.Grants == nil || cfg.Runner == nil || cfg.SessionsDir == "" {
		return nil, errors.New("broker: Ledger, Grants, Runner and SessionsDir are needed")
	}
	if cfg.ExpireAfter <= 0 || cfg.MemoryTimeout <= 0 {
		return nil, errors.New("broker: ExpireAfter and MemoryTimeout must be more than 0")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.DomainsDir == "" {
		cfg.DomainsDir = filepath.Join(filepath.Dir(cfg.SessionsDir), "domains")
	}
	if err := os.MkdirAll(cfg.SessionsDir, 0o700); err != nil {
		return nil, runbook.Refuse(runbook.BrokerStateDamaged, "cannot prepare %s: %v", cfg.SessionsDir, patherror.Reason(err))
	}
	b := &Broker{
		cfg:       cfg,
		sessions:  sessions{dir: cfg.SessionsDir, domains: cfg.DomainsDir, locks: map[string]*sessionLock{}, from: map[string]int{}},
		approvals: approvals{byID: map[string]*pending{}},
		inflight:  map[callKey]bool{},
	}
	for _, k := range cfg.Decided {
		b.decided.add(callKey{k[0], k[1]})
	}
	return b, nil
}

// HomeDiskLowText begins the reason of a call refused for lack of space.
const HomeDiskLowText = "the disk of brokerd's home is nearly full"

// diskLow is the reason to refuse a new call while the home's file system
// is under MinFree, or the ledger could not keep its reserve; "" otherwise.
// The refusal is recorded, in the ledger's reserve: what fills the disk
// cannot stop the log.
func (b *Broker) diskLow() string {
	why := ""
	if b.cfg.MinFree > 0 && b.cfg.Free != nil {
		if free, err := b.cfg.Free(); err == nil && free < b.cfg.MinFree {
			why = fmt.Sprintf("%s: %d MiB free, under the %d MiB brokerd keeps free ([audit] min_free_mb); no new call runs until there is room",
				HomeDiskLowText, free>>20, b.cfg.MinFree>>20)
		}
	}
	if r, ok := b.cfg.Ledger.(interface{ ReserveShort() bool }); ok && why == "" && r.ReserveShort() {
		why = HomeDiskLowText + ": the audit log could not keep its reserve ([audit] reserve_mb); no new call runs until there is room"
	}
	b.mu.Lock()
	first := why != "" && !b.diskLowShown
	b.diskLowShown = why != ""
	b.mu.Unlock()
	if why == "" {
		return ""
	}
	text := (&runbook.Refusal{Entry: runbook.HomeDiskLow, Text: why}).Error()
	if first {
		b.logf("%s", text)
	}
	return text
}

func (b *Broker) logf(format string, args ...any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	fmt.Fprintf(b.cfg.Log, "brokerd: "+format+"\n", args...)
}

// auditFailed prints the ledger's error and returns what the caller is
// told: the audit log cannot be written.
func (b *Broker) auditFailed(err error) error {
	b.logf("%v", err)
	return runbook.WithCause(runbook.AuditUnavailable, AuditUnavailableText, err)
}

// entryText is a refusal as the model is given it: its text and entry.
func entryText(e runbook.Entry, text string) string {
	return (&runbook.Refusal{Entry: e, Text: text}).Error()
}

func (b *Broker) claim(k callKey) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.inflight[k] {
		return false
	}
	b.inflight[k] = true
	return true
}

func (b *Broker) release(k callKey) {
	b.mu.Lock()
	delete(b.inflight, k)
	b.mu.Unlock()
}

// runID names a call's container: the session and the call id, so that
// two sessions' call_0 never share a name. A session id holds no "_", so
// the pair is read back unambiguously.
func runID(c brokerwire.ToolCall) string { return c.Session + "_" + c.CallID }

// StartSession records a new session's state before its first call: the
// taint its memory block carries (memoryd says which; loopd passes it on).
// The state only rises: a session already above it stays where it is. The
// session_start record comes first, then the state file; a failure of
// either is an error, and loopd does not start the session.
func (b *Broker) StartSession(s brokerwire.SessionStart) (policy.State, error) {
	if err := sessionid.Check(s.Session); err != nil {
		return policy.State{}, err
	}
	taint, err := policy.ParseTaint(s.Taint)
	if err != nil {
		return policy.State{}, fmt.Errorf("the session's starting %v", err)
	}
	unlock := b.sessions.lock(s.Session)
	defer unlock()
	st, err := b.sessions.read(s.Session)
	if err != nil {
		b.logf("%v", err)
		return policy.State{}, err
	}
	after := st.Raise(taint, false)
	note := "a new session; its memory block is " + taint.String()
	domain, member := "", ""
	if s.Domain != "" {
		// An Agent of a yaag Run brokerd started: it starts at the Run's
		// taint domain, and rises with it (D821).
		if domain = domainID(s.Domain); domain == "" {
			return policy.State{}, fmt.Errorf("session %s: the taint domain's key is not one brokerd hands a Run", s.Session)
		}
		d, err := b.sessions.readDomain(domain)
		if err != nil {
			b.logf("session %s: %v", s.Session, err)
			return policy.State{}, fmt.Errorf("session %s: no yaag Run that brokerd started holds this taint domain", s.Session)
		}
		after = after.Raise(d.Taint, d.Untrusted)
		member = "; an Agent of a yaag Run brokerd started, at its taint domain " + domain
	}
	if s.From != "" {
		if err := sessionid.Check(s.From); err != nil {
			return policy.State{}, err
		}
		// A fork holds its parent's conversation, so what the parent read:
		// it starts at the parent's state (a parent whose state cannot be
		// read counts as secret, as read does).
		parent, err := b.sessions.read(s.From)
		if err != nil {
			b.logf("%v", err)
			parent = policy.State{Taint: policy.Secret, Untrusted: true}
		}
		after = after.Raise(parent.Taint, parent.Untrusted)
		note = "a fork of session " + s.From + ", at its state"
	}
	rec := audit.Record{Type: audit.TypeSessionStart, Session: s.Session, Taint: after.Taint.String(), Untrusted: after.Untrusted,
		Note: note + member}
	if err := b.recordBefore(rec); err != nil {
		return policy.State{}, err
	}
	if err := b.writeStart(s.Session, after, domain); err != nil {
		b.logf("%v", err)
		return policy.State{}, err
	}
	return after, nil
}

// SessionStates is the state of each of the sessions (bxctl sessions'
// taint column): a damaged state file is its session's Problem. An id
// that is not a session id refuses them all, before any is read.
func (b *Broker) SessionStates(ids []string) (brokerwire.SessionsState, error) {
	for _, id := range ids {
		if err := sessionid.Check(id); err != nil {
			return brokerwire.SessionsState{}, err
		}
	}
	out := brokerwire.SessionsState{States: make([]brokerwire.SessionStateOf, 0, len(ids))}
	for _, id := range ids {
		st, err := b.SessionState(id)
		if err != nil {
			out.States = append(out.States, brokerwire.SessionStateOf{Session: id, Problem: err.Error()})
			continue
		}
		out.States = append(out.States, brokerwire.SessionStateOf{Session: id, Taint: st.Taint.String(), Untrusted: st.Untrusted})
	}
	return out, nil
}

// SessionState is a session's state as memoryd asks for it.
func (b *Broker) SessionState(id string) (policy.State, error) {
	if err := sessionid.Check(id); err != nil {
		return policy.State{}, err
	}
	st, err := b.sessions.read(id)
	if err != nil {
		b.logf("%v", err)
	}
	return st, err
}
