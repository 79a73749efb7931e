package main

// The scripts' commands for gatewayd: the fake Mattermost
// (core/testpeer/fakemattermost), served in the test process on a free
// port, with its users, posts and faults, and the crash suite that kills
// gatewayd with SIGKILL in the middle of turns.

import (
	"encoding/json"
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

	"boxmaker/core/gateway"
	"boxmaker/core/testpeer/fakemattermost"
	"boxmaker/core/testsupport"
)

var gatewaydCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"fakemm":  cmdFakemm,
	"waitlog": cmdWaitlog,
}

// mmWorld is one script's fake Mattermost and its people.
type mmWorld struct {
	srv      *fakemattermost.Server
	users    map[string]fakemattermost.User // bot, ann, bob, mallory
	channels map[string]string              // name -> id ("dm-ann": the bot's DM with ann)
	seen     map[string]bool                // approval ids fakemm approval gave
}

var (
	mmMu     sync.Mutex
	mmWorlds = map[*testscript.TestScript]*mmWorld{}
)

func mmOf(ts *testscript.TestScript) *mmWorld {
	mmMu.Lock()
	defer mmMu.Unlock()
	w := mmWorlds[ts]
	if w == nil {
		ts.Fatalf("fakemm: not started (fakemm start)")
	}
	return w
}

// channel is the channel a script names: dm-USER (the bot's DM with
// USER) or a name (an open channel of the bot, ann, bob and mallory,
// made on first use).
func (w *mmWorld) channel(name string) string {
	if id, ok := w.channels[name]; ok {
		return id
	}
	var id string
	if u, ok := strings.CutPrefix(name, "dm-"); ok {
		id = w.srv.DM(w.users["bot"].ID, w.users[u].ID).ID
	} else {
		id = w.srv.NewChannel(name, w.users["bot"].ID, w.users["ann"].ID, w.users["bob"].ID, w.users["mallory"].ID).ID
	}
	w.channels[name] = id
	return id
}

// fakemm start [tls]: serves a fake Mattermost with the bot (boxmaker),
// ann (to be allowed and an approver), bob (to be allowed) and mallory;
// sets $MM_URL, $MM_TOKEN (the bot's), $MM_BOT, $MM_ANN, $MM_BOB,
// $MM_MALLORY (their ids); with tls, serves https and writes its CA to
// $WORK/mm-ca.pem.
// fakemm post VAR USER CHANNEL ROOT TEXT...: USER posts TEXT in CHANNEL
// (dm-USER2 or a name), in the thread ROOT ("-": a new one); $VAR is its id.
// fakemm wait ROOT REGEXP [N]: waits (60 s) until the bot's posts in the
// thread ROOT number N (default 1) or more and one matches REGEXP, none
// still the placeholder; prints them, one line each.
// fakemm replies ROOT: prints the bot's posts in the thread, one a line.
// fakemm none ROOT: fails if the bot posted anything in the thread.
// fakemm dms USER: prints the bot's posts in its DM with USER.
// fakemm fault none|down|silent|refuse|slow MS|forbid CHANNEL
// fakemm drop: closes every WebSocket at once; fakemm restart: forgets
// every connection, as a server restart.
// fakemm revoke: the bot's token stops working (401).
// fakemm sockets N: waits until N WebSockets are open.
// fakemm requests [PATH]: prints "METHOD PATH?QUERY STATUS" per request.
func cmdFakemm(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: fakemm start|post|wait|replies|none|dms|fault|drop|restart|revoke|sockets|requests ...")
	}
	if neg && args[0] != "none" {
		ts.Fatalf("fakemm: ! only with none")
	}
	switch args[0] {
	case "start":
		o := fakemattermost.Options{TLS: len(args) > 1 && args[1] == "tls"}
		srv := fakemattermost.Start(o)
		w := &mmWorld{srv: srv, users: map[string]fakemattermost.User{}, channels: map[string]string{}, seen: map[string]bool{}}
		bot, token := srv.AddUser("boxmaker", true)
		w.users["bot"] = bot
		for _, n := range []string{"ann", "bob", "mallory"} {
			u, _ := srv.AddUser(n, false)
			w.users[n] = u
			ts.Setenv("MM_"+strings.ToUpper(n), u.ID)
		}
		mmMu.Lock()
		mmWorlds[ts] = w
		mmMu.Unlock()
		ts.Defer(func() {
			srv.Close()
			mmMu.Lock()
			delete(mmWorlds, ts)
			mmMu.Unlock()
		})
		ts.Setenv("MM_URL", srv.URL)
		ts.Setenv("MM_TOKEN", token)
		ts.Setenv("MM_BOT", bot.ID)
		if o.TLS {
			if err := os.WriteFile(ts.MkAbs("mm-ca.pem"), srv.CAPEM(), 0o644); err != nil {
				ts.Fatalf("fakemm: %v", err)
			}
		}
	case "post":
		if len(args) < 6 {
			ts.Fatalf("usage: fakemm post VAR USER CHANNEL ROOT TEXT...")
		}
		w := mmOf(ts)
		u, ok := w.users[args[2]]
		if !ok {
			ts.Fatalf("fakemm: no user %s", args[2])
		}
		root := args[4]
		if root == "-" {
			root = ""
		}
		p, err := w.srv.PostAs(u.ID, w.channel(args[3]), root, strings.Join(args[5:], " "))
		if err != nil {
			ts.Fatalf("fakemm post: %v", err)
		}
		ts.Setenv(args[1], p.ID)
	case "wait":
		if len(args) < 3 {
			ts.Fatalf("usage: fakemm wait ROOT REGEXP [N]")
		}
		w := mmOf(ts)
		re := regexp.MustCompile(args[2])
		n := 1
		if len(args) > 3 {
			n, _ = strconv.Atoi(args[3])
		}
		deadline := time.Now().Add(60 * time.Second)
		for {
			posts := w.botPosts(args[1])
			matched, busy := false, false
			for _, p := range posts {
				matched = matched || re.MatchString(postText(p))
				busy = busy || p.Message == "…"
			}
			if matched && !busy && len(posts) >= n {
				for _, p := range posts {
					fmt.Fprintf(ts.Stdout(), "bot: %s\n", oneLine(postText(p)))
				}
				return
			}
			if time.Now().After(deadline) {
				var got []string
				for _, p := range posts {
					got = append(got, oneLine(postText(p)))
				}
				ts.Fatalf("fakemm wait: no %d posts of the bot matching %s in thread %s; it has: %q", n, args[2], args[1], got)
			}
			time.Sleep(50 * time.Millisecond)
		}
	case "replies", "none":
		w := mmOf(ts)
		posts := w.botPosts(args[1])
		for _, p := range posts {
			fmt.Fprintf(ts.Stdout(), "bot: %s\n", oneLine(postText(p)))
		}
		if args[0] == "none" && neg == (len(posts) == 0) {
			if neg {
				ts.Fatalf("fakemm ! none: the bot did not post in thread %s", args[1])
			}
			ts.Fatalf("fakemm none: the bot posted %d times in thread %s", len(posts), args[1])
		}
	case "dms":
		w := mmOf(ts)
		for _, p := range w.srv.ChannelPosts(w.channel("dm-" + args[1])) {
			if len(args) > 2 && args[2] == "all" {
				fmt.Fprintf(ts.Stdout(), "%s: %s\n", p.UserID, oneLine(postText(p)))
				continue
			}
			if p.UserID == w.users["bot"].ID {
				fmt.Fprintf(ts.Stdout(), "bot: %s\n", oneLine(postText(p)))
			}
		}
	case "fault":
		w := mmOf(ts)
		var f fakemattermost.Fault
		switch {
		case len(args) == 2 && args[1] == "none":
		case len(args) == 2 && args[1] == "down":
			f.Down = true
		case len(args) == 2 && args[1] == "silent":
			f.Silent = true
		case len(args) == 2 && args[1] == "refuse":
			f.Refuse = true
		case len(args) == 3 && args[1] == "slow":
			ms, _ := strconv.Atoi(args[2])
			f.Delay = time.Duration(ms) * time.Millisecond
		case len(args) == 3 && args[1] == "forbid":
			f.Forbidden = map[string]bool{w.channel(args[2]): true}
		default:
			ts.Fatalf("usage: fakemm fault none|down|silent|refuse|slow MS|forbid CHANNEL")
		}
		w.srv.SetFault(f)
	case "approval":
		// fakemm approval VAR ROOT|dm-USER: waits (60 s) for an approval
		// post of the bot's there that it has not named before, and sets
		// $VAR to its approval's id.
		if len(args) != 3 {
			ts.Fatalf("usage: fakemm approval VAR ROOT|dm-USER")
		}
		w := mmOf(ts)
		deadline := time.Now().Add(60 * time.Second)
		for {
			var posts []fakemattermost.Post
			if strings.HasPrefix(args[2], "dm-") {
				posts = w.srv.ChannelPosts(w.channel(args[2]))
			} else {
				posts = w.srv.Thread(args[2])
			}
			id := ""
			for _, p := range posts {
				if s, ok := p.Props["boxmaker_approval"].(string); ok && p.UserID == w.users["bot"].ID && !w.seen[s] {
					id = s
				}
			}
			if id != "" {
				w.seen[id] = true
				ts.Setenv(args[1], id)
				fmt.Fprintln(ts.Stdout(), id)
				return
			}
			if time.Now().After(deadline) {
				ts.Fatalf("fakemm approval: no approval post in %s", args[2])
			}
			time.Sleep(50 * time.Millisecond)
		}
	case "drop":
		mmOf(ts).srv.DropSockets()
	case "restart":
		mmOf(ts).srv.Restart()
	case "revoke":
		w := mmOf(ts)
		w.srv.RevokeTokens(w.users["bot"].ID)
	case "sockets":
		w := mmOf(ts)
		want, _ := strconv.Atoi(args[1])
		deadline := time.Now().Add(60 * time.Second)
		for w.srv.Sockets() != want {
			if time.Now().After(deadline) {
				ts.Fatalf("fakemm sockets: %d open, not %d", w.srv.Sockets(), want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	case "requests":
		for _, r := range mmOf(ts).srv.Requests() {
			if len(args) > 1 && !strings.Contains(r.Path, args[1]) {
				continue
			}
			q := ""
			if r.Query != "" {
				q = "?" + r.Query
			}
			fmt.Fprintf(ts.Stdout(), "%s %s%s %d\n", r.Method, r.Path, q, r.Status)
		}
	default:
		ts.Fatalf("fakemm: unknown %q", args[0])
	}
}

// botPosts are the bot's posts in the thread root, or with root dm-USER
// in its whole DM channel with USER.
func (w *mmWorld) botPosts(root string) []fakemattermost.Post {
	var out []fakemattermost.Post
	posts := w.srv.Thread(root)
	if strings.HasPrefix(root, "dm-") {
		posts = w.srv.ChannelPosts(w.channel(root))
	}
	for _, p := range posts {
		if p.UserID == w.users["bot"].ID {
			out = append(out, p)
		}
	}
	return out
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", `\n`) }

// postText is a post as a reader sees it: its message, then each message
// attachment (the box gatewayd's approval requests come in) as
// "[box TITLE] TEXT [FOOTER]".
func postText(p fakemattermost.Post) string {
	s := p.Message
	boxes, _ := p.Props["attachments"].([]any)
	for _, b := range boxes {
		m, _ := b.(map[string]any)
		title, _ := m["title"].(string)
		text, _ := m["text"].(string)
		footer, _ := m["footer"].(string)
		s += "\n[box " + title + "] " + text + " [" + footer + "]"
	}
	return s
}

// waitlog [-count=N] FILE REGEXP [SECONDS]: waits (default 60 s) until
// N lines (default 1) of FILE (a background daemon's output) match
// REGEXP, and prints the last.
func cmdWaitlog(ts *testscript.TestScript, neg bool, args []string) {
	want := 1
	if len(args) > 0 && strings.HasPrefix(args[0], "-count=") {
		want, _ = strconv.Atoi(strings.TrimPrefix(args[0], "-count="))
		args = args[1:]
	}
	if neg || len(args) < 2 {
		ts.Fatalf("usage: waitlog [-count=N] FILE REGEXP [SECONDS]")
	}
	re := regexp.MustCompile(args[1])
	secs := 60
	if len(args) > 2 {
		secs, _ = strconv.Atoi(args[2])
	}
	deadline := time.Now().Add(time.Duration(secs) * time.Second)
	for {
		data, _ := os.ReadFile(ts.MkAbs(args[0]))
		n, last := 0, ""
		for _, l := range strings.Split(string(data), "\n") {
			if re.MatchString(l) {
				n, last = n+1, l
			}
		}
		if n >= want {
			fmt.Fprintln(ts.Stdout(), last)
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("waitlog: %d lines of %s match %s, not %d; it holds:\n%s", n, args[0], args[1], want, data)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// gatewaycrash CONFIG ROUNDS MAXKILL_MS: the crash suite of gatewayd. The
// fake Mattermost must run and loopd serve the config's [loop] socket,
// answering every "hello..." it is sent. Each round starts gatewayd,
// posts two messages as ann (a new DM thread, and a reply in one long
// thread), kills gatewayd with SIGKILL at a random moment within
// MAXKILL_MS, and posts a third while it is down. $GATEWAY_CRASH_ROUNDS,
// when set, replaces ROUNDS (the full-size run). Then gatewayd starts
// once more and must answer what is left; every post must then have
// exactly one reply of the bot's (a whole answer, or, for a turn a kill
// cut short, the note that says so), the post made while the last
// gatewayd was down a whole answer, and loopd must have been sent each
// post at most once (its session logs).
func cmdGatewaycrash(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: gatewaycrash CONFIG ROUNDS MAXKILL_MS")
	}
	cfg := ts.MkAbs(args[0])
	var rounds, maxKill int
	wholeNumbers(ts, "gatewaycrash", args[1:], &rounds, &maxKill)
	rounds = fullSize(ts, "GATEWAY_CRASH_ROUNDS", rounds)
	w := mmOf(ts)
	ann := w.users["ann"].ID
	dm := w.channel("dm-ann")
	env := roleEnv(ts, ts.Getenv("BOXMAKER_HOME"), "MM_BOT_TOKEN="+ts.Getenv("MM_TOKEN"))
	var said []*testsupport.Buffer // each gatewayd's output, for a failure
	start := func(round int) (*exec.Cmd, chan error, *testsupport.Buffer) {
		cmd, exited, out := startRole(ts, "gatewayd", cfg, "", env, round)
		said = append(said, out)
		return cmd, exited, out
	}
	// lastSaid is what the gatewayds printed besides their start line.
	lastSaid := func() string {
		var b strings.Builder
		for i, out := range said {
			if text := out.String(); strings.Count(strings.TrimSpace(text), "\n") > 0 {
				fmt.Fprintf(&b, "gatewayd %d of %d said:\n%s\n", i+1, len(said), text)
			}
		}
		return b.String()
	}
	waitSockets := func(n int, out *testsupport.Buffer) {
		deadline := time.Now().Add(30 * time.Second)
		for w.srv.Sockets() != n {
			if time.Now().After(deadline) {
				ts.Fatalf("gatewaycrash: %d WebSockets open, not %d; gatewayd said:\n%s", w.srv.Sockets(), n, out)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	post := func(root, text string) fakemattermost.Post {
		p, err := w.srv.PostAs(ann, dm, root, text)
		if err != nil {
			ts.Fatalf("gatewaycrash: %v", err)
		}
		return p
	}
	type sent struct {
		post fakemattermost.Post
		down bool // posted while gatewayd was not running
	}
	var all []sent
	rng := newRand()
	var root string
	for round := 1; round <= rounds; round++ {
		cmd, exited, out := start(round)
		waitSockets(1, out)
		if root == "" {
			p := post("", "hello, the long thread")
			root = p.ID
			all = append(all, sent{post: p})
		}
		all = append(all, sent{post: post("", fmt.Sprintf("hello r%d a", round))})
		all = append(all, sent{post: post(root, fmt.Sprintf("hello r%d b", round))})
		kill := time.Duration(rng.Intn(maxKill+1)) * time.Millisecond
		time.Sleep(kill)
		killGroup(cmd)
		<-exited
		waitSockets(0, out)
		all = append(all, sent{post: post("", fmt.Sprintf("hello r%d c", round)), down: true})
		fmt.Fprintf(ts.Stdout(), "round %d: killed after %v\n", round, kill)
	}
	cmd, exited, out := start(rounds + 1)
	replies := func(p fakemattermost.Post) []fakemattermost.Post {
		var got []fakemattermost.Post
		for _, q := range w.srv.Thread(p.ID) {
			if q.UserID == w.users["bot"].ID && q.Props["boxmaker_reply_to"] == p.ID {
				got = append(got, q)
			}
		}
		for _, q := range w.srv.Thread(root) {
			if p.RootID == root && q.UserID == w.users["bot"].ID && q.Props["boxmaker_reply_to"] == p.ID {
				got = append(got, q)
			}
		}
		return got
	}
	// A reply's text shows in full before its turn has ended (the stream
	// is edited in as it comes), and a stop then cuts it short, with the
	// note, as it should: every post is answered when, besides, the state
	// file holds no turn and names each post handled.
	stateFile := gateway.StateFile(ts.Getenv("BOXMAKER_HOME"))
	unhandled := func() []string {
		data, err := os.ReadFile(stateFile)
		if err != nil {
			return []string{err.Error()}
		}
		var st gateway.State
		if err := json.Unmarshal(data, &st); err != nil {
			return []string{fmt.Sprintf("%s: %v", stateFile, err)}
		}
		var left []string
		for _, s := range all {
			if !st.HandledPost(s.post.ID) {
				left = append(left, fmt.Sprintf("%q (post %s) not handled", s.post.Message, s.post.ID))
			}
		}
		if len(st.Turns) > 0 {
			left = append(left, fmt.Sprintf("%d turns in the state file", len(st.Turns)))
		}
		return left
	}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		var pending []string
		for _, s := range all {
			rs := replies(s.post)
			if len(rs) == 0 || rs[len(rs)-1].Message == "…" {
				pending = append(pending, fmt.Sprintf("%q (post %s, down %v, %d replies)", s.post.Message, s.post.ID, s.down, len(rs)))
			}
		}
		if len(pending) == 0 {
			if pending = unhandled(); len(pending) == 0 {
				break
			}
		}
		if time.Now().After(deadline) {
			ts.Fatalf("gatewaycrash: still unanswered after 3 minutes: %s\n%s", strings.Join(pending, ", "), lastSaid())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	if err := <-exited; err != nil {
		ts.Fatalf("gatewayd did not stop cleanly: %v\n%s", err, out.String())
	}
	logs, _ := filepath.Glob(filepath.Join(ts.Getenv("BOXMAKER_HOME"), "sessions", "*", "*.jsonl"))
	var sessions strings.Builder
	for _, l := range logs {
		data, _ := os.ReadFile(l)
		sessions.Write(data)
	}
	full, cut := 0, 0
	for _, s := range all {
		rs := replies(s.post)
		if len(rs) != 1 {
			var texts []string
			for _, r := range rs {
				texts = append(texts, oneLine(r.Message))
			}
			ts.Fatalf("gatewaycrash: post %q has %d replies: %q\n%s", s.post.Message, len(rs), texts, lastSaid())
		}
		switch msg := rs[0].Message; {
		case msg == "Hello, I am Box.", usageEnd.MatchString(msg):
			full++ // whole, with the turn's usage (or killed before that was added)
		case strings.Contains(msg, "gatewayd was stopped while writing this reply") && s.post.ID != all[len(all)-1].post.ID:
			// A kill during the turn, or during the next round's
			// catch-up of a post made while gatewayd was down.
			cut++
		default:
			ts.Fatalf("gatewaycrash: post %q (down %v) has the reply %q\n%s", s.post.Message, s.down, oneLine(msg), lastSaid())
		}
		quoted, _ := json.Marshal(s.post.Message)
		n := 0
		for _, l := range strings.Split(sessions.String(), "\n") {
			if strings.Contains(l, `"type":"user"`) && strings.Contains(l, `"text":`+string(quoted)) {
				n++
			}
		}
		if n > 1 {
			ts.Fatalf("gatewaycrash: loopd was sent %q %d times", s.post.Message, n)
		}
	}
	fmt.Fprintf(ts.Stdout(), "%d posts, each answered once: %d in full, %d cut short by a kill\n", len(all), full, cut)
}

// usageEnd is the stand-in's whole reply with the turn's usage after it.
var usageEnd = regexp.MustCompile(`^Hello, I am Box\.\n\n_\(tokens \d+ in, \d+ out; cache reused \d+%( \(the cache was lost\))?; context \d+ of \d+ tokens, \d+%\)_$`)
