package main

import (
	"bufio"
	"bytes"
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"

	"boxmaker/audit"
	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/core/runner"
	"boxmaker/core/testsupport"
)

// The scripts' commands for brokerd: tool calls as loopd sends them, the
// tools image; its crash suite (crashsuite) is TestCrashSuites'.

// brokerdCmds are the commands the brokerd scripts add.
var brokerdCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"toolcall":   cmdToolcall,
	"toolwait":   cmdToolwait,
	"toolsimage": cmdToolsimage,
	"lostlocks":  cmdLostlocks,
	"silentsock": cmdSilentsock,
}

// cmdSilentsock listens on a unix socket and never answers: a daemon
// that has hung. Its connections are held until the script ends.
//
//	silentsock PATH
func cmdSilentsock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: silentsock PATH")
	}
	path := ts.MkAbs(args[0])
	os.MkdirAll(filepath.Dir(path), 0o700)
	ln, err := net.Listen("unix", path)
	if err != nil {
		ts.Fatalf("silentsock: %v", err)
	}
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	ts.Defer(func() {
		ln.Close()
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	})
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
	wholeNumbers(ts, "crashsuite", args[1:4], &rounds, &calls, &maxKill)
	markers := ts.MkAbs(args[4])
	home := filepath.Dir(filepath.Dir(cfgPath)) // <home>/etc/brokerd.toml
	sock := filepath.Join(home, "run/loop-broker/broker.sock")
	env := roleEnv(ts, home)
	rng := newRand()

	start := func(round int) (*exec.Cmd, *testsupport.Buffer) {
		cmd, exited, out := startRole(ts, "brokerd", cfgPath, sock, env, round)
		waits[cmd] = exited
		return cmd, out
	}
	verify := func(round int) {
		out, err := exec.Command("bxctl", "--broker-config", cfgPath, "audit", "verify").CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "audit: ok") {
			ts.Fatalf("round %d: bxctl audit verify: %v\n%s", round, err, out)
		}
	}
	defer lostLocks(ts, "crashsuite")()
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
		if err := groupGone(cmd.Process.Pid, 30*time.Second); err != nil {
			ts.Fatalf("round %d: %v", round, err)
		}
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

// lostlocks start|check: Podman's lost locks (testsupport.LostPodmanLocks)
// around a part of a script. start counts them and, for the rest of the
// script, keeps the suites that lose locks by design from running (they
// wait); check prints "lostlocks: N lost (A then B)" and fails when N is
// not 0. A script skips itself first when the machine's lock table is
// not Podman 4.3's ([!podmanlocks] skip).
func cmdLostlocks(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 || (args[0] != "start" && args[0] != "check") {
		ts.Fatalf("usage: lostlocks start|check")
	}
	count := func() testsupport.LockCount {
		c, err := testsupport.CountLostPodmanLocks()
		ts.Check(err)
		return c
	}
	if args[0] == "start" {
		release, err := testsupport.CountingPodmanLocks()
		ts.Check(err)
		ts.Defer(release)
		ts.Setenv("LOST_LOCKS_BEFORE", strconv.Itoa(count().Lost))
		return
	}
	var before testsupport.LockCount
	var err error
	if before.Lost, err = strconv.Atoi(ts.Getenv("LOST_LOCKS_BEFORE")); err != nil {
		ts.Fatalf("lostlocks check: no lostlocks start before it")
	}
	after := count()
	fmt.Fprintf(ts.Stdout(), "lostlocks: %d lost (%d then %d, %d podman processes creating)\n", after.LostSince(before), before.Lost, after.Lost, after.Creating)
	if after.LostSince(before) > 0 {
		ts.Fatalf("Podman's locks in use without a container, pod or volume went from %d to %d", before.Lost, after.Lost)
	}
}

// lostLocks counts Podman's lost locks (testsupport.CountLostPodmanLocks)
// for a suite that loses some by design: it SIGKILLs brokerd's group, and
// with it podman clients creating containers. Call the function it
// returns at the suite's end: it prints how many the suite lost. A suite
// cannot give them back: a lost lock has no owner Podman knows, and only
// `podman system renumber`, which acts on every container of the machine,
// frees it (scripts/setup.sh runs it when the machine has no container;
// D742). Other suites that lose locks meanwhile count too; a test that
// counts them (testsupport.LostPodmanLocks) waits until none runs.
func lostLocks(ts *testscript.TestScript, name string) func() {
	release, err := testsupport.LosingPodmanLocks()
	if err != nil {
		ts.Fatalf("%s: %v", name, err)
	}
	before, err := testsupport.CountLostPodmanLocks()
	return func() {
		defer release()
		after, err2 := testsupport.CountLostPodmanLocks()
		if err == nil {
			err = err2
		}
		if err != nil {
			fmt.Fprintf(ts.Stdout(), "%s: Podman's lost locks not counted: %v\n", name, err)
			return
		}
		fmt.Fprintf(ts.Stdout(), "%s: Podman locks lost: %d (the machine's lost locks went from %d to %d)\n", name, after.LostSince(before), before.Lost, after.Lost)
	}
}

// wholeNumbers reads args as the whole numbers ps point to, in order; the
// script fails (its words headed by name) at one that is not.
func wholeNumbers(ts *testscript.TestScript, name string, args []string, ps ...*int) {
	for i, p := range ps {
		n, err := strconv.Atoi(args[i])
		if err != nil {
			ts.Fatalf("%s: %v", name, err)
		}
		*p = n
	}
}

// fullSize is a crash suite's rounds: the number in the environment
// variable env when it is set (the full-size run its doc names), else
// rounds. A value that is not a whole number above 0 fails the script.
func fullSize(ts *testscript.TestScript, env string, rounds int) int {
	v := os.Getenv(env)
	if v == "" {
		return rounds
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		ts.Fatalf("%s=%q: the rounds are a whole number above 0", env, v)
	}
	return n
}

// roleEnv is the environment a script's Go command gives a role it
// starts: the script's PATH (the test binary as every role), BOXMAKER_HOME
// home, and more.
func roleEnv(ts *testscript.TestScript, home string, more ...string) []string {
	return append(append(os.Environ(), "PATH="+ts.Getenv("PATH"), "BOXMAKER_HOME="+home), more...)
}

// startRole starts `role serve --config cfg` with env (a crash suite's
// round) in a process group of its own, its output in the buffer, and
// when sock is not empty waits until it answers a ping there; it fails
// the script if the role cannot start, or exits or does not answer in
// 30 s. The channel gives Wait's error.
func startRole(ts *testscript.TestScript, role, cfg, sock string, env []string, round int) (*exec.Cmd, chan error, *testsupport.Buffer) {
	cmd := exec.Command(role, "serve", "--config", cfg)
	cmd.Env = env
	out := &testsupport.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = newProcessGroup()
	if err := cmd.Start(); err != nil {
		ts.Fatalf("round %d: cannot start %s: %v", round, role, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	if sock == "" {
		return cmd, exited, out
	}
	if err := waitPing(sock, 30*time.Second, exited); err != nil {
		killGroup(cmd)
		ts.Fatalf("round %d: %s did not start: %v\n%s", round, role, err, out.String())
	}
	return cmd, exited, out
}

// waitPing waits until a daemon answers a ping on sock, for at most
// timeout, or until exited says the daemon ended.
func waitPing(sock string, timeout time.Duration, exited chan error) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	err := daemon.AwaitPing(ctx, sock, 50*time.Millisecond, func() error {
		select {
		case err := <-exited:
			exited <- err
			return fmt.Errorf("it ended before it answered (%v)", err)
		default:
			return nil
		}
	})
	if ctx.Err() != nil {
		return fmt.Errorf("nothing answered on %s in %s: %v", sock, timeout, err)
	}
	return err
}

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

// The scripts' commands for the audit log: damage as someone covering
// their tracks would do it.

var auditCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"auditrechain": cmdAuditRechain,
}

// auditrechain FILE SESSION CALL: removes every record of the call from
// the log file and recomputes every later seq and prev, so that the chain
// holds again (what `bxctl audit verify` alone cannot see).
func cmdAuditRechain(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: auditrechain FILE SESSION CALL")
	}
	path := ts.MkAbs(args[0])
	data, err := os.ReadFile(path)
	ts.Check(err)
	var out bytes.Buffer
	var seq uint64
	prev := ""
	dropped := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		r, err := audit.ParseLine(sc.Bytes())
		ts.Check(err)
		if seq == 0 {
			seq, prev = r.Seq, r.Prev
		}
		if r.Session == args[1] && r.Call == args[2] {
			dropped++
			continue
		}
		r.Seq, r.Prev = seq, prev
		line, err := json.Marshal(r)
		ts.Check(err)
		sum := sha256.Sum256(line)
		seq, prev = seq+1, hex.EncodeToString(sum[:])
		out.Write(append(line, '\n'))
	}
	ts.Check(sc.Err())
	if dropped == 0 {
		ts.Fatalf("auditrechain: no record of call %s of session %s in %s", args[2], args[1], args[0])
	}
	ts.Check(os.WriteFile(path, out.Bytes(), 0o600))
}

// The scripts' commands for the containment attacks (issue 8): the race
// of a parent directory swapped between the decision and the mount,
// driven through the real brokerd with real containers. The race and
// crash suites themselves (racesuite, crashcalls, crashinit) are
// TestCrashSuites' commands.

// containmentCmds are the commands the containment scripts add.
var containmentCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"leftovers":   cmdLeftovers,
	"alive":       cmdAlive,
	"stagemounts": cmdStagemounts,
	"fakeconmon":  cmdFakeconmon,
}

// raceCallsEnv sets the number of racing calls of brokerd-race.txtar; the
// script's own number is the CI size.
const raceCallsEnv = "BOXMAKER_RACE_CALLS"

var (
	flipperOnce sync.Once
	flipperB64  string
	flipperErr  error
)

// flipperBase64 builds testdata/flipper (static, no cgo) once per test
// binary and returns it base64-encoded: the model delivers it as text
// with write_file and decodes it with run.
func flipperBase64() (string, error) {
	flipperOnce.Do(func() {
		dir, err := os.MkdirTemp("", "bxflipper")
		if err != nil {
			flipperErr = err
			return
		}
		defer os.RemoveAll(dir)
		bin := filepath.Join(dir, "flipper")
		build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", bin, "./testdata/flipper")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			flipperErr = fmt.Errorf("go build ./testdata/flipper: %v\n%s", err, out)
			return
		}
		data, err := os.ReadFile(bin)
		if err != nil {
			flipperErr = err
			return
		}
		flipperB64 = base64.StdEncoding.EncodeToString(data)
	})
	return flipperB64, flipperErr
}

// The race's markers: what is inside the grant and what is outside it.
const (
	insideText    = "inside\n"
	outsideSecret = "OUTSIDE-SECRET"
	insideOnly    = "inside-only"
	outsideOnly   = "outside-only"
	outsideMarker = "outside-marker"
)

// racesuite CONFIG GRANTED OUTSIDE GRANTS CALLS: the parent-swap race
// (issue 8, item 1). GRANTED is a directory every file tool and run are
// granted on; OUTSIDE is a root-only directory outside every grant and
// GRANTS the grants directory. The suite lays out GRANTED/sub (x.txt,
// d/) and GRANTED/sub2, and OUTSIDE with the same names; delivers the
// flipper into GRANTED with write_file and starts it with run, flipping
// sub between itself and a link to OUTSIDE, and sub2 between itself and
// a link to GRANTS; then sends CALLS calls (read_file sub/x.txt,
// list_dir sub/d, write_file sub/w-N.txt and sub2/evil-N.toml, run in
// sub/d) from eight sessions, four at a time. A leak is any answer that
// shows OUTSIDE's content, and any file that appears in OUTSIDE or
// GRANTS or changes there. $BOXMAKER_RACE_CALLS replaces CALLS.
func cmdRacesuite(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 5 {
		ts.Fatalf("usage: racesuite CONFIG GRANTED OUTSIDE GRANTS CALLS")
	}
	cfgPath, granted, outside, grants := ts.MkAbs(args[0]), ts.MkAbs(args[1]), ts.MkAbs(args[2]), ts.MkAbs(args[3])
	calls, err := strconv.Atoi(args[4])
	if err != nil {
		ts.Fatalf("racesuite: %v", err)
	}
	if v := os.Getenv(raceCallsEnv); v != "" {
		if calls, err = strconv.Atoi(v); err != nil {
			ts.Fatalf("racesuite: $%s: %v", raceCallsEnv, err)
		}
	}
	home := filepath.Dir(filepath.Dir(cfgPath))
	sock := filepath.Join(home, "run/loop-broker/broker.sock")

	layRaceTree(ts, granted, outside)
	before := treeState(ts, outside) + treeState(ts, grants)
	outsideIDs := treeIDs(ts, outside, grants)

	b64, err := flipperBase64()
	if err != nil {
		ts.Fatalf("racesuite: %v", err)
	}
	deliver, _ := json.Marshal(map[string]string{"path": granted + "/flipper.b64", "content": b64})
	out, err := sendToolCall(sock, "flip", "deliver", "write_file", string(deliver), time.Minute)
	if err != nil || !strings.Contains(out, `"outcome":"allowed"`) {
		ts.Fatalf("racesuite: delivering the flipper: %v\n%s", err, out)
	}
	flipCmd := fmt.Sprintf("base64 -d flipper.b64 > flipper && chmod 700 flipper && exec ./flipper 900 sub:%s sub2:%s", outside, grants)
	flipArgs, _ := json.Marshal(map[string]any{"command": []string{"sh", "-c", flipCmd}, "paths": []string{granted}})
	flipDone := make(chan string, 1)
	go func() {
		out, err := sendToolCall(sock, "flip", "flipper", "run", string(flipArgs), 20*time.Minute)
		if err != nil {
			out += fmt.Sprintf("failed: %v\n", err)
		}
		flipDone <- out
	}()
	waitFlipping(ts, granted, flipDone)

	var (
		mu             sync.Mutex
		leaks          []string
		counts         = map[string]int{}
		next           atomic.Int64
		wg             sync.WaitGroup
		toolsInOrder   = []string{"read_file", "list_dir", "write_file", "write_grant", "run"}
		perToolAllowed = map[string]int{}
	)
	// The calls go on past CALLS (up to ten times as many) until one was
	// refused as target-changed, so that the script can show that entry.
	var changed atomic.Int64
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= 10*calls || (i >= calls && changed.Load() > 0) {
					return
				}
				kind := toolsInOrder[i%len(toolsInOrder)]
				tool, argsJSON := raceCall(kind, granted, i)
				session := fmt.Sprintf("race-%d", i%8)
				out, err := sendToolCall(sock, session, fmt.Sprintf("r%d", i), tool, argsJSON, 5*time.Minute)
				mu.Lock()
				switch {
				case err != nil:
					counts["lost"]++
				case strings.Contains(out, `"outcome":"allowed"`):
					counts["allowed"]++
					perToolAllowed[kind]++
				case strings.Contains(out, `"outcome":"denied"`):
					counts["denied"]++
				default:
					counts["failed"]++
				}
				if strings.Contains(out, "the target changed after the decision") {
					changed.Add(1)
				}
				if leak := raceLeak(kind, out); leak != "" {
					leaks = append(leaks, fmt.Sprintf("call r%d (%s): %s: %s", i, kind, leak, strings.TrimSpace(out)))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	calls = counts["allowed"] + counts["denied"] + counts["failed"] + counts["lost"]
	if err := os.WriteFile(filepath.Join(granted, "stop"), nil, 0o644); err != nil {
		ts.Fatalf("racesuite: %v", err)
	}
	var flipOut string
	select {
	case flipOut = <-flipDone:
	case <-time.After(2 * time.Minute):
		ts.Fatalf("racesuite: the flipper did not stop")
	}
	if !strings.Contains(flipOut, "flipper: ") || !strings.Contains(flipOut, " exchanges") {
		ts.Fatalf("racesuite: the flipper did not run to its end:\n%s", flipOut)
	}
	if after := treeState(ts, outside) + treeState(ts, grants); after != before {
		leaks = append(leaks, fmt.Sprintf("the directories outside the grant changed:\nbefore:\n%safter:\n%s", before, after))
	}
	leaks = append(leaks, mountedOutside(ts, filepath.Join(home, "audit"), outsideIDs)...)
	var kinds []string
	for k, n := range perToolAllowed {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(kinds)
	fmt.Fprintf(ts.Stdout(), "race: %d calls: %d allowed (%s), %d denied, %d failed (%d target-changed), %d lost; leaks: %d\n",
		calls, counts["allowed"], strings.Join(kinds, ", "), counts["denied"], counts["failed"], changed.Load(), counts["lost"], len(leaks))
	if len(leaks) > 0 {
		ts.Fatalf("racesuite: %d leaks:\n%s", len(leaks), strings.Join(leaks, "\n"))
	}
}

// layRaceTree makes the same names inside the grant and outside it, with
// different content, so that every answer tells which side it came from.
func layRaceTree(ts *testscript.TestScript, granted, outside string) {
	for _, d := range []string{granted + "/sub/d", granted + "/sub2", outside + "/d"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			ts.Fatalf("racesuite: %v", err)
		}
	}
	files := map[string]string{
		granted + "/sub/x.txt":             insideText,
		granted + "/sub/d/" + insideOnly:   "",
		granted + "/sub/d/marker":          "inside-marker\n",
		outside + "/x.txt":                 outsideSecret + "\n",
		outside + "/d/" + outsideOnly:      "",
		outside + "/d/marker":              outsideMarker + "\n",
		outside + "/d/.keep-outside-owned": "",
	}
	for p, s := range files {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			ts.Fatalf("racesuite: %v", err)
		}
	}
	if err := os.Chmod(outside, 0o700); err != nil {
		ts.Fatalf("racesuite: %v", err)
	}
	// The granted tree is the owner's, as the directory it is in.
	var st syscall.Stat_t
	if err := syscall.Stat(granted, &st); err != nil {
		ts.Fatalf("racesuite: %v", err)
	}
	filepath.Walk(granted, func(p string, fi os.FileInfo, err error) error {
		if err == nil {
			err = os.Lchown(p, int(st.Uid), int(st.Gid))
		}
		if err != nil {
			ts.Fatalf("racesuite: %v", err)
		}
		return nil
	})
}

// raceCall is one racing call of a kind: its tool and arguments.
func raceCall(kind, granted string, i int) (string, string) {
	var a any
	tool := kind
	switch kind {
	case "read_file":
		a = map[string]string{"path": granted + "/sub/x.txt"}
	case "list_dir":
		a = map[string]string{"path": granted + "/sub/d"}
	case "write_file":
		a = map[string]string{"path": fmt.Sprintf("%s/sub/w-%d.txt", granted, i), "content": "written by a racing call\n"}
	case "write_grant":
		tool = "write_file"
		a = map[string]string{"path": fmt.Sprintf("%s/sub2/evil-%d.toml", granted, i),
			"content": "tool = \"read_file\"\neffect = \"allow\"\npaths = [\"/etc\"]\nclass = \"public\"\nmax_taint = \"secret\"\n"}
	case "run":
		a = map[string]any{"command": []string{"sh", "-c", fmt.Sprintf("cat marker; ls; touch r-%d", i)},
			"paths": []string{granted + "/sub/d"}}
	}
	data, _ := json.Marshal(a)
	return tool, string(data)
}

// raceLeak says what in an answer came from outside the grant, or "".
func raceLeak(kind, out string) string {
	for _, m := range []string{outsideSecret, outsideOnly, outsideMarker, ".keep-outside-owned"} {
		if strings.Contains(out, m) {
			return "the answer shows " + m
		}
	}
	return ""
}

// waitFlipping waits until the flipper has made sub a link at least once.
func waitFlipping(ts *testscript.TestScript, granted string, flipDone chan string) {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if fi, err := os.Lstat(granted + "/sub"); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return
		}
		select {
		case out := <-flipDone:
			ts.Fatalf("racesuite: the flipper ended before flipping:\n%s", out)
		case <-time.After(2 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			ts.Fatalf("racesuite: the flipper did not start flipping in 2 minutes")
		}
	}
}

// treeState lists every entry under dir with its mode, owner, size and
// content hash-free text (the trees are small), in order.
func treeState(ts *testscript.TestScript, dir string) string {
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v %d", strings.TrimPrefix(p, dir), fi.Mode(), fi.Size())
		if fi.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			fmt.Fprintf(&b, " %q", data)
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		ts.Fatalf("racesuite: %v", err)
	}
	return b.String()
}

// treeIDs is the device and inode of every entry under the dirs.
func treeIDs(ts *testscript.TestScript, dirs ...string) map[[2]uint64]string {
	ids := map[[2]uint64]string{}
	for _, dir := range dirs {
		filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
			if err != nil {
				ts.Fatalf("racesuite: %v", err)
			}
			st := fi.Sys().(*syscall.Stat_t)
			ids[[2]uint64{st.Dev, st.Ino}] = p
			return nil
		})
	}
	return ids
}

var mountedRE = regexp.MustCompile(`device (\d+):(\d+), inode (\d+)`)

// mountedOutside reads the result records' notes of what each container
// was given and reports every object among ids.
func mountedOutside(ts *testscript.TestScript, auditDir string, ids map[[2]uint64]string) []string {
	var leaks []string
	seen := 0
	eachAuditLine(ts, auditDir, func(line []byte) {
		var r struct{ Type, Call, Note string }
		if json.Unmarshal(line, &r) != nil || r.Type != "result" {
			return
		}
		for _, m := range mountedRE.FindAllStringSubmatch(r.Note, -1) {
			seen++
			maj, _ := strconv.ParseUint(m[1], 10, 32)
			mnr, _ := strconv.ParseUint(m[2], 10, 32)
			ino, _ := strconv.ParseUint(m[3], 10, 64)
			if p, ok := ids[[2]uint64{unix.Mkdev(uint32(maj), uint32(mnr)), ino}]; ok {
				leaks = append(leaks, fmt.Sprintf("call %s mounted %s: %s", r.Call, p, r.Note))
			}
		}
	})
	if seen == 0 {
		ts.Fatalf("racesuite: no result record says what was mounted")
	}
	return leaks
}

// homeRunner is the runner's instance and [runner] runtime of the home a
// brokerd.toml names.
func homeRunner(ts *testscript.TestScript, cfgPath string) (instance, runtime string) {
	var cfg conf.Brokerd
	if err := conf.Load(cfgPath, &cfg); err != nil {
		ts.Fatalf("%v", err)
	}
	return runner.Instance(cfg.Home), cfg.Runner.Runtime
}

// callUntil starts brokerd (CONFIG, args[0]) in a process group of its
// own, sends it N (args[2]) run calls (sleep 60 in DIR, args[1]) of
// sessions session-0 ... session-<N-1>, and polls until until says the
// moment has come; then it kills brokerd's whole group with SIGKILL, as
// a crash or a stop of brokerd's unit would (the Podman clients die with
// it, conmon and runc init do not), after kill, if any, has run.
func callUntil(ts *testscript.TestScript, usage string, args []string, session string, poll time.Duration,
	until func(instance, runtime string) bool, kill func(instance string)) {
	if len(args) < 3 {
		ts.Fatalf("usage: %s", usage)
	}
	cfgPath, dir := ts.MkAbs(args[0]), ts.MkAbs(args[1])
	n, err := strconv.Atoi(args[2])
	if err != nil {
		ts.Fatalf("%s: %v", usage, err)
	}
	instance, runtime := homeRunner(ts, cfgPath)
	defer lostLocks(ts, strings.Fields(usage)[0])()
	sock := filepath.Join(filepath.Dir(filepath.Dir(cfgPath)), "run/loop-broker/broker.sock")
	cmd := exec.Command("brokerd", "serve", "--config", cfgPath)
	cmd.Env = append(os.Environ(), "PATH="+ts.Getenv("PATH"))
	cmd.SysProcAttr = newProcessGroup()
	if err := cmd.Start(); err != nil {
		ts.Fatalf("%v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	if err := waitPing(sock, 30*time.Second, exited); err != nil {
		killGroup(cmd)
		ts.Fatalf("brokerd: %v", err)
	}
	for i := 0; i < n; i++ {
		args, _ := json.Marshal(map[string]any{"command": []string{"sleep", "60"}, "paths": []string{dir}})
		go sendToolCall(sock, fmt.Sprintf("%s-%d", session, i), fmt.Sprintf("c%d", i), "run", string(args), 2*time.Minute)
	}
	deadline := time.Now().Add(time.Minute)
	for !until(instance, runtime) {
		if time.Now().After(deadline) {
			killGroup(cmd)
			ts.Fatalf("%s: no call's container came in a minute", usage)
		}
		time.Sleep(poll)
	}
	killGroup(cmd)
	if kill != nil {
		kill(instance)
	}
	<-exited
	if err := groupGone(cmd.Process.Pid, 30*time.Second); err != nil {
		ts.Fatalf("%s: %v", usage, err)
	}
	time.Sleep(500 * time.Millisecond) // the deaths settle
}

// crashcalls CONFIG DIR N: sends N calls and kills brokerd's group once
// a conmon of one of its calls runs.
func cmdCrashcalls(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: crashcalls CONFIG DIR N")
	}
	callUntil(ts, "crashcalls CONFIG DIR N", args, "crash", 20*time.Millisecond,
		func(instance, runtime string) bool { return len(runner.Leftovers(instance, runtime)) > 0 }, nil)
	fmt.Fprintf(ts.Stdout(), "crashcalls: brokerd killed with its calls' conmon running\n")
}

// crashinit CONFIG DIR N FILE: as crashcalls, but it kills brokerd's
// group and the calls' conmon processes as soon as runc has created a
// container of the home (runc init waits for its start), so that runc
// init, or the container's first process if Podman had started it, is
// left with no conmon and no Podman client: what a conmon killed with
// brokerd's process group, or by anyone, leaves. It finds the containers
// by runc's own state (/run/runc/ID/state.json, the annotation
// boxmaker.instance), independently of the runner's clean-up, and writes
// "PID START ID" of each container whose first process outlived its
// conmon to FILE (for alive).
func cmdCrashinit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: crashinit CONFIG DIR N FILE")
	}
	conmons := 0
	callUntil(ts, "crashinit CONFIG DIR N FILE", args, "init", time.Millisecond,
		func(instance, _ string) bool { return len(runcContainers(instance)) > 0 },
		func(instance string) {
			prefix := "-n\x00" + runner.NamePrefix(instance)
			eachProc(func(pid int, cmdline string) {
				if strings.HasPrefix(cmdline, "/usr/bin/conmon\x00") && strings.Contains(cmdline, prefix) {
					syscall.Kill(pid, syscall.SIGKILL)
					conmons++
				}
			})
		})
	instance, _ := homeRunner(ts, ts.MkAbs(args[0]))
	var lines []string
	for _, c := range runcContainers(instance) {
		if c.start != 0 {
			lines = append(lines, fmt.Sprintf("%d %d %s\n", c.pid, c.start, c.id))
		}
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[3]), []byte(strings.Join(lines, "")), 0o644))
	fmt.Fprintf(ts.Stdout(), "crashinit: %d conmon killed; %d container processes outlived their conmon\n", conmons, len(lines))
}

// runcContainer is a container runc keeps state for.
type runcContainer struct {
	id    string
	pid   int
	start uint64 // 0 if its first process is gone
}

// runcContainers are the containers of instance in runc's state.
func runcContainers(instance string) []runcContainer {
	var found []runcContainer
	ents, _ := os.ReadDir("/run/runc")
	for _, e := range ents {
		raw, err := os.ReadFile(filepath.Join("/run/runc", e.Name(), "state.json"))
		if err != nil {
			continue
		}
		var st struct {
			ID     string `json:"id"`
			PID    int    `json:"init_process_pid"`
			Start  uint64 `json:"init_process_start"`
			Config struct {
				Labels []string `json:"labels"`
			} `json:"config"`
		}
		if json.Unmarshal(raw, &st) != nil || !slices.Contains(st.Config.Labels, "boxmaker.instance="+instance) {
			continue
		}
		c := runcContainer{id: st.ID, pid: st.PID}
		if procStart(st.PID) == st.Start {
			c.start = st.Start
		}
		found = append(found, c)
	}
	return found
}

// procStat is the fields of a process's stat after its name (state,
// ppid, pgrp, ...; the name may hold spaces and parentheses), or nil
// once it is gone.
func procStat(pid int) []string {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	return strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+1:]))
}

// procStart is a process's start time (stat field 22), or 0.
func procStart(pid int) uint64 {
	f := procStat(pid)
	if len(f) < 20 || f[0] == "Z" {
		return 0
	}
	v, _ := strconv.ParseUint(f[19], 10, 64)
	return v
}

// eachProc calls f with each process's pid and NUL-separated command line.
func eachProc(f func(pid int, cmdline string)) {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if raw, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); err == nil {
			f(pid, string(raw))
		}
	}
}

// alive FILE: of the processes crashinit wrote to FILE, prints how many
// still run (the same pid and start time) and how many of their
// containers runc still keeps state for: "alive: N states: M".
func cmdAlive(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: alive FILE")
	}
	live, states := 0, 0
	for _, l := range strings.Split(strings.TrimSpace(ts.ReadFile(args[0])), "\n") {
		var pid int
		var start uint64
		var id string
		if _, err := fmt.Sscanf(l, "%d %d %s", &pid, &start, &id); err != nil {
			ts.Fatalf("alive: %q: %v", l, err)
		}
		if procStart(pid) == start {
			live++
		}
		if _, err := os.Stat(filepath.Join("/run/runc", id)); err == nil {
			states++
		}
	}
	fmt.Fprintf(ts.Stdout(), "alive: %d states: %d\n", live, states)
}

// fakeconmon CONFIG: creates a container of the script's own
// ($VICTIM, from $TOOLS_IMAGE: run toolsimage first) and starts, as the
// tools' uid (65533), a process whose command line is a conmon's of
// CONFIG's home (-n with its prefix) and whose -c names that container:
// what a tool's program left running by a killed brokerd can make of
// itself. Both are removed when the script ends.
func cmdFakeconmon(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: fakeconmon CONFIG")
	}
	instance, _ := homeRunner(ts, ts.MkAbs(args[0]))
	var b [4]byte
	crand.Read(b[:])
	victim := "bxvictim-" + hex.EncodeToString(b[:])
	if out, err := exec.Command("podman", "create", "--name", victim, ts.Getenv("TOOLS_IMAGE"), "/bin/true").CombinedOutput(); err != nil {
		ts.Fatalf("fakeconmon: podman create: %v: %s", err, out)
	}
	ts.Defer(func() { exec.Command("podman", "rm", "-f", "-i", "-t", "0", victim).Run() })
	ts.Setenv("VICTIM", victim)
	cmd := exec.Command("/bin/sh")
	cmd.Args = []string{"conmon", "-c", "sleep 120; :", "-n", runner.NamePrefix(instance) + "fake", "-c", victim}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65533, Gid: 65533}, Setpgid: true}
	ts.Check(cmd.Start())
	ts.Defer(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() })
	time.Sleep(100 * time.Millisecond) // its exec done
	fmt.Fprintf(ts.Stdout(), "fakeconmon: pid %d names %s\n", cmd.Process.Pid, victim)
}

// stagemounts CONFIG: prints "stagemounts: N", the mounts below the
// home's staging directory (/run/boxmaker-stage/<instance>), as
// `findmnt -R` would list them.
func cmdStagemounts(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: stagemounts CONFIG")
	}
	instance, _ := homeRunner(ts, ts.MkAbs(args[0]))
	dir := runner.StageDir(instance) + "/"
	raw, err := os.ReadFile("/proc/self/mountinfo")
	ts.Check(err)
	n := 0
	for _, l := range strings.Split(string(raw), "\n") {
		if f := strings.Fields(l); len(f) > 4 && strings.HasPrefix(f[4], dir) {
			n++
		}
	}
	fmt.Fprintf(ts.Stdout(), "stagemounts: %d\n", n)
}

// leftovers CONFIG: prints "leftovers: N", the conmon processes of the
// home's containers that run and the containers whose processes runc's
// state names, and their names (or ids).
func cmdLeftovers(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: leftovers CONFIG")
	}
	names := runner.Leftovers(homeRunner(ts, ts.MkAbs(args[0])))
	fmt.Fprintf(ts.Stdout(), "leftovers: %d\n", len(names))
	for _, n := range names {
		fmt.Fprintln(ts.Stdout(), n)
	}
}

// The scripts' command for http_fetch: a web site on a Podman network of
// its own, for the egress proxy to fetch from.

// fetchCmds are the commands the http_fetch scripts add.
var fetchCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"egresssite": cmdEgresssite,
}

// egresssite DIR: creates a Podman network of this script's own and
// starts busybox httpd on it, in a container from $TOOLS_IMAGE (run
// toolsimage first), serving DIR. $WEB_NET is the network, $WEB the web
// container's name (a DNS name on that network), $WEB_IP its address.
// Both are removed when the script ends.
func cmdEgresssite(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: egresssite DIR")
	}
	image := ts.Getenv("TOOLS_IMAGE")
	if image == "" {
		ts.Fatalf("egresssite: no $TOOLS_IMAGE: run toolsimage first")
	}
	var b [4]byte
	crand.Read(b[:])
	suffix := hex.EncodeToString(b[:])
	network, web := "bxegress-script-"+suffix, "bxweb-script-"+suffix
	podman := func(args ...string) string {
		out, err := exec.Command("podman", args...).CombinedOutput()
		if err != nil {
			ts.Fatalf("podman %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	podman("network", "create", network)
	ts.Defer(func() { exec.Command("podman", "network", "rm", "-f", network).Run() })
	ts.Defer(func() { exec.Command("podman", "rm", "-f", "-t", "0", web).Run() })
	podman("run", "-d", "--rm", "--pull", "never", "--name", web, "--network", network,
		"--runtime", "runc", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=256:256",
		"-v", ts.MkAbs(args[0])+":/www:ro", image, "/bin/busybox", "httpd", "-f", "-p", "80", "-h", "/www")
	// Only standard output: Podman writes warnings (such as a CNI
	// configuration it cannot validate) on standard error.
	out, err := exec.Command("podman", "inspect", "--format", `{{(index .NetworkSettings.Networks "`+network+`").IPAddress}}`, web).Output()
	ip := strings.TrimSpace(string(out))
	if err != nil || net.ParseIP(ip) == nil {
		ts.Fatalf("podman inspect %s: %v: not an address: %q", web, err, out)
	}
	ts.Setenv("WEB_NET", network)
	ts.Setenv("WEB", web)
	ts.Setenv("WEB_IP", ip)
}

// held are the connections holdconns keeps open, per script.
var held = struct {
	sync.Mutex
	conns map[*testscript.TestScript][]net.Conn
}{conns: map[*testscript.TestScript][]net.Conn{}}

// holdconns PATH N: opens N connections to the socket at PATH and keeps
// them open without sending anything, as a client flooding a daemon
// would; releaseconns closes them.
func cmdHoldconns(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: holdconns PATH N")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("holdconns: %v", err)
	}
	held.Lock()
	defer held.Unlock()
	for range n {
		c, err := net.Dial("unix", ts.MkAbs(args[0]))
		if err != nil {
			ts.Fatalf("holdconns: %v", err)
		}
		held.conns[ts] = append(held.conns[ts], c)
	}
	ts.Defer(func() { releaseConns(ts) })
}

func cmdReleaseconns(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: releaseconns")
	}
	releaseConns(ts)
}

func releaseConns(ts *testscript.TestScript) {
	held.Lock()
	defer held.Unlock()
	for _, c := range held.conns[ts] {
		c.Close()
	}
	delete(held.conns, ts)
}

func newRand() *rand.Rand { return rand.New(rand.NewSource(time.Now().UnixNano())) }

func newProcessGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills brokerd and the podman clients it started, as a
// service manager's stop of the whole unit would. A restart must wait for
// the whole group to be gone, not only brokerd (groupGone).
func killGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

// groupGone waits, once the group's leader is reaped, until every
// process of process group pgid has exited too, as systemd starts a unit
// again only once its control group is empty. Until then a child that
// brokerd had forked and not yet exec'd (a podman client being started,
// the user namespace's holder) still holds its copy of brokerd's
// descriptors, the audit log's lock among them, and a brokerd started in
// that moment is refused as already running (docs/decisions-archive.md, D696).
// After timeout it says what is left.
func groupGone(pgid int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for left := groupLeft(pgid); len(left) > 0; left = groupLeft(pgid) {
		if time.Now().After(deadline) {
			return fmt.Errorf("process group %d still has processes %s after SIGKILL: %s", pgid, timeout, strings.Join(left, "; "))
		}
		time.Sleep(5 * time.Millisecond)
	}
	return nil
}

// TestGroupGone: groupGone returns once a group's processes are all
// gone, its leader reaped before them, and says what is left when they
// are not gone in time.
func TestGroupGone(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 60 >/dev/null 2>&1 & echo $!")
	cmd.SysProcAttr = newProcessGroup()
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	sleep, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("sh printed %q", out)
	}
	defer syscall.Kill(-pgid, syscall.SIGKILL)
	if f := procStat(sleep); len(f) < 3 || f[2] != strconv.Itoa(pgid) {
		t.Fatalf("the sleep %d is not in the group %d: %v", sleep, pgid, f)
	}
	err = groupGone(pgid, 200*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf(": %d ", sleep)) {
		t.Fatalf("groupGone with the sleep running: %v", err)
	}
	killGroup(cmd)
	if err := groupGone(pgid, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if f := procStat(sleep); len(f) > 0 && f[0] != "Z" && f[0] != "X" {
		t.Fatalf("groupGone returned with the sleep %d there: %v", sleep, f)
	}
}

// groupLeft is each process of process group pgid that has not exited,
// as "pid state command line" (a zombie has: its descriptors are closed).
func groupLeft(pgid int) []string {
	var left []string
	want := strconv.Itoa(pgid)
	eachProc(func(pid int, cmdline string) {
		if f := procStat(pid); len(f) > 2 && f[2] == want && f[0] != "Z" && f[0] != "X" {
			left = append(left, fmt.Sprintf("%d %s %q", pid, f[0], strings.ReplaceAll(cmdline, "\x00", " ")))
		}
	})
	return left
}
