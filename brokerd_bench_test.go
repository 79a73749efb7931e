package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/core/runner"
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
// podman starts detached, in either case. docs/performance.md ("brokerd")
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
	data, err := os.ReadFile(cfgPath)
	if err != nil {
		b.Fatal(err)
	}
	data = regexp.MustCompile(`(?m)^image = ".*"$`).ReplaceAll(data, []byte(`image = "`+image+`"`))
	if err := os.WriteFile(cfgPath, data, 0o600); err != nil {
		b.Fatal(err)
	}
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
	rcfg := runner.ConfigFrom(cfg.Runner, runner.Instance(cfg.Home))
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
	deadline := time.Now().Add(time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := daemon.Call(ctx, sock, "ping", nil, nil, nil)
		cancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("brokerd did not answer: %v\n%s", err, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
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
