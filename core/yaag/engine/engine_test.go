package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/loopwire"
	"boxmaker/core/yaag/agent"
	"boxmaker/core/yaag/program"
	"boxmaker/core/yaag/runerr"
	"boxmaker/runbook"
)

// recorder is an agent.Spawner (and agent.Forker) for the job loop's
// tests: its sessions answer each prompt with "echo: <prompt>" after a
// delay the test picks; each step makes the session's log longer.
type recorder struct {
	mu      sync.Mutex
	specs   []agent.Spec
	asks    []string
	forks   []string // "<agent> from <session>@<bytes>"
	answers []loopwire.CallAnswer
	delay   func(prompt string) time.Duration
	answer  func(a agent.Ask) (agent.Answer, error)
	compact func() error
	n       int
}

type recSession struct {
	r  *recorder
	id string

	mu sync.Mutex
	at loopwire.SessionAt
}

func atOf(id string, bytes int64) loopwire.SessionAt {
	return loopwire.SessionAt{ID: id, Bytes: bytes, SHA256: fmt.Sprintf("%064x", bytes)}
}

func (r *recorder) Spawn(_ context.Context, s agent.Spec) (agent.Session, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.specs = append(r.specs, s)
	id := "session-" + strings.ToLower(s.Key)
	return &recSession{r: r, id: id, at: atOf(id, 100)}, nil
}

func (r *recorder) Fork(_ context.Context, from loopwire.SessionAt, s agent.Spec) (agent.Session, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	r.forks = append(r.forks, fmt.Sprintf("%s from %s@%d", s.Key, from.ID, from.Bytes))
	id := fmt.Sprintf("fork-%d", r.n)
	return &recSession{r: r, id: id, at: atOf(id, from.Bytes+10)}, nil
}

func (r *recorder) Compact(_ context.Context, sess agent.Session, _ string) error {
	if r.compact != nil {
		if err := r.compact(); err != nil {
			return err
		}
	}
	s := sess.(*recSession)
	s.mu.Lock()
	s.at.Epoch++
	s.mu.Unlock()
	return nil
}

func (r *recorder) Answer(_ context.Context, at loopwire.SessionAt, answers []loopwire.CallAnswer) (loopwire.SessionAt, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answers = append(r.answers, answers...)
	return atOf(at.ID, at.Bytes+1), nil
}

func (s *recSession) ID() string { return s.id }

func (s *recSession) At() loopwire.SessionAt {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.at
}

func (s *recSession) Ask(ctx context.Context, a agent.Ask, _ func(agent.Event)) (agent.Answer, error) {
	if s.r.delay != nil {
		select {
		case <-time.After(s.r.delay(a.Prompt)):
		case <-ctx.Done():
			return agent.Answer{}, ctx.Err()
		}
	}
	s.r.mu.Lock()
	s.r.asks = append(s.r.asks, a.Key+" "+a.Prompt)
	answer := s.r.answer
	s.r.mu.Unlock()
	s.mu.Lock()
	s.at = atOf(s.id, s.at.Bytes+int64(len(a.Prompt))+50)
	at := s.at
	s.mu.Unlock()
	var ans agent.Answer
	var err error
	if answer != nil {
		ans, err = answer(a)
	} else {
		ans = agent.Answer{Text: "echo: " + a.Prompt, Turns: 1}
	}
	ans.At = at
	return ans, err
}

func inline(t testing.TB, src string) *program.Bundle {
	t.Helper()
	b, err := program.Inline([]byte(src), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func run(t testing.TB, src string, opts Options) (string, error) {
	t.Helper()
	opts.Bundle = inline(t, src)
	if opts.Run == "" {
		opts.Run = "r-test"
	}
	out, err := Run(context.Background(), opts)
	return string(out), err
}

func TestRunReturnsTheResult(t *testing.T) {
	out, err := run(t, `
import { defineProgram } from "@yaag/runtime";
class Counter { #n = 0; static made = 0; inc() { return ++this.#n; } }
export default defineProgram({
  name: "sum",
  async run(ctx) {
    const c = new Counter();
    c.inc();
    const o = { a: { b: 2 } };
    async function* gen() { yield 1; yield 2; }
    let s = 0;
    for await (const x of gen()) s += x;
    return { n: c.inc(), b: o?.a?.b ?? 0, s, spread: { ...o.a, c: 3 } };
  },
});`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"n":2,"b":2,"s":3,"spread":{"b":2,"c":3}}`, out); diff != "" {
		t.Error(diff)
	}
}

func TestTypeBoxSchemasCheckInputAndOutput(t *testing.T) {
	src := `
import { defineProgram } from "@yaag/runtime";
import { Type } from "typebox";
export default defineProgram({
  name: "typed",
  input: Type.Object({ n: Type.Integer({ minimum: 1 }) }),
  output: Type.Object({ double: Type.Integer() }),
  async run(ctx) { return { double: ctx.input.n * 2 }; },
});`
	out, err := run(t, src, Options{Input: json.RawMessage(`{"n":21}`)})
	if err != nil || out != `{"double":42}` {
		t.Fatalf("got %s, %v", out, err)
	}
	_, err = run(t, src, Options{Input: json.RawMessage(`{"n":0}`)})
	if err == nil || !strings.Contains(err.Error(), "/n") {
		t.Fatalf("an input under the minimum: got %v", err)
	}
	_, err = run(t, src, Options{})
	if err == nil || !strings.Contains(err.Error(), "no input was given") {
		t.Fatalf("no input: got %v", err)
	}
}

func TestDeadlockIsAnErrorNotAHang(t *testing.T) {
	_, err := run(t, `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "stuck", async run() { await new Promise(() => {}); } });`, Options{})
	if err == nil || !strings.Contains(err.Error(), "deadlock") {
		t.Fatalf("got %v", err)
	}
}

func TestRunawayLoopIsStoppedByTheWallClock(t *testing.T) {
	for _, where := range []string{"top level", "run", "after an await"} {
		t.Run(where, func(t *testing.T) {
			body := map[string]string{
				"top level":      "while (true) {}\nexport default defineProgram({ name: 'x', async run() {} });",
				"run":            "export default defineProgram({ name: 'x', async run() { while (true) {} } });",
				"after an await": "export default defineProgram({ name: 'x', async run(ctx) { const a = await ctx.spawn({}); await a.ask('hi'); while (true) {} } });",
			}[where]
			// Without the limit the loop never ends and neither does run.
			_, err := run(t, "import { defineProgram } from '@yaag/runtime';\n"+body, Options{Wall: 200 * time.Millisecond, Agents: &recorder{}})
			re, ok := runerr.As(err)
			if !ok || re.Code != runerr.RunStopped || !strings.Contains(err.Error(), "wall-clock limit") {
				t.Fatalf("got %v", err)
			}
		})
	}
}

func TestContextStopsTheRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := &recorder{delay: func(string) time.Duration { return time.Hour }}
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	_, err := Run(ctx, Options{Run: "r", Agents: r, Bundle: inline(t, `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "x", async run(ctx) { const a = await ctx.spawn({}); return a.ask("forever"); } });`)})
	if re, ok := runerr.As(err); !ok || re.Code != runerr.RunStopped {
		t.Fatalf("got %v", err)
	}
}

func TestOrdinalsAreAssignedInCallOrder(t *testing.T) {
	// The second Agent's Asks finish first; the keys still follow the
	// calls, and one Agent's Asks run one after the other.
	r := &recorder{delay: func(p string) time.Duration {
		if strings.HasPrefix(p, "b") {
			return 0
		}
		return 50 * time.Millisecond
	}}
	out, err := run(t, `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "par", async run(ctx) {
  const [a, b] = await Promise.all([ctx.spawn({ name: "a" }), ctx.spawn({ name: "b" })]);
  const res = await Promise.all([a.ask("a1"), b.ask("b1"), a.ask("a2"), b.ask("b2")]);
  return res.map((r) => r.text).concat([a.key, b.key]);
} });`, Options{Agents: r})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`["echo: a1","echo: b1","echo: a2","echo: b2","A1","A2"]`, out); diff != "" {
		t.Error(diff)
	}
	got := map[string][]string{}
	for _, a := range r.asks {
		got[a[:2]] = append(got[a[:2]], a)
	}
	want := map[string][]string{"A1": {"A1/1 a1", "A1/2 a2"}, "A2": {"A2/1 b1", "A2/2 b2"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

func TestErrorsReachTheProgramWithTheirCode(t *testing.T) {
	r := &recorder{answer: func(a agent.Ask) (agent.Answer, error) {
		return agent.Answer{}, runerr.New(runerr.AskLimit, runbook.Entry{}, "limit reached at maxTurns=1").WithCause(errors.New("inner"))
	}}
	out, err := run(t, `
import { defineProgram, YaagError } from "@yaag/runtime";
export default defineProgram({ name: "x", async run(ctx) {
  const a = await ctx.spawn({});
  try { await a.ask("q"); } catch (e) {
    return [e instanceof YaagError, e.code, e.message.includes("limit reached at"), e.cause.message];
  }
} });`, Options{Agents: r})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`[true,"ASK_LIMIT",true,"inner"]`, out); diff != "" {
		t.Error(diff)
	}
}

func TestUncaughtErrorEndsTheRunWithItsMessage(t *testing.T) {
	_, err := run(t, `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "x", async run() { throw new Error("it broke"); } });`, Options{})
	// Where, in the TypeScript (line 3, the column of "new"), with a stack.
	if err == nil || err.Error() != "Error: it broke\n    at run (inline.ts:3:63)" {
		t.Fatalf("got %q", err)
	}
}

func TestErrorStackNamesTheTypeScript(t *testing.T) {
	_, err := run(t, `
import { defineProgram } from "@yaag/runtime";

function helper(x: number): number {
  const o: any = undefined;
  return o.field + x;
}

export default defineProgram({ name: "x", async run() {
  return helper(1);
} });`, Options{})
	msg, frames := SplitStack(fmt.Sprint(err))
	if diff := cmp.Diff([]string{"    at helper (inline.ts:6:12)", "    at run (inline.ts:10:17)"}, frames); diff != "" || msg != "TypeError: Cannot read property 'field' of undefined" {
		t.Errorf("message %q, frames (-want +got):\n%s", msg, diff)
	}
}

func TestConsoleLogIsALogEvent(t *testing.T) {
	var mu sync.Mutex
	var logs []string
	_, err := run(t, `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "x", async run(ctx) {
  ctx.log("ctx");
  console.log("a", 1, { b: [2] }, undefined);
  console.error("e");
  return 0;
} });`, Options{Events: func(e Event) {
		if e.Event == EventLog {
			mu.Lock()
			logs = append(logs, e.Text)
			mu.Unlock()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"ctx", `a 1 {"b":[2]} undefined`, "e"}, logs); diff != "" {
		t.Error(diff)
	}
}

func TestRandomAndClockAreTheRuntimes(t *testing.T) {
	src := `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "x", async run() { return [Math.random(), Date.now(), new Date().toISOString()]; } });`
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	opts := Options{Seed: 7, Clock: func() time.Time { return at }}
	a, err := run(t, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := run(t, src, opts)
	if a != b || !strings.Contains(a, fmt.Sprint(at.UnixMilli())) || !strings.Contains(a, "2026-01-02T03:04:05.000Z") {
		t.Fatalf("runs with one seed and clock differ or ignore them: %s, %s", a, b)
	}
	opts.Seed = 8
	if c, _ := run(t, src, opts); c == a {
		t.Fatalf("another seed gave the same numbers: %s", c)
	}
}

func TestProgramsHaveNoHostEffects(t *testing.T) {
	out, err := run(t, `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "x", async run() {
  let req = "no require";
  try { globalThis["req" + "uire"]("fs"); } catch (e) { req = "refused"; }
  return [req, typeof process, typeof setTimeout, typeof fetch, typeof XMLHttpRequest];
} });`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out != `["refused","undefined","undefined","undefined","undefined"]` {
		t.Fatalf("got %s", out)
	}
}
