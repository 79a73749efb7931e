package engine

import (
	"context"
	"testing"

	"boxmaker/core/testsupport"
	"boxmaker/core/yaag/cassette"
	"boxmaker/core/yaag/program"
	"boxmaker/core/yaag/typebox"
)

const benchPlain = `import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "plain", async run(ctx) { return { n: 1 }; } });`

const benchTypeBox = `import { defineProgram } from "@yaag/runtime";
import { Type } from "typebox";
const Out = Type.Object({ ok: Type.Boolean(), items: Type.Array(Type.Object({ name: Type.String(), n: Type.Integer() })) });
export default defineProgram({
  name: "typed", input: Type.Object({ n: Type.Integer() }), output: Out,
  async run(ctx) { return { ok: true, items: [{ name: "a", n: ctx.input.n }] }; },
});`

// BenchmarkProgram is the runtime's own time for one Run of a small
// program: bundling (esbuild), a new goja runtime with the TypeBox prelude,
// evaluating the module, checking the input and output schemas, run. The
// prelude is compiled once per process, before the timer.
func BenchmarkProgram(b *testing.B) {
	if _, err := typebox.Program(); err != nil {
		b.Fatal(err)
	}
	for _, tt := range []struct{ name, src, input string }{{"plain", benchPlain, ""}, {"typebox", benchTypeBox, `{"n":3}`}} {
		dir := b.TempDir()
		b.Run(tt.name+"/bundle+run", func(b *testing.B) {
			if _, err := program.Inline([]byte(tt.src), dir); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			defer testsupport.ReportCPU(b, testsupport.CPUTime())
			for i := 0; i < b.N; i++ {
				bundle, err := program.Inline([]byte(tt.src), dir)
				if err != nil {
					b.Fatal(err)
				}
				opts := Options{Bundle: bundle, Run: "r"}
				if tt.input != "" {
					opts.Input = []byte(tt.input)
				}
				if _, err := Run(context.Background(), opts); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tt.name+"/run", func(b *testing.B) {
			bundle, err := program.Inline([]byte(tt.src), dir)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			defer testsupport.ReportCPU(b, testsupport.CPUTime())
			for i := 0; i < b.N; i++ {
				opts := Options{Bundle: bundle, Run: "r"}
				if tt.input != "" {
					opts.Input = []byte(tt.input)
				}
				if _, err := Run(context.Background(), opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAskOverhead is the engine's own time per Ask (the Promise, the
// ordinal, the options, the queue, the answer object), against sessions
// that answer at once: 100 Asks over 4 Agents per Run.
func BenchmarkAskOverhead(b *testing.B) {
	src := `import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "asks", async run(ctx) {
  const agents = await Promise.all([1, 2, 3, 4].map((i) => ctx.spawn({ name: "a" + i })));
  const out = [];
  for (let round = 0; round < 25; round++) out.push(...await Promise.all(agents.map((a) => a.ask("q" + round, { maxTurns: 3 }))));
  return out.length;
} });`
	bundle, err := program.Inline([]byte(src), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := testsupport.CPUTime()
	for i := 0; i < b.N; i++ {
		out, err := Run(context.Background(), Options{Bundle: bundle, Run: "r", Agents: &recorder{}})
		if err != nil || string(out) != "100" {
			b.Fatal(out, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/100, "µs/ask")
	b.ReportMetric(float64((testsupport.CPUTime()-start).Microseconds())/float64(b.N)/100, "cpu-µs/ask")
}

// benchSteps is a program of 1,000 Asks: 10 Agents of 100 Asks each, in
// parallel.
const benchSteps = `import { defineProgram } from "@yaag/runtime";
export default defineProgram({ name: "steps", async run(ctx) {
  const agents = await Promise.all(Array.from({ length: 10 }, (_, i) => ctx.spawn({ name: "a" + i })));
  const out = await Promise.all(agents.map(async (a) => {
    let n = 0;
    for (let i = 0; i < 100; i++) n += (await a.ask("step " + i)).text.length;
    return n;
  }));
  return out.reduce((x, y) => x + y, 0);
} });`

// BenchmarkReplay1000Steps is the replay of a Cassette of 1,000 Asks (and
// 10 spawns): the Run's own time, with the program bundled once before
// the timer (as the recording was) and the Cassette read from its
// document each time. The anchor is the same program run live against
// Agents that answer at once, with its journal written (fsync per step).
func BenchmarkReplay1000Steps(b *testing.B) {
	d, want, err := recordRun(b, benchSteps, Options{Agents: &recorder{}})
	if err != nil {
		b.Fatal(err)
	}
	if n := len(keys(d)); n != 1000 {
		b.Fatalf("recorded %d Asks", n)
	}
	data, err := d.Encode()
	if err != nil {
		b.Fatal(err)
	}
	bundle := inline(b, benchSteps)
	b.Run("replay", func(b *testing.B) {
		b.ReportMetric(float64(len(data)), "cassette-bytes")
		defer testsupport.ReportCPU(b, testsupport.CPUTime())
		for i := 0; i < b.N; i++ {
			tape, err := cassette.Parse("bench.json", data)
			if err != nil {
				b.Fatal(err)
			}
			out, err := Run(context.Background(), Options{Bundle: bundle, Run: "r", Mode: Replay, Tape: tape})
			if err != nil || string(out) != want {
				b.Fatalf("%s %v", out, err)
			}
		}
	})
	b.Run("live+journal", func(b *testing.B) {
		defer testsupport.ReportCPU(b, testsupport.CPUTime())
		for i := 0; i < b.N; i++ {
			if _, _, err := recordRun(b, benchSteps, Options{Agents: &recorder{}}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
