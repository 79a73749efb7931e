package main

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"boxmaker/core/testsupport"
)

// BenchmarkYaagStart is the whole process of `yaag run --eval` on a small
// inline program (start, bundle, runtime, result, exit), beside the
// binary's start alone (`boxmaker version`) as the anchor, alternating the
// two in each iteration so the shared machine's load weighs on both. It
// runs the binary scripts/build.sh would build (static, stripped, with
// $BOXMAKER_TAGS: testsupport.StaticBinary), so the figures are the installed binary's. wall-ms/op
// and cpu-ms/op (the child's user and system time) are per process.
func BenchmarkYaagStart(b *testing.B) {
	bin, err := testsupport.StaticBinary()
	if err != nil {
		b.Fatal(err)
	}
	const src = `import { defineProgram } from "@yaag/runtime"; export default defineProgram({ name: "hi", async run() { return 1; } });`
	cmds := []struct {
		name string
		args []string
	}{
		{"version", []string{bin, "version"}},
		{"yaag-run-eval", []string{bin, "yaag", "run", "--no-config", "--eval", src}},
	}
	dir := b.TempDir()
	wall := make([]time.Duration, len(cmds))
	cpu := make([]time.Duration, len(cmds))
	for i := 0; i < b.N; i++ {
		for j := range cmds {
			c := cmds[(i+j)%len(cmds)]
			k := (i + j) % len(cmds)
			cmd := exec.Command(c.args[0], c.args[1:]...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "BOXMAKER_HOME="+dir)
			start := time.Now()
			out, err := cmd.CombinedOutput()
			if err != nil {
				b.Fatalf("%v: %v\n%s", c.args, err, out)
			}
			wall[k] += time.Since(start)
			cpu[k] += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
	}
	for k, c := range cmds {
		b.ReportMetric(float64(wall[k].Microseconds())/1000/float64(b.N), c.name+"-wall-ms/op")
		b.ReportMetric(float64(cpu[k].Microseconds())/1000/float64(b.N), c.name+"-cpu-ms/op")
	}
}
