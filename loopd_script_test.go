package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"

	"boxmaker/core/loop"
	"boxmaker/core/testsupport"
	"boxmaker/core/yaag/cassette"
)

// The scripts' commands for loopd: switching the llama-server stand-in
// (core/llamastandin) while it runs, through its own POST /standin/switch.

// loopdCmds are the commands the loopd scripts add.
var loopdCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"standin":     cmdStandin,
	"waitstandin": cmdWaitstandin,
	"tmuxwait":    cmdTmuxwait,
}

// tmuxwait [-u USER] SOCKET TARGET REGEXP: waits up to 20 s until the
// tmux pane TARGET, of the tmux server on SOCKET (run by USER), shows a
// match of REGEXP, looking at the screen as a person does
// (capture-pane, every 50 ms); stdout is then the pane, its history
// too, with lines that wrapped joined. A match is looked for in what the
// screen shows at one moment, so a status line drawn over is seen only
// while it shows.
func cmdTmuxwait(ts *testscript.TestScript, neg bool, args []string) {
	var user []string
	if len(args) > 1 && args[0] == "-u" {
		user, args = []string{"runuser", "-u", args[1], "--"}, args[2:]
	}
	if neg || len(args) != 3 {
		ts.Fatalf("usage: tmuxwait [-u USER] SOCKET TARGET REGEXP")
	}
	re, err := regexp.Compile(args[2])
	if err != nil {
		ts.Fatalf("tmuxwait: %v", err)
	}
	argv := append(user, "tmux", "-S", args[0], "capture-pane", "-p", "-J", "-S", "-", "-t", args[1])
	deadline := time.Now().Add(20 * time.Second)
	for {
		out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
		if err == nil && re.Match(out) {
			fmt.Fprintf(ts.Stdout(), "%s", out)
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("tmuxwait: no %q in the pane within 20 s (%v); it shows:\n%s", args[2], err, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitstandin FILE: waits for the address a stand-in started with
// --addr-file FILE writes (it listens on a free port) and sets $STANDIN
// to its URL.
func cmdWaitstandin(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitstandin FILE")
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		data, err := os.ReadFile(ts.MkAbs(args[0]))
		if err == nil && strings.HasSuffix(string(data), "\n") {
			ts.Setenv("STANDIN", "http://"+strings.TrimSpace(string(data)))
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("the stand-in wrote no address to %s: %v", args[0], err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// standin URL JSON: posts JSON (a llamastandin.Switch) to the stand-in's
// URL/standin/switch and fails unless it answers 200. The switch is the
// stand-in's own, no part of llama-server's API.
func cmdStandin(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: standin URL JSON")
	}
	c := &http.Client{Timeout: 20 * time.Second}
	resp, err := c.Post(strings.TrimSuffix(args[0], "/")+"/standin/switch", "application/json", bytes.NewReader([]byte(args[1])))
	if err != nil {
		ts.Fatalf("standin: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		ts.Fatalf("standin: the switch answered %d: %s", resp.StatusCode, body)
	}
}

// sessionLog reads and checks the session log at path; the script fails
// (the words headed by name) when it cannot.
func sessionLog(ts *testscript.TestScript, name, path string) []loop.Record {
	data, err := os.ReadFile(path)
	if err != nil {
		ts.Fatalf("%s: %v", name, err)
	}
	recs, err := loop.ParseLog(path, data)
	if err != nil {
		ts.Fatalf("%s: %v", name, err)
	}
	return recs
}

// cachecheck LOG: reads a session log and requires that every model
// request after the first reused the whole of the request before it: its
// cache_n (the tokens the server took from its prompt cache) is at least
// the previous request's prompt (cache_n + prompt_n). It prints one line
// per assistant record.
func cmdCachecheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: cachecheck LOG")
	}
	path := ts.MkAbs(args[0])
	records := sessionLog(ts, "cachecheck", path)
	// A tool round replays the previous request and its reply exactly, so
	// it takes the whole previous prompt from the cache. A new user turn
	// may take less: the Qwen3.5 template renders the turns before a new
	// user message without their think blocks (docs/inference-contract.md),
	// and loopd judges that against the template; a loss it finds is a
	// "cache loss" note, which must not be there.
	n, previous, before := 0, 0, ""
	for _, r := range records {
		if r.Type == "note" && strings.HasPrefix(r.Text, "cache loss") {
			ts.Fatalf("cachecheck: loopd noted a cache loss: %s", r.Text)
		}
		if r.Type != "assistant" {
			if r.Type != "note" {
				before = r.Type
			}
			continue
		}
		n++
		prompt := r.Timings.CacheN + r.Timings.PromptN
		fmt.Fprintf(ts.Stdout(), "request %d: prompt %d tokens, %d from the cache, %d evaluated (after a %s record)\n", n, prompt, r.Timings.CacheN, r.Timings.PromptN, before)
		if n > 1 && before == "tool" && r.Timings.CacheN < previous {
			ts.Fatalf("request %d, a tool round, took %d tokens from the cache, less than the previous request's prompt of %d: the prompt prefix changed", n, r.Timings.CacheN, previous)
		}
		if n > 1 && r.Timings.CacheN == 0 {
			ts.Fatalf("request %d took nothing from the cache", n)
		}
		previous = prompt
	}
	if n < 2 {
		ts.Fatalf("cachecheck: %d model requests in %s; need at least 2", n, path)
	}
}

// The scripts' commands for yaag: finding the address of a stand-in that
// listens on port 0.

// yaagCmds are the commands the yaag scripts add.
var yaagCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"addrvar":   cmdAddrvar,
	"forkcache": cmdForkcache,
}

// forkcache CASSETTE SESSIONS AGENT: the cache a fork reused. AGENT is a
// forked Agent of the Cassette; its parent's session is the fork's From.
// It prints the prompt of the parent's last model request and the
// cache_n of the fork's first one (both from the session logs'
// timings), and fails unless the fork took at least nine tenths of the
// parent's prompt from the server's cache.
func cmdForkcache(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: forkcache CASSETTE SESSIONS AGENT")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	if err != nil {
		ts.Fatalf("forkcache: %v", err)
	}
	d, err := cassette.Parse(args[0], data)
	if err != nil {
		ts.Fatalf("forkcache: %v", err)
	}
	a := d.AgentOf(args[2])
	if a == nil || a.ForkOf == nil || a.Session == nil {
		ts.Fatalf("forkcache: %s is no forked Agent of %s", args[2], args[0])
	}
	records := func(id string, epoch int) []loop.Record {
		return sessionLog(ts, "forkcache", loop.LogPath(ts.MkAbs(args[1]), id, epoch))
	}
	parent := records(a.ForkOf.ID, a.ForkOf.Epoch)
	raw, err := os.ReadFile(loop.LogPath(ts.MkAbs(args[1]), a.ForkOf.ID, a.ForkOf.Epoch))
	if err != nil {
		ts.Fatalf("forkcache: %v", err)
	}
	copied := bytes.Count(raw[:a.ForkOf.Bytes], []byte("\n")) // the records the fork starts with
	prompt := 0
	for _, r := range parent[:copied] {
		if r.Type == loop.TypeAssistant {
			prompt = r.Timings.PromptTokens()
		}
	}
	cacheN := -1
	for _, r := range records(a.Session.ID, a.Session.Epoch)[copied:] {
		if r.Type == loop.TypeAssistant {
			cacheN = r.Timings.CacheN
			break
		}
	}
	if prompt == 0 || cacheN < 0 {
		ts.Fatalf("forkcache: the parent made no request before the fork, or the fork none after (%d records copied)", copied)
	}
	fmt.Fprintf(ts.Stdout(), "parent prompt %d tokens; fork's first request cache_n %d\n", prompt, cacheN)
	if cacheN*10 < prompt*9 {
		ts.Fatalf("forkcache: the fork took %d tokens from the cache, less than nine tenths of the parent's prompt of %d", cacheN, prompt)
	}
}

// yaagcrash PROGRAM DIR ROUNDS MAXKILL_MS WANT: the SIGKILL rounds of a
// recording Run. Round 1 runs `yaag run PROGRAM --record DIR/c1.json`,
// each later round `--resume` of the newest document or journal with
// `--record DIR/c<i>.json`, and each is killed with SIGKILL at a random
// moment within MAXKILL_MS (unless it ends first). A last resume runs to
// its end and must print WANT. Every document left must read (a Cassette
// records each step once: its reader refuses a step twice), and the last
// must hold each of the program's Asks once. $YAAG_CRASH_ROUNDS, when set,
// is the number of rounds instead (the full size: docs/yaag/cli.md). It
// prints one line per round.
func cmdYaagcrash(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 5 {
		ts.Fatalf("usage: yaagcrash PROGRAM DIR ROUNDS MAXKILL_MS WANT")
	}
	prog, dir, want := ts.MkAbs(args[0]), ts.MkAbs(args[1]), args[4]
	var rounds, maxKill int
	wholeNumbers(ts, "yaagcrash", args[2:4], &rounds, &maxKill)
	rounds = fullSize(ts, "YAAG_CRASH_ROUNDS", rounds)
	env := roleEnv(ts, ts.Getenv("BOXMAKER_HOME"))
	rng := newRand()
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	last := ""
	var out strings.Builder
	for i := 1; i <= rounds+1; i++ {
		dest := filepath.Join(dir, fmt.Sprintf("c%d.json", i))
		args := []string{"run", prog, "--record", dest}
		if last != "" {
			args = append(args, "--resume", last)
		}
		recorded := recordedAsks(ts, last)
		cmd := exec.Command("yaag", args...)
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			ts.Fatalf("round %d: %v", i, err)
		}
		// The Asks the resumed document recorded are replayed, never sent
		// to the model again; a round that runs to its end replays every
		// one of them.
		check := func(whole bool) {
			replayed, live := resumeLines(stderr.String())
			for k := range replayed {
				if !recorded[k] {
					ts.Fatalf("round %d: %s was replayed, and %s did not record it\n%s", i, k, last, stderr.String())
				}
			}
			for k := range live {
				if recorded[k] {
					ts.Fatalf("round %d: %s, which %s recorded, went live\n%s", i, k, last, stderr.String())
				}
			}
			if whole && len(replayed) != len(recorded) {
				ts.Fatalf("round %d ran to its end and replayed %d of the %d Asks %s recorded\n%s", i, len(replayed), len(recorded), last, stderr.String())
			}
			if len(recorded) > 0 {
				fmt.Fprintf(&out, "  it replayed %d of the %d Asks it resumed from, none live again\n", len(replayed), len(recorded))
			}
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		if i <= rounds {
			after := time.Duration(rng.Intn(maxKill)) * time.Millisecond
			select {
			case err := <-exited:
				fmt.Fprintf(&out, "round %d: ended before its kill (%v)\n", i, err)
				check(err == nil)
				if err == nil {
					// It completed: a new chain starts, and is killed in turn.
					last = ""
					continue
				}
			case <-time.After(after):
				cmd.Process.Signal(syscall.SIGKILL)
				<-exited
				fmt.Fprintf(&out, "round %d: killed after %v\n", i, after)
				check(false)
			}
		} else if err := <-exited; err != nil {
			ts.Fatalf("the last resume failed: %v\n%s", err, stderr.String())
		} else {
			check(true)
		}
		if exists(dest) || exists(dest+".journal") {
			last = dest
		}
		if i == rounds+1 && strings.TrimSpace(stdout.String()) != want {
			ts.Fatalf("the last resume printed %q, want %q\n%s", stdout.String(), want, stderr.String())
		}
	}
	// Every document reads; the last holds each Ask once.
	final, err := os.ReadFile(last)
	if err != nil {
		ts.Fatalf("yaagcrash: %v", err)
	}
	d, err := cassette.Parse(last, final)
	if err != nil {
		ts.Fatalf("yaagcrash: %v", err)
	}
	for i := 1; i <= rounds; i++ {
		p := filepath.Join(dir, fmt.Sprintf("c%d.json", i))
		if data, err := os.ReadFile(p); err == nil {
			if _, err := cassette.Parse(p, data); err != nil {
				ts.Fatalf("yaagcrash: %v", err)
			}
		}
	}
	asks := 0
	for _, s := range d.Steps {
		if s.Kind == cassette.KindAsk {
			asks++
		}
	}
	fmt.Fprintf(&out, "last: %d Asks, %d Agents, status %s\n", asks, len(d.Agents), d.End.Status)
	ts.Stdout().Write([]byte(out.String()))
}

// recordedAsks are the Asks (A<k>/<n>) a Cassette, or the journal a
// killed Run left in its place, recorded with status ok; none for "".
func recordedAsks(ts *testscript.TestScript, path string) map[string]bool {
	out := map[string]bool{}
	if path == "" {
		return out
	}
	var steps []cassette.Step
	if data, err := os.ReadFile(path); err == nil {
		d, err := cassette.Parse(path, data)
		if err != nil {
			ts.Fatalf("yaagcrash: %v", err)
		}
		steps = d.Steps
	} else {
		data, err := os.ReadFile(cassette.JournalPath(path))
		if err != nil {
			ts.Fatalf("yaagcrash: %v", err)
		}
		rec, err := cassette.ParseJournal(cassette.JournalPath(path), data)
		if err != nil {
			ts.Fatalf("yaagcrash: %v", err)
		}
		steps = rec.Steps
	}
	for _, st := range steps {
		if st.Kind == cassette.KindAsk && st.Status == cassette.StatusOK {
			out[fmt.Sprintf("%s/%d", st.Agent, st.N)] = true
		}
	}
	return out
}

var replayedRE, liveRE = regexp.MustCompile(`(?m)^yaag: (A[0-9]+/[0-9]+): replayed from the Cassette$`), regexp.MustCompile(`(?m)^yaag: (A[0-9]+/[0-9]+): goes live`)

// resumeLines are the Asks a resumed Run's standard error says it
// replayed, and those it says went live.
func resumeLines(stderr string) (replayed, live map[string]bool) {
	replayed, live = map[string]bool{}, map[string]bool{}
	for _, m := range replayedRE.FindAllStringSubmatch(stderr, -1) {
		replayed[m[1]] = true
	}
	for _, m := range liveRE.FindAllStringSubmatch(stderr, -1) {
		live[m[1]] = true
	}
	return replayed, live
}

// addrvar VAR FILE: waits (10 s at most) for FILE, which a server started
// with --listen 127.0.0.1:0 writes its address to (llama-standin
// --addr-file), and sets VAR to that address.
func cmdAddrvar(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: addrvar VAR FILE")
	}
	path := ts.MkAbs(args[1])
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, err := os.ReadFile(path)
		if err == nil && strings.HasSuffix(string(data), "\n") {
			ts.Setenv(args[0], strings.TrimSpace(string(data)))
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("addrvar: %s was not written within 10 s", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ttyscript: a program on a real pseudo-terminal (standard input, output
// and error, and its controlling terminal), driven step by step as a
// person at the keyboard would, so that a Ctrl-C reaches it as the
// terminal delivers it (SIGINT, or a line's end where the program set
// the terminal so) while it is busy. testscript's own ttyin writes all
// its input at once, before the program is ready.

// ttyscript N STEPS prog args...: runs prog on a new terminal, plays the
// file STEPS, and requires exit status N. Each line of STEPS is
//
//	send "TEXT"     types TEXT (a Go string: "\n" is Enter, "\x03" Ctrl-C, "\x04" Ctrl-D)
//	expect REGEXP   waits up to 20 s until the output since the last expect matches
//
// (blank lines and # comments are skipped). Afterwards stdout is all the
// terminal showed, with \r\n as \n; stderr is empty.
func cmdTTYScript(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: ttyscript N STEPS prog [args...]")
	}
	var want int
	wholeNumbers(ts, "ttyscript", args[:1], &want)
	prog := lookPathIn(ts.Getenv("PATH"), args[2])
	if prog == "" {
		ts.Fatalf("ttyscript: %s is not on PATH", args[2])
	}
	master, tty, err := openPTY()
	if err != nil {
		ts.Fatalf("ttyscript: %v", err)
	}
	defer master.Close()
	cmd := exec.Command(prog, args[3:]...)
	cmd.Args[0] = args[2]
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = append(os.Environ(), "TERM=xterm")
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "BOXMAKER_HOME", "WORK"} {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		ts.Fatalf("ttyscript: %v", err)
	}
	tty.Close()

	var mu sync.Mutex
	var screen strings.Builder
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	shown := func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.ReplaceAll(screen.String(), "\r\n", "\n")
	}
	fail := func(format string, a ...any) {
		cmd.Process.Kill()
		cmd.Wait()
		ts.Fatalf("ttyscript: %s\nthe terminal showed:\n%s", fmt.Sprintf(format, a...), shown())
	}
	from := 0
	for i, line := range strings.Split(ts.ReadFile(args[1]), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		verb, arg, _ := strings.Cut(line, " ")
		switch verb {
		case "send":
			text, err := strconv.Unquote(arg)
			if err != nil {
				fail("%s:%d: send takes a quoted Go string: %v", args[1], i+1, err)
			}
			if _, err := master.Write([]byte(text)); err != nil {
				fail("%s:%d: %v", args[1], i+1, err)
			}
		case "expect":
			re, err := regexp.Compile(arg)
			if err != nil {
				fail("%s:%d: %v", args[1], i+1, err)
			}
			deadline := time.Now().Add(20 * time.Second)
			for {
				s := shown()
				if loc := re.FindStringIndex(s[from:]); loc != nil {
					from += loc[1]
					break
				}
				if time.Now().After(deadline) {
					fail("%s:%d: no %q within 20s", args[1], i+1, arg)
				}
				time.Sleep(10 * time.Millisecond)
			}
		default:
			fail("%s:%d: unknown step %q", args[1], i+1, verb)
		}
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-exited:
	case <-time.After(20 * time.Second):
		fail("%s did not exit within 20s of the last step", args[2])
	}
	<-readDone
	got, werr := testsupport.ExitCode(werr)
	if werr != nil {
		ts.Fatalf("ttyscript: %v", werr)
	}
	fmt.Fprint(ts.Stdout(), shown())
	if got != want {
		ts.Fatalf("ttyscript: %s exited %d, want %d\nthe terminal showed:\n%s", args[2], got, want, shown())
	}
}

// openPTY opens a new pseudo-terminal pair: the master, and the terminal.
func openPTY() (master, tty *os.File, err error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	var unlock int32
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, m.Fd(), unix.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		m.Close()
		return nil, nil, e
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	t, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	return m, t, nil
}

// lookPathIn finds an executable named name in the directories of path.
func lookPathIn(path, name string) string {
	if strings.Contains(name, "/") {
		return name
	}
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}
