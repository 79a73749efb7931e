package engine

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/loopwire"
	"boxmaker/core/yaag/agent"
	"boxmaker/core/yaag/cassette"
	"boxmaker/core/yaag/runerr"
	"boxmaker/runbook"
)

func TestReplayNeedsNoAgentsAndGivesTheClockAndTheErrorsAgain(t *testing.T) {
	src := `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "p", async run(ctx) {
  const t0 = Date.now();
  const a = await ctx.spawn({ name: "a" });
  const r = await a.ask("at " + new Date(t0).toISOString() + " " + Math.random());
  let code;
  try { await a.ask("over budget", { maxToolCalls: 0 }); } catch (e) { code = e.code + " " + e.message; }
  return [r.text, code, a.session, ctx.run, Date.now() - t0];
} });`
	clock := time.UnixMilli(1767225600000)
	r := &recorder{answer: func(a agent.Ask) (agent.Answer, error) {
		if strings.HasPrefix(a.Prompt, "over") {
			return agent.Answer{}, runerr.New(runerr.AskLimit, runbook.Entry{}, "ask %s: limit reached at maxToolCalls=0", a.Key)
		}
		return agent.Answer{Text: "said " + a.Prompt}, nil
	}}
	tick := func() time.Time { clock = clock.Add(time.Second); return clock }
	d, live, err := recordRun(t, src, Options{Agents: r, Seed: 42, Clock: tick})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Clock()) != 2 || d.Ask("A1", 2).Status != cassette.StatusError {
		t.Fatalf("recorded clock %v, steps %+v", d.Clock(), d.Steps)
	}
	replayed, err := run(t, src, Options{Mode: Replay, Tape: d, Seed: 42, Run: "r-20261201-110000-00000000"})
	if err != nil {
		t.Fatal(err)
	}
	if replayed != live {
		t.Fatalf("replay %s\nlive   %s", replayed, live)
	}
}

func TestAReplayReportsTheStepsItLeftUnused(t *testing.T) {
	d, _, err := recordRun(t, budgeted("2"), Options{Agents: &recorder{}})
	if err != nil {
		t.Fatal(err)
	}
	short := strings.Replace(budgeted("2"), `["a", "b", "c"]`, `["a", "b"]`, 1)
	var rep Report
	if _, err := run(t, short, Options{Mode: Replay, Tape: d, Report: &rep}); err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(rep.Unused, []string{"A3", "A3/1", "A3/2"}) {
		t.Fatalf("unused %v", rep.Unused)
	}
}

func TestAWithheldResultIsNotWrittenAndReplayCannotGiveIt(t *testing.T) {
	secret := "ghp_" + strings.Repeat("a1", 18)
	r := &recorder{answer: func(a agent.Ask) (agent.Answer, error) { return agent.Answer{Text: "the token is " + secret}, nil }}
	src := `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "p", async run(ctx) { const a = await ctx.spawn({ name: "a" }); return (await a.ask("token?")).text.length; } });`
	d, _, err := recordRun(t, src, Options{Agents: r, KeepPrompts: true})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := d.Encode()
	if strings.Contains(string(data), secret) {
		t.Fatal("the Cassette holds the secret")
	}
	if s := d.Ask("A1", 1); s.Status != cassette.StatusWithheld || !cmp.Equal(s.Withheld.Rules, []string{"secret-github"}) {
		t.Fatalf("step %+v", s)
	}
	_, err = run(t, src, Options{Mode: Replay, Tape: d})
	if err == nil || !strings.Contains(err.Error(), "replay cannot give the result of ask A1/1: it was withheld from the Cassette (it held what looks like a GitHub token)") {
		t.Fatalf("replay: %v", err)
	}
	// A resume asks it again, live.
	r2 := &recorder{}
	if _, _, err := recordRun(t, src, Options{Agents: r2, Mode: Resume, Tape: d}); err != nil || len(r2.asks) != 1 {
		t.Fatalf("resume: %v, asked %v", err, r2.asks)
	}
}

func TestPromptsAreKeptAsHashesUnlessAsked(t *testing.T) {
	src := `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "p", async run(ctx) { const a = await ctx.spawn({ name: "a" }); return (await a.ask("the private prompt")).text; } });`
	for _, keep := range []bool{false, true} {
		d, _, err := recordRun(t, src, Options{Agents: &recorder{answer: func(agent.Ask) (agent.Answer, error) { return agent.Answer{Text: "ok"}, nil }}, KeepPrompts: keep})
		if err != nil {
			t.Fatal(err)
		}
		data, _ := d.Encode()
		if got := strings.Contains(string(data), "the private prompt"); got != keep {
			t.Errorf("keep_prompts %v: the prompt's text is in the Cassette: %v", keep, got)
		}
	}
}

// questionRecorder asks the person on the prompts that say "ask me", and
// on a continue answers with what it was told.
func questionRecorder() *recorder {
	r := &recorder{}
	r.answer = func(a agent.Ask) (agent.Answer, error) {
		switch {
		case a.Continue:
			r.mu.Lock()
			got := r.answers[len(r.answers)-1].Text
			r.mu.Unlock()
			return agent.Answer{Text: "you said " + got}, nil
		case strings.Contains(a.Prompt, "ask me"):
			return agent.Answer{Questions: []loopwire.Question{{CallID: "c" + a.Key, Text: "Which?"}}}, nil
		}
		return agent.Answer{Text: "done " + a.Prompt}, nil
	}
	return r
}

const questioning = `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "p", async run(ctx) {
  const [a, b] = await Promise.all([ctx.spawn({ name: "asker", canAskUser: true }), ctx.spawn({ name: "worker" })]);
  const first = await a.ask("warm up");
  const [q, w] = await Promise.all([a.ask("now ask me"), b.ask("slow work")]);
  const after = await b.ask("after");
  return [first.text, q.text, w.text, after.text];
} });`

func TestAQuestionSettlesTheRunAndTheAnswerResumesIt(t *testing.T) {
	r := questionRecorder()
	working := make(chan struct{})
	r.delay = func(p string) time.Duration {
		switch p {
		case "slow work":
			close(working)
			return 80 * time.Millisecond
		case "now ask me":
			<-working // the question comes while the other Agent works
		}
		return 0
	}
	d, _, err := recordRun(t, questioning, Options{Agents: r})
	var paused *Paused
	if !errors.As(err, &paused) || paused.Reason != StateAsking {
		t.Fatalf("got %v", err)
	}
	// The Ask in flight on the other Agent ran to its end and is
	// recorded; the one after it never started.
	if s := d.Ask("A2", 1); s == nil || s.Status != cassette.StatusOK {
		t.Fatalf("A2/1 %+v", s)
	}
	if d.Ask("A2", 2) != nil || d.Ask("A1", 2).Status != cassette.StatusPaused {
		t.Fatalf("steps %+v", d.Steps)
	}
	// Resumed with the answer: A1/1 and A2/1 replay, A1/2 goes on from
	// the answered session, A2/2 runs live.
	d.Answers = map[string]string{"A1/2/q1": "the blue one"}
	at := atOf("session-a1", 999)
	r2 := questionRecorder()
	r2.answers = []loopwire.CallAnswer{{CallID: "cA1/2", Text: "the blue one"}}
	d2, out, err := recordRun(t, questioning, Options{Agents: r2, Mode: Resume, Tape: d, Answered: map[string]*loopwire.SessionAt{"A1": &at}})
	if err != nil {
		t.Fatal(err)
	}
	if out != `["done warm up","you said the blue one","done slow work","done after"]` {
		t.Fatalf("result %s", out)
	}
	if !cmp.Equal(r2.asks, []string{"A1/2 now ask me", "A2/2 after"}) && !cmp.Equal(r2.asks, []string{"A2/2 after", "A1/2 now ask me"}) {
		t.Fatalf("asked live %v", r2.asks)
	}
	if !slices.Contains(r2.forks, "A1 from session-a1@999") {
		t.Fatalf("forks %v: A1 goes on from the answered session", r2.forks)
	}
	var answered bool
	for _, s := range d2.Steps {
		answered = answered || s.Kind == cassette.KindAnswer && s.Key == "A1/2/q1" && *s.Answer == "the blue one"
	}
	if !answered || d2.Ask("A1", 2).Status != cassette.StatusOK {
		t.Fatalf("the resumed Run's Cassette: %+v", d2.Steps)
	}
}

func TestAPauseWaitsForTheAsksInFlightAndCanBeWithdrawn(t *testing.T) {
	release := make(chan struct{})
	r := &recorder{}
	var once sync.Once
	started := make(chan struct{})
	r.delay = func(p string) time.Duration {
		if p == "slow work" {
			once.Do(func() { close(started) })
			<-release
		}
		return 0
	}
	src := `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "p", async run(ctx) {
  const a = await ctx.spawn({ name: "a" });
  const w = await a.ask("slow work");
  const n = await a.ask("next");
  return [w.text, n.text];
} });`
	c := NewControl()
	// Withdrawn before it settles: the Run goes on.
	go func() {
		<-started
		if err := c.Pause(); err != nil {
			t.Error(err)
		}
		if err := c.Pause(); !errors.Is(err, ErrSettling) {
			t.Errorf("a second pause: %v", err)
		}
		if !c.Withdraw() {
			t.Error("the pause was not withdrawn")
		}
		close(release)
	}()
	if _, out, err := recordRun(t, src, Options{Agents: r, Control: c}); err != nil || out != `["echo: slow work","echo: next"]` {
		t.Fatalf("%s %v", out, err)
	}
	if err := c.Pause(); !errors.Is(err, ErrEnded) {
		t.Fatalf("a pause after the end: %v", err)
	}
	// Kept: the Ask in flight ends and is recorded, the next one does not
	// start, and the Run returns Paused.
	release = make(chan struct{})
	started = make(chan struct{})
	once = sync.Once{}
	c = NewControl()
	go func() {
		<-started
		c.Pause()
		close(release)
	}()
	r = &recorder{delay: r.delay}
	d, _, err := recordRun(t, src, Options{Agents: r, Control: c})
	var paused *Paused
	if !errors.As(err, &paused) || paused.Reason != StatePausing {
		t.Fatalf("got %v", err)
	}
	if d.Ask("A1", 1) == nil || d.Ask("A1", 2) != nil || len(r.asks) != 1 {
		t.Fatalf("steps %+v, asked %v", d.Steps, r.asks)
	}
}

func TestForkAndCompactRefusals(t *testing.T) {
	slow := &recorder{delay: func(p string) time.Duration {
		if p == "long" {
			return 50 * time.Millisecond
		}
		return 0
	}}
	tests := []struct {
		name, body string
		opts       Options
		want       string
	}{
		{"a fork during an Ask", `const p = a.ask("long"); try { await ctx.spawn({ fork: a }); } catch (e) { r = e.code; } await p;`, Options{Agents: slow}, "FORK_DURING_ASK"},
		{"a compaction during an Ask", `const p = a.ask("long"); try { await ctx.spawn({ fork: a, compact: true }); } catch (e) { r = e.code; } await p;`, Options{Agents: slow}, "COMPACT_DURING_ASK"},
		{"compact without fork", `try { await ctx.spawn({ name: "c", compact: true }); } catch (e) { r = e.code; }`, Options{Agents: &recorder{}}, "OPTIONS_CONFLICT"},
		{"a fork with its own tools", `try { await ctx.spawn({ fork: a, tools: ["read_file"] }); } catch (e) { r = e.code; }`, Options{Agents: &recorder{}}, "OPTIONS_CONFLICT"},
		{"a fork of something else", `try { await ctx.spawn({ fork: { key: "A1" } }); } catch (e) { r = e.code; }`, Options{Agents: &recorder{}}, "FORK_REFUSED"},
		{"a fork of the host without a copy", `try { await ctx.spawn({ fork: ctx.host }); } catch (e) { r = e.code + " " + e.message; }`, Options{Agents: &recorder{}}, "FORK_REFUSED: agent A2 (agent): fork: ctx.host, and this Run holds no host session copy"},
		{"a fork of a killed Agent", `try { await a.ask("time out"); } catch (e) {} try { await ctx.spawn({ fork: a }); } catch (e) { r = e.code + " " + e.message; }`,
			Options{Agents: &recorder{answer: func(q agent.Ask) (agent.Answer, error) {
				return agent.Answer{}, runerr.New(runerr.AskTimeout, runbook.Entry{}, "ask %s: timeoutMs passed", q.Key)
			}}}, "FORK_REFUSED: agent A2 (a): agent A1 was killed during an Ask (ASK_TIMEOUT)"},
		{"a compaction with no summary", `try { await a.ask("x"); await ctx.spawn({ fork: a, compact: true }); } catch (e) { r = e.code + " " + e.message; }`,
			Options{Agents: &recorder{compact: func() error { return &agent.CompactError{Why: "the model gave no summary"} }}}, "COMPACT_FAILED: agent A2 (a): the compaction got no summary: the model gave no summary"},
		{"a fork at a settled boundary", `await a.ask("x"); const f = await ctx.spawn({ fork: a, name: "f" }); r = f.session + " " + (await f.ask("y")).text;`, Options{Agents: &recorder{}}, "fork-1 echo: y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := run(t, `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "p", async run(ctx) { let r = "none"; const a = await ctx.spawn({ name: "a" }); `+tt.body+` return r; } });`, tt.opts)
			if err != nil || !strings.Contains(out, tt.want) {
				t.Fatalf("got %s %v, want %s", out, err, tt.want)
			}
		})
	}
}

func TestAForkOfTheHostCopy(t *testing.T) {
	r := &recorder{}
	host := atOf("20261201-090000-aaaaaaaa", 5000)
	out, err := run(t, `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "p", async run(ctx) { const a = await ctx.spawn({ fork: ctx.host, name: "h" }); return [ctx.host.session, (await a.ask("go on")).text]; } });`,
		Options{Agents: r, Host: &host})
	if err != nil || out != `["20261201-090000-aaaaaaaa","echo: go on"]` {
		t.Fatalf("%s %v", out, err)
	}
	if !cmp.Equal(r.forks, []string{"A1 from 20261201-090000-aaaaaaaa@5000"}) {
		t.Fatalf("forks %v", r.forks)
	}
}

func TestResumeForksAtTheLastMatchedBoundary(t *testing.T) {
	src := `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "p", async run(ctx) {
  const a = await ctx.spawn({ name: "a" });
  const out = [];
  for (const p of ["one", "two", "THREE", "four"]) out.push((await a.ask(p)).text);
  return out;
} });`
	d, _, err := recordRun(t, src, Options{Agents: &recorder{}})
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	d2, out, err := recordRun(t, strings.Replace(src, "THREE", "three", 1), Options{Agents: r, Mode: Resume, Tape: d})
	if err != nil || out != `["echo: one","echo: two","echo: three","echo: four"]` {
		t.Fatalf("%s %v", out, err)
	}
	two := d.Ask("A1", 2).Session
	if !cmp.Equal(r.forks, []string{"A1 from session-a1@" + itoa64(two.Bytes)}) || !cmp.Equal(r.asks, []string{"A1/3 three", "A1/4 four"}) {
		t.Fatalf("forks %v asks %v: the Agent goes live at its first changed Ask and stays live", r.forks, r.asks)
	}
	// The resumed Run's Cassette has every step, once: it can be resumed
	// again, and replays as it is.
	if len(keys(d2)) != 4 || d2.Ask("A1", 3).Session.ID != "fork-1" {
		t.Fatalf("the resumed Cassette %v", keys(d2))
	}
	if again, err := run(t, strings.Replace(src, "THREE", "three", 1), Options{Mode: Replay, Tape: d2}); err != nil || again != out {
		t.Fatalf("a replay of the resumed Run: %s %v", again, err)
	}
	// The recorded session is not the one recorded: the entry's text.
	bad := &failingForker{recorder: &recorder{}, problem: loopwire.SessionProblem{Kind: loopwire.ProblemChanged, Detail: "the first 250 bytes hash to x"}}
	_, _, err = recordRun(t, strings.Replace(src, "THREE", "three", 1), Options{Agents: bad, Mode: Resume, Tape: d})
	if err == nil || !strings.Contains(err.Error(), "it is not the session this checkpoint recorded") {
		t.Fatalf("a changed session: %v", err)
	}
	bad.problem.Kind = loopwire.ProblemUnreadable
	_, _, err = recordRun(t, strings.Replace(src, "THREE", "three", 1), Options{Agents: bad, Mode: Resume, Tape: d})
	if err == nil || !strings.Contains(err.Error(), "cannot read the session file") {
		t.Fatalf("a missing session: %v", err)
	}
}

type failingForker struct {
	*recorder
	problem loopwire.SessionProblem
}

func (f *failingForker) Fork(_ context.Context, from loopwire.SessionAt, _ agent.Spec) (agent.Session, error) {
	return nil, &agent.SessionError{At: from, Problem: f.problem}
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

func TestAResumedAgentWhoseSpawnChangedRunsLiveFromTheStart(t *testing.T) {
	src := `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "p", async run(ctx) {
  const a = await ctx.spawn({ name: "a", systemPrompt: "PROMPT" });
  const b = await ctx.spawn({ name: "b" });
  return [(await a.ask("one")).text, (await b.ask("two")).text];
} });`
	d, _, err := recordRun(t, src, Options{Agents: &recorder{}})
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	if _, _, err := recordRun(t, strings.Replace(src, "PROMPT", "another prompt", 1), Options{Agents: r, Mode: Resume, Tape: d}); err != nil {
		t.Fatal(err)
	}
	if len(r.specs) != 1 || r.specs[0].Key != "A1" || len(r.forks) != 0 || !cmp.Equal(r.asks, []string{"A1/1 one"}) {
		t.Fatalf("spawned %v, forked %v, asked %v: A1 runs live from a new spawn, A2 replays", r.specs, r.forks, r.asks)
	}
}

// A recorded answer is checked against the Ask's outputSchema as a live
// one is: a Cassette rewritten after the recording (its Agents may write
// it) cannot hand the program data its schema refuses. A replay fails
// there; a resume asks again, live.
func TestARecordedAnswerIsCheckedAgainstItsSchema(t *testing.T) {
	src := `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "p", async run(ctx) {
  const a = await ctx.spawn({ name: "counter" });
  const r = await a.ask("Count.", { outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } });
  return r.data;
} });`
	r := &recorder{answer: func(agent.Ask) (agent.Answer, error) {
		return agent.Answer{Text: `{"n": 1}`, Data: json.RawMessage(`{"n":1}`), Turns: 1}, nil
	}}
	d, out, err := recordRun(t, src, Options{Agents: r})
	if err != nil || out != `{"n":1}` {
		t.Fatalf("%s %v", out, err)
	}
	if _, replayed, err := recordRun(t, src, Options{Mode: Replay, Tape: d}); err != nil || replayed != out {
		t.Fatalf("the replay as recorded: %s %v", replayed, err)
	}
	d.Ask("A1", 1).Result.Data = json.RawMessage(`{"n":"rm -rf ~"}`)
	_, _, err = recordRun(t, src, Options{Mode: Replay, Tape: d})
	if err == nil || !strings.Contains(err.Error(), "replay cannot give the recorded answer of ask A1/1 of agent A1 (counter): its data does not match the Ask's outputSchema") {
		t.Fatalf("a replay of the rewritten answer: %v", err)
	}
	// Nor can it give an error the Agent never could (a code a Cassette
	// does not record).
	bad := *d.Ask("A1", 1)
	d.Ask("A1", 1).Status, d.Ask("A1", 1).Result, d.Ask("A1", 1).Error = cassette.StatusError, nil, &cassette.StepError{Code: "HOST_SESSION_UNUSABLE", Message: "forged"}
	if _, _, err := recordRun(t, src, Options{Mode: Replay, Tape: d}); err == nil || !strings.Contains(err.Error(), "HOST_SESSION_UNUSABLE is no error a Cassette records") {
		t.Fatalf("a replay of a forged error: %v", err)
	}
	*d.Ask("A1", 1) = bad
	live := &recorder{answer: r.answer}
	_, resumed, err := recordRun(t, src, Options{Agents: live, Mode: Resume, Tape: d})
	if err != nil || resumed != `{"n":1}` || len(live.asks) != 1 {
		t.Fatalf("a resume of the rewritten answer: %s %v, asked live %v", resumed, err, live.asks)
	}
}

// The Run's question event is posted to the loop just before the Agent
// parks; a loop that settled on the park before running what was posted
// lost it (yaag printed the Checkpoint but not "A1/1 asks: ..."). Many
// Runs, for the interleavings.
func TestEveryQuestionIsAnnouncedBeforeTheRunSettles(t *testing.T) {
	const src = `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "p", async run(ctx) {
  const a = await ctx.spawn({ name: "asker", canAskUser: true });
  return (await a.ask("now ask me")).text;
} });`
	for i := range 200 {
		var mu sync.Mutex
		var asked []string
		events := func(e Event) {
			if e.Event == loopwire.EventQuestion {
				mu.Lock()
				asked = append(asked, e.Ask+" "+e.Text)
				mu.Unlock()
			}
		}
		_, _, err := recordRun(t, src, Options{Agents: questionRecorder(), Events: events})
		var paused *Paused
		if !errors.As(err, &paused) || paused.Reason != StateAsking {
			t.Fatalf("run %d: got %v", i, err)
		}
		mu.Lock()
		got := asked
		mu.Unlock()
		if len(got) != 1 || got[0] != "A1/1 A1/1/q1: Which?" {
			t.Fatalf("run %d: the question events %q, want one for A1/1/q1", i, got)
		}
	}
}
