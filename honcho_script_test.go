package main

// The scripts' commands for memoryd's Honcho sync and read: the fake
// Honcho (core/testpeer/fakehoncho) and the llama-server stand-in, both
// served in the test process on a free port, and the crash suite that
// kills memoryd with SIGKILL while it syncs.

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"boxmaker/core/llamastandin"
	"boxmaker/core/testpeer/fakehoncho"
	"boxmaker/core/testsupport"
)

var honchoCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"fakehoncho":  cmdFakehoncho,
	"standinup":   cmdStandinup,
	"honchocrash": cmdHonchocrash,
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
// free port in the test process and sets $STANDIN_URL.
func cmdStandinup(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: standinup SCRIPT")
	}
	script, err := llamastandin.LoadScript(ts.MkAbs(args[0]))
	if err != nil {
		ts.Fatalf("standinup: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ts.Fatalf("standinup: %v", err)
	}
	srv := llamastandin.New(llamastandin.Options{Model: "qwen3.5", Slots: 2, Script: script})
	go srv.Serve(ln)
	ts.Defer(func() { srv.Close() })
	ts.Setenv("STANDIN_URL", "http://"+ln.Addr().String())
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
	home := ts.MkAbs(args[0])
	var rounds, sessions, maxKill int
	for i, p := range []*int{&rounds, &sessions, &maxKill} {
		if _, err := fmt.Sscan(args[1+i], p); err != nil {
			ts.Fatalf("honchocrash: %v", err)
		}
	}
	if v := os.Getenv("HONCHO_CRASH_ROUNDS"); v != "" {
		if _, err := fmt.Sscan(v, &rounds); err != nil {
			ts.Fatalf("HONCHO_CRASH_ROUNDS: %v", err)
		}
	}
	fake := fakeOf(ts)
	cfg := filepath.Join(home, "etc/memoryd.toml")
	admin := filepath.Join(home, "run/memory-admin/admin.sock")
	env := append(os.Environ(), "PATH="+ts.Getenv("PATH"), "BOXMAKER_HOME="+home)
	rng := newRand()
	start := func(round int) (*exec.Cmd, chan error, *testsupport.Buffer) {
		return startMemoryd(ts, cfg, admin, env, round)
	}
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
