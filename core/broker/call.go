package broker

import (
	"context"
	"fmt"
	"strings"

	"boxmaker/audit"
	"boxmaker/core/approval"
	"boxmaker/core/policy"
	"boxmaker/runbook"
)

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
