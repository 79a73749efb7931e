package broker

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"boxmaker/core/brokerwire"
	"boxmaker/core/policy"
	"boxmaker/core/yaagwire"
	"boxmaker/runbook"
)

// verdict is a decision over every target of a call.
type verdict struct {
	policy.Decision
	targets []string      // resolved, one per target
	masks   []policy.Mask // run: what deny grants cover below its targets
	// top is the target whose grant has the highest class, and that grant.
	topTarget, topGrant string
	// program is, for an approved yaag_run, the manifest of the files the
	// owner approved: the Run must read exactly these.
	program *yaagwire.Manifest
	// denied is, for a deny, the target as the call named it (Target is
	// where it resolved).
	denied string
	// mcpPlan is, for a call of an MCP server's tool, what the server's
	// container is given (decideMCP).
	mcpPlan *policy.MCPPlan
}

// decideFor decides a call: an MCP server's tool by decideMCP, any
// other by its targets.
func (b *Broker) decideFor(c brokerwire.ToolCall, targets []string, st policy.State) verdict {
	if isMCP(c.Tool) {
		return b.decideMCP(c, st)
	}
	return b.decide(c.Tool, targets, st)
}

// resolvedElsewhere is where a denied path resolved, when a link made it
// another path than the call named; "" otherwise. It is for the person
// (brokerwire.Decision.Resolved), never for the model's text.
func (v verdict) resolvedElsewhere() string {
	if v.Verdict != policy.Deny || v.Target == "" || !filepath.IsAbs(v.denied) || filepath.Clean(v.denied) == v.Target {
		return ""
	}
	return v.Target
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
	// (A run of one target is decided at its class by the policy itself.)
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
			return verdict{Decision: d, denied: t}
		}
		if i == 0 || (d.Verdict == policy.Ask && v.Verdict != policy.Ask) {
			v.Verdict, v.Reason = d.Verdict, d.Reason
		}
		if i == 0 || d.Class > v.Class {
			v.topTarget, v.topGrant = t, d.Grant
			if d.ClassGrant != "" {
				v.topTarget, v.topGrant = d.ClassPath, d.ClassGrant
			}
		}
		v.Class = policy.MaxTaint(v.Class, d.Class)
		v.Untrusted = v.Untrusted || d.Untrusted
		v.HardLinks = d.HardLinks // the file tools have one target
		if !slices.Contains(grants, d.Grant) {
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
func (b *Broker) redecide(c brokerwire.ToolCall, targets []string, was verdict, a *answer) (redecided, string) {
	if a.callHash != CallHash(c) {
		return redecided{}, "denied: the approval was given for another call"
	}
	st, err := b.sessions.read(c.Session)
	if err != nil {
		b.logf("%v", err)
		return redecided{}, entryText(runbook.BrokerStateDamaged, StateDamagedText)
	}
	v := b.decideFor(c, targets, st)
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
