package main

import (
	"bufio"
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/core/home"
	"boxmaker/core/testsupport"
)

// BenchmarkReindexCommand measures `bxctl reindex` as an operator runs it:
// the real bxctl asking a real memoryd, which rebuilds the index of a home
// of 200 session logs of 1,000 records (8 to 24 words each from a
// vocabulary of 20,000, Zipf-distributed) and swaps it in. It reports the
// records read per second of the command's wall clock, and per second
// of memoryd's CPU time. The home is
// generated once (seeded) into $TMPDIR/boxmaker-reindex-bench-v1 and
// reused.
func BenchmarkReindexCommand(b *testing.B) {
	dir := filepath.Join(os.TempDir(), "boxmaker-reindex-bench-v1")
	if err := benchHome(dir, 200, 1000); err != nil {
		b.Fatal(err)
	}
	cfg := filepath.Join(dir, "etc", "memoryd.toml")
	sock := filepath.Join(dir, "run", "memory-admin", "admin.sock")
	env := append(os.Environ(), "BOXMAKER_HOME="+dir)
	md := exec.Command("memoryd", "serve", "--config", cfg)
	md.Env = env
	if err := md.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		md.Process.Signal(os.Interrupt)
		md.Wait()
	}()
	deadline := time.Now().Add(5 * time.Minute) // a first start builds the index
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := daemon.Call(ctx, sock, "ping", nil, nil, nil)
		cancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("memoryd did not answer: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	read := regexp.MustCompile(`read (\d+) logs, (\d+) records`)
	var records int
	var took time.Duration
	cpu0, _ := testsupport.ProcessCPU(b, md.Process.Pid)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		cmd := exec.Command("bxctl", "--memory-config", cfg, "reindex")
		cmd.Env = env
		out, err := cmd.Output()
		took += time.Since(t0)
		if err != nil {
			b.Fatalf("bxctl reindex: %v\n%s", err, out)
		}
		m := read.FindSubmatch(out)
		if m == nil {
			b.Fatalf("bxctl reindex printed %q", out)
		}
		n, _ := strconv.Atoi(string(m[2]))
		records += n
	}
	b.ReportMetric(float64(records)/took.Seconds(), "records/s")
	cpu1, _ := testsupport.ProcessCPU(b, md.Process.Pid)
	b.ReportMetric(float64(records)/(cpu1-cpu0).Seconds(), "records/memoryd-cpu-s")
}

// benchHome writes a home with a memoryd.toml and logs session logs of
// perLog user and assistant records, unless it is there already.
func benchHome(dir string, logs, perLog int) error {
	done := filepath.Join(dir, ".complete")
	if _, err := os.Stat(done); err == nil {
		return nil
	}
	os.RemoveAll(dir)
	if err := (home.Home{Dir: dir}).Create(); err != nil {
		return err
	}
	for _, r := range conf.Roles {
		if r.Name == "memoryd" {
			if err := os.WriteFile(filepath.Join(dir, "etc", "memoryd.toml"), []byte(r.Render(dir)), 0o600); err != nil {
				return err
			}
		}
	}
	rng := rand.New(rand.NewSource(1))
	zipf := rand.NewZipf(rng, 1.1, 1, 19999)
	word := func() string { return "w" + strconv.FormatUint(zipf.Uint64(), 36) }
	t := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	for l := range logs {
		sd := filepath.Join(dir, "sessions", fmt.Sprintf("bench-%04d", l))
		if err := os.MkdirAll(sd, 0o700); err != nil {
			return err
		}
		f, err := os.Create(filepath.Join(sd, "0.jsonl"))
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		for i := 1; i <= perLog; i++ {
			words := make([]string, 8+rng.Intn(17))
			for j := range words {
				words[j] = word()
			}
			typ := "user"
			if i%2 == 0 {
				typ = "assistant"
			}
			t = t.Add(time.Second)
			fmt.Fprintf(w, `{"seq":%d,"time":%q,"type":%q,"text":%q}`+"\n", i, t.Format(time.RFC3339Nano), typ, strings.Join(words, " "))
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return os.WriteFile(done, nil, 0o600)
}
