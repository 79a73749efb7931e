package broker

import (
	"context"
	"fmt"
	"strings"

	"boxmaker/audit"
	"boxmaker/core/approval"
	"boxmaker/core/brokerwire"
	"boxmaker/core/policy"
	"boxmaker/core/sessionid"
	"boxmaker/runbook"
)

// call is one tool call on its way through Call's steps: what the request
// said, the session's state and the verdict so far, and the answer being
// made.
type call struct {
	brokerwire.ToolCall
	key     callKey
	args    arguments
	targets []string
	forward any    // memory and recall: the arguments memoryd is sent
	problem string // a reason to deny before the grants are asked (bad arguments, a full disk)

	state   policy.State
	v       verdict
	ans     brokerwire.Answer
	outcome string // what a call that ran is answered: allowed, or approved

	unlock func() // the session's lock while it is held
}

// lockSession and unlockSession hold the session's lock from reading its
// state to writing it; only an approval's wait lets go of it.
func (b *Broker) lockSession(c *call) { c.unlock = b.sessions.lock(c.Session) }

func (c *call) unlockSession() {
	if c.unlock != nil {
		c.unlock()
		c.unlock = nil
	}
}

// Call decides, records and runs one call and returns what loopd gives
// the model. asked, when not nil, is told the approval's id when the call
// waits for the owner. An error means brokerd could not decide at all
// (the audit log cannot be written, a malformed request): nothing ran.
//
// Its steps, each a method below: decide (the session's state, the
// grants, the decision record), ask (an ask verdict waits for the owner
// and is decided again), run, raise (the session's state, on disk) and
// record (the result). Each step either hands the call on or ends it with
// an answer; the package doc says how a record that cannot be written
// ends it.
func (b *Broker) Call(ctx context.Context, tc brokerwire.ToolCall, asked func(approval string)) (brokerwire.Answer, error) {
	if err := checkCallIDs(tc); err != nil {
		return brokerwire.Answer{}, err
	}
	key := callKey{tc.Session, tc.CallID}
	if !b.claim(key) {
		return brokerwire.Answer{}, fmt.Errorf("the call id %q is already being handled", tc.CallID)
	}
	defer b.release(key)
	c := &call{ToolCall: tc, key: key, outcome: brokerwire.OutcomeAllowed}
	b.lockSession(c)
	defer c.unlockSession()
	// A home nearly full refuses the call whatever else holds, and first:
	// knowing a new session's older calls writes its state file, which
	// cannot be written then, and the refusal is a denial (no id check
	// is needed to deny).
	low := b.diskLow()
	if low == "" {
		if err := b.knowOlderCalls(tc.Session); err != nil {
			b.logf("call %s of session %s (%s) denied: %s: %v", tc.CallID, tc.Session, tc.Tool, OlderCallsUnreadableText, err)
			return brokerwire.Answer{Outcome: brokerwire.OutcomeDenied, Text: olderCallsDenied(),
				Decision: brokerwire.Decision{Effect: string(policy.Deny)}}, nil
		}
	}
	if b.decided.has(key) {
		b.logf("call %s of session %s (%s) denied: %s", tc.CallID, tc.Session, tc.Tool, CallIDReusedText)
		return brokerwire.Answer{Outcome: brokerwire.OutcomeDenied, Text: entryText(runbook.CallIDReused, CallIDReusedText),
			Decision: brokerwire.Decision{Effect: string(policy.Deny)}}, nil
	}
	c.args, c.targets, c.forward, c.problem = parseArguments(tc.Tool, tc.Arguments)
	if c.problem == "" {
		c.problem = low
	}

	if done, err := b.decideCall(c); done || err != nil {
		return c.ans, err
	}
	if done, err := b.askOwner(ctx, c, asked); done || err != nil {
		return c.ans, err
	}
	b.grantsValid()
	text, notes, found, mounted, err := b.execute(ctx, tc, c.args, c.v, c.forward)
	if err != nil {
		if isMCP(c.Tool) {
			// How an MCP call fails is the server's choice, and so a few
			// bits of what it was given: the session rises as for an
			// answer (D1019).
			after, ok := b.raise(c, policy.State{})
			if !ok {
				return c.ans, nil
			}
			c.state = after
		}
		b.recordFailure(c, err)
		return c.ans, nil
	}
	after, ok := b.raise(c, found)
	if !ok {
		return c.ans, nil
	}
	b.recordResult(c, after, found, mounted, text)
	if c.ans.Outcome == c.outcome {
		c.ans.Notes = notes
	}
	return c.ans, nil
}

// checkCallIDs refuses ids a call may not have (core/sessionid): they
// name files, containers and audit records.
func checkCallIDs(c brokerwire.ToolCall) error {
	if err := sessionid.Check(c.Session); err != nil {
		return err
	}
	return sessionid.CheckCall(c.CallID)
}

// decideCall reads the session's state, decides the call and records the
// decision. It is done (the answer made) for a denial, a state it cannot
// read, or a decision it cannot record (the error).
func (b *Broker) decideCall(c *call) (done bool, err error) {
	state, err := b.sessions.read(c.Session)
	if err != nil {
		b.logf("%v", err)
		rec := audit.Record{Type: audit.TypeDecision, Call: c.CallID, Tool: cutField(c.Tool, MaxToolName), Target: recordTargets(c.targets),
			Effect: string(policy.Deny), Session: c.Session, Note: StateDamagedText}
		if err := b.recordDecision(c.key, rec); err != nil {
			return true, err
		}
		c.ans = brokerwire.Answer{Outcome: brokerwire.OutcomeDenied, Text: entryText(runbook.BrokerStateDamaged, StateDamagedText),
			Decision: brokerwire.Decision{Effect: string(policy.Deny)}}
		return true, nil
	}
	c.state = state
	if c.problem != "" {
		c.v = verdict{Decision: policy.Decision{Verdict: policy.Deny, Reason: c.problem}}
	} else {
		c.v = b.decideFor(c.ToolCall, c.targets, state)
	}
	note := c.v.Reason
	if c.Tool == string(policy.Run) && len(c.args.Command) > 0 && c.problem == "" {
		note += "; command: " + shellQuote(c.args.Command) // what runs is part of what was decided
	}
	if isMCP(c.Tool) && c.problem == "" {
		note += mcpNote(c.v, c.Arguments) // what the server is given, and what it is sent
	}
	if len(c.v.masks) > 0 {
		note += "; masked: " + maskNote(c.v.masks) // what deny grants keep from the container
	}
	rec := audit.Record{Type: audit.TypeDecision, Call: c.CallID, Tool: cutField(c.Tool, MaxToolName), Target: c.v.recordTarget(c.targets),
		Effect: string(c.v.Verdict), Grant: c.v.Grant, Session: c.Session, Taint: state.Taint.String(), Note: note}
	if c.Tool == string(policy.WriteFile) && c.args.Content != nil {
		rec.ContentSHA256 = approval.SHA256([]byte(*c.args.Content)) // what the call hash covers, checkable on disk
	}
	if err := b.recordDecision(c.key, rec); err != nil {
		return true, err
	}
	c.ans = brokerwire.Answer{Decision: brokerwire.Decision{Effect: string(c.v.Verdict), Grant: c.v.Grant}}
	switch c.v.Verdict {
	case policy.Allow, policy.Ask:
		return false, nil
	}
	c.ans.Outcome = brokerwire.OutcomeDenied
	c.ans.Decision.Resolved = c.v.resolvedElsewhere()
	if c.v.Err != nil {
		b.reportGrants(c.v.Err)
		c.ans.Text = c.v.Err.Error()
	} else {
		c.ans.Text = "denied: " + c.v.Reason
	}
	return true, nil
}

// askOwner makes an ask verdict wait for the owner, outside the session's
// lock, and decides an approved call again under it. It is done when the
// owner refused, no answer came, or the call may not run after all.
func (b *Broker) askOwner(ctx context.Context, c *call, asked func(string)) (done bool, err error) {
	if c.v.Verdict != policy.Ask {
		return false, nil
	}
	c.unlockSession()
	if policy.Tool(c.Tool) == policy.YaagRun {
		// The owner approves what will run, not a path: the files the
		// Run would read, hashed, which the approved Run must read again.
		if err := b.yaagProgram(ctx, c); err != nil {
			b.recordFailure(c, err)
			return true, nil
		}
	}
	p, a, err := b.ask(ctx, c.ToolCall, c.v, asked)
	if err != nil {
		return true, err
	}
	c.ans.Approval = p.ID
	switch {
	case a == nil: // expired or abandoned: ask said which in outcome
		c.ans, err = b.unanswered(ctx, c.ans, p)
		return true, err
	case !a.approved:
		c.ans.Outcome, c.ans.Text = brokerwire.OutcomeRefused, "the owner refused this call"
		if a.why != "" {
			c.ans.Text += ": " + a.why
		}
		return true, nil
	}
	b.lockSession(c)
	// The owner approved this call; the session may have moved on
	// meanwhile, so it is decided again, and must come out the same.
	again, why := b.redecide(c.ToolCall, c.targets, c.v, a)
	if why != "" {
		rec := audit.Record{Type: audit.TypeResult, Call: c.CallID, Session: c.Session, Outcome: brokerwire.OutcomeDenied, Note: why}
		if err := b.recordBefore(rec); err != nil {
			return true, err
		}
		c.ans.Outcome, c.ans.Text = brokerwire.OutcomeDenied, why
		return true, nil
	}
	program := c.v.program
	c.state, c.v = again.state, again.v
	c.v.program = program
	c.outcome = brokerwire.OutcomeApproved
	return false, nil
}

// recordFailure answers a call whose tool failed, and records it.
func (b *Broker) recordFailure(c *call, err error) {
	c.ans.Outcome, c.ans.Text = brokerwire.OutcomeFailed, b.failureText(c.ToolCall, err)
	rec := audit.Record{Type: audit.TypeResult, Call: c.CallID, Session: c.Session, Outcome: brokerwire.OutcomeFailed, TaintAfter: c.state.Taint.String(),
		Untrusted: c.state.Untrusted, Note: failureNote(err)}
	if !b.recordAfter(rec) {
		c.ans.Text = entryText(runbook.AuditUnavailable, ResultUnrecordedText)
	}
}

// raise writes the session's state after the call ran: raised to the
// grant's class and, for recall, to the highest taint of its hits'
// sources (text a secret session read stays secret wherever it is
// recalled: decision D61). When the state cannot be written the result is
// withheld (ok is false): the data may be of a higher class than the state
// on disk says, and it must not reach the model.
func (b *Broker) raise(c *call, found policy.State) (after policy.State, ok bool) {
	after = c.state.Raise(c.v.Class, c.v.Untrusted).Raise(found.Taint, found.Untrusted)
	if after == c.state {
		return after, true
	}
	if err := b.sessions.write(c.Session, after); err != nil {
		b.logf("%v", err)
		b.recordAfter(audit.Record{Type: audit.TypeResult, Call: c.CallID, Session: c.Session, Outcome: brokerwire.OutcomeFailed,
			Note: "ran, but the session state could not be written; the result was withheld"})
		c.ans.Outcome, c.ans.Text = brokerwire.OutcomeFailed, entryText(runbook.BrokerStateDamaged, ResultUnrecordedText)
		return after, false
	}
	return after, true
}

// recordResult records the result and only then answers with it.
func (b *Broker) recordResult(c *call, after, found policy.State, mounted []string, text string) {
	res := audit.Record{Type: audit.TypeResult, Call: c.CallID, Session: c.Session, Outcome: "ran", TaintAfter: after.Taint.String(), Untrusted: after.Untrusted}
	if found.Taint > c.v.Class {
		what := "the recall hits' sources are "
		if c.Tool == string(policy.Memory) {
			what = "the entries the memory answer quotes are "
		}
		res.Note = what + found.Taint.String() + ", above the grant's class " + c.v.Class.String()
	}
	if len(mounted) > 0 {
		// What the container was given, object by object: the decided
		// path and the device and inode the runner held open.
		res.Note = "mounted " + strings.Join(mounted, "; ")
	}
	if !b.recordAfter(res) {
		c.ans.Outcome, c.ans.Text = brokerwire.OutcomeFailed, entryText(runbook.AuditUnavailable, ResultUnrecordedText)
		return
	}
	c.ans.Outcome, c.ans.Text = c.outcome, text
}

// recordDecision records a call's decision (recordBefore); once it is on
// disk the call's key is decided.
func (b *Broker) recordDecision(k callKey, rec audit.Record) error {
	if err := b.recordBefore(rec); err != nil {
		return err
	}
	b.decided.add(k)
	return nil
}

// recordBefore appends a record of a call that has not run, or of a
// session not yet started: a decision, an approval's request, expiry or
// abandonment, a denial after an approval, a session's start. A record
// that cannot be appended stops the call: the error (audit-unavailable)
// is what Call returns, the ledger's error is logged, and nothing runs.
func (b *Broker) recordBefore(rec audit.Record) error {
	if _, err := b.cfg.Ledger.Append(rec); err != nil {
		return b.auditFailed(err)
	}
	return nil
}

// recordAfter appends the result record of a call that ran (or failed
// running). A record that cannot be appended withholds the result: ok is
// false, the ledger's error is logged, and the caller answers failed.
func (b *Broker) recordAfter(rec audit.Record) (ok bool) {
	if _, err := b.cfg.Ledger.Append(rec); err != nil {
		b.logf("%v", err)
		return false
	}
	return true
}
