package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/core/home"
	"boxmaker/core/role"
	"boxmaker/core/runner"
	"boxmaker/core/testpeer/fakehoncho"
	"boxmaker/core/testsupport"
)

// BenchmarkReadFileThroughBrokerd compares a read_file of a one-line file
// sent to a real `brokerd serve` over its tool socket, as loopd sends it
// (deciding against the grants, the decision record written and fsync'd,
// the container run, the session's state written atomically, the result
// record written and fsync'd, the answer), with a bare `podman run` of
// the same container: the command line brokerd's runner builds for the
// call, from the same brokerd.toml, whose output is only read. Each
// iteration runs both, alternating which goes first, so that the load of
// the shared machine weighs on both alike. Every call is a new session,
// so each one writes its state file.
//
// Besides the wall clock it reports CPU time: for brokerd, its own user
// and system time and that of the podman processes it waited for (from
// /proc/<pid>/stat); for the bare side, the podman process's and its
// children's (from the child's rusage). Neither counts conmon, which
// podman starts detached, in either case. docs/performance.md ("brokerd: a tool call")
// has the figures.
func BenchmarkReadFileThroughBrokerd(b *testing.B) {
	_, image, err := staticToolsImage()
	if err != nil {
		b.Fatal(err)
	}
	dir, _ := filepath.EvalSymlinks(testsupport.ShortDir(b))
	h := filepath.Join(dir, "h")
	env := append(os.Environ(), "BOXMAKER_HOME="+h)
	initCmd := exec.Command("boxmaker", "init", "--home", h, "--owner", "1000:1000")
	initCmd.Env = env
	if out, err := initCmd.CombinedOutput(); err != nil {
		b.Fatalf("boxmaker init: %v\n%s", err, out)
	}
	cfgPath := filepath.Join(h, "etc", "brokerd.toml")
	testsupport.EditFile(b, cfgPath, func(data []byte) []byte {
		return regexp.MustCompile(`(?m)^image = ".*"$`).ReplaceAll(data, []byte(`image = "`+image+`"`))
	})
	src := filepath.Join(dir, "src")
	file := filepath.Join(src, "file.txt")
	grant := fmt.Sprintf("tool = \"read_file\"\neffect = \"allow\"\npaths = [%q]\nclass = \"private\"\nmax_taint = \"secret\"\nuntrusted = false\n", src)
	// The owner's file, readable by all: the bare run's direct mount is
	// not idmapped, and its tool must read it too.
	if err := os.MkdirAll(src, 0o755); err != nil {
		b.Fatal(err)
	}
	for p, body := range map[string]string{file: "a line of text\n", filepath.Join(h, "etc", "grants", "read-src.toml"): grant} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, p := range []string{src, file} {
		if err := os.Chown(p, 1000, 1000); err != nil {
			b.Fatal(err)
		}
	}
	var cfg conf.Brokerd
	if err := conf.Load(cfgPath, &cfg); err != nil {
		b.Fatal(err)
	}
	// The bare run's command line is the runner's, with the seccomp
	// profile brokerd writes at its first call.
	rcfg := runner.ConfigFrom(cfg, runner.Instance(cfg.Home))
	rcfg.SeccompProfile = filepath.Join(h, "run", "tools-seccomp.json")
	r, err := runner.New(rcfg)
	if err != nil {
		b.Fatal(err)
	}

	bd := exec.Command("brokerd", "serve", "--config", cfgPath)
	bd.Env = env
	var logs strings.Builder
	bd.Stdout, bd.Stderr = &logs, &logs
	if err := bd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		bd.Process.Signal(os.Interrupt)
		bd.Wait()
		if b.Failed() {
			b.Log(logs.String())
		}
	}()
	sock := cfg.Sockets.Broker
	if err := waitPing(sock, time.Minute, nil); err != nil {
		b.Fatalf("brokerd did not answer: %v\n%s", err, logs.String())
	}

	var wallBroker, wallBare, cpuBare time.Duration
	var cpuBroker, ownBroker time.Duration
	viaBrokerd := func(i int) {
		pid := bd.Process.Pid
		own0, all0 := testsupport.ProcessCPU(b, pid)
		t0 := time.Now()
		body := map[string]any{"session": fmt.Sprintf("bench-%d", i), "call_id": fmt.Sprintf("bench-b-%d", i),
			"tool": "read_file", "arguments": map[string]string{"path": file}}
		var ans struct{ Outcome, Text string }
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		err := daemon.Call(ctx, sock, "tool.call", body, &ans, nil)
		cancel()
		wallBroker += time.Since(t0)
		own1, all1 := testsupport.ProcessCPU(b, pid)
		ownBroker += own1 - own0
		cpuBroker += all1 - all0
		if err != nil || ans.Outcome != "allowed" || ans.Text != "a line of text\n" {
			b.Fatalf("through brokerd: %+v %v\n%s", ans, err, logs.String())
		}
	}
	viaPodman := func(i int) {
		c := runner.Call{ID: fmt.Sprintf("bench-p-%d", i), Tool: "read_file", Paths: []string{file}}
		t0 := time.Now()
		cmd := exec.Command(cfg.Runner.Podman, r.Args(c, r.ContainerName(c.ID), []runner.Mount{{Source: file, Dest: file, ReadOnly: true}})...)
		out, err := cmd.Output()
		wallBare += time.Since(t0)
		if err != nil {
			b.Fatalf("bare podman run: %v", err)
		}
		cpuBare += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		var res runner.Result
		if err := json.Unmarshal(out, &res); err != nil || res.Content != "a line of text\n" {
			b.Fatalf("bare podman run: %s %v", out, err)
		}
	}
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			viaBrokerd(i)
			viaPodman(i)
		} else {
			viaPodman(i)
			viaBrokerd(i)
		}
	}
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / n }
	b.ReportMetric(ms(wallBroker), "brokerd-ms/op")
	b.ReportMetric(ms(wallBare), "bare-ms/op")
	b.ReportMetric(100*(float64(wallBroker)/float64(wallBare)-1), "overhead-%")
	b.ReportMetric(ms(cpuBroker), "brokerd-cpu-ms/op")
	b.ReportMetric(ms(ownBroker), "brokerd-own-cpu-ms/op")
	b.ReportMetric(ms(cpuBare), "bare-cpu-ms/op")
	b.ReportMetric(100*(float64(cpuBroker)/float64(cpuBare)-1), "cpu-overhead-%")
}

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
	if err := waitPing(sock, 5*time.Minute, nil); err != nil { // a first start builds the index
		b.Fatalf("memoryd did not answer: %v", err)
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
		if r.Name == role.Memoryd {
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
		if err := waitPing(sock, 30*time.Second, nil); err != nil {
			b.Fatalf("%s did not answer: %v", role, err)
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

// BenchmarkYaagRunConfined is what the confinement of issue 23 costs a
// Run's start: a yaag_run of a small inline program sent to a real
// brokerd's tool socket as loopd sends it (decided, audited, its disk
// mounted, its relay served, its container of the tools image started
// with the decided directory staged, the result read, what it left kept,
// the disk unmounted), beside `yaag run --eval` of the same program as
// a process on the host (what brokerd ran before, D358), alternating
// which goes first in each iteration. Every call is a new session.
// docs/performance.md ("yaag") has the figures.
func BenchmarkYaagRunConfined(b *testing.B) {
	bin, image, err := staticToolsImage()
	if err != nil {
		b.Fatal(err)
	}
	dir, _ := filepath.EvalSymlinks(testsupport.ShortDir(b))
	h := filepath.Join(dir, "h")
	env := append(os.Environ(), "BOXMAKER_HOME="+h)
	initCmd := exec.Command("boxmaker", "init", "--home", h, "--owner", "1000:1000")
	initCmd.Env = env
	if out, err := initCmd.CombinedOutput(); err != nil {
		b.Fatalf("boxmaker init: %v\n%s", err, out)
	}
	cfgPath := filepath.Join(h, "etc", "brokerd.toml")
	testsupport.EditFile(b, cfgPath, func(data []byte) []byte {
		return regexp.MustCompile(`(?m)^image = ".*"$`).ReplaceAll(data, []byte(`image = "`+image+`"`))
	})
	progs := filepath.Join(dir, "progs")
	grant := fmt.Sprintf("tool = \"yaag_run\"\neffect = \"allow\"\npaths = [%q]\nclass = \"public\"\nmax_taint = \"secret\"\n", progs)
	if err := os.MkdirAll(progs, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h, "etc", "grants", "yaag.toml"), []byte(grant), 0o644); err != nil {
		b.Fatal(err)
	}
	var cfg conf.Brokerd
	if err := conf.Load(cfgPath, &cfg); err != nil {
		b.Fatal(err)
	}
	bd := exec.Command("brokerd", "serve", "--config", cfgPath)
	bd.Env = env
	var logs strings.Builder
	bd.Stdout, bd.Stderr = &logs, &logs
	if err := bd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		bd.Process.Signal(os.Interrupt)
		bd.Wait()
		if b.Failed() {
			b.Log(logs.String())
		}
	}()
	sock := cfg.Sockets.Broker
	if err := waitPing(sock, time.Minute, nil); err != nil {
		b.Fatalf("brokerd did not answer: %v\n%s", err, logs.String())
	}
	const src = `import { defineProgram } from "@yaag/runtime"; export default defineProgram({ name: "hi", async run() { return 1; } });`
	var wallConfined, wallHost time.Duration
	confined := func(i int) {
		t0 := time.Now()
		body := map[string]any{"session": fmt.Sprintf("bench-%d", i), "call_id": fmt.Sprintf("bench-y-%d", i),
			"tool": "yaag_run", "arguments": map[string]string{"dir": progs, "script": src}}
		var ans struct{ Outcome, Text string }
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		err := daemon.Call(ctx, sock, "tool.call", body, &ans, nil)
		cancel()
		wallConfined += time.Since(t0)
		if err != nil || ans.Outcome != "allowed" || !strings.HasSuffix(ans.Text, " completed: 1") {
			b.Fatalf("yaag_run through brokerd: %+v %v\n%s", ans, err, logs.String())
		}
	}
	host := func() {
		cmd := exec.Command(bin, "yaag", "run", "--no-config", "--eval", src)
		cmd.Dir = progs
		cmd.Env = env
		t0 := time.Now()
		out, err := cmd.Output()
		wallHost += time.Since(t0)
		if err != nil || strings.TrimSpace(string(out)) != "1" {
			b.Fatalf("yaag run --eval: %v\n%s", err, out)
		}
	}
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			confined(i)
			host()
		} else {
			host()
			confined(i)
		}
	}
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / n }
	b.ReportMetric(ms(wallConfined), "confined-ms/op")
	b.ReportMetric(ms(wallHost), "host-ms/op")
	b.ReportMetric(float64(wallConfined)/float64(wallHost), "confined/host")
}

// BenchmarkYaagStart is the whole process of `yaag run --eval` on a small
// inline program (start, bundle, runtime, result, exit), beside the
// binary's start alone (`boxmaker version`) and a process that does
// nothing (/bin/true) as anchors, alternating the three in each iteration
// so the shared machine's load weighs on each. It
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
		{"true", []string{"/bin/true"}}, // what any process start costs on this machine now
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
