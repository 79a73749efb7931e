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
	"boxmaker/core/mcp"
	"boxmaker/core/mcpimage"
	"boxmaker/core/runner"
	"boxmaker/core/testsupport"
)

// mcpBench is a home whose brokerd runs the reference server-everything
// (from the image boxmaker mcp-image builds) as the MCP server "bench",
// its tools accepted and allowed, and a runner with brokerd's own
// configuration for the anchors' direct containers.
type mcpBench struct {
	cfg    conf.Brokerd
	runner *runner.Runner
	image  string
	argv   []string
	sock   string
	bd     *exec.Cmd
	logs   *strings.Builder
}

// newMCPBench makes the home and starts brokerd with [mcp] idle_ms = idleMS.
func newMCPBench(b *testing.B, idleMS int) *mcpBench {
	_, image, err := staticToolsImage()
	if err != nil {
		b.Fatal(err)
	}
	mcpRefImage.once.Do(func() { mcpRefImage.ref, mcpRefImage.err = buildMCPRefImage() })
	if mcpRefImage.err != nil {
		b.Fatal(mcpRefImage.err)
	}
	dir, _ := filepath.EvalSymlinks(testsupport.ShortDir(b))
	h := filepath.Join(dir, "h")
	env := append(os.Environ(), "BOXMAKER_HOME="+h)
	run := func(name string, args ...string) ([]byte, error) {
		cmd := exec.Command(name, args...)
		cmd.Env = env
		return cmd.Output()
	}
	if out, err := run("boxmaker", "init", "--home", h, "--owner", "1000:1000"); err != nil {
		b.Fatalf("boxmaker init: %v\n%s", err, out)
	}
	cfgPath := filepath.Join(h, "etc", "brokerd.toml")
	testsupport.EditFile(b, cfgPath, func(data []byte) []byte {
		data = regexp.MustCompile(`(?m)^image = ".*"$`).ReplaceAll(data, []byte(`image = "`+image+`"`))
		return regexp.MustCompile(`(?m)^idle_ms = .*$`).ReplaceAll(data, []byte(fmt.Sprintf("idle_ms = %d", idleMS)))
	})
	m := &mcpBench{image: mcpRefImage.ref, argv: []string{mcpimage.NodePath, mcpimage.EntryPoint("everything"), "stdio"}}
	argv, _ := json.Marshal(m.argv)
	if err := os.MkdirAll(filepath.Join(h, "etc", "mcp"), 0o755); err != nil {
		b.Fatal(err)
	}
	files := map[string]string{
		filepath.Join(h, "etc", "mcp", "bench.toml"):    fmt.Sprintf("image = %q\ncommand = %s\n", m.image, argv),
		filepath.Join(h, "etc", "grants", "bench.toml"): "tool = \"mcp\"\nserver = \"bench\"\neffect = \"allow\"\nclass = \"public\"\nmax_taint = \"secret\"\n",
	}
	for p, body := range files {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	out, _ := run("bxctl", "mcp", "tools", "--json", "bench")
	var listed struct{ Pin string }
	if err := json.Unmarshal(out, &listed); err != nil || listed.Pin == "" {
		b.Fatalf("bxctl mcp tools --json bench: %v\n%s", err, out)
	}
	if out, err := run("bxctl", "mcp", "accept", "bench", listed.Pin); err != nil {
		b.Fatalf("bxctl mcp accept: %v\n%s", err, out)
	}
	if err := conf.Load(cfgPath, &m.cfg); err != nil {
		b.Fatal(err)
	}
	rcfg := runner.ConfigFrom(m.cfg, runner.Instance(m.cfg.Home))
	rcfg.SeccompProfile = filepath.Join(h, "run", "bench-mcp-seccomp.json")
	if m.runner, err = runner.New(rcfg); err != nil {
		b.Fatal(err)
	}
	m.bd = exec.Command("brokerd", "serve", "--config", cfgPath)
	m.bd.Env = env
	m.logs = &strings.Builder{}
	m.bd.Stdout, m.bd.Stderr = m.logs, m.logs
	if err := m.bd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		m.bd.Process.Signal(os.Interrupt)
		m.bd.Wait()
		if b.Failed() {
			b.Log(m.logs.String())
		}
	})
	m.sock = m.cfg.Sockets.Broker
	if err := waitPing(m.sock, time.Minute, nil); err != nil {
		b.Fatalf("brokerd did not answer: %v\n%s", err, m.logs.String())
	}
	return m
}

// buildMCPRefImage runs the static binary's boxmaker mcp-image.
func buildMCPRefImage() (string, error) {
	bin, err := testsupport.StaticBinary()
	if err != nil {
		return "", err
	}
	out, err := exec.Command(bin, "mcp-image").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return "", fmt.Errorf("boxmaker mcp-image: %v: %s", err, ee.Stderr)
		}
		return "", fmt.Errorf("boxmaker mcp-image: %v", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// call sends server-everything's echo to brokerd as loopd sends a call.
func (m *mcpBench) call(b *testing.B, session, id string) {
	body := map[string]any{"session": session, "call_id": id, "tool": "mcp__bench__echo",
		"arguments": map[string]string{"message": "hi"}}
	var ans struct{ Outcome, Text string }
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := daemon.Call(ctx, m.sock, "tool.call", body, &ans, nil); err != nil || ans.Outcome != "allowed" || !strings.Contains(ans.Text, "Echo: hi") {
		b.Fatalf("through brokerd: %+v %v\n%s", ans, err, m.logs.String())
	}
}

// direct starts the same server in a container of the runner's lockdown,
// with no brokerd, and connects an MCP client to it over its stdio.
func (m *mcpBench) direct(b *testing.B, id string) (*mcp.Session, func()) {
	name := m.runner.ContainerName(id)
	cmd, err := m.runner.MCPCommand(name, m.image, m.argv, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := mcp.Connect(ctx, cmd, mcp.Options{})
	if err != nil {
		m.runner.RemoveContainer(name)
		b.Fatalf("direct: %v", err)
	}
	return s, func() { s.Close(); m.runner.RemoveContainer(name) }
}

func directEcho(b *testing.B, s *mcp.Session) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := s.Call(ctx, "echo", json.RawMessage(`{"message":"hi"}`))
	if err != nil || !strings.Contains(res.Text, "Echo: hi") {
		b.Fatalf("direct: %+v %v", res, err)
	}
}

// BenchmarkMCPCall is what brokerd adds to a call of an MCP server that
// is already running: server-everything's echo sent to a real brokerd's
// tool socket as loopd sends it (decided against the grants, the
// decision record written and fsync'd, the call over the server's stdio,
// the session's state written, the result record written and fsync'd,
// the answer), against the same call made directly by an MCP client
// (core/mcp, the SDK) to another process of the same server in a
// container of the same lockdown. Both servers are started before the
// clock runs; each iteration makes both calls, alternating which goes
// first. added-ms/op is the difference; brokerd-cpu-ms/op is brokerd's
// own CPU time per call (/proc, in ticks of 10 ms: read it over many
// calls), which a loaded machine does not inflate.
func BenchmarkMCPCall(b *testing.B) {
	m := newMCPBench(b, 600000)
	m.call(b, "bench-running", "warm")
	s, stop := m.direct(b, "bench-direct")
	defer stop()
	directEcho(b, s)
	var viaBroker, viaClient, brokerCPU time.Duration
	broker := func(i int) {
		own0, _ := testsupport.ProcessCPU(b, m.bd.Process.Pid)
		t0 := time.Now()
		m.call(b, "bench-running", fmt.Sprintf("c%d", i))
		viaBroker += time.Since(t0)
		own1, _ := testsupport.ProcessCPU(b, m.bd.Process.Pid)
		brokerCPU += own1 - own0
	}
	client := func() {
		t0 := time.Now()
		directEcho(b, s)
		viaClient += time.Since(t0)
	}
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			broker(i)
			client()
		} else {
			client()
			broker(i)
		}
	}
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / n }
	b.ReportMetric(ms(viaBroker), "brokerd-ms/op")
	b.ReportMetric(ms(viaClient), "direct-ms/op")
	b.ReportMetric(ms(viaBroker-viaClient), "added-ms/op")
	b.ReportMetric(ms(brokerCPU), "brokerd-cpu-ms/op")
}

// BenchmarkMCPFirstCall is a session's first call of a server: brokerd
// decides it, starts the server's container (runner.StartMCP), does the
// handshake, lists and judges the tools against the acceptance, calls
// echo and answers; against a bare podman run of the same image and
// command (the runner's MCP command line, no brokerd) with an MCP client
// doing the handshake and the same call. Every iteration is a new
// session; [mcp] idle_ms stops brokerd's servers soon after.
func BenchmarkMCPFirstCall(b *testing.B) {
	m := newMCPBench(b, 1000)
	m.call(b, "bench-warm", "warm") // the seccomp profile, the image's layers in the page cache
	var viaBroker, bare time.Duration
	broker := func(i int) {
		t0 := time.Now()
		m.call(b, fmt.Sprintf("bench-first-%d", i), fmt.Sprintf("f%d", i))
		viaBroker += time.Since(t0)
	}
	direct := func(i int) {
		t0 := time.Now()
		s, stop := m.direct(b, fmt.Sprintf("bench-bare-%d", i))
		directEcho(b, s)
		bare += time.Since(t0)
		stop()
	}
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			broker(i)
			direct(i)
		} else {
			direct(i)
			broker(i)
		}
	}
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / n }
	b.ReportMetric(ms(viaBroker), "brokerd-first-ms/op")
	b.ReportMetric(ms(bare), "bare-ms/op")
	b.ReportMetric(float64(viaBroker)/float64(bare), "ratio")
}
