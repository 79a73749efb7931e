package boxmaker

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"boxmaker/audit"
	"boxmaker/core/brokerwire"
	"boxmaker/core/daemon"
	"boxmaker/core/home"
	"boxmaker/core/llamastandin"
	"boxmaker/core/loop"
	"boxmaker/core/loopwire"
	"boxmaker/core/memory"
	"boxmaker/core/memorywire"
	"boxmaker/core/policy"
	"boxmaker/core/termsafe"
)

// demoStep is one message of the person and what must come of it.
type demoStep struct {
	title      string
	person     string
	newSession bool
	startTaint policy.Taint  // a new session's taint at its start: its memory block's class
	tool       policy.Tool   // the call the step is about
	target     string        // its path; empty for memory and recall
	outcome    string        // what brokerd must answer
	effect     policy.Effect // the decision the audit log must hold
	taintAfter policy.Taint  // the session's taint after the call
	approve    bool          // the call waits on an approval the demo gives
	inBlock    bool          // the session's memory block must hold the memory entry
	gets       string        // a text the agent must have been given
	args       any           // the scripted stand-in's call: the tool's arguments
	reply      string        // and its reply once the call is answered
}

func demoSteps(f demoFiles) []demoStep {
	return []demoStep{
		{
			title:  "a file the grants allow",
			person: fmt.Sprintf("Read %s and tell me in one sentence what the project is.", f.Readme),
			tool:   policy.ReadFile, target: f.Readme, outcome: brokerwire.OutcomeAllowed, effect: policy.Allow, taintAfter: policy.Private,
			gets:  readmeMarker,
			args:  map[string]string{"path": f.Readme},
			reply: "Lighthouse watches a directory of logs and rings a bell when one of them says ERROR.",
		},
		{
			title:  "a file outside the grants",
			person: fmt.Sprintf("Now read %s.", f.Diary),
			tool:   policy.ReadFile, target: f.Diary, outcome: brokerwire.OutcomeDenied, effect: policy.Deny, taintAfter: policy.Private,
			gets:  "no grant allows read_file",
			args:  map[string]string{"path": f.Diary},
			reply: "I may not read that file: no grant covers it, so I will leave it alone.",
		},
		{
			title:  "a secret the owner must approve",
			person: fmt.Sprintf("Read %s and tell me which server the token is for.", f.Token),
			tool:   policy.ReadFile, target: f.Token, outcome: brokerwire.OutcomeApproved, effect: policy.Ask, taintAfter: policy.Secret,
			approve: true, gets: tokenMarker,
			args:  map[string]string{"path": f.Token},
			reply: "You approved it: the token is for staging.example.org. This conversation now holds a secret.",
		},
		{
			title:  "a write the session's taint forbids",
			person: fmt.Sprintf("Write a one-line summary of the project to %s.", f.Summary),
			tool:   policy.WriteFile, target: f.Summary, outcome: brokerwire.OutcomeDenied, effect: policy.Deny, taintAfter: policy.Secret,
			gets:  "once the session's taint is secret",
			args:  map[string]string{"path": f.Summary, "content": "Lighthouse rings a bell on ERROR lines.\n"},
			reply: "I could not write it: this session holds a secret now, and the write grant stops at private data.",
		},
		{
			title:      "a memory entry, in a new session",
			person:     fmt.Sprintf("This is a new conversation. Use your memory tool to remember this: %q", memoryEntry),
			newSession: true, startTaint: policy.Public,
			tool: policy.Memory, outcome: brokerwire.OutcomeAllowed, effect: policy.Allow, taintAfter: policy.Private,
			args:  map[string]any{"actions": []map[string]string{{"action": "add", "file": "memory", "text": memoryEntry}}},
			reply: "Noted in my memory.",
		},
		{
			title:      "recalling it, in another new session",
			person:     fmt.Sprintf("Another new conversation. Use recall to search past conversations for %q and tell me what you find.", recallWords),
			newSession: true, inBlock: true, startTaint: policy.Public,
			tool: policy.Recall, outcome: brokerwire.OutcomeAllowed, effect: policy.Allow, taintAfter: policy.Secret,
			gets:  memoryKey,
			args:  map[string]any{"query": recallWords},
			reply: "I found it in our earlier conversation: the Lighthouse tests run with make check.",
		},
	}
}

// standinScript is the stand-in's part: loopd's selftest probe, then each
// step's replies in order.
func standinScript(steps []demoStep) llamastandin.Script {
	s := llamastandin.Script{Turns: []llamastandin.Turn{
		{When: loop.ProbePrompt, ToolCalls: []llamastandin.ToolCall{{Name: loop.ProbeTool, Arguments: json.RawMessage(`{"text":"ok"}`)}}},
		{When: loop.ProbeResult, Content: "ok"},
	}}
	for _, st := range steps {
		raw, _ := json.Marshal(st.args)
		s.Turns = append(s.Turns,
			llamastandin.Turn{ToolCalls: []llamastandin.ToolCall{{Name: string(st.tool), Arguments: raw}}},
			llamastandin.Turn{Content: st.reply})
	}
	return s
}

// demoRow is one tool call as the table shows it.
type demoRow struct {
	call, tool, target, outcome, approval string
}

// turnLog is what one turn showed, and what the checks found of it.
type turnLog struct {
	session, earlier string           // the turn's session; the one before a new session
	calls            []loopwire.Event // tool_call events
	results          map[string]loopwire.Event
	asked            map[string]string // call id -> approval id
	reply            string

	call   *loopwire.Event // the step's call, once found
	result loopwire.Event  // its result
	audit  *auditCall      // what the audit log says of it
}

// demoChecks are what every step is checked for, in order; each returns
// nil for a step it does not concern.
var demoChecks = []func(*demoRun, demoStep, *turnLog) error{
	(*demoRun).checkStart,
	(*demoRun).checkBaseline,
	(*demoRun).checkCall,
	(*demoRun).checkAudit,
	(*demoRun).checkMemory,
	(*demoRun).checkRecall,
	(*demoRun).checkDone,
}

// converse plays the steps, each one turn, and checks each.
func (d *demoRun) converse(ctx context.Context) error {
	session := ""
	for i, st := range d.steps {
		n := i + 1
		tl := &turnLog{session: session, results: map[string]loopwire.Event{}, asked: map[string]string{}}
		if st.newSession {
			tl.earlier, tl.session = session, ""
		}
		d.say("")
		d.say("== %d. %s", n, st.title)
		d.say("person: %s", st.person)
		err := d.turn(ctx, st, tl)
		switch {
		case err != nil && ctx.Err() != nil:
			return fmt.Errorf("interrupted at step %d (%s)", n, st.title)
		case err != nil:
			return fmt.Errorf("step %d (%s): %w", n, st.title, err)
		}
		for _, check := range demoChecks {
			if err := check(d, st, tl); err != nil {
				return fmt.Errorf("step %d (%s): %w", n, st.title, err)
			}
		}
		session = tl.session
	}
	return nil
}

// turn sends the step's message on loopd's loop socket, as bxctl chat
// does, shows its events, and approves the call that asks when the step
// says so.
func (d *demoRun) turn(ctx context.Context, st demoStep, tl *turnLog) error {
	midLine := false
	endLine := func() {
		if midLine {
			fmt.Fprintln(d.out)
			midLine = false
		}
	}
	defer endLine()
	tctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	var res loopwire.TurnResult
	err := daemon.Call(tctx, d.h.Path(home.SocketLoop), loopwire.KindTurn, loopwire.TurnRequest{Session: tl.session, Who: "owner", Text: st.person}, &res, func(raw json.RawMessage) error {
		var e loopwire.Event
		if err := json.Unmarshal(raw, &e); err != nil {
			return err
		}
		switch e.Event {
		case loopwire.EventSession:
			if e.Session != tl.session {
				endLine()
				d.say("  (session %s)", e.Session)
			}
		case loopwire.EventText:
			if !midLine {
				fmt.Fprint(d.out, "agent: ")
			}
			fmt.Fprint(d.out, termsafe.Text(e.Text))
			midLine = !strings.HasSuffix(e.Text, "\n")
		case loopwire.EventToolCall:
			endLine()
			tl.calls = append(tl.calls, e)
			d.say("  tool call %s: %s %s", e.CallID, e.Tool, d.shortArgs(e.Arguments))
		case loopwire.EventAsked:
			endLine()
			tl.asked[e.CallID] = e.Approval
			d.say("  call %s waits for the owner: approval %s", e.CallID, e.Approval)
			if st.approve {
				return d.approve(tctx, e.Approval, e.CallID)
			}
		case loopwire.EventToolResult:
			endLine()
			tl.results[e.CallID] = e
			text := strings.ReplaceAll(strings.TrimSpace(e.Text), "\n", " | ")
			if len(text) > 160 {
				text = text[:160] + "..."
			}
			d.say("  call %s %s: %s", e.CallID, strings.ToUpper(e.Outcome), termsafe.Line(text))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("the turn failed: %w", err)
	}
	tl.session, tl.reply = res.Session, res.Reply
	return nil
}

// shortArgs shows a call's arguments with the demo's paths shortened.
func (d *demoRun) shortArgs(raw json.RawMessage) string {
	s := string(raw)
	s = strings.ReplaceAll(s, d.files.Root+"/", "")
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return termsafe.Line(s)
}

// approve answers an approval on brokerd's admin socket as 'bxctl
// approve' does, after checking that 'bxctl approvals' would list it.
func (d *demoRun) approve(ctx context.Context, id, call string) error {
	admin := d.h.Path(home.SocketBrokerAdmin)
	var list brokerwire.ApprovalsList
	if err := daemon.Call(ctx, admin, brokerwire.KindApprovalsList, nil, &list, nil); err != nil {
		return fmt.Errorf("bxctl approvals: %w", err)
	}
	var p *brokerwire.Pending
	for i := range list.Approvals {
		if list.Approvals[i].ID == id {
			p = &list.Approvals[i]
		}
	}
	if p == nil {
		return fmt.Errorf("the approval %s is not among those pending (%d)", id, len(list.Approvals))
	}
	if p.Call != call {
		return fmt.Errorf("the approval %s is for call %s, not %s", id, p.Call, call)
	}
	d.say("  demo, as the owner: bxctl approvals lists %s (%s on %s); running 'bxctl approve %s'", id, p.Tool, d.short(p.Target), id)
	var ans brokerwire.Pending
	if err := daemon.Call(ctx, admin, brokerwire.KindApprovalAnswer, brokerwire.ApprovalAnswer{ID: id, Answer: brokerwire.Approve}, &ans, nil); err != nil {
		return fmt.Errorf("bxctl approve %s: %w", id, err)
	}
	d.say("  approve: %s approved (call %s: %s on %s)", ans.ID, ans.Call, ans.Tool, d.short(ans.Target))
	return nil
}

// checkStart makes sure brokerd recorded a new session's starting taint
// (the class of its memory block, which memoryd told loopd) before its
// first call, and says what it was.
func (d *demoRun) checkStart(st demoStep, tl *turnLog) error {
	if !st.newSession {
		return nil
	}
	recs, err := audit.Records(d.h.Path(home.DirAudit))
	if err != nil {
		return fmt.Errorf("cannot read the audit log: %w", err)
	}
	for i, r := range recs {
		if r.Type != audit.TypeSessionStart || r.Session != tl.session {
			continue
		}
		for _, later := range recs[:i] {
			if later.Type == audit.TypeDecision && later.Session == tl.session {
				return fmt.Errorf("the session %s had a call decided before its start was recorded", tl.session)
			}
		}
		if r.Taint != st.startTaint.String() {
			return fmt.Errorf("the new session started at taint %s, not %s", r.Taint, st.startTaint)
		}
		d.say("  check: the new session started at taint %s (%s)", r.Taint, r.Note)
		return nil
	}
	return fmt.Errorf("the audit log holds no session_start for the new session %s", tl.session)
}

// checkBaseline makes sure a new session started with the memory entry in
// its memory block: its log's baseline record holds what memoryd gave.
func (d *demoRun) checkBaseline(st demoStep, tl *turnLog) error {
	if !st.inBlock {
		return nil
	}
	path := loop.LogPath(d.h.Path(home.DirSessions), tl.session, 0)
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	recs, err := loop.ParseLog(path, data)
	if err != nil {
		return err
	}
	if len(recs) == 0 || recs[0].Type != loop.TypeBaseline || !strings.Contains(recs[0].Memory, memoryKey) {
		return fmt.Errorf("the new session's memory block (the baseline of %s) lacks the entry (%q)", path, memoryKey)
	}
	d.say("  check: the new session's memory block holds the entry (memoryd gave it to loopd)")
	return nil
}

// checkCall finds the step's call among the model's and checks what
// brokerd answered it and what the agent was given.
func (d *demoRun) checkCall(st demoStep, tl *turnLog) error {
	for i, c := range tl.calls {
		if c.Tool != string(st.tool) {
			continue
		}
		if st.target != "" {
			var a struct {
				Path string `json:"path"`
			}
			if json.Unmarshal(c.Arguments, &a) != nil || a.Path != st.target {
				continue
			}
		}
		tl.call = &tl.calls[i]
		break
	}
	if tl.call == nil {
		what := string(st.tool) + " call"
		if st.target != "" {
			what += " on " + st.target
		}
		return fmt.Errorf("the model made no %s (it made %d tool calls)", what, len(tl.calls))
	}
	id := tl.call.CallID
	res, ok := tl.results[id]
	if !ok {
		return fmt.Errorf("call %s has no result", id)
	}
	tl.result = res
	approval := tl.asked[id]
	switch {
	case st.approve && approval == "":
		return fmt.Errorf("call %s did not wait for an approval", id)
	case !st.approve && approval != "":
		return fmt.Errorf("call %s waited for approval %s, which no grant should have asked", id, approval)
	case res.Outcome != st.outcome:
		return fmt.Errorf("call %s was %s (%s), not %s", id, res.Outcome, res.Text, st.outcome)
	case st.gets != "" && !strings.Contains(res.Text, st.gets):
		return fmt.Errorf("call %s gave the agent %q, which lacks %q", id, res.Text, st.gets)
	}
	return nil
}

// checkAudit makes sure the audit log holds the call's decision and the
// session's taint after it.
func (d *demoRun) checkAudit(st demoStep, tl *turnLog) error {
	calls, err := d.auditCalls()
	if err != nil {
		return err
	}
	id := tl.call.CallID
	a, ok := calls[id]
	switch {
	case !ok:
		return fmt.Errorf("the audit log holds no decision for call %s", id)
	case a.effect != string(st.effect):
		return fmt.Errorf("the audit log holds the decision %s for call %s, not %s", a.effect, id, st.effect)
	case a.taintAfter() != st.taintAfter.String():
		return fmt.Errorf("the session's taint after call %s is %s, not %s", id, a.taintAfter(), st.taintAfter)
	}
	tl.audit = a
	return nil
}

// checkMemory makes sure a memory call's entry reached memory.md. In a
// home init makes, review is on: memoryd staged the write, and the demo
// accepts it as the owner would with bxctl memory review and accept.
func (d *demoRun) checkMemory(st demoStep, _ *turnLog) error {
	if st.tool != policy.Memory {
		return nil
	}
	if err := d.acceptStaged(); err != nil {
		return err
	}
	data, err := os.ReadFile(d.h.Path(home.DirMemory, memory.MemoryFile))
	if err != nil || !strings.Contains(string(data), memoryKey) {
		return fmt.Errorf("memory/memory.md does not hold the entry (%q) (%v)", memoryKey, err)
	}
	d.say("  check: memory/memory.md holds the entry")
	return nil
}

// acceptStaged accepts the staged edit that holds the memory entry, when
// there is one, through memoryd's admin socket (as bxctl memory accept).
func (d *demoRun) acceptStaged() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admin := d.h.Path(home.SocketMemoryAdmin)
	var review memorywire.ReviewAnswer
	if err := daemon.Call(ctx, admin, memorywire.KindReview, nil, &review, nil); err != nil {
		return fmt.Errorf("cannot list the staged memory edits: %w", err)
	}
	for _, e := range review.Staged {
		if len(e.Actions) == 0 || !strings.Contains(e.Actions[0].Text, memoryKey) {
			continue
		}
		var ans memorywire.AcceptAnswer
		if err := daemon.Call(ctx, admin, memorywire.KindAccept, memorywire.EditRequest{Edit: e.Edit}, &ans, nil); err != nil {
			return fmt.Errorf("cannot accept the staged edit %s: %w", e.Edit, err)
		}
		d.say("  check: memoryd staged the write for the owner's review as edit %s; accepted, as bxctl memory accept %s does: %s", e.Edit, e.Edit, ans.Answer)
	}
	return nil
}

// checkRecall makes sure recall found the session before this one.
func (d *demoRun) checkRecall(st demoStep, tl *turnLog) error {
	if st.tool != policy.Recall || tl.earlier == "" {
		return nil
	}
	if !strings.Contains(tl.result.Text, "session "+tl.earlier) {
		return fmt.Errorf("recall found nothing of the earlier session %s: %q", tl.earlier, tl.result.Text)
	}
	d.say("  check: recall found the earlier session %s", tl.earlier)
	return nil
}

// checkDone keeps the step's row for the table and says it passed.
func (d *demoRun) checkDone(_ demoStep, tl *turnLog) error {
	d.rows = append(d.rows, demoRow{call: tl.call.CallID, tool: tl.call.Tool, target: tl.audit.target, outcome: tl.result.Outcome, approval: tl.asked[tl.call.CallID]})
	d.say("  check: ok (%s, decision %s, taint now %s)", tl.result.Outcome, tl.audit.effect, tl.audit.taintAfter())
	return nil
}

// auditCall is what the audit log says of one call.
type auditCall struct {
	tool, target, effect, grant, taint string
	result                             *audit.Record
}

// taintAfter is the session's taint after the call: its result's, or
// when it did not run, the taint it was decided at.
func (a auditCall) taintAfter() string {
	if a.result != nil && a.result.TaintAfter != "" {
		return a.result.TaintAfter
	}
	return a.taint
}

// auditCalls reads the audit log's decisions and results, by call.
func (d *demoRun) auditCalls() (map[string]*auditCall, error) {
	recs, err := audit.Records(d.h.Path(home.DirAudit))
	if err != nil {
		return nil, fmt.Errorf("cannot read the audit log: %w", err)
	}
	calls := map[string]*auditCall{}
	for i := range recs {
		r := &recs[i]
		switch r.Type {
		case audit.TypeDecision:
			calls[r.Call] = &auditCall{tool: r.Tool, target: r.Target, effect: r.Effect, grant: r.Grant, taint: r.Taint}
		case audit.TypeResult:
			if c, ok := calls[r.Call]; ok {
				c.result = r
			}
		}
	}
	return calls, nil
}

// table prints what happened, one row per call, from the audit log.
func (d *demoRun) table(context.Context) error {
	calls, err := d.auditCalls()
	if err != nil {
		return err
	}
	d.say("")
	d.say("demo: what happened (decisions and taint from the audit log)")
	w := tabwriter.NewWriter(d.out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "  STEP\tCALL\tTOOL\tTARGET\tDECISION\tOUTCOME\tTAINT AFTER")
	for i, r := range d.rows {
		a := calls[r.call]
		target := "-"
		if a.target != "" {
			target = d.short(a.target)
		}
		decision := a.effect
		if a.grant != "" {
			decision += " (" + strings.TrimSuffix(a.grant, ".toml") + ")"
		} else {
			decision += " (no grant)"
		}
		outcome := r.outcome
		if r.approval != "" {
			outcome += " (" + r.approval + ")"
		}
		fmt.Fprintf(w, "  %d\t%s\t%s\t%s\t%s\t%s\t%s\n", i+1, r.call, r.tool, target, decision, outcome, a.taintAfter())
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if len(d.rows) != len(d.steps) {
		return fmt.Errorf("the table has %d calls, the demo %d steps", len(d.rows), len(d.steps))
	}
	return nil
}
