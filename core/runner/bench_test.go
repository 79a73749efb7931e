package runner

import (
	"context"
	"fmt"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkReadFile compares a read_file through the runner with a bare
// `podman run` of the same container command line, whose output is only
// read. The difference is the runner's own cost: checks, the command
// line, parsing the result. docs/performance.md has the figures.
func BenchmarkReadFile(b *testing.B) {
	d := resolvedTempDir(b)
	writeTestFile(b, d+"/file.txt", "a line of text\n")
	r := newTestRunner(b, nil)
	b.Run("runner", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			res, err := r.Run(context.Background(), Call{ID: fmt.Sprintf("bench-r-%d", i), Tool: "read_file", Paths: []string{d + "/file.txt"}})
			if err != nil || res.Content != "a line of text\n" {
				b.Fatal(res, err)
			}
		}
	})
	b.Run("bare-podman", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			c := Call{ID: fmt.Sprintf("bench-b-%d", i), Tool: "read_file", Paths: []string{d + "/file.txt"}}
			out, err := exec.Command("podman", r.Args(c, r.ContainerName(c.ID))...).Output()
			if err != nil || len(out) == 0 {
				b.Fatal(string(out), err)
			}
		}
	})
}

// BenchmarkReadFilePaired runs the two one after the other in each
// iteration and reports both, so that the load of a shared machine, which
// drifts from one sub-benchmark to the next, weighs on both alike.
func BenchmarkReadFilePaired(b *testing.B) {
	d := resolvedTempDir(b)
	writeTestFile(b, d+"/file.txt", "a line of text\n")
	r := newTestRunner(b, nil)
	var runner, bare time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		res, err := r.Run(context.Background(), Call{ID: fmt.Sprintf("bench-pr-%d", i), Tool: "read_file", Paths: []string{d + "/file.txt"}})
		if err != nil || res.Content != "a line of text\n" {
			b.Fatal(res, err)
		}
		mid := time.Now()
		c := Call{ID: fmt.Sprintf("bench-pb-%d", i), Tool: "read_file", Paths: []string{d + "/file.txt"}}
		out, err := exec.Command("podman", r.Args(c, r.ContainerName(c.ID))...).Output()
		if err != nil || len(out) == 0 {
			b.Fatal(string(out), err)
		}
		runner += mid.Sub(start)
		bare += time.Since(mid)
	}
	n := float64(b.N)
	b.ReportMetric(float64(runner.Milliseconds())/n, "runner-ms/op")
	b.ReportMetric(float64(bare.Milliseconds())/n, "bare-ms/op")
	b.ReportMetric(100*(float64(runner)/float64(bare)-1), "overhead-%")
}
