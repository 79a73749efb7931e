package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/urfave/cli/v2"

	"boxmaker/core/daemon"
	"boxmaker/core/runner"
	"boxmaker/core/testsupport"
)

// TestMain registers the binary under every role's name, so the scripts
// in testdata/script run the real dispatch: `brokerd serve` in a script is
// this binary started as brokerd.
func TestMain(m *testing.M) {
	if os.Getenv("BOXMAKER_TEST_RUN") == "1" { // TestEveryCommandRefusesAnUnknownWord's child
		os.Exit(run(os.Args[1:]))
	}
	cmds := map[string]func(){"boxmaker": func() { os.Exit(run(os.Args)) }}
	for r := range roles {
		cmds[r.String()] = func() { os.Exit(run(os.Args)) }
	}
	testscript.Main(watchedM{m}, cmds)
}

// watchedM runs the tests with a hang watchdog (testsupport.HangWatchdog);
// the binary run as a role by a script never starts one.
type watchedM struct{ m *testing.M }

func (w watchedM) Run() int {
	flag.Parse()
	testsupport.HangWatchdog("boxmaker (the root package)")
	return w.m.Run()
}

// scriptCmd is a command of the script harness (testdata/script/README.md).
type scriptCmd = func(ts *testscript.TestScript, neg bool, args []string)

// TestScripts runs the end-to-end scripts of testdata/script against the
// real binary; the crash and race suites are TestCrashSuites'. With
// -role NAME it runs only that role's scripts (scriptRole).
func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams(t, "testdata/script"))
}

// scriptParams is the harness every script runs in: the scripts of dir
// (only -role's, when it is set), each in a short work directory, with
// the conditions of scriptConds, the variables Setup sets and the
// commands of scriptCmds and of more.
func scriptParams(t *testing.T, dir string, more ...map[string]scriptCmd) testscript.Params {
	params := testscript.Params{
		Dir:                 dir,
		WorkdirRoot:         testsupport.ShortDir(t), // short: socket paths must stay under 108 bytes
		RequireExplicitExec: true,
		Condition:           scriptCondition,
		Setup: func(env *testscript.Env) error {
			env.Setenv("BOXMAKER_HOME", filepath.Join(env.WorkDir, "h"))
			env.Setenv("REPO", readmeDir) // the checkout, for files scripts take from it
			// The run-time directories of brokerd's stores are outside the
			// work directory (docs/runner.md, "Store"): the script's go with it.
			work := env.WorkDir
			env.Defer(func() { removeStoreRunDirs(work) })
			return nil
		},
		Cmds: map[string]scriptCmd{},
	}
	if *scriptsRole != "" {
		params.Dir, params.Files = "", roleScripts(t, dir, *scriptsRole)
	}
	for _, cmds := range append(scriptCmds(), more...) {
		for name, cmd := range cmds {
			if _, dup := params.Cmds[name]; dup {
				t.Fatalf("the script command %s is registered twice", name)
			}
			params.Cmds[name] = cmd
		}
	}
	return params
}

// removeStoreRunDirs removes the run-time directories of brokerd's
// stores (runner.StoreRunRoot/<instance>) whose root is under dir, and
// those whose root is gone (a home a script made elsewhere and removed):
// brokerd makes the root before it names it there.
func removeStoreRunDirs(dir string) {
	links, _ := filepath.Glob(filepath.Join(runner.StoreRunRoot, "*", runner.StoreRootLink))
	for _, l := range links {
		root, err := os.Readlink(l)
		if err != nil {
			continue
		}
		if _, err := os.Lstat(root); strings.HasPrefix(root, dir+"/") || errors.Is(err, os.ErrNotExist) {
			os.RemoveAll(filepath.Dir(l))
		}
	}
}

// scriptCmds are the commands every script may run, by the file that
// defines them.
func scriptCmds() []map[string]scriptCmd {
	return []map[string]scriptCmd{
		mainCmds, brokerdCmds, honchoCmds, loopdCmds, yaagCmds, fetchCmds, readmeCmds, containmentCmds, auditCmds, gatewaydCmds, mcpCmds,
	}
}

var mainCmds = map[string]scriptCmd{
	"exits":        cmdExits,
	"waitsock":     cmdWaitsock,
	"sockreq":      cmdSockreq,
	"dialas":       cmdDialas,
	"waitconn":     cmdWaitconn,
	"holdconns":    cmdHoldconns,
	"releaseconns": cmdReleaseconns,
	"cachecheck":   cmdCachecheck,
	"jsonq":        cmdJSONQ,
	"ttyscript":    cmdTTYScript,
	"freeport":     cmdFreeport,
}

// scriptConds are the harness's own conditions: [NAME], or [NAME:ARG]
// for one that takes an argument; testscript's own ([short], [exec:PROG],
// [root], ...) are answered before these are asked.
var scriptConds = map[string]struct {
	arg bool
	f   func(arg string) (bool, error)
}{
	// [exists:PATH]: a file of the machine's own (a deployed config)
	// that a script must not trip over.
	"exists": {true, func(p string) (bool, error) {
		_, err := os.Stat(p)
		return err == nil, nil
	}},
	// [podmanlocks]: Podman 4.3's lock table can be counted (lostlocks).
	"podmanlocks": {false, func(string) (bool, error) {
		_, err := testsupport.CountLostPodmanLocks()
		return err == nil, nil
	}},
}

func scriptCondition(cond string) (bool, error) {
	name, arg, hasArg := strings.Cut(cond, ":")
	c, ok := scriptConds[name]
	if !ok || c.arg != hasArg {
		return false, fmt.Errorf("unknown condition %q (testdata/script/README.md lists them)", cond)
	}
	return c.f(arg)
}

// exits N prog args...: runs prog and requires exit status N; its output
// is then stdout and stderr, as after exec.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N prog [args...]")
	}
	var want int
	wholeNumbers(ts, "exits", args[:1], &want)
	got, err := testsupport.ExitCode(ts.Exec(args[1], args[2:]...))
	if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d\nstdout:\n%s\nstderr:\n%s", args[1], got, want, ts.ReadFile("stdout"), ts.ReadFile("stderr"))
	}
}

// jsonq PATH...: the last command's standard output must be exactly one
// JSON document; prints each PATH (keys and indexes joined by dots, such
// as problems.0.text; "." for the whole) as PATH=<compact JSON>, then
// stdout is those lines.
func cmdJSONQ(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: jsonq PATH...")
	}
	dec := json.NewDecoder(strings.NewReader(ts.ReadFile("stdout")))
	var doc any
	if err := dec.Decode(&doc); err != nil {
		ts.Fatalf("jsonq: stdout is not JSON: %v", err)
	}
	if _, err := dec.Token(); err == nil {
		ts.Fatalf("jsonq: stdout holds more than one JSON document")
	}
	for _, p := range args {
		v := doc
		if p != "." {
			for _, k := range strings.Split(p, ".") {
				switch node := v.(type) {
				case map[string]any:
					var ok bool
					if v, ok = node[k]; !ok {
						ts.Fatalf("jsonq: %s: no key %q", p, k)
					}
				case []any:
					i, err := strconv.Atoi(k)
					if err != nil || i < 0 || i >= len(node) {
						ts.Fatalf("jsonq: %s: no index %q in a list of %d", p, k, len(node))
					}
					v = node[i]
				default:
					ts.Fatalf("jsonq: %s: %q is not in a list or an object", p, k)
				}
			}
		}
		b, _ := json.Marshal(v)
		fmt.Fprintf(ts.Stdout(), "%s=%s\n", p, b)
	}
}

// freeport VAR: sets VAR to a TCP port on 127.0.0.1 that was free a
// moment ago (the kernel's choice for port 0), for a server a script
// starts, so that no script names a fixed port.
func cmdFreeport(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: freeport VAR")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ts.Fatalf("freeport: %v", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	ts.Setenv(args[0], strconv.Itoa(port))
}

// waitsock PATH: waits up to 20 s until a daemon answers a ping on PATH.
func cmdWaitsock(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: waitsock PATH")
	}
	path := ts.MkAbs(args[0])
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err := daemon.AwaitPing(ctx, path, 50*time.Millisecond, nil)
	switch {
	case err == nil && neg:
		ts.Fatalf("%s answers", path)
	case err != nil && !neg:
		ts.Fatalf("nothing answers on %s: %v", path, err)
	}
}

// sockreq PATH KIND [JSON]: sends one request and prints the final answer's
// body, or "error: <text>" for a refusal. It fails only when nothing
// answers.
func cmdSockreq(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: sockreq PATH KIND [JSON]")
	}
	var body any
	if len(args) == 3 {
		body = json.RawMessage(args[2])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out json.RawMessage
	err := daemon.Call(ctx, ts.MkAbs(args[0]), args[1], body, &out, nil)
	var re *daemon.RemoteError
	switch {
	case errors.As(err, &re):
		fmt.Fprintf(ts.Stdout(), "error: %s\n", re.Text)
	case err != nil:
		ts.Fatalf("sockreq: %v", err)
	default:
		fmt.Fprintf(ts.Stdout(), "%s\n", out)
	}
}

// waitconn NET ADDR: waits up to 20 s until ADDR (a unix socket path for
// "unix", host:port for "tcp") accepts a connection: for HTTP servers,
// which do not answer waitsock's ping.
func cmdWaitconn(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: waitconn unix|tcp ADDR")
	}
	addr := args[1]
	if args[0] == "unix" {
		addr = ts.MkAbs(addr)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout(args[0], addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("nothing accepts on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// dialas UID PATH KIND: connects as another user (effective uid UID, with
// root's file access so the 0700 directory does not stop it first) and
// prints the answer. It needs root.
func cmdDialas(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: dialas UID PATH KIND")
	}
	uid, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("dialas: %v", err)
	}
	c, err := testsupport.DialAs(uid, ts.MkAbs(args[1]))
	if err != nil {
		ts.Fatalf("dialas: %v", err)
	}
	defer c.Close()
	fmt.Fprintf(c, "{\"kind\":%q}\n", args[2])
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	var a daemon.Answer
	if err := json.NewDecoder(c).Decode(&a); err != nil {
		ts.Fatalf("dialas: no answer: %v", err)
	}
	if a.Error != "" {
		fmt.Fprintf(ts.Stdout(), "error: %s\n", a.Error)
	} else {
		fmt.Fprintf(ts.Stdout(), "%s\n", a.Body)
	}
}

func TestRoleName(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "boxmaker")
	os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755)
	os.Symlink(bin, filepath.Join(dir, "brokerd"))
	os.Symlink("brokerd", filepath.Join(dir, "bd"))               // relative, chained
	os.Symlink(filepath.Join(dir, "bd"), filepath.Join(dir, "x")) // a chain of three
	for _, tt := range []struct{ argv0, want string }{
		{bin, "boxmaker"},
		{filepath.Join(dir, "brokerd"), "brokerd"},
		{filepath.Join(dir, "bd"), "brokerd"},
		{filepath.Join(dir, "x"), "brokerd"},
		{"no-such-command-anywhere", "no-such-command-anywhere"},
	} {
		if got := roleName(tt.argv0); got != tt.want {
			t.Errorf("roleName(%s) = %q, want %q", strings.TrimPrefix(tt.argv0, dir), got, tt.want)
		}
	}
}

// TestEveryCommandRefusesAnUnknownWord walks the command tree of every
// role and of the binary itself. Wherever a command is expected, a word
// that is none exits 2 with "<name>: unknown command", the valid ones and,
// for a near miss, the one meant; a leaf that takes no arguments refuses
// one. Each runs as its own process, as an operator would.
func TestEveryCommandRefusesAnUnknownWord(t *testing.T) {
	dir := t.TempDir()
	runChild := func(t *testing.T, args ...string) (int, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, os.Args[0], args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "BOXMAKER_TEST_RUN=1", "BOXMAKER_HOME="+filepath.Join(dir, "no-home"))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		code, err := testsupport.ExitCode(cmd.Run())
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return code, stderr.String()
	}
	var walk func(t *testing.T, role string, path []string, cmds []*cli.Command)
	walk = func(t *testing.T, role string, path []string, cmds []*cli.Command) {
		var names []string
		for _, c := range cmds {
			if !c.Hidden {
				names = append(names, c.Name)
			}
		}
		t.Run(strings.Join(path, " "), func(t *testing.T) {
			t.Parallel()
			for _, word := range []string{"zzqx", names[0] + "x"} {
				code, stderr := runChild(t, append(path, word)...)
				if code != 2 || !strings.HasPrefix(stderr, fmt.Sprintf("%s: unknown command %q", role, word)) {
					t.Errorf("%s %s: exit %d, stderr %q", strings.Join(path, " "), word, code, stderr)
				}
				for _, n := range names {
					if !strings.Contains(stderr, n) {
						t.Errorf("%s %s: %q is not named: %q", strings.Join(path, " "), word, n, stderr)
					}
				}
				if near := fmt.Sprintf("did you mean %q", names[0]); word != "zzqx" && !strings.Contains(stderr, near) {
					t.Errorf("%s %s: no %s: %q", strings.Join(path, " "), word, near, stderr)
				}
			}
		})
		for _, c := range cmds {
			sub := append(slices.Clone(path), c.Name)
			switch {
			case c.Hidden:
			case len(c.Subcommands) > 0:
				walk(t, role, sub, c.Subcommands)
			case c.ArgsUsage == "":
				t.Run(strings.Join(sub, " "), func(t *testing.T) {
					t.Parallel()
					if code, stderr := runChild(t, append(sub, "zzqx")...); code != 2 || !strings.HasPrefix(stderr, role+": ") {
						t.Errorf("%s zzqx: exit %d, stderr %q", strings.Join(sub, " "), code, stderr)
					}
				})
			}
		}
	}
	walk(t, "boxmaker", []string{"boxmaker"}, boxmakerApp().Commands)
	for _, r := range builtRoles() {
		walk(t, r.String(), []string{r.String()}, roles[r]().Commands)
	}
}

// The README's "first hour" is run by testdata/script/first-hour.txtar:
// readmesh takes a block of it, as written, into a shell script the
// script runs. TestFirstHourIsRun holds that every block is taken.

// readmeCmds are the commands the README scripts add.
var readmeCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"readmesh": cmdReadmeSh,
	"grab":     cmdGrab,
	"waitout":  cmdWaitout,
}

var readmeBlockRE = regexp.MustCompile("(?s)<!-- first-hour: ([a-z-]+) -->\n```sh\n(.*?)```\n")

// firstHourBlocks reads the README's first-hour blocks, by label.
func firstHourBlocks(readme string) (map[string]string, []string, error) {
	data, err := os.ReadFile(readme)
	if err != nil {
		return nil, nil, err
	}
	blocks := map[string]string{}
	var order []string
	for _, m := range readmeBlockRE.FindAllStringSubmatch(string(data), -1) {
		if _, dup := blocks[m[1]]; dup {
			return nil, nil, fmt.Errorf("%s: two blocks labelled %s", readme, m[1])
		}
		blocks[m[1]] = m[2]
		order = append(order, m[1])
	}
	return blocks, order, nil
}

// readmeDir is the checkout the tests run in (go test runs a package's
// tests in its directory), read before the scripts change directory.
var readmeDir, _ = os.Getwd()

// readmesh [-exec] LABEL [OLD=NEW...]: writes the README block LABEL,
// with each OLD replaced by NEW (a port, the checkout's path), to
// $WORK/readme-LABEL.sh, for the script to run with sh. -exec makes the
// shell exec the block's one command, so that a signal the script sends
// to sh reaches the command itself (boxmaker up, the stand-in).
func cmdReadmeSh(ts *testscript.TestScript, neg bool, args []string) {
	execIt := len(args) > 0 && args[0] == "-exec"
	if execIt {
		args = args[1:]
	}
	if neg || len(args) == 0 {
		ts.Fatalf("usage: readmesh [-exec] LABEL [OLD=NEW...]")
	}
	blocks, _, err := firstHourBlocks(filepath.Join(readmeDir, "README.md"))
	if err != nil {
		ts.Fatalf("readmesh: %v", err)
	}
	block, ok := blocks[args[0]]
	if !ok {
		ts.Fatalf("readmesh: README.md has no first-hour block %q", args[0])
	}
	for _, sub := range args[1:] {
		old, new, ok := strings.Cut(sub, "=")
		if !ok || !strings.Contains(block, old) {
			ts.Fatalf("readmesh: %q: the block has no %q to replace", sub, old)
		}
		block = strings.ReplaceAll(block, old, new)
	}
	if execIt {
		if strings.Count(strings.TrimSpace(block), "\n") > 0 {
			ts.Fatalf("readmesh: -exec takes a block of one command; %s has more", args[0])
		}
		block = "exec " + block
	}
	if err := os.WriteFile(ts.MkAbs("readme-"+args[0]+".sh"), []byte(block), 0o644); err != nil {
		ts.Fatalf("readmesh: %v", err)
	}
}

// grab VAR REGEXP: sets VAR to the first group of REGEXP's first match
// in the last command's standard output.
func cmdGrab(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: grab VAR REGEXP")
	}
	m := regexp.MustCompile(args[1]).FindStringSubmatch(ts.ReadFile("stdout"))
	if len(m) < 2 {
		ts.Fatalf("grab: no match for %q in stdout", args[1])
	}
	ts.Setenv(args[0], m[1])
}

// waitout REGEXP prog args...: runs prog every 100 ms until its standard
// output matches REGEXP, for at most 20 s.
func cmdWaitout(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: waitout REGEXP prog [args...]")
	}
	re := regexp.MustCompile(args[0])
	deadline := time.Now().Add(20 * time.Second)
	for {
		ts.Exec(args[1], args[2:]...)
		if re.MatchString(ts.ReadFile("stdout")) {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("waitout: %s never printed %q; last:\n%s", args[1], args[0], ts.ReadFile("stdout"))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestFirstHourIsRun: every block of the README's first hour is run by
// the first-hour script, but the build, which scripts/test.sh runs
// before every test.
func TestFirstHourIsRun(t *testing.T) {
	blocks, order, err := firstHourBlocks("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(order) < 8 {
		t.Fatalf("README.md has %d first-hour blocks: the pattern no longer finds them", len(order))
	}
	script, err := os.ReadFile("testdata/script/first-hour.txtar")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile("scripts/test.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, label := range order {
		if label == "install" {
			if strings.TrimSpace(blocks[label]) != "scripts/build.sh && export PATH=$PWD/bin:$PATH" || !strings.Contains(string(ci), "\nscripts/build.sh\n") {
				t.Errorf("the install block is not what scripts/test.sh runs:\n%s", blocks[label])
			}
			continue
		}
		if !regexp.MustCompile(`(?m)^readmesh (-exec )?` + label + `( |$)`).Match(script) {
			t.Errorf("README block %q is run by no readmesh in first-hour.txtar", label)
		}
		if !regexp.MustCompile(`(?m)^(exec|exits \d+) sh (-e )?\$WORK/readme-` + label + `\.sh`).Match(script) {
			t.Errorf("README block %q is taken but not run by first-hour.txtar", label)
		}
	}
}

// TestStartRunsNoCollection: a process's start runs no garbage collection
// (core/startgc holds the collector back until the start is over, D363).
// A small inline yaag program, whose start allocates past the default
// collector's first goal (one or two cycles without the hold), ends
// without a cycle; with the operator's own GOGC the collector runs as that
// says.
func TestStartRunsNoCollection(t *testing.T) {
	const startWindow = 0.1 // seconds: core/startgc's startWait
	bin, err := testsupport.StaticBinary()
	if err != nil {
		t.Fatal(err)
	}
	const src = `import { defineProgram } from "@yaag/runtime"; export default defineProgram({ name: "hi", async run() { return 1; } });`
	cycles := func(env ...string) int {
		cmd := exec.Command(bin, "yaag", "run", "--no-config", "--eval", src)
		cmd.Dir = t.TempDir()
		for _, kv := range os.Environ() {
			if k, _, _ := strings.Cut(kv, "="); k != "GOGC" && k != "GOMEMLIMIT" && k != "GODEBUG" {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(cmd.Env, append([]string{"BOXMAKER_HOME=" + cmd.Dir, "GODEBUG=gctrace=1"}, env...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", env, err, out)
		}
		n := 0
		for _, line := range strings.Split(string(out), "\n") {
			// gctrace's "gc N @S.SSSs": the cycle began S seconds after
			// the process did. Only a cycle inside the start window (under
			// 100 ms from the start, startgc's startWait, which begins a
			// little later still) says the collector was not held back;
			// a start slowed past the window by a loaded machine may
			// collect after it, as it should.
			var cycle int
			var at float64
			if _, err := fmt.Sscanf(line, "gc %d @%fs", &cycle, &at); err == nil && at < startWindow {
				n++
			}
		}
		return n
	}
	if n := cycles(); n != 0 {
		t.Errorf("yaag run --eval ran %d collection(s) in its first %v s", n, startWindow)
	}
	if n := cycles("GOGC=25"); n == 0 {
		t.Error("with GOGC=25 no collection ran: the operator's setting was not left as it was")
	}
}
