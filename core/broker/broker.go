package broker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"boxmaker/audit"
	"boxmaker/core/approval"
	"boxmaker/core/daemon"
	"boxmaker/core/gatewaywire"
	"boxmaker/core/policy"
	"boxmaker/core/runner"
	"boxmaker/runbook"
)

// ToolCall is one tool call as loopd sends it on the tool socket.
type ToolCall struct {
	Session   string          `json:"session"`
	CallID    string          `json:"call_id"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

// Decision is the decision an Answer reports.
type Decision struct {
	Effect string `json:"effect"` // allow, ask or deny
	Grant  string `json:"grant"`  // the grant file(s) that decided; empty: none
}

// Answer is the final answer to loopd: the outcome and the text the model
// is given.
type Answer struct {
	Outcome  string   `json:"outcome"`
	Text     string   `json:"text"`
	Decision Decision `json:"decision"`
	Approval string   `json:"approval,omitempty"`
}

// The outcomes of a call.
const (
	OutcomeAllowed  = "allowed"  // decided allow, ran, result recorded
	OutcomeApproved = "approved" // decided ask, approved, ran, result recorded
	OutcomeRefused  = "refused"  // decided ask, the owner refused
	OutcomeExpired  = "expired"  // decided ask, no answer in time
	OutcomeDenied   = "denied"   // decided deny (or no longer allowed after the wait)
	OutcomeFailed   = "failed"   // allowed, but no result can be given
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
	// SessionsDir is <home>/broker/sessions.
	SessionsDir string
	// MemorySocket is memoryd's tool socket; MemoryTimeout bounds one
	// forwarded call.
	MemorySocket  string
	MemoryTimeout time.Duration
	// ExpireAfter is how long an approval waits.
	ExpireAfter time.Duration
	Now         func() time.Time
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
	if err := os.MkdirAll(cfg.SessionsDir, 0o700); err != nil {
		return nil, runbook.Refuse(runbook.BrokerStateDamaged, "cannot prepare %s: %v", cfg.SessionsDir, pathErr(err))
	}
	b := &Broker{
		cfg:       cfg,
		sessions:  sessions{dir: cfg.SessionsDir, locks: map[string]*sessionLock{}},
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
	return &runbook.Refusal{Entry: runbook.AuditUnavailable, Text: AuditUnavailableText, Cause: err}
}

// entryText is a refusal as the model is given it: its text and entry.
func entryText(e runbook.Entry, text string) string {
	return (&runbook.Refusal{Entry: e, Text: text}).Error()
}

// Call decides, records and runs one call and returns what loopd gives
// the model. asked, when not nil, is told the approval's id when the call
// waits for the owner. An error means brokerd could not decide at all
// (the audit log cannot be written, a malformed request): nothing ran.
func (b *Broker) Call(ctx context.Context, c ToolCall, asked func(approval string)) (Answer, error) {
	if !sessionIDRE.MatchString(c.Session) {
		return Answer{}, fmt.Errorf("the session id %q is not 1 to 64 of [a-z0-9-]", c.Session)
	}
	if !callIDRE.MatchString(c.CallID) {
		return Answer{}, fmt.Errorf("the call id %q is not 1 to 64 of [A-Za-z0-9_-]", c.CallID)
	}
	key := callKey{c.Session, c.CallID}
	if !b.claim(key) {
		return Answer{}, fmt.Errorf("the call id %q is already being handled", c.CallID)
	}
	defer b.release(key)
	if b.decided.has(key) {
		b.logf("call %s of session %s (%s) denied: %s", c.CallID, c.Session, c.Tool, CallIDReusedText)
		return Answer{Outcome: OutcomeDenied, Text: entryText(runbook.CallIDReused, CallIDReusedText),
			Decision: Decision{Effect: string(policy.Deny)}}, nil
	}

	args, targets, forward, problem := parseArguments(c.Tool, c.Arguments)
	if problem == "" {
		problem = b.diskLow()
	}
	unlock := b.sessions.lock(c.Session)
	defer func() {
		if unlock != nil {
			unlock()
		}
	}()
	state, err := b.sessions.read(c.Session)
	if err != nil {
		b.logf("%v", err)
		rec := audit.Record{Type: audit.TypeDecision, Call: c.CallID, Tool: cutField(c.Tool, MaxToolName), Target: recordTargets(targets),
			Effect: string(policy.Deny), Session: c.Session, Note: StateDamagedText}
		if aerr := b.recordDecision(key, rec); aerr != nil {
			return Answer{}, b.auditFailed(aerr)
		}
		return Answer{Outcome: OutcomeDenied, Text: entryText(runbook.BrokerStateDamaged, StateDamagedText),
			Decision: Decision{Effect: string(policy.Deny)}}, nil
	}

	var v verdict
	if problem != "" {
		v = verdict{Decision: policy.Decision{Verdict: policy.Deny, Reason: problem}}
	} else {
		v = b.decide(c.Tool, targets, state)
	}
	note := v.Reason
	if c.Tool == string(policy.Run) && len(args.Command) > 0 && problem == "" {
		note += "; command: " + shellQuote(args.Command) // what runs is part of what was decided
	}
	if len(v.masks) > 0 {
		note += "; masked: " + maskNote(v.masks) // what deny grants keep from the container
	}
	rec := audit.Record{Type: audit.TypeDecision, Call: c.CallID, Tool: cutField(c.Tool, MaxToolName), Target: v.recordTarget(targets),
		Effect: string(v.Verdict), Grant: v.Grant, Session: c.Session, Taint: state.Taint.String(), Note: note}
	if c.Tool == string(policy.WriteFile) && args.Content != nil {
		rec.ContentSHA256 = approval.SHA256([]byte(*args.Content)) // what the call hash covers, checkable on disk
	}
	if err := b.recordDecision(key, rec); err != nil {
		return Answer{}, b.auditFailed(err)
	}
	ans := Answer{Decision: Decision{Effect: string(v.Verdict), Grant: v.Grant}}
	outcome := OutcomeAllowed

	switch v.Verdict {
	case policy.Allow:
	case policy.Ask:
		unlock()
		unlock = nil
		p, a, err := b.ask(ctx, c, v, asked)
		if err != nil {
			return Answer{}, err
		}
		ans.Approval = p.ID
		switch {
		case a == nil: // expired or abandoned: ask said which in outcome
			return b.unanswered(ctx, ans, p)
		case !a.approved:
			ans.Outcome, ans.Text = OutcomeRefused, "the owner refused this call"
			if a.why != "" {
				ans.Text += ": " + a.why
			}
			return ans, nil
		}
		unlock = b.sessions.lock(c.Session)
		// The owner approved this call; the session may have moved on
		// meanwhile, so it is decided again, and must come out the same.
		again, why := b.redecide(c, targets, v, a)
		if why != "" {
			rec := audit.Record{Type: audit.TypeResult, Call: c.CallID, Session: c.Session, Outcome: OutcomeDenied, Note: why}
			if _, err := b.cfg.Ledger.Append(rec); err != nil {
				return Answer{}, b.auditFailed(err)
			}
			ans.Outcome, ans.Text = OutcomeDenied, why
			return ans, nil
		}
		state, v = again.state, again.v
		outcome = OutcomeApproved
	default:
		ans.Outcome = OutcomeDenied
		if v.Err != nil {
			b.reportGrants(v.Err)
			ans.Text = v.Err.Error()
		} else {
			ans.Text = "denied: " + v.Reason
		}
		return ans, nil
	}
	b.grantsValid()

	text, found, mounted, err := b.execute(ctx, c, args, v, forward)
	if err != nil {
		ans.Outcome, ans.Text = OutcomeFailed, b.failureText(c, err)
		rec := audit.Record{Type: audit.TypeResult, Call: c.CallID, Session: c.Session, Outcome: OutcomeFailed, TaintAfter: state.Taint.String(),
			Untrusted: state.Untrusted, Note: failureNote(err)}
		if _, err := b.cfg.Ledger.Append(rec); err != nil {
			b.logf("%v", err)
			ans.Text = entryText(runbook.AuditUnavailable, ResultUnrecordedText)
		}
		return ans, nil
	}
	// A recall answer raises the session to the highest taint of its
	// hits' sources as well as to the grant's class: text a secret session
	// read stays secret wherever it is recalled (decision D61).
	after := state.Raise(v.Class, v.Untrusted).Raise(found.Taint, found.Untrusted)
	if after != state {
		if err := b.sessions.write(c.Session, after); err != nil {
			// The data may be of a higher class than the state on disk
			// says: it must not reach the model.
			b.logf("%v", err)
			rec := audit.Record{Type: audit.TypeResult, Call: c.CallID, Session: c.Session, Outcome: OutcomeFailed,
				Note: "ran, but the session state could not be written; the result was withheld"}
			if _, aerr := b.cfg.Ledger.Append(rec); aerr != nil {
				b.logf("%v", aerr)
			}
			ans.Outcome, ans.Text = OutcomeFailed, entryText(runbook.BrokerStateDamaged, ResultUnrecordedText)
			return ans, nil
		}
	}
	res := audit.Record{Type: audit.TypeResult, Call: c.CallID, Session: c.Session, Outcome: "ran", TaintAfter: after.Taint.String(), Untrusted: after.Untrusted}
	if found.Taint > v.Class {
		what := "the recall hits' sources are "
		if c.Tool == string(policy.Memory) {
			what = "the entries the memory answer quotes are "
		}
		res.Note = what + found.Taint.String() + ", above the grant's class " + v.Class.String()
	}
	if len(mounted) > 0 {
		// What the container was given, object by object: the decided
		// path and the device and inode the runner held open.
		res.Note = "mounted " + strings.Join(mounted, "; ")
	}
	if _, err := b.cfg.Ledger.Append(res); err != nil {
		b.logf("%v", err)
		ans.Outcome, ans.Text = OutcomeFailed, entryText(runbook.AuditUnavailable, ResultUnrecordedText)
		return ans, nil
	}
	ans.Outcome, ans.Text = outcome, text
	return ans, nil
}

// recordDecision appends a call's decision record; once it is on disk the
// call's key is decided.
func (b *Broker) recordDecision(k callKey, rec audit.Record) error {
	if _, err := b.cfg.Ledger.Append(rec); err != nil {
		return err
	}
	b.decided.add(k)
	return nil
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
func runID(c ToolCall) string { return c.Session + "_" + c.CallID }

// verdict is a decision over every target of a call.
type verdict struct {
	policy.Decision
	targets []string      // resolved, one per target
	masks   []policy.Mask // run: what deny grants cover below its targets
	// top is the target whose grant has the highest class, and that grant.
	topTarget, topGrant string
}

// decide decides a call with one or more targets (run's paths): every
// target must be allowed; deny beats ask beats allow; the class is the
// highest and untrusted is any. A call with several targets is decided at
// the taint it will leave behind: if the classes of its targets' grants
// are above the session's taint, every target is decided again at their
// join, so that a grant whose max_taint is below it no longer applies
// (what a run copies from a secret directory to a public one would
// otherwise be decided while the session is still public). The session
// is then raised to that join.
func (b *Broker) decide(tool string, targets []string, st policy.State) verdict {
	v := b.decideAt(tool, targets, st)
	for at := st; len(targets) > 1 && v.Verdict != policy.Deny && v.Class > at.Taint; {
		at = policy.State{Taint: v.Class, Untrusted: st.Untrusted}
		w := b.decideAt(tool, targets, at)
		if w.Verdict == policy.Deny {
			w.Reason = fmt.Sprintf("the call reads %q through %s, which is %s, so it is decided at the taint it would leave behind; at %s, %s",
				v.topTarget, v.topGrant, v.Class, v.Class, w.Reason)
			return w
		}
		w.Class = policy.MaxTaint(w.Class, at.Taint)
		w.Reason += fmt.Sprintf(" (decided at %s, the taint the call leaves behind: %s through %s is %s)", at.Taint, v.topTarget, v.topGrant, at.Taint)
		v = w
	}
	return v
}

// decideAt decides each target of a call for a session in state st.
func (b *Broker) decideAt(tool string, targets []string, st policy.State) verdict {
	var v verdict
	var grants []string
	for i, t := range targets {
		d := b.cfg.Grants.Decide(policy.Call{Tool: tool, Target: t}, st)
		if d.Verdict == policy.Deny {
			return verdict{Decision: d}
		}
		if i == 0 || (d.Verdict == policy.Ask && v.Verdict != policy.Ask) {
			v.Verdict, v.Reason = d.Verdict, d.Reason
		}
		if i == 0 || d.Class > v.Class {
			v.topTarget, v.topGrant = t, d.Grant
		}
		v.Class = policy.MaxTaint(v.Class, d.Class)
		v.Untrusted = v.Untrusted || d.Untrusted
		v.HardLinks = d.HardLinks // the file tools have one target
		if !containsString(grants, d.Grant) {
			grants = append(grants, d.Grant)
		}
		v.targets = append(v.targets, d.Target)
		for _, m := range d.Masks {
			if !slices.ContainsFunc(v.masks, func(o policy.Mask) bool { return o.Path == m.Path }) {
				v.masks = append(v.masks, m) // a path below two targets is masked once
			}
		}
	}
	v.Grant = strings.Join(grants, ",")
	return v
}

// maskNote says what a run call's masks are, for its decision record.
func maskNote(ms []policy.Mask) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		how := "hidden"
		if !m.Hide {
			how = "read-only"
		}
		parts[i] = fmt.Sprintf("%s %s (%s denied by %s)", m.Path, how, m.Tool, m.Grant)
	}
	return strings.Join(parts, ", ")
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// recordTarget is the target a decision record names: the resolved
// targets when there are, else what the call said.
func (v verdict) recordTarget(raw []string) string {
	if len(v.targets) > 0 {
		return strings.Join(v.targets, " ")
	}
	if v.Target != "" {
		return v.Target
	}
	return recordTargets(raw)
}

type redecided struct {
	state policy.State
	v     verdict
}

// redecide decides an approved call again under the session lock: it runs
// only if the owner's answer is for this very call, the session's state
// still lets the grants allow or ask it, and its targets resolve to what
// the owner saw. why is the reason it may not run.
func (b *Broker) redecide(c ToolCall, targets []string, was verdict, a *answer) (redecided, string) {
	if a.callHash != CallHash(c) {
		return redecided{}, "denied: the approval was given for another call"
	}
	st, err := b.sessions.read(c.Session)
	if err != nil {
		b.logf("%v", err)
		return redecided{}, entryText(runbook.BrokerStateDamaged, StateDamagedText)
	}
	v := b.decide(c.Tool, targets, st)
	switch {
	case v.Verdict == policy.Deny && v.Err != nil:
		b.reportGrants(v.Err)
		return redecided{}, v.Err.Error()
	case v.Verdict == policy.Deny:
		return redecided{}, "denied after the approval: " + v.Reason
	case strings.Join(v.targets, "\x00") != strings.Join(was.targets, "\x00"):
		return redecided{}, "denied after the approval: the target no longer resolves to what was approved"
	}
	v.Class = policy.MaxTaint(v.Class, was.Class)
	v.Untrusted = v.Untrusted || was.Untrusted
	return redecided{state: st, v: v}, ""
}

// ask makes a pending approval, records it and waits. A nil answer means
// none came: the approval expired (recorded) or brokerd is stopping
// (recorded as abandoned); unanswered tells which.
func (b *Broker) ask(ctx context.Context, c ToolCall, v verdict, asked func(string)) (*pending, *answer, error) {
	now := b.cfg.Now()
	target := v.recordTarget(nil)
	p := b.approvals.add(Pending{Call: c.CallID, Session: c.Session, Tool: c.Tool, Target: target, Grant: v.Grant,
		CallHash: CallHash(c), Arguments: approval.Compact(c.Arguments), ArgumentsHash: approval.ArgumentsHash(c.Arguments),
		Requested: now, Expires: now.Add(b.cfg.ExpireAfter)})
	rec := audit.Record{Type: audit.TypeApprovalRequested, Call: c.CallID, Approval: p.ID, CallSHA256: p.CallHash,
		ArgumentsSHA256: p.ArgumentsHash, Session: c.Session, Tool: c.Tool, Target: target, Grant: v.Grant}
	if _, err := b.cfg.Ledger.Append(rec); err != nil {
		b.approvals.take(p.ID)
		return nil, nil, b.auditFailed(err)
	}
	b.logf("approval %s for session %s waits for bxctl approve %s or bxctl refuse %s: %s", p.ID, c.Session, p.ID, p.ID, approval.Summary(p.Pending))
	if b.cfg.Courier != nil {
		b.cfg.Courier.asked(p.Pending)
	}
	if asked != nil {
		asked(p.ID)
	}
	timer := time.NewTimer(b.cfg.ExpireAfter)
	defer timer.Stop()
	var a answer
	select {
	case a = <-p.ch:
	case <-timer.C:
		if _, mine := b.approvals.take(p.ID); mine {
			return p, nil, nil
		}
		a = <-p.ch // an answer took it first
	case <-ctx.Done():
		if _, mine := b.approvals.take(p.ID); mine {
			return p, nil, nil
		}
		a = <-p.ch
	}
	if a.err != nil {
		return nil, nil, &runbook.Refusal{Entry: runbook.AuditUnavailable, Text: AuditUnavailableText, Cause: a.err}
	}
	return p, &a, nil
}

// unanswered records and answers an approval that expired, or that was
// abandoned because brokerd is stopping.
func (b *Broker) unanswered(ctx context.Context, ans Answer, p *pending) (Answer, error) {
	typ, outcome := audit.TypeApprovalExpired, OutcomeExpired
	text := fmt.Sprintf("the owner did not answer in time: the approval %s expired after %s", p.ID, b.cfg.ExpireAfter)
	if ctx.Err() != nil {
		typ, outcome = audit.TypeApprovalAbandoned, OutcomeFailed
		text = fmt.Sprintf("brokerd stopped before the owner answered; the approval %s was abandoned", p.ID)
	}
	rec := audit.Record{Type: typ, Call: p.Call, Approval: p.ID, Session: p.Session}
	_, err := b.cfg.Ledger.Append(rec)
	if b.cfg.Courier != nil {
		word := gatewaywire.OutcomeExpired
		if typ == audit.TypeApprovalAbandoned {
			word = gatewaywire.OutcomeAbandoned
		}
		b.cfg.Courier.ended(p.ID, word, "", "")
	}
	if err != nil {
		return Answer{}, b.auditFailed(err)
	}
	ans.Outcome, ans.Text = outcome, text
	return ans, nil
}

// Pending lists the approvals waiting for the owner, oldest first.
func (b *Broker) Pending() []Pending { return b.approvals.list() }

// Approval is the pending approval id, for bxctl approvals show.
func (b *Broker) Approval(id string) (Pending, error) {
	p, ok := b.approvals.get(id)
	if !ok {
		return Pending{}, notPending(id)
	}
	return p, nil
}

// AnswerApproval approves or refuses the pending approval id, records
// the answer, and only then lets the waiting call go on. by says who
// answered (brokerd fills it from the peer), why is the owner's reason.
func (b *Broker) AnswerApproval(id string, approve bool, by, why string) (Pending, error) {
	p, ok := b.approvals.take(id)
	if !ok {
		return Pending{}, notPending(id)
	}
	word := audit.AnswerRefused
	if approve {
		word = audit.AnswerApproved
	}
	rec := audit.Record{Type: audit.TypeApprovalAnswered, Call: p.Call, Approval: p.ID, CallSHA256: p.CallHash,
		Session: p.Session, Answer: word, By: by, Why: why}
	if _, err := b.cfg.Ledger.Append(rec); err != nil {
		b.logf("%v", err)
		p.ch <- answer{err: err}
		if approve {
			return Pending{}, runbook.Refuse(runbook.AuditUnavailable, ApprovalUnrecorded)
		}
		return Pending{}, runbook.Refuse(runbook.AuditUnavailable, RefusalUnrecordedText)
	}
	p.ch <- answer{approved: approve, by: by, why: why, callHash: p.CallHash}
	if b.cfg.Courier != nil {
		b.cfg.Courier.ended(p.ID, courierOutcome(approve), by, why)
	}
	return p.Pending, nil
}

// StartSession records a new session's state before its first call: the
// taint its memory block carries (memoryd says which; loopd passes it on).
// The state only rises: a session already above it stays where it is. The
// session_start record comes first, then the state file; a failure of
// either is an error, and loopd does not start the session.
func (b *Broker) StartSession(s SessionStart) (policy.State, error) {
	if !sessionIDRE.MatchString(s.Session) {
		return policy.State{}, fmt.Errorf("the session id %q is not 1 to 64 of [a-z0-9-]", s.Session)
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
	if s.From != "" {
		if !sessionIDRE.MatchString(s.From) {
			return policy.State{}, fmt.Errorf("the session id %q is not 1 to 64 of [a-z0-9-]", s.From)
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
		Note: note}
	if _, err := b.cfg.Ledger.Append(rec); err != nil {
		return policy.State{}, b.auditFailed(err)
	}
	if err := b.sessions.write(s.Session, after); err != nil {
		b.logf("%v", err)
		return policy.State{}, err
	}
	return after, nil
}

// SessionState is a session's state as memoryd asks for it.
func (b *Broker) SessionState(id string) (policy.State, error) {
	if !sessionIDRE.MatchString(id) {
		return policy.State{}, fmt.Errorf("the session id %q is not 1 to 64 of [a-z0-9-]", id)
	}
	st, err := b.sessions.read(id)
	if err != nil {
		b.logf("%v", err)
	}
	return st, err
}

// reportGrants prints the grants' problems, once for each new set.
func (b *Broker) reportGrants(err error) {
	var inv *policy.InvalidError
	text := err.Error()
	if errors.As(err, &inv) {
		text = inv.Error() + "\n" + err.Error()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if text == b.lastProblem {
		return
	}
	b.lastProblem = text
	for _, l := range strings.Split(text, "\n") {
		fmt.Fprintf(b.cfg.Log, "brokerd: %s\n", l)
	}
}

// grantsValid forgets the problems printed: the next ones are new.
func (b *Broker) grantsValid() {
	b.mu.Lock()
	b.lastProblem = ""
	b.mu.Unlock()
}

// execute runs an allowed call: the file tools and run in a container,
// memory and recall through memoryd. found is what memoryd says of a
// recall's hits: their sources' highest taint, and whether one came from
// tainted memory (Untrusted). mounted is what the runner says it gave the
// container.
func (b *Broker) execute(ctx context.Context, c ToolCall, a arguments, v verdict, forward any) (text string, found policy.State, mounted []string, err error) {
	switch policy.Tool(c.Tool) {
	case policy.ReadFile, policy.ListDir, policy.WriteFile, policy.Run:
		rc := runner.Call{ID: runID(c), Tool: c.Tool, Paths: v.targets, Masks: v.masks, AllowHardLinks: v.HardLinks}
		if a.Content != nil {
			rc.Content = []byte(*a.Content)
		}
		if c.Tool == string(policy.Run) {
			rc.Command = shellQuote(a.Command)
		}
		res, err := b.cfg.Runner.Run(ctx, rc)
		if err != nil {
			return "", policy.State{}, nil, err
		}
		return resultText(res), policy.State{}, res.Mounted, nil
	case policy.Memory, policy.Recall:
		text, found, err := b.forward(ctx, c, forward)
		return text, found, nil, err
	case policy.YaagRun, policy.YaagStatus, policy.YaagStop:
		text, found, err := b.yaagCall(ctx, c, a, v)
		return text, found, nil, err
	case policy.HTTPFetch:
		// The decided, normalised URL: the proxy is given its host only.
		res, err := b.cfg.Runner.Run(ctx, runner.Call{ID: runID(c), Tool: c.Tool, URL: v.targets[0]})
		if err != nil {
			return "", policy.State{}, nil, err
		}
		return runner.FetchText(res), policy.State{}, nil, nil
	}
	return "", policy.State{}, nil, fmt.Errorf("brokerd cannot run %q", c.Tool)
}

// forward sends a memory or recall call to memoryd and returns its text,
// and for recall the state its hits carry (their sources' highest taint,
// and untrusted when one is memory-tainted). A refusal from memoryd (a
// write its sanitizer refused) is the tool's answer; no answer at all is
// memoryd-unreachable. A recall answer that does not say its hits' taint,
// or says one brokerd does not know, is not given: the text might be more
// sensitive than the session may become.
func (b *Broker) forward(ctx context.Context, c ToolCall, args any) (string, policy.State, error) {
	ctx, cancel := context.WithTimeout(ctx, b.cfg.MemoryTimeout)
	defer cancel()
	raw, _ := json.Marshal(args) // maps of strings, numbers and lists
	body := map[string]any{"session": c.Session, "call_id": c.CallID, "arguments": json.RawMessage(raw)}
	var out struct {
		Text    *string `json:"text"`
		Tainted bool    `json:"tainted"`
		Taint   *string `json:"taint"`
	}
	err := daemon.Call(ctx, b.cfg.MemorySocket, c.Tool+".call", body, &out, nil)
	var re *daemon.RemoteError
	switch {
	case errors.As(err, &re):
		return re.Text, policy.State{}, nil
	case err != nil:
		return "", policy.State{}, &runbook.Refusal{Entry: runbook.MemorydUnreachable, Text: MemoryUnavailableText,
			Cause: fmt.Errorf("%s: %v", b.cfg.MemorySocket, err)}
	case out.Text == nil:
		return "", policy.State{}, &runbook.Refusal{Entry: runbook.MemorydUnreachable, Text: MemoryUnavailableText,
			Cause: fmt.Errorf("%s: the answer is not a tool result", b.cfg.MemorySocket)}
	}
	found := policy.State{Untrusted: out.Tainted}
	if c.Tool == string(policy.Memory) && out.Taint != nil {
		// The answer quotes identity entries (an ambiguous piece, a file
		// over its limit): the session reads them, so it rises to their
		// class as for recall.
		t, err := policy.ParseTaint(*out.Taint)
		if err != nil {
			return "", policy.State{}, &runbook.Refusal{Entry: runbook.MemorydUnreachable, Text: MemoryUnavailableText,
				Cause: fmt.Errorf("%s: the memory answer's %v", b.cfg.MemorySocket, err)}
		}
		found.Taint = t
	}
	if c.Tool == string(policy.Recall) {
		if out.Taint == nil {
			return "", policy.State{}, &runbook.Refusal{Entry: runbook.MemorydUnreachable, Text: MemoryUnavailableText,
				Cause: fmt.Errorf("%s: the recall answer does not say its hits' taint", b.cfg.MemorySocket)}
		}
		t, err := policy.ParseTaint(*out.Taint)
		if err != nil {
			return "", policy.State{}, &runbook.Refusal{Entry: runbook.MemorydUnreachable, Text: MemoryUnavailableText,
				Cause: fmt.Errorf("%s: the recall answer's %v", b.cfg.MemorySocket, err)}
		}
		found.Taint = t
	}
	return *out.Text, found, nil
}

// failureNote is a failure as the result record keeps it: a refusal's
// text with its cause (what the model is not told: the path that
// changed, what Podman said) and its entry.
func failureNote(err error) string {
	var r *runbook.Refusal
	if errors.As(err, &r) && r.Cause != nil {
		return r.Text + " (" + r.Cause.Error() + "); " + runbook.Link(r.Entry)
	}
	return err.Error()
}

// failureText prints what went wrong for the operator and returns what
// the model is given.
func (b *Broker) failureText(c ToolCall, err error) string {
	var r *runbook.Refusal
	if errors.As(err, &r) {
		cause := ""
		if said, ok := runner.PodmanSaid(err); ok {
			cause = " (podman said: " + strings.TrimSpace(said) + ")"
		} else if r.Cause != nil {
			cause = " (" + r.Cause.Error() + ")"
		}
		b.logf("call %s (%s): %s%s; %s", c.CallID, c.Tool, r.Text, cause, runbook.Link(r.Entry))
		return r.Error()
	}
	b.logf("call %s (%s) failed: %v", c.CallID, c.Tool, err)
	return "the tool failed: " + err.Error()
}
