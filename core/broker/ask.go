package broker

import (
	"context"
	"fmt"
	"time"

	"boxmaker/audit"
	"boxmaker/core/approval"
	"boxmaker/core/brokerwire"
	"boxmaker/core/gatewaywire"
	"boxmaker/core/policy"
	"boxmaker/runbook"
)

// ask makes a pending approval, records it and waits. A nil answer means
// none came: the approval expired (recorded) or brokerd is stopping
// (recorded as abandoned); unanswered tells which.
func (b *Broker) ask(ctx context.Context, c brokerwire.ToolCall, v verdict, asked func(string)) (*pending, *answer, error) {
	now := b.cfg.Now()
	target := v.recordTarget(nil)
	if v.mcpPlan != nil {
		// What the server can reach while it runs the call.
		target = "the server is given " + mcpGiven(*v.mcpPlan)
	}
	var change *brokerwire.Change
	if policy.Tool(c.Tool) == policy.WriteFile && len(v.targets) == 1 {
		change = b.writeChange(v.targets[0], c.Arguments)
	}
	p := b.approvals.add(Pending{Change: change, Call: c.CallID, Session: c.Session, Tool: c.Tool, Target: target, Grant: v.Grant,
		CallHash: CallHash(c), Arguments: approval.Compact(c.Arguments), ArgumentsHash: approval.ArgumentsHash(c.Arguments),
		Requested: now, Expires: now.Add(b.cfg.ExpireAfter), Program: v.program})
	rec := audit.Record{Type: audit.TypeApprovalRequested, Call: c.CallID, Approval: p.ID, CallSHA256: p.CallHash,
		ArgumentsSHA256: p.ArgumentsHash, Session: c.Session, Tool: c.Tool, Target: target, Grant: v.Grant}
	if v.program != nil {
		// What the owner is asked to approve: the manifest of the Run's
		// files, which the Run checks again before it runs.
		rec.ContentSHA256 = v.program.SHA256
	}
	if err := b.recordBefore(rec); err != nil {
		b.approvals.take(p.ID)
		return nil, nil, err
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
	case <-goneOf(ctx):
		// The caller went (the person stopped the reply): nobody waits
		// for the answer, and the approval is withdrawn, not left to
		// be approved for a call that is no longer there.
		if _, mine := b.approvals.take(p.ID); mine {
			p.withdrawn = true
			return p, nil, nil
		}
		a = <-p.ch
	}
	if a.err != nil {
		return nil, nil, runbook.WithCause(runbook.AuditUnavailable, AuditUnavailableText, a.err)
	}
	return p, &a, nil
}

// unanswered records and answers an approval that expired, or that was
// abandoned because brokerd is stopping.
func (b *Broker) unanswered(ctx context.Context, ans brokerwire.Answer, p *pending) (brokerwire.Answer, error) {
	typ, outcome := audit.TypeApprovalExpired, brokerwire.OutcomeExpired
	text := fmt.Sprintf("the owner did not answer in time: the approval %s expired after %s", p.ID, b.cfg.ExpireAfter)
	switch {
	case p.withdrawn:
		typ, outcome = audit.TypeApprovalWithdrawn, brokerwire.OutcomeFailed
		text = fmt.Sprintf("the reply was stopped before the owner answered; the approval %s was withdrawn", p.ID)
	case ctx.Err() != nil:
		typ, outcome = audit.TypeApprovalAbandoned, brokerwire.OutcomeFailed
		text = fmt.Sprintf("brokerd stopped before the owner answered; the approval %s was abandoned", p.ID)
	}
	rec := audit.Record{Type: typ, Call: p.Call, Approval: p.ID, Session: p.Session}
	err := b.recordBefore(rec)
	if p.withdrawn {
		b.logf("approval %s for session %s withdrawn: its caller went before an answer (the reply was stopped)", p.ID, p.Session)
	}
	if b.cfg.Courier != nil {
		word := gatewaywire.OutcomeExpired
		switch typ {
		case audit.TypeApprovalAbandoned:
			word = gatewaywire.OutcomeAbandoned
		case audit.TypeApprovalWithdrawn:
			word = gatewaywire.OutcomeWithdrawn
		}
		b.cfg.Courier.ended(p.ID, word, "", "")
	}
	if err != nil {
		return brokerwire.Answer{}, err
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
