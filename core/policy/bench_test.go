package policy

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"boxmaker/core/testsupport"
)

func reportCPU(b *testing.B, start time.Duration, n int) {
	b.ReportMetric(float64(testsupport.CPUTime()-start)/float64(n), "cpu-ns/op")
}

// benchGrants makes a grants directory of 100 files over root/proj/dNN
// (read and write allows, asks, denies, fetch hosts) and returns a call
// that one allow decides, four directories deep.
func benchGrants(b *testing.B) (*Grants, Call) {
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	gdir := root + "/grants"
	mustMkdir(b, gdir)
	for i := range 100 {
		dir := fmt.Sprintf("%s/proj/d%02d", root, i)
		mustMkdir(b, dir+"/sub")
		mustWrite(b, dir+"/sub/file.go", "package x")
		name := fmt.Sprintf("g%02d", i)
		switch i % 5 {
		case 0:
			writeGrant(b, gdir, name, "read_file", "deny", `paths = ["`+dir+`/sub/secret"]`, "", "secret", false)
		case 1:
			writeGrant(b, gdir, name, "write_file", "ask", `paths = ["`+dir+`"]`, "private", "private", false)
		case 2:
			writeGrant(b, gdir, name, "http_fetch", "allow", fmt.Sprintf(`hosts = ["h%02d.example.org"]`, i), "public", "secret", true)
		default:
			writeGrant(b, gdir, name, "read_file", "allow", `paths = ["`+dir+`", "`+dir+`-other"]`, "private", "secret", false)
		}
	}
	g := Open(gdir)
	b.Cleanup(func() { g.Close() })
	call := Call{Tool: "read_file", Target: root + "/proj/d98/sub/file.go"}
	if d := g.Decide(call, State{}); d.Verdict != Allow || d.Grant != "g98.toml" {
		b.Fatalf("decision %+v", d)
	}
	if !g.Watched() {
		b.Fatal("no inotify watch: the benchmark would measure the fallback")
	}
	return g, call
}

// BenchmarkDecide: one call against 100 unchanged grant files, target
// resolution on the real file system included.
func BenchmarkDecide(b *testing.B) {
	g, call := benchGrants(b)
	b.ReportAllocs()
	start, n := testsupport.CPUTime(), 0
	for b.Loop() {
		if d := g.Decide(call, State{Taint: Private}); d.Verdict != Allow {
			b.Fatal(d.Reason)
		}
		n++
	}
	reportCPU(b, start, n)
}

// BenchmarkDecideParallel: the same from every core at once.
func BenchmarkDecideParallel(b *testing.B) {
	g, call := benchGrants(b)
	b.ReportAllocs()
	b.ResetTimer()
	start := testsupport.CPUTime()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if d := g.Decide(call, State{}); d.Verdict != Allow {
				b.Error(d.Reason)
			}
		}
	})
	reportCPU(b, start, b.N)
}

// BenchmarkDecideUnwatched: the fallback without inotify, which reads all
// 100 files at every call.
func BenchmarkDecideUnwatched(b *testing.B) {
	g, call := benchGrants(b)
	u := openUnwatched(g.dir)
	b.ReportAllocs()
	for b.Loop() {
		if d := u.Decide(call, State{}); d.Verdict != Allow {
			b.Fatal(d.Reason)
		}
	}
}
