package main

// The scripts' commands for brokerd: tool calls as loopd sends them, the
// tools image, and the crash suite.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"boxmaker/core/daemon"
	"boxmaker/core/testsupport"
)

// brokerdCmds are the commands the brokerd scripts add.
var brokerdCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"toolcall":   cmdToolcall,
	"toolwait":   cmdToolwait,
	"toolsimage": cmdToolsimage,
	"crashsuite": cmdCrashsuite,
}

// toolCallResult is what a tool call printed: its events and final line.
type toolCallResult struct {
	out  string
	done chan struct{}
}

var (
	bgCallsMu sync.Mutex
	bgCalls   = map[*testscript.TestScript]map[string]*toolCallResult{}
)

// sendToolCall sends one tool.call as loopd does and renders what came
// back: one line per event ("event: {...}"), then "answer: {...}" or
// "error: <text>".
func sendToolCall(sock, session, callID, tool, args string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	body := map[string]any{"session": session, "call_id": callID, "tool": tool, "arguments": json.RawMessage(args)}
	var b strings.Builder
	var out json.RawMessage
	err := daemon.Call(ctx, sock, "tool.call", body, &out, func(ev json.RawMessage) error {
		fmt.Fprintf(&b, "event: %s\n", ev)
		return nil
	})
	var re *daemon.RemoteError
	switch {
	case errors.As(err, &re):
		fmt.Fprintf(&b, "error: %s\n", re.Text)
	case err != nil:
		return b.String(), err
	default:
		fmt.Fprintf(&b, "answer: %s\n", out)
	}
	return b.String(), nil
}

// toolcall [-bg NAME | -n N] SOCKET SESSION CALL_ID TOOL ARGS_JSON: sends a
// tool call as loopd would and prints the events and the final answer.
// With -bg the call runs in the background; toolwait NAME prints its
// output. With -n, N calls CALL_ID1 ... CALL_IDN are sent one after the
// other and the last answer is printed.
// ARGS_JSON @FILE reads the arguments from FILE (for arguments too long
// to write in a script), and TOOL @FILE the tool's name.
func cmdToolcall(ts *testscript.TestScript, neg bool, args []string) {
	bg, repeat := "", 0
	if len(args) > 1 && args[0] == "-bg" {
		bg, args = args[1], args[2:]
	}
	if len(args) > 1 && args[0] == "-n" {
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 1 {
			ts.Fatalf("toolcall -n: %q is not a count", args[1])
		}
		repeat, args = n, args[2:]
	}
	if len(args) != 5 {
		ts.Fatalf("usage: toolcall [-bg NAME] SOCKET SESSION CALL_ID TOOL ARGS_JSON")
	}
	if name, ok := strings.CutPrefix(args[4], "@"); ok {
		args = append([]string(nil), args...)
		args[4] = ts.ReadFile(name)
	}
	if name, ok := strings.CutPrefix(args[3], "@"); ok {
		args = append([]string(nil), args...)
		args[3] = strings.TrimSuffix(ts.ReadFile(name), "\n")
	}
	sock := ts.MkAbs(args[0])
	if repeat > 0 {
		// -n N: N calls one after the other, ids CALL_ID1 ... CALL_IDN; the
		// last answer is printed.
		var out string
		for i := 1; i <= repeat; i++ {
			var err error
			if out, err = sendToolCall(sock, args[1], args[2]+strconv.Itoa(i), args[3], args[4], 2*time.Minute); err != nil {
				ts.Fatalf("toolcall: call %d: %v", i, err)
			}
		}
		ts.Stdout().Write([]byte(out))
		return
	}
	if bg == "" {
		out, err := sendToolCall(sock, args[1], args[2], args[3], args[4], 2*time.Minute)
		ts.Stdout().Write([]byte(out))
		if err != nil {
			ts.Fatalf("toolcall: %v", err)
		}
		return
	}
	r := &toolCallResult{done: make(chan struct{})}
	bgCallsMu.Lock()
	if bgCalls[ts] == nil {
		bgCalls[ts] = map[string]*toolCallResult{}
	}
	bgCalls[ts][bg] = r
	bgCallsMu.Unlock()
	go func() {
		defer close(r.done)
		out, err := sendToolCall(sock, args[1], args[2], args[3], args[4], 2*time.Minute)
		if err != nil {
			out += fmt.Sprintf("failed: %v\n", err)
		}
		r.out = out
	}()
}

// toolwait NAME: waits for the background tool call NAME and prints what
// it printed.
func cmdToolwait(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: toolwait NAME")
	}
	bgCallsMu.Lock()
	r := bgCalls[ts][args[0]]
	bgCallsMu.Unlock()
	if r == nil {
		ts.Fatalf("toolwait: no background call %s", args[0])
	}
	select {
	case <-r.done:
	case <-time.After(3 * time.Minute):
		ts.Fatalf("toolwait: %s did not finish", args[0])
	}
	ts.Stdout().Write([]byte(r.out))
}

// The static binary and the tools image are built once for all scripts.
var (
	staticOnce sync.Once
	staticBin  string
	staticID   string
	staticErr  error
)

// toolsimage CONFIG: builds the static binary (once), runs its
// `boxmaker tools-image` as an operator would, and puts the image ID it
// printed in CONFIG's [runner] image. $STATIC is the static binary.
func cmdToolsimage(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: toolsimage CONFIG")
	}
	if _, _, err := staticToolsImage(); err != nil {
		ts.Fatalf("toolsimage: %v", err)
	}
	ts.Setenv("STATIC", staticBin)
	ts.Setenv("TOOLS_IMAGE", staticID)
	path := ts.MkAbs(args[0])
	data, err := os.ReadFile(path)
	if err != nil {
		ts.Fatalf("toolsimage: %v", err)
	}
	re := regexp.MustCompile(`(?m)^image = ".*"$`)
	if !re.Match(data) {
		ts.Fatalf("toolsimage: %s has no image line", path)
	}
	data = re.ReplaceAll(data, []byte(`image = "`+staticID+`"`))
	if err := os.WriteFile(path, data, 0o600); err != nil {
		ts.Fatalf("toolsimage: %v", err)
	}
	fmt.Fprintf(ts.Stdout(), "%s\n", staticID)
}

// staticToolsImage is the static binary (testsupport.StaticBinary) and
// the tools image loaded from it with its `boxmaker tools-image`, as an
// operator loads it: once for the whole test binary (scripts and
// benchmarks).
func staticToolsImage() (bin, id string, err error) {
	staticOnce.Do(func() {
		if staticBin, staticErr = testsupport.StaticBinary(); staticErr != nil {
			return
		}
		out, err := exec.Command(staticBin, "tools-image").Output()
		if err != nil {
			staticErr = fmt.Errorf("tools-image: %v", err)
			return
		}
		staticID = strings.TrimSpace(string(out))
	})
	return staticBin, staticID, staticErr
}

// crashsuite CONFIG ROUNDS CALLS MAXKILL_MS MARKERS: the crash suite. Each
// round starts brokerd (without --accept-break: a start that fails fails
// the suite), checks `bxctl audit verify`, sends CALLS concurrent run
// calls (each touches MARKERS/<call id> in a container), and kills
// brokerd's process group with SIGKILL at a random moment within
// MAXKILL_MS. After the rounds brokerd starts once more and stops cleanly.
// Every marker must then have an allow decision record for its call id.
// It prints one line per round.
func cmdCrashsuite(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 5 {
		ts.Fatalf("usage: crashsuite CONFIG ROUNDS CALLS MAXKILL_MS MARKERS")
	}
	cfgPath := ts.MkAbs(args[0])
	var rounds, calls, maxKill int
	for i, p := range []*int{&rounds, &calls, &maxKill} {
		if _, err := fmt.Sscan(args[1+i], p); err != nil {
			ts.Fatalf("crashsuite: %v", err)
		}
	}
	markers := ts.MkAbs(args[4])
	home := filepath.Dir(filepath.Dir(cfgPath)) // <home>/etc/brokerd.toml
	sock := filepath.Join(home, "run/loop-broker/broker.sock")
	env := append(os.Environ(), "PATH="+ts.Getenv("PATH"), "BOXMAKER_HOME="+home)
	rng := newRand()

	start := func(round int) (*exec.Cmd, *testsupport.Buffer) {
		cmd := exec.Command("brokerd", "serve", "--config", cfgPath)
		cmd.Env = env
		out := &testsupport.Buffer{}
		cmd.Stdout, cmd.Stderr = out, out
		cmd.SysProcAttr = newProcessGroup()
		if err := cmd.Start(); err != nil {
			ts.Fatalf("round %d: cannot start brokerd: %v", round, err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		deadline := time.Now().Add(30 * time.Second)
		for {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			err := daemon.Call(ctx, sock, "ping", nil, nil, nil)
			cancel()
			if err == nil {
				break
			}
			select {
			case err := <-exited:
				ts.Fatalf("round %d: brokerd did not start (%v):\n%s", round, err, out.String())
			case <-time.After(50 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				ts.Fatalf("round %d: brokerd did not answer in 30 s:\n%s", round, out.String())
			}
		}
		waits[cmd] = exited
		return cmd, out
	}
	verify := func(round int) {
		out, err := exec.Command("bxctl", "--broker-config", cfgPath, "audit", "verify").CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "audit: ok") {
			ts.Fatalf("round %d: bxctl audit verify: %v\n%s", round, err, out)
		}
	}
	ran := 0
	for round := 1; round <= rounds; round++ {
		cmd, _ := start(round)
		verify(round)
		var wg sync.WaitGroup
		for i := 0; i < calls; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id := fmt.Sprintf("r%dc%d", round, i)
				args := fmt.Sprintf(`{"command":["touch",%q],"paths":[%q]}`, filepath.Join(markers, id), markers)
				sendToolCall(sock, fmt.Sprintf("crash-%d-%d", round, i), id, "run", args, time.Minute)
			}()
		}
		kill := time.Duration(rng.Intn(maxKill+1)) * time.Millisecond
		time.Sleep(kill)
		killGroup(cmd)
		<-waits[cmd]
		delete(waits, cmd)
		wg.Wait()
		n, _ := os.ReadDir(markers)
		fmt.Fprintf(ts.Stdout(), "round %d: killed after %v; %d markers so far\n", round, kill, len(n)-ran)
		ran = len(n)
	}
	cmd, out := start(rounds + 1)
	verify(rounds + 1)
	cmd.Process.Signal(os.Interrupt)
	<-waits[cmd]
	if !strings.Contains(out.String(), "brokerd: serving tools on") {
		ts.Fatalf("the last start printed no start line:\n%s", out.String())
	}
	checkMarkers(ts, filepath.Join(home, "audit"), markers)
}

var waits = map[*exec.Cmd]chan error{}

// eachAuditLine calls f with every line of the audit files in auditDir.
func eachAuditLine(ts *testscript.TestScript, auditDir string, f func(line []byte)) {
	files, _ := filepath.Glob(filepath.Join(auditDir, "*.jsonl"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			ts.Fatalf("%v", err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			f([]byte(line))
		}
	}
}

// checkMarkers requires an allow decision record for every marker.
func checkMarkers(ts *testscript.TestScript, auditDir, markers string) {
	allowed := map[string]bool{}
	eachAuditLine(ts, auditDir, func(line []byte) {
		var r struct{ Type, Call, Effect string }
		if json.Unmarshal(line, &r) == nil && r.Type == "decision" && r.Effect == "allow" {
			allowed[r.Call] = true
		}
	})
	entries, err := os.ReadDir(markers)
	if err != nil {
		ts.Fatalf("%v", err)
	}
	for _, e := range entries {
		if !allowed[e.Name()] {
			ts.Fatalf("the call %s ran (its marker exists) but has no allow decision record", e.Name())
		}
	}
	fmt.Fprintf(ts.Stdout(), "markers: %d, each with its decision record; allow decisions: %d\n", len(entries), len(allowed))
}
