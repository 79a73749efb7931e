package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"boxmaker/core/loopwire"
	"boxmaker/core/termsafe"
	"boxmaker/core/yaag/agent"
	"boxmaker/core/yaag/cassette"
	"boxmaker/core/yaag/runerr"
	"boxmaker/core/yaag/stepid"
	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const (
	textDiverged       runbook.Quoted = "replay diverged for agent"
	textNotRecorded    runbook.Quoted = "it is not the session this checkpoint recorded"
	textSessionUnread  runbook.Quoted = "cannot read the session file"
	textRecordedPaused                = "the recorded Run paused here for the person's answers"
)

// Mode is how a Run's Agents answer.
type Mode int

const (
	// Live: every Agent is a loopd session.
	Live Mode = iota
	// Replay: strict and offline; every step answers from the Cassette,
	// and a step it does not have, or whose hash differs, ends the Run.
	Replay
	// Resume: each Agent answers from the Cassette while its steps match,
	// then goes live, forking its recorded session at the last matched
	// boundary; it never returns to playback.
	Resume
)

// Report is what a Run tells its caller besides its result.
type Report struct {
	Unused []string // a replay's recorded steps the program did not reach
}

// errFatal interrupts the program for an error it must not catch (a
// replay that diverged).
var errFatal = errors.New("fatal")

// fail ends the Run with err, wherever the program is; the first error
// wins. It returns err.
func (v *vm) fail(err error) error {
	v.fatalMu.Lock()
	if v.fatal == nil {
		v.fatal = err
	}
	v.fatalMu.Unlock()
	v.rt.Interrupt(errFatal)
	v.cancel()
	return err
}

func (v *vm) fatalErr() error {
	v.fatalMu.Lock()
	defer v.fatalMu.Unlock()
	return v.fatal
}

// callerPos is the program's source position of the host call being
// made: the innermost frame that is the program's.
func (v *vm) callerPos() string {
	for _, f := range v.rt.CaptureCallStack(16, nil) {
		p := f.Position()
		if p.Filename == "" || f.SrcName() == "<native>" {
			continue
		}
		name := strings.TrimPrefix(p.Filename, "yaag-inline:")
		return fmt.Sprintf("%s:%d:%d", name, p.Line, p.Column)
	}
	return "(unknown position)"
}

// diverged is a replay's divergence: which Agent, what changed, the hash
// now and the one recorded, where in the program.
func (v *vm) diverged(key, name, what, now, then, at, note string) error {
	if then == "" {
		then = "none"
	}
	text := fmt.Sprintf("%s %s (%s): %s hash %s ≠ recorded %s at %s", textDiverged, key, name, what, now, then, at)
	if note != "" {
		text += " (" + note + ")"
	}
	return runerr.New(runerr.ReplayDiverged, runbook.YaagReplayMismatch, "%s; restore the program to the recorded shape, or record the Run again", text)
}

// changedField names the first field (in name order) whose hash differs,
// and the hashes to show: the field's, or the whole step's when the
// record has no field hashes.
func changedField(prefix string, now, then map[string]string, whole, wholeThen string) (what, a, b string) {
	var names []string
	for k := range now {
		names = append(names, k)
	}
	for k := range then {
		if _, ok := now[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	var changed []string
	for _, k := range names {
		if now[k] != then[k] {
			changed = append(changed, k)
		}
	}
	if len(changed) == 0 {
		return strings.TrimSuffix(prefix, " option"), whole, wholeThen
	}
	what = prefix + " " + changed[0]
	if len(changed) > 1 {
		what += fmt.Sprintf(" (and %s)", strings.Join(changed[1:], ", "))
	}
	return what, now[changed[0]], then[changed[0]]
}

// consume marks a recorded step as used by a replay.
func (v *vm) consume(key string) {
	v.fatalMu.Lock()
	v.used[key] = true
	v.fatalMu.Unlock()
}

// unused are the recorded Agents and Asks a replay did not reach.
func (v *vm) unused() []string {
	if v.opts.Mode != Replay || v.opts.Tape == nil {
		return nil
	}
	v.fatalMu.Lock()
	defer v.fatalMu.Unlock()
	var out []string
	for _, a := range v.opts.Tape.Agents {
		if !v.used[a.Agent] {
			out = append(out, a.Agent)
		}
	}
	for _, s := range v.opts.Tape.Steps {
		if k := stepid.AskKey(s.Agent, s.N); s.Kind == cassette.KindAsk && !v.used[k] {
			out = append(out, k)
		}
	}
	return out
}

func (v *vm) recordAgent(a cassette.Agent) error {
	if v.opts.Journal == nil {
		return nil
	}
	if err := v.opts.Journal.Spawned(a); err != nil {
		return v.fail(err)
	}
	return nil
}

func (v *vm) recordStep(s cassette.Step) error {
	if v.opts.Journal == nil {
		return nil
	}
	if _, err := v.opts.Journal.Step(s); err != nil {
		return v.fail(err)
	}
	return nil
}

// now is the program's clock (Date): recorded as it is read, and in a
// replay or a resume read back from the Cassette, in order. A replay
// that reads it more often than the recording did reads its last value
// again.
func (v *vm) now() time.Time {
	if v.opts.Mode != Live && v.clockAt < len(v.clockTape) {
		ms := v.clockTape[v.clockAt]
		v.clockAt++
		if v.opts.Mode == Resume {
			v.noteClock(ms)
		}
		return time.UnixMilli(ms)
	}
	if v.opts.Mode == Replay {
		if n := len(v.clockTape); n > 0 {
			return time.UnixMilli(v.clockTape[n-1])
		}
		if t, err := time.Parse(time.RFC3339Nano, v.opts.Tape.Run.StartedAt); err == nil {
			return t
		}
		return time.UnixMilli(0)
	}
	t := v.clock()
	v.noteClock(t.UnixMilli())
	return t
}

// emitLater emits an event from another goroutine than the loop's: the
// loop emits it.
func (v *vm) emitLater(e Event) {
	v.post(func() error {
		v.emit(e)
		return nil
	})
}

// noteClock journals a clock reading, or keeps it for the journal that
// has not begun.
func (v *vm) noteClock(ms int64) {
	switch {
	case v.opts.Journal != nil:
		v.opts.Journal.Clock(ms)
	case v.opts.Begin != nil:
		v.clockEarly = append(v.clockEarly, ms)
	}
}

// begin starts the journal once the Run's Profile is known.
func (v *vm) begin() error {
	if v.opts.Begin == nil {
		return nil
	}
	j, err := v.opts.Begin(v.profiles.active)
	if err != nil {
		return err
	}
	v.opts.Journal, v.opts.Begin = j, nil
	for _, ms := range v.clockEarly {
		j.Clock(ms)
	}
	v.clockEarly = nil
	return nil
}

// runAsk answers one Ask: from the Cassette, or live (forking the
// recorded session first when a resumed Agent goes live).
func (v *vm) runAsk(ctx context.Context, st askStep) (any, error) {
	a := st.agent
	key := st.ask.Key
	if st.rec != nil && v.opts.Mode == Replay {
		return v.played(a, st.rec)
	}
	if st.rec != nil {
		cp := *st.rec
		cp.At = st.at
		if err := v.recordStep(cp); err != nil {
			return nil, err
		}
		a.setBoundary(st.rec.Session)
		return agentAnswer{Answer: answerOf(st.rec), status: "replayed"}, nil
	}
	if st.goLive {
		_, _, from := a.state()
		if st.continueFrom != nil {
			from = st.continueFrom
			if err := v.recordAnswers(a.key, st.n, v.opts.Tape.Ask(a.key, st.n).Questions); err != nil {
				return nil, err
			}
		}
		if err := v.goLive(ctx, a, *from, key); err != nil {
			return nil, err
		}
	}
	continueFrom := st.continueFrom
	sess, _, _ := a.state()
	ask := st.ask
	ask.Continue = continueFrom != nil
	ans, err := sess.Ask(ctx, ask, func(e agent.Event) {
		if e.Kind == loopwire.EventQuestion {
			return // the Run's own question event names its key
		}
		v.emitLater(Event{Event: e.Kind, Run: v.opts.Run, Agent: a.key, Ask: key, Tool: e.Tool, Outcome: e.Outcome, Text: e.Text})
	})
	if re, ok := runerr.As(err); ok && re.Code == runerr.AskTimeout {
		a.kill(string(runerr.AskTimeout))
	}
	if err != nil {
		if re, ok := runerr.As(err); ok && runerr.Recorded(re.Code) {
			at := sess.At()
			if rerr := v.recordStep(cassette.Step{Kind: cassette.KindAsk, Agent: a.key, N: st.n, AskHash: st.hash, Fields: st.fields,
				Status: cassette.StatusError, Error: &cassette.StepError{Code: string(re.Code), Message: cassette.WithholdText(re.Error())}, Session: &at, At: st.at}); rerr != nil {
				return nil, rerr
			}
			a.setBoundary(&at)
		}
		return nil, err
	}
	if len(ans.Questions) > 0 {
		return nil, v.asked(ctx, st, ans)
	}
	step := cassette.Step{Kind: cassette.KindAsk, Agent: a.key, N: st.n, AskHash: st.hash, Fields: st.fields, Status: cassette.StatusOK,
		Result:  &cassette.Result{Text: ans.Text, Data: ans.Data, Turns: ans.Turns, ToolCalls: ans.ToolCalls, Model: ans.Model},
		Session: &ans.At, At: st.at}
	texts := []string{ans.Text, string(ans.Data)}
	if v.opts.KeepPrompts && !ask.Continue {
		p := ask.Prompt
		step.Prompt = &p
		texts = append(texts, p)
	}
	if w := cassette.Withhold(texts...); w != nil {
		step.Status, step.Result, step.Withheld, step.Prompt = cassette.StatusWithheld, nil, w, nil
		v.emitLater(Event{Event: EventWithheld, Run: v.opts.Run, Agent: a.key, Ask: key, Text: strings.Join(w.Reasons(), ", ")})
	}
	if err := v.recordStep(step); err != nil {
		return nil, err
	}
	a.setBoundary(&ans.At)
	return agentAnswer{Answer: ans, status: "ok"}, nil
}

// planAsk decides, when the Ask is made and so in program order, how it
// is answered: a replay's divergence is found here.
func (v *vm) planAsk(st *askStep) error {
	a := st.agent
	switch {
	case v.opts.Mode == Replay:
		rec := v.opts.Tape.Ask(a.key, st.n)
		if rec == nil {
			return v.fail(v.diverged(a.key, a.name, fmt.Sprintf("ask #%d", st.n), st.hash, "", st.at,
				fmt.Sprintf("the Cassette recorded %d Asks of %s", v.recordedAsks(a.key), a.key)))
		}
		if rec.AskHash != st.hash {
			what, now, then := changedField(fmt.Sprintf("ask #%d", st.n), st.fields, rec.Fields, st.hash, rec.AskHash)
			return v.fail(v.diverged(a.key, a.name, what, now, then, st.at, ""))
		}
		if err := recordedDataFits(st, rec); err != nil {
			return v.fail(runerr.New(runerr.ReplayDiverged, runbook.YaagReplayMismatch,
				"replay cannot give the recorded answer of ask %s of agent %s (%s): %v; the Cassette was changed after it was recorded: record the Run again", st.ask.Key, a.key, a.name, err))
		}
		v.consume(st.ask.Key)
		st.rec = rec
	case a.replaying:
		rec := v.opts.Tape.Ask(a.key, st.n)
		switch {
		case rec != nil && rec.AskHash == st.hash && rec.Status == cassette.StatusOK && recordedDataFits(st, rec) == nil:
			st.rec = rec
			return nil
		case rec != nil && rec.AskHash == st.hash && rec.Status == cassette.StatusPaused && v.opts.Answered[a.key] != nil:
			st.continueFrom = v.opts.Answered[a.key]
			a.questions = len(rec.Questions)
		}
		// The first Ask that does not match: the Agent goes live here,
		// and never returns to playback.
		a.replaying, st.goLive = false, true
	}
	return nil
}

// recordedDataFits checks a recorded answer against the Ask's
// outputSchema, as a live answer is checked: the Cassette is a file a
// Run's Agents may have rewritten, and the program relies on the schema.
// A resume asks again, live, where it does not fit.
func recordedDataFits(st *askStep, rec *cassette.Step) error {
	if st.ask.Schema == nil || rec.Status != cassette.StatusOK {
		return nil
	}
	if rec.Result.Data == nil {
		return errors.New("it holds no data for the Ask's outputSchema")
	}
	if err := st.ask.Schema.Validate(rec.Result.Data); err != nil {
		return fmt.Errorf("its data does not match the Ask's outputSchema: %v", err)
	}
	return nil
}

func (v *vm) recordedAsks(key string) int {
	n := 0
	for _, s := range v.opts.Tape.Steps {
		if s.Kind == cassette.KindAsk && s.Agent == key {
			n++
		}
	}
	return n
}

func answerOf(rec *cassette.Step) agent.Answer {
	r := rec.Result
	return agent.Answer{Text: r.Text, Data: r.Data, Turns: r.Turns, ToolCalls: r.ToolCalls, Model: r.Model}
}

// played is a replay's answer: the recorded one, or the recorded error.
func (v *vm) played(a *agentState, rec *cassette.Step) (any, error) {
	key := stepid.AskKey(a.key, rec.N)
	switch rec.Status {
	case cassette.StatusOK:
		return agentAnswer{Answer: answerOf(rec), status: "replayed"}, nil
	case cassette.StatusError:
		if !runerr.Recorded(runerr.Code(rec.Error.Code)) {
			return nil, v.fail(runerr.New(runerr.ReplayDiverged, runbook.YaagReplayMismatch,
				"replay cannot give the recorded error of ask %s: %s is no error a Cassette records; the Cassette was changed after it was recorded: record the Run again", key, termsafe.Line(rec.Error.Code)))
		}
		if rec.Error.Code == string(runerr.AskTimeout) {
			a.kill(string(runerr.AskTimeout))
		}
		return nil, runerr.Again(runerr.Code(rec.Error.Code), rec.Error.Message)
	case cassette.StatusWithheld:
		return nil, v.fail(runerr.New(runerr.ReplayWithheld, runbook.YaagReplayMismatch,
			"replay cannot give the result of ask %s: it was withheld from the Cassette (it held %s); resume the Run instead (--resume), which asks it again",
			key, strings.Join(rec.Withheld.Reasons(), ", ")))
	}
	return nil, v.fail(runerr.New(runerr.ReplayWithheld, runbook.YaagReplayMismatch,
		"replay reached ask %s, where %s; resume the Checkpoint with its answers instead (--resume ... --answers)", key, textRecordedPaused))
}

// goLive makes a playback Agent a live one: its recorded session forked
// at the boundary.
func (v *vm) goLive(ctx context.Context, a *agentState, from loopwire.SessionAt, key string) error {
	forker, ok := v.opts.Agents.(agent.Forker)
	if !ok {
		return v.fail(fmt.Errorf("resume: agent %s cannot go live: this Run's loopd cannot fork sessions", a.key))
	}
	sess, err := forker.Fork(ctx, from, a.spec)
	var se *agent.SessionError
	if errors.As(err, &se) {
		return v.fail(SessionProblem(a.key, a.name, se))
	}
	if err != nil {
		return fmt.Errorf("resume: agent %s (%s) could not go live at ask %s: %w", a.key, a.name, key, err) // loopd's refusal, entry kept
	}
	a.live(sess)
	v.control.agent(a.key, func(s *AgentStatus) { s.Playback, s.Session = false, sess.ID() })
	v.emitLater(Event{Event: EventLive, Run: v.opts.Run, Agent: a.key, Ask: key, Session: sess.ID(),
		Text: fmt.Sprintf("forked %s at byte %d", from.ID, from.Bytes)})
	return nil
}

// SessionProblem words a recorded session loopd could not use: gone or
// unreadable, or not as the Cassette recorded it.
func SessionProblem(key, name string, se *agent.SessionError) error {
	what := textNotRecorded
	if se.Problem.Kind == loopwire.ProblemUnreadable {
		what = textSessionUnread
	}
	return runerr.New(runerr.ResumeRefused, runbook.YaagSessionAnswer,
		"agent %s (%s): session %s: %s (%s); record the Run again", key, name, se.At.ID, what, se.Problem.Detail)
}

// asked records an Ask that stopped on the person's questions and makes
// the Run settle; the Ask itself never settles in this Run.
func (v *vm) asked(ctx context.Context, st askStep, ans agent.Answer) error {
	a := st.agent
	var qs []cassette.Question
	for _, q := range ans.Questions {
		a.questions++
		text := q.Text
		if w := cassette.Withhold(text); w != nil {
			text = "(withheld from the Checkpoint: it held " + strings.Join(w.Reasons(), ", ") + ")"
		}
		qs = append(qs, cassette.Question{Key: cassette.QuestionKey(a.key, st.n, a.questions), CallID: q.CallID, Question: text})
	}
	at := ans.At
	if err := v.recordStep(cassette.Step{Kind: cassette.KindAsk, Agent: a.key, N: st.n, AskHash: st.hash, Fields: st.fields,
		Status: cassette.StatusPaused, Questions: qs, Session: &at, At: st.at}); err != nil {
		return err
	}
	v.fatalMu.Lock()
	for _, q := range qs {
		q.Agent, q.N = a.key, st.n
		v.questions = append(v.questions, q)
	}
	v.fatalMu.Unlock()
	for _, q := range qs {
		v.emitLater(Event{Event: loopwire.EventQuestion, Run: v.opts.Run, Agent: a.key, Ask: st.ask.Key, Text: q.Key + ": " + q.Question})
	}
	v.control.asking()
	for v.control.park(ctx) {
	}
	return v.stopError()
}

// recordAnswers journals the answers a resumed Checkpoint gave.
func (v *vm) recordAnswers(key string, n int, qs []cassette.Question) error {
	for _, q := range qs {
		ans, ok := v.opts.Tape.Answers[q.Key]
		if !ok {
			continue
		}
		if err := v.recordStep(cassette.Step{Kind: cassette.KindAnswer, Agent: key, N: n, Key: q.Key, Answer: &ans}); err != nil {
			return err
		}
	}
	return nil
}

// questionsAsked are the questions of the Run's paused Asks.
func (v *vm) questionsAsked() []cassette.Question {
	v.fatalMu.Lock()
	defer v.fatalMu.Unlock()
	return append([]cassette.Question(nil), v.questions...)
}
