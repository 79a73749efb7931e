package engine

// The identity rules of a Run's steps (issue 15), each a test: written
// against the Cassette a real Run journals and the replay or the resume
// of it.

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/loopwire"
	"boxmaker/core/testsupport"
	"boxmaker/core/yaag/agent"
	"boxmaker/core/yaag/cassette"
	"boxmaker/core/yaag/runerr"
)

// recordRun runs src live with a journal and returns the Cassette its
// journal gives, and the result.
func recordRun(t testing.TB, src string, opts Options) (*cassette.Doc, string, error) {
	t.Helper()
	dest := filepath.Join(t.TempDir(), "run.json")
	info := cassette.RunInfo{ID: "r-20261201-100000-0123abcd", StartedAt: "2026-12-01T10:00:00Z", Seed: opts.Seed,
		Profile: opts.Profile, UserInputProtocol: cassette.UserInputProtocol, Program: "inline"}
	j, err := cassette.CreateJournal(dest, info)
	if err != nil {
		t.Fatal(err)
	}
	opts.Journal = j
	opts.Run = info.ID
	out, runErr := run(t, src, opts)
	j.Close()
	data, err := os.ReadFile(j.Path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := cassette.ParseJournal(j.Path, data)
	if err != nil {
		t.Fatal(err)
	}
	var paused *Paused
	end := cassette.End{Status: cassette.EndCompleted}
	if errors.As(runErr, &paused) {
		end.Status = cassette.EndPaused
	} else if runErr != nil {
		end.Status = cassette.EndFailed
	}
	d := rec.Doc(end)
	rec.Run.Profile = opts.Profile
	if paused != nil {
		d.Questions = paused.Questions
		d.Resume = &cassette.Resume{AnswersTemplate: map[string]string{}}
	}
	if err := d.Check(); err != nil {
		t.Fatalf("the journal's document does not check: %v", err)
	}
	return d, out, runErr
}

// keys are a Cassette's Ask steps as "A<k>/<n> <askHash>", sorted.
func keys(d *cassette.Doc) []string {
	var out []string
	for _, s := range d.Steps {
		if s.Kind == cassette.KindAsk {
			out = append(out, s.Agent+"/"+strconv.Itoa(s.N)+" "+s.AskHash)
		}
	}
	sort.Strings(out)
	return out
}

const threeAgents = `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "p", async run(ctx) {
  const agents = await Promise.all(["a", "b", "c"].map((n) => ctx.spawn({ name: n })));
  const out = await Promise.all(agents.flatMap((a) => [a.ask("one " + a.name), a.ask("two " + a.name, { maxTurns: BUDGET })]));
  return out.map((r) => r.text);
} });`

func budgeted(budget string) string { return strings.ReplaceAll(threeAgents, "BUDGET", budget) }

func TestPermutedCompletionOrderGivesTheSameKeys(t *testing.T) {
	fast := map[string]time.Duration{"a": 30 * time.Millisecond, "b": 15 * time.Millisecond, "c": 0}
	var got [][]string
	for _, order := range []func(string) time.Duration{
		func(p string) time.Duration { return fast[p[len(p)-1:]] },
		func(p string) time.Duration { return 45*time.Millisecond - fast[p[len(p)-1:]] },
	} {
		d, out, err := recordRun(t, budgeted("2"), Options{Agents: &recorder{delay: order}})
		if err != nil {
			t.Fatal(err)
		}
		if out != `["echo: one a","echo: two a","echo: one b","echo: two b","echo: one c","echo: two c"]` {
			t.Fatalf("result %s", out)
		}
		got = append(got, keys(d))
	}
	if len(got[0]) != 6 || !cmp.Equal(got[0], got[1]) {
		t.Fatalf("the keys depend on the completion order:\n%v\n%v", got[0], got[1])
	}
}

func TestAnAskAddedToAnotherAgentShiftsNothing(t *testing.T) {
	const before = `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "p", async run(ctx) {
  const a = await ctx.spawn({ name: "a" });
  const b = await ctx.spawn({ name: "b" });
  EXTRA
  const r = [await a.ask("a first"), await a.ask("a second"), await b.ask("b first")];
  return r.map((x) => x.text);
} });`
	d, _, err := recordRun(t, strings.Replace(before, "EXTRA", "", 1), Options{Agents: &recorder{}})
	if err != nil {
		t.Fatal(err)
	}
	after := strings.Replace(before, "EXTRA", `await b.ask("b inserted");`, 1)
	// Resumed, A1 replays both its Asks: the Ask added to A2 moved none
	// of A1's keys. A2 goes live where it differs, and only there.
	r := &recorder{}
	d2, out, err := recordRun(t, after, Options{Agents: r, Mode: Resume, Tape: d})
	if err != nil {
		t.Fatal(err)
	}
	if out != `["echo: a first","echo: a second","echo: b first"]` {
		t.Fatalf("result %s", out)
	}
	if !cmp.Equal(r.asks, []string{"A2/1 b inserted", "A2/2 b first"}) {
		t.Fatalf("asked live %v; want A2's two Asks only", r.asks)
	}
	if !cmp.Equal(r.forks, []string{"A2 from session-a2@100"}) {
		t.Fatalf("forks %v; want A2 forked at its spawn", r.forks)
	}
	for _, k := range []string{"A1/1", "A1/2"} {
		if !slices.Contains(keys(d2), keys(d)[map[string]int{"A1/1": 0, "A1/2": 1}[k]]) {
			t.Errorf("%s lost its key or hash: %v", k, keys(d2))
		}
	}
	// Replayed, the inserted Ask is a divergence of A2, not of A1.
	_, _, err = recordRun(t, after, Options{Mode: Replay, Tape: d})
	if err == nil || !strings.Contains(err.Error(), "replay diverged for agent A2 (b): ask #1 prompt hash ") {
		t.Fatalf("replay: %v", err)
	}
}

func TestAChangedPromptNamesTheAgentAndTheOrdinal(t *testing.T) {
	d, _, err := recordRun(t, budgeted("2"), Options{Agents: &recorder{}})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = recordRun(t, strings.Replace(budgeted("2"), `"two " + a.name`, `"two, edited, " + a.name`, 1), Options{Mode: Replay, Tape: d})
	re, ok := runerr.As(err)
	if !ok || re.Code != runerr.ReplayDiverged {
		t.Fatalf("got %v", err)
	}
	rec := d.Ask("A1", 2).Fields["prompt"]
	testsupport.ContainsAll(t, "the refusal", err.Error(), "replay diverged for agent A1 (a): ask #2 prompt hash sha256:", " ≠ recorded "+rec+" at inline.ts:5:",
		"see docs/yaag/troubleshooting.md#replay-or-resume-mismatch")
	// A changed spawn option names the option.
	_, _, err = recordRun(t, strings.Replace(budgeted("2"), `ctx.spawn({ name: n })`, `ctx.spawn({ name: n, tools: ["read_file"] })`, 1), Options{Mode: Replay, Tape: d})
	if err == nil || !strings.Contains(err.Error(), "replay diverged for agent A1 (a): spawn option tools hash sha256:") {
		t.Fatalf("a changed spawn: %v", err)
	}
}

func TestARaisedBudgetDoesNotDiverge(t *testing.T) {
	d, out, err := recordRun(t, budgeted("2"), Options{Agents: &recorder{}})
	if err != nil {
		t.Fatal(err)
	}
	_, replayed, err := recordRun(t, budgeted("20"), Options{Mode: Replay, Tape: d})
	if err != nil || replayed != out {
		t.Fatalf("replay with maxTurns raised: %v %s", err, replayed)
	}
	r := &recorder{}
	if _, resumed, err := recordRun(t, budgeted("20"), Options{Agents: r, Mode: Resume, Tape: d}); err != nil || resumed != out || len(r.asks) != 0 {
		t.Fatalf("resume with maxTurns raised: %v %s, asked %v", err, resumed, r.asks)
	}
}

func TestAChangedProfileGivesRecordedProfile(t *testing.T) {
	src := `
import { defineProgram, defineProfiled, defineAgent } from "@yaag/runtime";
const w = defineProfiled("w", (p) => defineAgent({ name: "w", ...p.role("w") }));
export default defineProgram({ name: "p", profiles: { fast: { roles: { w: { model: "small" } } }, slow: { roles: { w: { model: "big" } } } },
  async run(ctx) { const a = await ctx.spawn(w); return (await a.ask("hi")).text; } });`
	d, _, err := recordRun(t, src, Options{Agents: &recorder{}, Profile: "fast"})
	if err != nil {
		t.Fatal(err)
	}
	d.Run.Profile = "fast"
	r := &recorder{}
	_, _, err = recordRun(t, src, Options{Agents: r, Mode: Resume, Tape: d, Profile: "slow", ProfileOrigin: "--profile"})
	if err == nil || !strings.Contains(err.Error(), `the Cassette's recorded profile is "fast", and this Run's Profile is "slow" (from --profile)`) {
		t.Fatalf("got %v", err)
	}
	if len(r.specs) != 0 {
		t.Errorf("an Agent was spawned before the refusal: %v", r.specs)
	}
}

func TestAnUnknownAnswerKeyIsRefused(t *testing.T) {
	src := `
import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "p", async run(ctx) {
  const a = await ctx.spawn({ name: "asker", canAskUser: true });
  return (await a.ask("Which file?")).text;
} });`
	r := &recorder{answer: func(a agent.Ask) (agent.Answer, error) {
		return agent.Answer{Questions: []loopwire.Question{{CallID: "callxyz", Text: "Which one, a or b?"}}}, nil
	}}
	d, _, err := recordRun(t, src, Options{Agents: r})
	var paused *Paused
	if !errors.As(err, &paused) || len(paused.Questions) != 1 || paused.Questions[0].Key != "A1/1/q1" || paused.Questions[0].CallID != "callxyz" {
		t.Fatalf("got %v %+v", err, paused)
	}
	if _, err := cassette.CheckAnswers("cp.json", d, map[string]string{"A1/1/q2": "a"}); err == nil ||
		!strings.Contains(err.Error(), `the answer key "A1/1/q2" names no open question of this checkpoint cp.json (its questions: A1/1/q1)`) {
		t.Fatalf("an unknown key: %v", err)
	}
	if _, err := cassette.CheckAnswers("cp.json", d, map[string]string{"A1/1/q1": "a"}); err != nil {
		t.Fatalf("the key: %v", err)
	}
}
