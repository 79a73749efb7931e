package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"boxmaker/core/daemon"
	"boxmaker/core/llamastandin"
	"boxmaker/core/memory"
	"boxmaker/core/testpeer/fakehoncho"
	"boxmaker/core/testsupport"
)

// The crash suite of memoryd (memcrash: memory writes through brokerd
// while memoryd is killed with SIGKILL), a command of TestCrashSuites.

// memorydCrash is what memoryd's crash suites (memcrash, honchocrash)
// share: HOME, memoryd's config and environment there, and a start of
// memoryd that waits until its socket sock answers.
type memorydCrash struct {
	ts              *testscript.TestScript
	home, cfg, sock string
	env             []string
}

// newMemorydCrash reads a memoryd crash suite's words: HOME, then the
// whole numbers ns point to; sock is the socket under HOME its start
// waits for.
func newMemorydCrash(ts *testscript.TestScript, name string, args []string, sock string, ns ...*int) *memorydCrash {
	home := ts.MkAbs(args[0])
	wholeNumbers(ts, name, args[1:], ns...)
	return &memorydCrash{ts: ts, home: home, cfg: filepath.Join(home, "etc/memoryd.toml"), sock: filepath.Join(home, sock), env: roleEnv(ts, home)}
}

func (m *memorydCrash) start(round int) (*exec.Cmd, chan error, *testsupport.Buffer) {
	return startRole(m.ts, "memoryd", m.cfg, m.sock, m.env, round)
}

// memcrash HOME ROUNDS WORKERS MAXKILL_MS: the crash suite. brokerd must
// already serve HOME with a grant allowing memory. Before the rounds
// memoryd starts and each worker adds its own entry "ctr-w<N>: start" to
// memory.md. Each round starts memoryd, and WORKERS workers send memory
// calls through brokerd's tool socket one after another, each a batch of
// a note "crash r<R> w<N> i<I>" and a replace of the worker's entry by
// "ctr-w<N>: r<R>-i<I>"; once the round's first write is acknowledged,
// memoryd's process is killed with SIGKILL at a random moment within
// MAXKILL_MS (D770). A call that fails before the kill fails the script.
// After the rounds memoryd starts once more (finishing any write cut
// short) and stops cleanly, and the files are read: every acknowledged
// note is in notes.md once, each worker's entry is its last acknowledged
// value or a write it had in flight after it (whose note is then in
// notes.md once too: no write is half applied), the journal holds
// each round's session's acknowledged edits and at most its one
// unanswered one, and memory.md, notes.md and journal.jsonl parse. It
// prints one line per round and a summary; a failure also says each
// round's calls and what memoryd said.
func cmdMemcrash(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 4 {
		ts.Fatalf("usage: memcrash HOME ROUNDS WORKERS MAXKILL_MS")
	}
	var rounds, workers, maxKill int
	m := newMemorydCrash(ts, "memcrash", args, "run/broker-memory/memory.sock", &rounds, &workers, &maxKill)
	home, start := m.home, m.start
	tools := filepath.Join(home, "run/loop-broker/broker.sock")
	rng := newRand()

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
		sent     []string // the note sent with each of them
		notes    []string // acknowledged notes
	}
	state := make([]progress, workers)
	for w := range state {
		state[w].acked = "start"
	}
	var report crashReport
	fail := func(format string, args ...any) {
		ts.Fatalf("%s\n%s", fmt.Sprintf(format, args...), report.String())
	}
	var total, lost atomic.Int64
	for round := 1; round <= rounds; round++ {
		cmd, exited, out := start(round)
		t0 := time.Now()
		r := report.add(round, workers)
		var killed atomic.Bool
		var firstAck sync.Once
		acked := make(chan struct{})
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
					id := fmt.Sprintf("r%dw%di%d", round, w, i)
					a, err := call(session, id, args)
					if err == nil && a.Outcome == "allowed" && a.Text == "memory.md updated; saved in notes.md" {
						state[w].acked, state[w].inflight, state[w].sent = value, nil, nil
						state[w].notes = append(state[w].notes, note)
						r.workers[w].acked++
						total.Add(1)
						firstAck.Do(func() { close(acked) })
						continue
					}
					// Not acknowledged: it may or may not have been applied.
					state[w].inflight = append(state[w].inflight, value)
					state[w].sent = append(state[w].sent, note)
					r.workers[w].unanswered = fmt.Sprintf("%s: %+v, %v", id, a, err)
					r.workers[w].beforeKill = !killed.Load()
					lost.Add(1)
					return
				}
			}()
		}
		ended := make(chan struct{})
		go func() { wg.Wait(); close(ended) }()
		// The kill is timed from the round's first acknowledged write: a
		// kill before any call reached memoryd leaves nothing to check,
		// and under load that moment comes late (D770).
		var kill time.Duration
		select {
		case <-acked:
			r.firstAck = time.Since(t0)
			kill = time.Duration(rng.Intn(maxKill+1)) * time.Millisecond
			time.Sleep(kill)
		case <-ended: // every call failed before the kill: said below
		case <-time.After(30 * time.Second):
		}
		killed.Store(true)
		killGroup(cmd)
		<-exited
		<-ended
		r.kill, r.memoryd = kill, out.String()
		for w, rw := range r.workers {
			if rw.beforeKill {
				fail("round %d: worker %d's call failed before the kill: %s", round, w, rw.unanswered)
			}
		}
		if r.acked() == 0 {
			fail("round %d: no write was acknowledged in %v", round, time.Since(t0).Round(time.Millisecond))
		}
		fmt.Fprintf(ts.Stdout(), "round %d: killed %v after its first acknowledged write (%v after the start); acknowledged %d\n",
			round, kill, r.firstAck.Round(time.Millisecond), r.acked())
	}

	// A clean start finishes what a kill cut short; a clean stop.
	cmd, exited, out := start(rounds + 1)
	cmd.Process.Signal(os.Interrupt)
	if err := <-exited; err != nil {
		fail("memoryd did not stop cleanly: %v\n%s", err, out.String())
	}

	dir := filepath.Join(home, "memory")
	if _, err := os.Stat(filepath.Join(dir, "pending.json")); err == nil {
		fail("pending.json is still there after a clean start")
	}
	mem, err := os.ReadFile(filepath.Join(dir, memory.MemoryFile))
	if err != nil {
		fail("%v", err)
	}
	if n := memory.Chars(string(mem)); n > memory.MemoryLimit {
		fail("memory.md is %d characters, over its limit", n)
	}
	entries := memory.ParseEntries(string(mem))
	if len(entries) != workers {
		fail("memory.md has %d entries, want %d:\n%s", len(entries), workers, mem)
	}
	notesText, err := os.ReadFile(filepath.Join(dir, memory.NotesFile))
	if err != nil {
		fail("%v", err)
	}
	seen := map[string]int{}
	for _, n := range memory.ParseNotes(string(notesText)) {
		if n.Untrusted {
			fail("notes.md holds an untrusted note: %+v", n)
		}
		seen[n.Text]++
	}
	for _, st := range state {
		for _, n := range st.notes {
			if seen[n] != 1 {
				fail("the acknowledged note %q is in notes.md %d times", n, seen[n])
			}
		}
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
		for i, v := range st.inflight {
			if got != v {
				continue
			}
			// An unanswered write that reached memory.md is whole: its
			// note was written with it.
			if n := seen[st.sent[i]]; n != 1 {
				fail("worker %d's entry is %q, from a call that got no answer, but its note %q is in notes.md %d times: the write was half applied", w, got, st.sent[i], n)
			}
			ok = true
		}
		if !ok {
			fail("worker %d's entry is %q; its last acknowledged value is %q (in flight after it: %v)", w, got, st.acked, st.inflight)
		}
	}
	journal, err := os.ReadFile(filepath.Join(dir, memory.JournalFile))
	if err != nil {
		fail("%v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(journal), "\n"), "\n")
	edits := map[string]int{} // a session's edits that updated notes.md and memory.md
	for i, l := range lines {
		var e memory.LogEntry
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			fail("journal.jsonl:%d does not parse: %v", i+1, err)
		}
		if e.Outcome == memory.Updated && slices.Equal(e.Files, []string{memory.NotesFile, memory.MemoryFile}) {
			edits[e.Session]++
		}
	}
	// Each session is one worker's round: its acknowledged edits are all
	// in the journal, and besides them at most the one call whose answer
	// the kill cut off.
	for _, r := range report.rounds {
		for w, rw := range r.workers {
			session := fmt.Sprintf("crash-%d-%d", r.round, w)
			most := rw.acked
			if rw.unanswered != "" {
				most++
			}
			if n := edits[session]; n < rw.acked || n > most {
				fail("journal.jsonl has %d edits of session %s, which had %d acknowledged and %d unanswered", n, session, rw.acked, most-rw.acked)
			}
		}
	}
	if int64(len(lines)) < total.Load()+int64(workers) {
		fail("journal.jsonl has %d lines for %d acknowledged edits", len(lines), total.Load()+int64(workers))
	}
	fmt.Fprintf(ts.Stdout(), "acknowledged writes: %d, all on disk; unacknowledged: %d; notes: %d; journal lines: %d\n",
		total.Load(), lost.Load(), len(seen), len(lines))
}

// crashReport is what memcrash's rounds did, which its failures print:
// a failure must say which calls failed, with what, and what each
// memoryd said.
type crashReport struct{ rounds []*crashRound }

type crashRound struct {
	round          int
	firstAck, kill time.Duration // from memoryd's start; then from firstAck
	workers        []crashWorker
	memoryd        string // memoryd's output
}

// crashWorker is one worker's round. Each field is written by the
// worker's goroutine only, and read after it ended.
type crashWorker struct {
	acked      int
	unanswered string // the call that ended the round and what it got, when not the kill after an answer
	beforeKill bool   // that call failed before the kill was sent
}

func (c *crashReport) add(round, workers int) *crashRound {
	r := &crashRound{round: round, workers: make([]crashWorker, workers)}
	c.rounds = append(c.rounds, r)
	return r
}

func (r *crashRound) acked() int {
	n := 0
	for _, w := range r.workers {
		n += w.acked
	}
	return n
}

func (c *crashReport) String() string {
	var b strings.Builder
	for _, r := range c.rounds {
		if r.acked() == 0 {
			fmt.Fprintf(&b, "round %d: no acknowledged write\n", r.round)
		} else {
			fmt.Fprintf(&b, "round %d: first acknowledged write %v after the start, killed %v after it\n",
				r.round, r.firstAck.Round(time.Millisecond), r.kill)
		}
		for w, rw := range r.workers {
			fmt.Fprintf(&b, "  worker %d: %d acknowledged; last call %s\n", w, rw.acked, cmp.Or(rw.unanswered, "answered"))
		}
		if out := strings.TrimSpace(r.memoryd); out != "" {
			fmt.Fprintf(&b, "  memoryd said:\n    %s\n", strings.ReplaceAll(out, "\n", "\n    "))
		}
	}
	return b.String()
}

// The scripts' commands for memoryd's Honcho sync and read: the fake
// Honcho (core/testpeer/fakehoncho) and the llama-server stand-in, both
// served in the test process on a free port, and the crash suite that
// kills memoryd with SIGKILL while it syncs.

var honchoCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"fakehoncho": cmdFakehoncho,
	"standinup":  cmdStandinup,
}

var (
	fakesMu sync.Mutex
	fakes   = map[*testscript.TestScript]*fakehoncho.Server{}
)

func fakeOf(ts *testscript.TestScript) *fakehoncho.Server {
	fakesMu.Lock()
	defer fakesMu.Unlock()
	f := fakes[ts]
	if f == nil {
		ts.Fatalf("fakehoncho: not started (fakehoncho start)")
	}
	return f
}

// fakehoncho start [SECRET]: serves a fake Honcho (auth on with SECRET)
// and sets $HONCHO_URL.
// fakehoncho token WS VAR: sets $VAR to a key for workspace WS.
// fakehoncho fault down|none|lose|slow MS|status CODE: a fault from now on.
// fakehoncho messages WS SESSION: prints "peer: content" per message
// (SESSION @FILE: the session named in FILE), or "no messages".
// fakehoncho sessions WS: prints "sessions: A B ..." (or "sessions: none").
// fakehoncho add WS SESSION PEER TEXT: stores a message (another agent's).
// fakehoncho once WS: fails unless every boxmaker_id in WS is there once.
// fakehoncho requests: prints "METHOD PATH STATUS" per request.
// fakehoncho never TEXT: fails if any request so far carried TEXT.
func cmdFakehoncho(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: fakehoncho start|token|fault|messages|sessions|add|once|requests ...")
	}
	switch args[0] {
	case "start":
		opts := fakehoncho.Options{}
		if len(args) > 1 {
			opts.Secret = args[1]
		}
		f := fakehoncho.Start(opts)
		fakesMu.Lock()
		fakes[ts] = f
		fakesMu.Unlock()
		ts.Defer(func() {
			f.Close()
			fakesMu.Lock()
			delete(fakes, ts)
			fakesMu.Unlock()
		})
		ts.Setenv("HONCHO_URL", f.URL)
	case "token":
		if len(args) != 3 {
			ts.Fatalf("usage: fakehoncho token WS VAR")
		}
		ts.Setenv(args[2], fakeOf(ts).Token(fakehoncho.Claims{Workspace: args[1]}))
	case "fault":
		var f fakehoncho.Fault
		switch {
		case len(args) == 2 && args[1] == "none":
		case len(args) == 2 && args[1] == "down":
			f.Down = true
		case len(args) == 2 && args[1] == "lose":
			f.LoseAnswers = true
		case len(args) == 3 && args[1] == "slow":
			ms, _ := strconv.Atoi(args[2])
			f.Delay = time.Duration(ms) * time.Millisecond
		case len(args) == 3 && args[1] == "status":
			f.Status, _ = strconv.Atoi(args[2])
		default:
			ts.Fatalf("usage: fakehoncho fault down|none|lose|slow MS|status CODE")
		}
		fakeOf(ts).SetFault(f)
	case "messages":
		if len(args) != 3 {
			ts.Fatalf("usage: fakehoncho messages WS SESSION")
		}
		session := args[2]
		if f, ok := strings.CutPrefix(session, "@"); ok {
			session = strings.TrimSpace(ts.ReadFile(f))
		}
		msgs := fakeOf(ts).Messages(args[1], session)
		for _, m := range msgs {
			fmt.Fprintf(ts.Stdout(), "%s: %s\n", m.PeerID, m.Content)
		}
		if len(msgs) == 0 {
			fmt.Fprintln(ts.Stdout(), "no messages")
		}
	case "sessions":
		list := fakeOf(ts).Sessions(args[1])
		if len(list) == 0 {
			list = []string{"none"}
		}
		fmt.Fprintf(ts.Stdout(), "sessions: %s\n", strings.Join(list, " "))
	case "add":
		if len(args) != 5 {
			ts.Fatalf("usage: fakehoncho add WS SESSION PEER TEXT")
		}
		fakeOf(ts).Add(args[1], args[2], fakehoncho.Message{PeerID: args[3], Content: args[4]})
	case "once":
		f := fakeOf(ts)
		seen := map[string]string{}
		n := 0
		for _, s := range f.Sessions(args[1]) {
			for _, m := range f.Messages(args[1], s) {
				id, _ := m.Metadata["boxmaker_id"].(string)
				if prev, ok := seen[id]; ok {
					ts.Fatalf("fakehoncho once: %s was sent twice (%s, %s)", id, prev, m.ID)
				}
				seen[id] = m.ID
				n++
			}
		}
		fmt.Fprintf(ts.Stdout(), "%d messages, each once\n", n)
	case "never":
		for _, r := range fakeOf(ts).Requests() {
			if strings.Contains(string(r.Body), args[1]) || strings.Contains(r.Query, args[1]) {
				ts.Fatalf("fakehoncho never: %s %s carried %q: %s", r.Method, r.Path, args[1], r.Body)
			}
		}
		fmt.Fprintf(ts.Stdout(), "no request carried %s\n", args[1])
	case "requests":
		for _, r := range fakeOf(ts).Requests() {
			fmt.Fprintf(ts.Stdout(), "%s %s %d\n", r.Method, r.Path, r.Status)
		}
	default:
		ts.Fatalf("fakehoncho: unknown %s", args[0])
	}
}

// standinup SCRIPT: serves the llama-server stand-in with the script on a
// free port in the test process, in its test mode (a chat request without
// max_tokens is refused), and sets $STANDIN_URL.
func cmdStandinup(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: standinup SCRIPT")
	}
	script, err := llamastandin.LoadScript(ts.MkAbs(args[0]))
	if err != nil {
		ts.Fatalf("standinup: %v", err)
	}
	srv, err := llamastandin.Start(llamastandin.Options{Model: "qwen3.5", Slots: 2, Script: script, RequireMaxTokens: true})
	if err != nil {
		ts.Fatalf("standinup: %v", err)
	}
	ts.Defer(func() { srv.Close() })
	ts.Setenv("STANDIN_URL", srv.URL())
}

// honchocrash HOME ROUNDS SESSIONS MAXKILL_MS: the crash suite of the
// outbox. brokerd must serve HOME and the fake Honcho run, with HOME's
// memoryd.toml syncing to it. Each round starts memoryd, appends records
// to SESSIONS session logs (as loopd writes them) while memoryd syncs, and
// kills memoryd with SIGKILL at a random moment within MAXKILL_MS; the
// fake answers slowly and sometimes loses its answers, so kills land
// before, during and after requests. $HONCHO_CRASH_ROUNDS, when set,
// replaces ROUNDS (the full-size run). After the rounds memoryd starts
// once more and drains the outbox (bxctl memory sync --now), and every
// Honcho session must hold exactly its log's user and assistant records,
// in order, each once.
func cmdHonchocrash(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: honchocrash HOME ROUNDS SESSIONS MAXKILL_MS")
	}
	var rounds, sessions, maxKill int
	m := newMemorydCrash(ts, "honchocrash", args, "run/memory-admin/admin.sock", &rounds, &sessions, &maxKill)
	home, cfg, env, start := m.home, m.cfg, m.env, m.start
	rounds = fullSize(ts, "HONCHO_CRASH_ROUNDS", rounds)
	fake := fakeOf(ts)
	rng := newRand()
	type sent struct{ peer, text string }
	want := make([][]sent, sessions)
	seq := make([]int, sessions)
	appendRecords := func(s, n int) {
		sid := fmt.Sprintf("crash-%d", s)
		dir := filepath.Join(home, "sessions", sid)
		os.MkdirAll(dir, 0o700)
		f, err := os.OpenFile(filepath.Join(dir, "0.jsonl"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			ts.Fatalf("%v", err)
		}
		defer f.Close()
		var b strings.Builder
		for range n {
			seq[s]++
			typ, peer := "user", "ann"
			if seq[s]%2 == 0 {
				typ, peer = "assistant", "kyle"
			}
			text := fmt.Sprintf("s%d record %d", s, seq[s])
			line, _ := json.Marshal(map[string]any{"seq": seq[s], "time": time.Now().UTC().Format(time.RFC3339Nano), "type": typ, "text": text})
			b.Write(line)
			b.WriteByte('\n')
			want[s] = append(want[s], sent{peer, text})
		}
		f.WriteString(b.String())
		f.Sync()
	}
	for round := 1; round <= rounds; round++ {
		switch round % 3 {
		case 0:
			fake.SetFault(fakehoncho.Fault{Delay: 5 * time.Millisecond})
		case 1:
			fake.SetFault(fakehoncho.Fault{Delay: 2 * time.Millisecond, LoseAnswers: round%2 == 1})
		case 2:
			fake.SetFault(fakehoncho.Fault{})
		}
		cmd, exited, _ := start(round)
		stop := make(chan struct{})
		done := make(chan struct{})
		feedRng := newRand() // the appender's own: math/rand's Rand is not safe for two goroutines
		go func() {
			defer close(done)
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				appendRecords(feedRng.Intn(sessions), 1+feedRng.Intn(120))
				time.Sleep(time.Duration(feedRng.Intn(20)) * time.Millisecond)
			}
		}()
		kill := time.Duration(rng.Intn(maxKill+1)) * time.Millisecond
		time.Sleep(kill)
		killGroup(cmd)
		<-exited
		close(stop)
		<-done
		fmt.Fprintf(ts.Stdout(), "round %d: killed after %v\n", round, kill)
	}
	fake.SetFault(fakehoncho.Fault{})
	cmd, exited, out := start(rounds + 1)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var drained bool
	for i := 0; i < 20 && !drained; i++ {
		c := exec.CommandContext(ctx, "bxctl", "--memory-config", cfg, "memory", "sync", "--now")
		c.Env = env
		b, err := c.CombinedOutput()
		drained = err == nil
		if !drained {
			ts.Logf("bxctl memory sync --now: %v\n%s", err, b)
			time.Sleep(100 * time.Millisecond)
		}
	}
	cmd.Process.Signal(os.Interrupt)
	if err := <-exited; err != nil {
		ts.Fatalf("memoryd did not stop cleanly: %v\n%s", err, out.String())
	}
	if !drained {
		ts.Fatalf("the outbox did not drain:\n%s", out.String())
	}
	total := 0
	for s := range sessions {
		sid := fmt.Sprintf("crash-%d", s)
		got := fake.Messages("kyle-trusted", sid)
		if len(got) != len(want[s]) {
			ts.Fatalf("%s: Honcho holds %d messages, the log %d records", sid, len(got), len(want[s]))
		}
		for i, m := range got {
			if m.PeerID != want[s][i].peer || m.Content != want[s][i].text {
				ts.Fatalf("%s: message %d is %s: %q, want %s: %q (lost, doubled or out of order)", sid, i, m.PeerID, m.Content, want[s][i].peer, want[s][i].text)
			}
		}
		total += len(got)
	}
	fmt.Fprintf(ts.Stdout(), "honchocrash: %d rounds, %d messages in %d sessions, each once and in order\n", rounds, total, sessions)
}
