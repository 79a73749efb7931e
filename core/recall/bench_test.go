package recall

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"boxmaker/core/testsupport"
)

// The benchmark corpus: sessions × records session records, each 8 to 24
// words drawn from a Zipf-distributed vocabulary of made-up words, plus
// two planted terms: rareTerm in 5 records, onePercentTerm in every
// hundredth record. It is generated once (seeded, so always the same) into
// a directory under the system's temporary directory and kept there, with
// its index, for later runs.
const (
	rareTerm       = "quokkaborealis"
	onePercentTerm = "marmotcommon"
)

func syllableWord(r *rand.Rand) string {
	syl := []string{"ka", "lo", "mi", "ter", "zu", "pra", "ne", "vos", "qui", "dal", "ru", "sen", "to", "gha", "bi", "wel"}
	var b strings.Builder
	for n := 2 + r.IntN(3); n > 0; n-- {
		b.WriteString(syl[r.IntN(len(syl))])
	}
	return b.String()
}

// benchCorpus makes (or finds) a home with the corpus and its index.
func benchCorpus(b *testing.B, name string, sessions, records int) string {
	b.Helper()
	home := filepath.Join(os.TempDir(), "boxmaker-recall-bench-v1-"+name)
	ready := filepath.Join(home, "ready")
	if _, err := os.Stat(ready); err == nil {
		return home
	}
	os.RemoveAll(home)
	r := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 20000)
	for i := range vocab {
		vocab[i] = syllableWord(r)
	}
	zipf := rand.NewZipf(r, 1.1, 1, uint64(len(vocab)-1))
	rare := map[int]bool{}
	for len(rare) < 5 {
		rare[r.IntN(sessions*records)] = true
	}
	types := []string{"user", "assistant", "tool"}
	n := 0
	start := time.Now()
	for s := 0; s < sessions; s++ {
		p := logPath(home, fmt.Sprintf("bench-%04d", s), 0)
		os.MkdirAll(filepath.Dir(p), 0o700)
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		for i := 1; i <= records; i++ {
			var text strings.Builder
			for k := 8 + r.IntN(17); k > 0; k-- {
				text.WriteString(vocab[zipf.Uint64()])
				text.WriteByte(' ')
			}
			if n%100 == 0 {
				text.WriteString(onePercentTerm + " ")
			}
			if rare[n] {
				text.WriteString(rareTerm + " ")
			}
			n++
			at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Second).Format(time.RFC3339Nano)
			w.WriteString(`{"seq":` + strconv.Itoa(i) + `,"time":"` + at + `","type":"` + types[i%3] + `","text":"` + strings.TrimSpace(text.String()) + "\"}\n")
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	b.Logf("generated %d records in %v", n, time.Since(start))
	start = time.Now()
	p, err := Rebuild(home, nil)
	if err != nil {
		b.Fatal(err)
	}
	took := time.Since(start)
	b.Logf("first build: %d records from %d logs in %v: %.0f records/s", p.Records, p.Logs, took, float64(p.Records)/took.Seconds())
	os.WriteFile(ready, []byte(fmt.Sprintf("%d records in %v\n", p.Records, took)), 0o600)
	return home
}

func benchSearch(b *testing.B, term string, wantHits int) {
	home := benchCorpus(b, "1m", 1000, 1000)
	ix, err := Open(home, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	r, err := ix.Search(term, 10)
	if err != nil || len(r.Hits) != wantHits {
		b.Fatalf("Search(%s): %d hits, %v; want %d", term, len(r.Hits), err, wantHits)
	}
	times := make([]time.Duration, 0, b.N)
	cpu0 := testsupport.CPUTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t := time.Now()
		if _, err := ix.Search(term, 10); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t))
	}
	b.StopTimer()
	testsupport.ReportCPU(b, cpu0)
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "ms-p99")
}

// BenchmarkSearchRare: a term in 5 of 1,000,000 records.
func BenchmarkSearchRare(b *testing.B) { benchSearch(b, rareTerm, 5) }

// BenchmarkSearchOnePercent: a term in 10,000 of 1,000,000 records.
func BenchmarkSearchOnePercent(b *testing.B) { benchSearch(b, onePercentTerm, 10) }

// BenchmarkRebuild builds a whole new index of 200,000 records (200
// logs) or of the 1,000,000 of the search benchmarks (1,000 logs) and
// swaps it in, once per iteration.
func BenchmarkRebuild(b *testing.B) {
	b.Run("200k", func(b *testing.B) { benchRebuild(b, benchCorpus(b, "200k", 200, 1000)) })
	b.Run("1m", func(b *testing.B) { benchRebuild(b, benchCorpus(b, "1m", 1000, 1000)) })
}

func benchRebuild(b *testing.B, home string) {
	var recs int
	cpu0 := testsupport.CPUTime()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		p, err := Rebuild(home, nil)
		if err != nil {
			b.Fatal(err)
		}
		recs += p.Records
	}
	b.ReportMetric(float64(recs)/time.Since(start).Seconds(), "records/s")
	b.ReportMetric(float64(recs)/(testsupport.CPUTime()-cpu0).Seconds(), "records/cpu-s")
}

// BenchmarkSyncUnchanged is the cost of a Sync that finds nothing new in
// 1,000 logs: what memoryd pays before each search.
func BenchmarkSyncUnchanged(b *testing.B) {
	home := benchCorpus(b, "1m", 1000, 1000)
	ix, err := Open(home, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := ix.Sync()
		if err != nil || p.Records != 0 {
			b.Fatalf("Sync: %+v %v", p, err)
		}
	}
}
