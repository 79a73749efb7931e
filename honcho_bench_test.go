package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"boxmaker/core/daemon"
	"boxmaker/core/testpeer/fakehoncho"
	"boxmaker/core/testsupport"
)

// BenchmarkRecallHoncho measures a recall call as brokerd makes it, on
// memoryd's tool socket (kind recall.call), with a real brokerd answering
// memoryd's state questions: a home of 20 session logs of 200 records,
// and a fake Honcho whose read workspace holds 2,000 messages.
//
//	local:         no [honcho]: the anchor
//	one-read:      [honcho] with one [[honcho.read]] (and the own fleet)
//	slow-honcho:   the same, Honcho answering after 2 s, recall_budget_ms 200
//
// It reports the median and p99 milliseconds per recall. The goal is that
// a slow Honcho costs no more than the budget.
func BenchmarkRecallHoncho(b *testing.B) {
	for _, mode := range []string{"local", "one-read", "slow-honcho"} {
		b.Run(mode, func(b *testing.B) { benchRecallHoncho(b, mode) })
	}
}

func benchRecallHoncho(b *testing.B, mode string) {
	dir := testsupport.ShortDir(b)
	env := append(os.Environ(), "BOXMAKER_HOME="+dir)
	run := func(name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	run("boxmaker", "init", "--home", dir)
	words := strings.Fields("osprey heron kestrel harbour gate cliff nest north lake tower census monday fleet ledger audit grant")
	for s := range 20 {
		sd := filepath.Join(dir, "sessions", fmt.Sprintf("bench-%d", s))
		os.MkdirAll(sd, 0o700)
		var lb strings.Builder
		fmt.Fprintf(&lb, `{"seq":1,"time":"2026-10-01T08:00:00.000000001Z","type":"baseline","system":"s","memory":"","tools":[]}`+"\n")
		for i := 2; i <= 200; i++ {
			fmt.Fprintf(&lb, `{"seq":%d,"time":"2026-10-01T08:00:01.000000001Z","type":"user","who":"owner","text":"note %d: the %s by the %s"}`+"\n",
				i, i, words[(s+i)%len(words)], words[(s*7+i)%len(words)])
		}
		os.WriteFile(filepath.Join(sd, "0.jsonl"), []byte(lb.String()), 0o600)
	}
	cfg := filepath.Join(dir, "etc", "memoryd.toml")
	grant := "tool = \"recall\"\neffect = \"allow\"\nclass = \"public\"\nmax_taint = \"secret\"\nuntrusted = false\n"
	os.WriteFile(filepath.Join(dir, "etc", "grants", "recall.toml"), []byte(grant), 0o600)
	if mode != "local" {
		fake := fakehoncho.Start(fakehoncho.Options{})
		defer fake.Close()
		for i := range 2000 {
			fake.Add("bob-trusted", fmt.Sprintf("b%d", i%50), fakehoncho.Message{PeerID: "bob",
				Content: fmt.Sprintf("bob's note %d on the %s", i, words[i%len(words)])})
		}
		budget := 1500
		if mode == "slow-honcho" {
			fake.SetFault(fakehoncho.Fault{Delay: 2 * time.Second})
			budget = 200
		}
		f, _ := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
		fmt.Fprintf(f, "\n[honcho]\nurl = %q\nagent = \"kyle\"\nowner = \"ann\"\ntrusted = \"kt\"\nuntrusted = \"ku\"\nfleet = \"fleet\"\npoll_ms = 600000\nrecall_budget_ms = %d\n\n"+
			"[[honcho.read]]\nagent = \"bob\"\nworkspace = \"bob-trusted\"\ntrust = \"trusted\"\nclass = \"private\"\n", fake.URL, budget)
		f.Close()
	}
	start := func(role string, sock string) func() {
		cmd := exec.Command(role, "serve", "--config", filepath.Join(dir, "etc", role+".toml"))
		cmd.Env = env
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			err := daemon.Call(ctx, sock, "ping", nil, nil, nil)
			cancel()
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				b.Fatalf("%s did not answer: %v", role, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
		return func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }
	}
	defer start("brokerd", filepath.Join(dir, "run/memory-broker/state.sock"))()
	defer start("memoryd", filepath.Join(dir, "run/broker-memory/memory.sock"))()
	sock := filepath.Join(dir, "run/broker-memory/memory.sock")
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		q := words[i%len(words)]
		body := map[string]any{"session": fmt.Sprintf("q%d", i%4), "call_id": fmt.Sprintf("c%d", i), "arguments": map[string]any{"query": q, "limit": 10}}
		var ans struct {
			Text string `json:"text"`
		}
		t0 := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err := daemon.Call(ctx, sock, "recall.call", body, &ans, nil)
		cancel()
		lat = append(lat, time.Since(t0))
		if err != nil {
			b.Fatalf("recall: %v", err)
		}
		if mode == "one-read" && !strings.Contains(ans.Text, "honcho found") {
			b.Fatalf("no Honcho hits: %s", ans.Text)
		}
		if mode == "slow-honcho" && !strings.Contains(ans.Text, "left out: no answer within 200ms") {
			b.Fatalf("the slow Honcho was not left out: %s", ans.Text)
		}
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
