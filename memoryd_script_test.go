package main

// The scripts' commands for memoryd: the crash suite (memory writes
// through brokerd while memoryd is killed with SIGKILL).

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"boxmaker/core/daemon"
	"boxmaker/core/memory"
	"boxmaker/core/testsupport"
)

// memorydCmds are the commands the memoryd scripts add.
var memorydCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"memcrash": cmdMemcrash,
}

// memcrash HOME ROUNDS WORKERS MAXKILL_MS: the crash suite. brokerd must
// already serve HOME with a grant allowing memory. Before the rounds
// memoryd starts and each worker adds its own entry "ctr-w<N>: start" to
// memory.md. Each round starts memoryd, and WORKERS workers send memory
// calls through brokerd's tool socket one after another, each a batch of
// a note "crash r<R> w<N> i<I>" and a replace of the worker's entry by
// "ctr-w<N>: r<R>-i<I>"; memoryd's process is killed with SIGKILL at a
// random moment within MAXKILL_MS. After the rounds memoryd starts once
// more (finishing any write cut short) and stops cleanly, and the files
// are read: every acknowledged note is in notes.md once, each worker's
// entry is its last acknowledged value or the one write it had in flight
// after it, and memory.md, notes.md and journal.jsonl parse. It prints one
// line per round and a summary.
func cmdMemcrash(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 4 {
		ts.Fatalf("usage: memcrash HOME ROUNDS WORKERS MAXKILL_MS")
	}
	home := ts.MkAbs(args[0])
	var rounds, workers, maxKill int
	for i, p := range []*int{&rounds, &workers, &maxKill} {
		if _, err := fmt.Sscan(args[1+i], p); err != nil {
			ts.Fatalf("memcrash: %v", err)
		}
	}
	cfg := filepath.Join(home, "etc/memoryd.toml")
	tools := filepath.Join(home, "run/loop-broker/broker.sock")
	memSock := filepath.Join(home, "run/broker-memory/memory.sock")
	env := append(os.Environ(), "PATH="+ts.Getenv("PATH"), "BOXMAKER_HOME="+home)
	rng := newRand()

	start := func(round int) (*exec.Cmd, chan error, *testsupport.Buffer) {
		return startMemoryd(ts, cfg, memSock, env, round)
	}
	type answer struct {
		Outcome string `json:"outcome"`
		Text    string `json:"text"`
	}
	call := func(session, id, argsJSON string) (answer, error) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		body := map[string]any{"session": session, "call_id": id, "tool": "memory", "arguments": json.RawMessage(argsJSON)}
		var a answer
		err := daemon.Call(ctx, tools, "tool.call", body, &a, nil)
		return a, err
	}
	mustCall := func(session, id, argsJSON, want string) {
		a, err := call(session, id, argsJSON)
		if err != nil || a.Outcome != "allowed" || a.Text != want {
			ts.Fatalf("call %s: %+v, %v; want the answer %q", id, a, err, want)
		}
	}

	// The workers' entries, written before any kill.
	cmd, exited, _ := start(0)
	for w := range workers {
		mustCall("crash-setup", fmt.Sprintf("setup-w%d", w),
			fmt.Sprintf(`{"actions":[{"action":"add","file":"memory","text":"ctr-w%d: start"}]}`, w), "memory.md updated")
	}
	killGroup(cmd)
	<-exited

	type progress struct {
		acked    string   // the worker's last acknowledged value
		inflight []string // values sent after it whose answer was lost
		notes    []string // acknowledged notes
	}
	state := make([]progress, workers)
	for w := range state {
		state[w].acked = "start"
	}
	var total, lost atomic.Int64
	for round := 1; round <= rounds; round++ {
		cmd, exited, _ := start(round)
		var killed atomic.Bool
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				session := fmt.Sprintf("crash-%d-%d", round, w)
				for i := 0; !killed.Load(); i++ {
					value := fmt.Sprintf("r%d-i%d", round, i)
					note := fmt.Sprintf("crash r%d w%d i%d", round, w, i)
					args := fmt.Sprintf(`{"actions":[{"action":"note","text":%q},{"action":"replace","file":"memory","old":"ctr-w%d:","text":"ctr-w%d: %s"}]}`,
						note, w, w, value)
					a, err := call(session, fmt.Sprintf("r%dw%di%d", round, w, i), args)
					if err == nil && a.Outcome == "allowed" && a.Text == "memory.md updated; saved in notes.md" {
						state[w].acked, state[w].inflight = value, nil
						state[w].notes = append(state[w].notes, note)
						total.Add(1)
						continue
					}
					// Not acknowledged: it may or may not have been applied.
					state[w].inflight = append(state[w].inflight, value)
					lost.Add(1)
					if !killed.Load() && err == nil && !strings.Contains(a.Text, "memory is unavailable") {
						ts.Logf("worker %d: unexpected answer %+v", w, a)
					}
					return
				}
			}()
		}
		kill := time.Duration(rng.Intn(maxKill+1)) * time.Millisecond
		time.Sleep(kill)
		killed.Store(true)
		killGroup(cmd)
		<-exited
		wg.Wait()
		fmt.Fprintf(ts.Stdout(), "round %d: killed after %v\n", round, kill)
	}

	// A clean start finishes what a kill cut short; a clean stop.
	cmd, exited, out := start(rounds + 1)
	cmd.Process.Signal(os.Interrupt)
	if err := <-exited; err != nil {
		ts.Fatalf("memoryd did not stop cleanly: %v\n%s", err, out.String())
	}

	dir := filepath.Join(home, "memory")
	if _, err := os.Stat(filepath.Join(dir, "pending.json")); err == nil {
		ts.Fatalf("pending.json is still there after a clean start")
	}
	mem, err := os.ReadFile(filepath.Join(dir, memory.MemoryFile))
	if err != nil {
		ts.Fatalf("%v", err)
	}
	if n := memory.Chars(string(mem)); n > memory.MemoryLimit {
		ts.Fatalf("memory.md is %d characters, over its limit", n)
	}
	entries := memory.ParseEntries(string(mem))
	if len(entries) != workers {
		ts.Fatalf("memory.md has %d entries, want %d:\n%s", len(entries), workers, mem)
	}
	for w, st := range state {
		prefix := fmt.Sprintf("ctr-w%d: ", w)
		got := ""
		for _, e := range entries {
			if v, ok := strings.CutPrefix(e, prefix); ok {
				got = v
			}
		}
		ok := got == st.acked
		for _, v := range st.inflight {
			ok = ok || got == v
		}
		if !ok {
			ts.Fatalf("worker %d's entry is %q; its last acknowledged value is %q (in flight after it: %v)", w, got, st.acked, st.inflight)
		}
	}
	notesText, err := os.ReadFile(filepath.Join(dir, memory.NotesFile))
	if err != nil {
		ts.Fatalf("%v", err)
	}
	seen := map[string]int{}
	for _, n := range memory.ParseNotes(string(notesText)) {
		if n.Untrusted {
			ts.Fatalf("notes.md holds an untrusted note: %+v", n)
		}
		seen[n.Text]++
	}
	for _, st := range state {
		for _, n := range st.notes {
			if seen[n] != 1 {
				ts.Fatalf("the acknowledged note %q is in notes.md %d times", n, seen[n])
			}
		}
	}
	journal, err := os.ReadFile(filepath.Join(dir, memory.JournalFile))
	if err != nil {
		ts.Fatalf("%v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(journal), "\n"), "\n")
	for i, l := range lines {
		var e memory.LogEntry
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			ts.Fatalf("journal.jsonl:%d does not parse: %v", i+1, err)
		}
	}
	if int64(len(lines)) < total.Load()+int64(workers) {
		ts.Fatalf("journal.jsonl has %d lines for %d acknowledged edits", len(lines), total.Load()+int64(workers))
	}
	fmt.Fprintf(ts.Stdout(), "acknowledged writes: %d, all on disk; unacknowledged: %d; notes: %d; journal lines: %d\n",
		total.Load(), lost.Load(), len(seen), len(lines))
}

// startMemoryd starts memoryd (the crash suites' round) in a process group
// of its own and waits until sock answers a ping; it fails the script if
// memoryd exits or does not answer in 30 s. The channel gives Wait's error.
func startMemoryd(ts *testscript.TestScript, cfg, sock string, env []string, round int) (*exec.Cmd, chan error, *testsupport.Buffer) {
	cmd := exec.Command("memoryd", "serve", "--config", cfg)
	cmd.Env = env
	out := &testsupport.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = newProcessGroup()
	if err := cmd.Start(); err != nil {
		ts.Fatalf("round %d: cannot start memoryd: %v", round, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := daemon.Call(ctx, sock, "ping", nil, nil, nil)
		cancel()
		if err == nil {
			return cmd, exited, out
		}
		select {
		case err := <-exited:
			ts.Fatalf("round %d: memoryd did not start (%v):\n%s", round, err, out.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			ts.Fatalf("round %d: memoryd did not answer in 30 s:\n%s", round, out.String())
		}
	}
}
