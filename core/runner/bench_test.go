package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"testing"
	"time"

	"boxmaker/core/policy"
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
			out, err := exec.Command("podman", r.Args(c, r.ContainerName(c.ID), directMounts(c))...).Output()
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
	viaRunner := func(i int) {
		res, err := r.Run(context.Background(), Call{ID: fmt.Sprintf("bench-pr-%d", i), Tool: "read_file", Paths: []string{d + "/file.txt"}})
		if err != nil || res.Content != "a line of text\n" {
			b.Fatal(res, err)
		}
	}
	viaPodman := func(i int) {
		c := Call{ID: fmt.Sprintf("bench-pb-%d", i), Tool: "read_file", Paths: []string{d + "/file.txt"}}
		out, err := exec.Command("podman", r.Args(c, r.ContainerName(c.ID), directMounts(c))...).Output()
		if err != nil || len(out) == 0 {
			b.Fatal(string(out), err)
		}
	}
	timed := func(f func(int), i int, sum *time.Duration) {
		start := time.Now()
		f(i)
		*sum += time.Since(start)
	}
	for i := 0; b.Loop(); i++ {
		// Which goes first alternates, so neither profits from the other's
		// warm caches.
		if i%2 == 0 {
			timed(viaRunner, i, &runner)
			timed(viaPodman, i, &bare)
		} else {
			timed(viaPodman, i, &bare)
			timed(viaRunner, i, &runner)
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(runner.Milliseconds())/n, "runner-ms/op")
	b.ReportMetric(float64(bare.Milliseconds())/n, "bare-ms/op")
	b.ReportMetric(100*(float64(runner)/float64(bare)-1), "overhead-%")
}

// BenchmarkRunnerOwnWork is what Run does besides waiting for Podman:
// checking the call, staging the decided object (opening it without
// links, cloning its mount into the staging directory, detaching it
// again), the command line, reading the answer. It is the runner's
// overhead over a bare `podman run`, free of the container's start-up
// noise.
func BenchmarkRunnerOwnWork(b *testing.B) {
	d := resolvedTempDir(b)
	writeTestFile(b, d+"/file.txt", "a line of text\n")
	r := newTestRunner(b, nil)
	answer, _ := json.Marshal(Execute(context.Background(), Request{Tool: "read_file", Path: d + "/file.txt", Limit: 1 << 16}, nil))
	for i := 0; b.Loop(); i++ {
		c := Call{ID: fmt.Sprintf("bench-o-%d", i), Tool: "read_file", Paths: []string{d + "/file.txt"}}
		if err := checkCall(c); err != nil {
			b.Fatal(err)
		}
		st, early, err := r.stageCall(c, r.ContainerName(c.ID))
		if err != nil || early != nil {
			b.Fatal(early, err)
		}
		_ = r.Args(c, r.ContainerName(c.ID), st.mounts)
		st.release()
		var res Result
		if err := json.Unmarshal(answer, &res); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStage is the new mechanism alone (docs/runner.md, "Staging"):
// a decided path opened without links, its mount cloned, idmapped, set
// nosuid/nodev/read-only and attached in the call's staging directory,
// then detached and the directory removed. "masks" adds four masked paths
// (with their pinned parents) below a run directory.
func BenchmarkStage(b *testing.B) {
	d := resolvedTempDir(b)
	writeTestFile(b, d+"/file.txt", "a line of text\n")
	for _, dir := range []string{"a", "a/keys", "b", "c", "d"} {
		mkdirOwned(b, d+"/"+dir)
	}
	r := newTestRunner(b, nil)
	for _, tt := range []struct {
		name string
		call Call
	}{
		{"read_file", Call{Tool: "read_file", Paths: []string{d + "/file.txt"}}},
		{"run-masks", Call{Tool: "run", Paths: []string{d}, Masks: []policy.Mask{
			{Path: d + "/a/keys", Hide: true}, {Path: d + "/b", Hide: true}, {Path: d + "/c"}, {Path: d + "/file.txt", Hide: true}}}},
	} {
		b.Run(tt.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				c := tt.call
				c.ID = fmt.Sprintf("bench-s-%d", i)
				st, early, err := r.stageCall(c, r.ContainerName(c.ID))
				if err != nil || early != nil {
					b.Fatal(early, err)
				}
				st.release()
			}
		})
	}
}
