package recall

import (
	"os"
	"path/filepath"
	"testing"

	"boxmaker/core/testsupport"
)

// BenchmarkRecall is a recall call as memoryd answers it, a Sync then a
// Search of the rare term, on the corpus of 200,000 records (200 logs)
// or of 1,000,000 (1,000 logs), against its anchor in the same run, the
// bare Search:
//   - bare: the Search alone;
//   - nothing-new: a Sync that finds nothing new, then the Search;
//   - one-turn: a record appended to a session's log (a turn), then the
//     Sync that indexes it and the Search;
//   - turn-sync: the same without the Search: what indexing the turn
//     costs.
//
// The turns go to a session of their own, removed at the end.
func BenchmarkRecall(b *testing.B) {
	for _, c := range []struct {
		name     string
		sessions int
	}{{"200k", 200}, {"1m", 1000}} {
		b.Run(c.name, func(b *testing.B) {
			home := benchCorpus(b, c.name, c.sessions, 1000)
			ix, err := Open(home, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer ix.Close()
			if _, err := ix.Sync(); err != nil {
				b.Fatal(err)
			}
			scratch := logPath(home, "bench-turns", 0)
			defer func() {
				os.RemoveAll(filepath.Dir(scratch))
				ix.Sync()
			}()
			for range 20 { // the pages the searches read, in memory first
				ix.Search(rareTerm, 10)
			}
			if err := os.MkdirAll(filepath.Dir(scratch), 0o700); err != nil {
				b.Fatal(err)
			}
			seq := 0
			turn := func(b *testing.B) {
				seq++
				f, err := os.OpenFile(scratch, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
				if err == nil {
					_, err = f.WriteString(logLine(seq, "user", "and the next one of the bench turns"))
					f.Close()
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			run := func(name string, write, sync, search bool) {
				b.Run(name, func(b *testing.B) {
					defer testsupport.ReportCPU(b, testsupport.CPUTime())
					for b.Loop() {
						if write {
							turn(b)
						}
						if sync {
							if _, err := ix.Sync(); err != nil {
								b.Fatal(err)
							}
						}
						if search {
							if r, err := ix.Search(rareTerm, 10); err != nil || len(r.Hits) != 5 {
								b.Fatalf("%d hits, %v", len(r.Hits), err)
							}
						}
					}
				})
			}
			run("bare", false, false, true)
			run("nothing-new", false, true, true)
			run("one-turn", true, true, true)
			run("turn-sync", true, true, false)
		})
	}
}
