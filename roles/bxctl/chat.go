package bxctl

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/core/loop"
	"boxmaker/core/loopwire"
	"boxmaker/core/role"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
)

func chatCommands() []*cli.Command {
	return []*cli.Command{{
		Name:  "chat",
		Usage: "talk with the agent in the terminal, through loopd's loop socket",
		Description: "chat sends each message as one turn and prints the reply as it streams,\n" +
			"with each tool call and its outcome. A call held for an approval shows its id:\n" +
			"answer it from a second terminal with 'bxctl approve ID', or, when you may\n" +
			"reach brokerd's admin socket (the owner), in the chat: the call is shown whole\n" +
			"(a write_file's diff against the file) and y approves it, n refuses it. Ctrl-C\n" +
			"during the reply withdraws its approval. --session ID and --last go on with a\n" +
			"session ('bxctl sessions' lists them) and show its last turns first. While the model has\n" +
			"not begun to answer, and while a tool runs or waits for its approval, a status\n" +
			"line says what is awaited and for how long; each turn ends with a line of the\n" +
			"tokens in and out, the prompt cache's reuse (and its loss) and the context used.\n\n" +
			"On a terminal, a line editor: the arrow keys, Home/End and Ctrl-A/E/B/F/K/U/W\n" +
			"edit the line; Up and Down go through the messages sent; a line has no length\n" +
			"limit; a backslash at the end of a line (or Alt-Enter) goes on to another line\n" +
			"of the same message; a paste is text in the line, of any size, and a long one\n" +
			"or one of several lines shows as [pasted text #N: ...] and is sent whole.\n" +
			"Ctrl-C during a reply stops showing it and returns to the prompt (loopd drops a\n" +
			"reply it cannot send, and logs nothing of it); Ctrl-C on a line with text drops\n" +
			"the text; Ctrl-C at an empty prompt, or Ctrl-D, ends the chat. Ctrl-Z suspends the\n" +
			"chat (the terminal as it was), and the shell's fg resumes it.\n\n" +
			"From a pipe or a file: each line is one message (of any length), empty lines\n" +
			"are skipped, and the chat ends with the input; it exits 1 if any turn failed.\n\n" +
			"Commands, alone on a line: /help, /session (the session's id), /new (the next\n" +
			"message begins a new session), /quit. A model or broker error is shown and\n" +
			"the chat goes on; the session goes on with --session next time.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "session", Usage: "continue session `ID` (default: a new one); bxctl sessions lists them"},
			&cli.BoolFlag{Name: "last", Usage: "continue the session with the latest turn (a person's, not a yaag Agent's)"},
			&cli.StringFlag{Name: "who", Value: "owner", Usage: "the `NAME` the turns are from"},
		},
		Action: rolecli.NoArgs(func(c *cli.Context) error {
			var cfg conf.Loopd
			if _, err := loopConfig.load(c, &cfg); err != nil {
				return err
			}
			if s := c.String("session"); s != "" && !loop.ValidSessionID(s) {
				return rolecli.Usagef("--session %q is not a session id (they look like 20261201-091200-1a2b3c4d)", s)
			}
			session := c.String("session")
			if c.Bool("last") {
				if session != "" {
					return rolecli.Usagef("--last and --session name a session each: give one")
				}
				list, err := sessionsOf(c.Context, cfg)
				if err != nil {
					return err
				}
				for _, s := range list { // the latest first; a yaag Agent's is the Run's
					if !s.Agent {
						session = s.ID
						break
					}
				}
				if session == "" {
					return rolecli.WithHint(fmt.Errorf("chat --last: the home %s has no session yet", cfg.Home), "bxctl chat begins one")
				}
			}
			if err := (peer{role.Loopd, cfg.Sockets.Loop}).call(c.Context, 10*time.Second, daemon.PingKind, nil, nil, nil); err != nil {
				return err
			}
			// The owner, who may reach brokerd's admin socket, answers
			// approvals in the chat too; anyone else in another terminal.
			admin := ""
			var bcfg conf.Brokerd
			if _, err := brokerConfig.load(c, &bcfg); err == nil {
				admin = bcfg.Sockets.Admin
			}
			interrupts := make(chan os.Signal, 1)
			signal.Notify(interrupts, os.Interrupt, syscall.SIGTERM)
			defer signal.Stop(interrupts)
			ch := &chatter{
				socket: cfg.Sockets.Loop, session: session, who: c.String("who"),
				home: cfg.Home, admin: admin, out: os.Stdout, errOut: os.Stderr,
				interactive: isTerminal(os.Stdin),
			}
			if screen := chatScreen(); ch.interactive && screen != nil {
				restore, err := ch.onTerminal(os.Stdin, screen, interrupts)
				if err != nil {
					return err
				}
				defer restore()
			}
			return ch.run(c.Context, os.Stdin, interrupts)
		}),
	}}
}

// chatScreen is the terminal the line editor shows the line on: standard
// output, or standard error when only that is a terminal; nil when
// neither is (the chat then reads lines).
func chatScreen() *os.File {
	for _, f := range []*os.File{os.Stdout, os.Stderr} {
		if isTerminal(f) {
			return f
		}
	}
	return nil
}

// onTerminal puts the terminal in raw mode for the chat, with bracketed
// paste, and makes the line editor; what it returns puts the terminal
// back. What the chat writes to a terminal gets \r\n for \n (raw mode
// does not add the carriage return).
func (ch *chatter) onTerminal(in, screen *os.File, signals <-chan os.Signal) (restore func(), err error) {
	fd := int(in.Fd())
	old, err := term.MakeRaw(fd)
	if err != nil {
		return nil, fmt.Errorf("cannot set the terminal for the chat: %w", err)
	}
	ch.ed = newLineEditor(in, screen, signals)
	ch.ed.term.SetBracketedPasteMode(true)
	size := func() {
		// A terminal that does not know its size says 0 by 0: x/term
		// keeps its 80 columns then.
		if w, h, err := term.GetSize(int(screen.Fd())); err == nil && w > 0 && h > 0 {
			ch.ed.term.SetSize(w, h)
		}
	}
	size()
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-winch:
				size()
			case <-stop:
				return
			}
		}
	}()
	ch.width = func() int {
		w, _, err := term.GetSize(int(screen.Fd()))
		if err != nil || w <= 0 {
			return 80
		}
		return w
	}
	ch.status = screen == os.Stdout // the status line is drawn where the reply is
	ch.suspend = func() {
		// As the kernel would at a Ctrl-Z: the terminal as it was, then
		// the whole job stopped (SIGTSTP to the process group), until a
		// SIGCONT (fg); then raw mode again, from the terminal as the
		// shell gave it back. Where nothing could resume it (an orphaned
		// group, whose SIGTSTP the kernel drops), the chat goes on.
		if !resumable() {
			fmt.Fprint(screen, "^Z (nothing here could resume the chat: no shell with job control runs it)\r\n")
			return
		}
		cont := make(chan os.Signal, 1)
		signal.Notify(cont, syscall.SIGCONT)
		defer signal.Stop(cont)
		ch.ed.term.SetBracketedPasteMode(false)
		fmt.Fprint(screen, "^Z\r\n")
		term.Restore(fd, old)
		syscall.Kill(0, syscall.SIGTSTP)
		<-cont
		if st, err := term.MakeRaw(fd); err == nil {
			old = st
		}
		ch.ed.term.SetBracketedPasteMode(true)
		size()
	}
	ch.ed.input.suspend = ch.suspend
	ch.ed.input.resumed = func() { fmt.Fprintln(ch.ed.term, "(resumed)") }
	for _, w := range []*io.Writer{&ch.out, &ch.errOut} {
		if f, ok := (*w).(*os.File); ok && isTerminal(f) {
			*w = crlfWriter{f}
		}
	}
	return func() {
		signal.Stop(winch)
		close(stop)
		ch.ed.term.SetBracketedPasteMode(false)
		term.Restore(fd, old)
	}, nil
}

// resumable reports whether the chat's process group, once stopped,
// could be resumed: POSIX calls a group orphaned when none of its
// processes has a parent in another group of the same session (the shell
// whose job it is), and the kernel drops a SIGTSTP sent to an orphaned
// group. It reads /proc.
func resumable() bool {
	pgrp := syscall.Getpgrp()
	sid, err := unix.Getsid(0)
	if err != nil {
		return false
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pg, err := unix.Getpgid(pid); err != nil || pg != pgrp {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 2 {
			continue
		}
		ppid, err := strconv.Atoi(f[1])
		if err != nil || ppid == 0 {
			continue
		}
		ppg, err1 := unix.Getpgid(ppid)
		psid, err2 := unix.Getsid(ppid)
		if err1 == nil && err2 == nil && ppg != pgrp && psid == sid {
			return true
		}
	}
	return false
}

// crlfWriter writes to a terminal in raw mode: \r\n for each \n.
type crlfWriter struct{ w io.Writer }

func (c crlfWriter) Write(p []byte) (int, error) {
	if _, err := c.w.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// chatter is one chat: where it sends, the session it is in, and where
// it shows things.
type chatter struct {
	socket, session, who, home string
	admin                      string // brokerd's admin socket ("" unknown): approvals answered here
	out, errOut                io.Writer
	interactive                bool // standard input is a terminal: prompt, banner
	failed                     bool // a turn failed (the exit status on a pipe)

	// On a terminal: the line editor, and the status line drawn while
	// the chat waits (width is the terminal's); suspend stops the chat at
	// a Ctrl-Z and returns when it is resumed.
	ed      *lineEditor
	status  bool
	width   func() int
	now     func() time.Time
	suspend func()

	// Without the editor: the lines read.
	msgs <-chan message
}

// message is one message read, or the end of the input.
type message struct {
	text      string
	interrupt bool  // Ctrl-C: text is what was typed before it, dropped
	err       error // io.EOF at the end
}

// historyTurns is how many of a continued session's last turns the chat
// shows before its first prompt.
const historyTurns = 5

// readMessages reads a message a line from in, of any length.
func readMessages(in io.Reader) <-chan message {
	ch := make(chan message)
	go func() {
		defer close(ch)
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				ch <- message{text: line}
			}
			if err != nil {
				ch <- message{err: err}
				return
			}
		}
	}()
	return ch
}

var slashCommandRE = regexp.MustCompile(`^/[a-z]+$`)

const chatHelp = `/help     this list
/session  the session's id (for bxctl chat --session ID)
/new      the next message begins a new session
/quit     end the chat (so do Ctrl-D and Ctrl-C at an empty prompt)
Anything else is a message for the agent; end a line with \ (or press
Alt-Enter) to go on to another line of it. Up and Down go through the
messages sent. Ctrl-C during a reply stops it; Ctrl-C on a line you are
typing drops the line. Ctrl-Z suspends the chat (fg resumes it).`

// run is the conversation. It ends at the end of the input, /quit or an
// interrupt at the prompt: nil, or on a pipe an error when a turn failed.
func (ch *chatter) run(ctx context.Context, in io.Reader, interrupts <-chan os.Signal) error {
	if ch.interactive {
		s := "a new one begins with your first message"
		if ch.session != "" {
			s = ch.session
		}
		fmt.Fprintf(ch.out, "bxctl chat: home %s, session %s\n", ch.home, s)
		fmt.Fprintln(ch.out, "bxctl chat: /help lists the commands; Ctrl-D or /quit ends the chat")
		if ch.session != "" {
			ch.showHistory(ctx, historyTurns)
		}
	} else if ch.session != "" {
		fmt.Fprintf(ch.out, "session %s\n", ch.session)
	}
	if ch.ed == nil {
		ch.msgs = readMessages(in)
	}
	for {
		m := ch.read(interrupts)
		if m.interrupt {
			if strings.TrimSpace(m.text) == "" { // Ctrl-C at an empty prompt
				return ch.end()
			}
			fmt.Fprintln(ch.out, "^C (dropped; Ctrl-C at an empty prompt ends the chat)")
			continue
		}
		if m.err != nil {
			if m.err != io.EOF && m.err != errSignalled {
				return fmt.Errorf("cannot read standard input: %w", m.err)
			}
			return ch.end()
		}
		text := strings.TrimSpace(m.text)
		switch {
		case text == "":
			continue
		case slashCommandRE.MatchString(text):
			if quit := ch.command(text); quit {
				return ch.end()
			}
			continue
		}
		ch.turn(ctx, text, interrupts)
	}
}

// read reads the next message: from the line editor on a terminal, else
// a line, with the prompt when a person is there.
func (ch *chatter) read(interrupts <-chan os.Signal) message {
	if ch.ed != nil {
		m := ch.ed.read()
		if m.err != nil && m.err != errSignalled {
			fmt.Fprintln(ch.out) // Ctrl-D leaves the cursor after the prompt
		}
		return m
	}
	if ch.interactive {
		fmt.Fprint(ch.out, "> ")
	}
	select {
	case m := <-ch.msgs:
		if m.err != nil && ch.interactive {
			fmt.Fprintln(ch.out)
		}
		return m
	case <-interrupts:
		if ch.interactive {
			fmt.Fprintln(ch.out)
		}
		return message{interrupt: true}
	}
}

func (ch *chatter) end() error {
	if ch.failed && !ch.interactive {
		return errors.New("chat: a turn failed (shown above)")
	}
	return nil
}

// command does one of the chat's own commands; quit is true for /quit.
func (ch *chatter) command(cmd string) (quit bool) {
	switch cmd {
	case "/quit":
		return true
	case "/help":
		fmt.Fprintln(ch.out, chatHelp)
	case "/session":
		if ch.session == "" {
			fmt.Fprintln(ch.out, "session: none yet; your next message begins one")
		} else {
			fmt.Fprintf(ch.out, "session %s\n", ch.session)
		}
	case "/new":
		ch.session = ""
		fmt.Fprintln(ch.out, "session: your next message begins a new one")
	default:
		fmt.Fprintf(ch.errOut, "bxctl: unknown command %s; /help lists them (a message that begins with / needs another word on its line)\n", cmd)
	}
	return false
}

// turnEnd is how a turn's call ended.
type turnEnd struct {
	err     error
	session string
}

// turn sends one message and shows the reply as it streams, with the
// status line while it waits. A Ctrl-C (or an interrupt) stops showing
// it; keys typed meanwhile wait for the next prompt; an error is shown,
// and the chat goes on.
func (ch *chatter) turn(ctx context.Context, text string, interrupts <-chan os.Signal) {
	tctx, cancel := context.WithCancel(ctx)
	defer cancel()
	events := make(chan loopwire.Event)
	done := make(chan turnEnd, 1)
	go func() {
		var res loopwire.TurnResult
		err := peer{role.Loopd, ch.socket}.call(tctx, 0, loopwire.KindTurn, loopwire.TurnRequest{Session: ch.session, Who: ch.who, Text: text}, &res, func(raw json.RawMessage) error {
			var e loopwire.Event
			if err := json.Unmarshal(raw, &e); err != nil {
				return err
			}
			select {
			case events <- e:
				return nil
			case <-tctx.Done():
				return tctx.Err()
			}
		})
		done <- turnEnd{err, res.Session}
	}()
	v := &turnView{ch: ch, live: ch.status}
	v.wait(waitModel)
	var tick <-chan time.Time
	if v.live {
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		tick = t.C
	}
	var keys <-chan keyItem
	if ch.ed != nil {
		keys = ch.ed.input.items
	}
	for {
		select {
		case e := <-events:
			v.show(e)
			if e.Event == loopwire.EventAsked && ch.ed != nil && ch.admin != "" {
				v.offerAnswer(ctx, e.Approval)
			}
			continue
		case end := <-done:
			v.finish()
			if end.err == nil && end.session != "" {
				ch.session = end.session
			}
			if end.err != nil {
				ch.failed = true
				rolecli.WriteError(ch.errOut, role.Bxctl.String(), end.err)
			}
			return
		case <-tick:
			v.draw()
			continue
		case it, ok := <-keys:
			if !ok {
				keys = nil
				continue
			}
			if it.suspend && ch.suspend != nil {
				v.clear()
				ch.suspend()
				fmt.Fprintln(ch.out, "(resumed)")
				v.midLine = false
				v.draw()
				continue
			}
			if !it.interrupt {
				if v.asking != "" && !it.paste && v.answerKey(ctx, it.keys) {
					continue
				}
				ch.ed.input.pending = append(ch.ed.input.pending, it)
				continue
			}
		case <-interrupts:
		}
		cancel()
		for {
			select {
			case <-events:
				continue
			case <-done:
			}
			break
		}
		v.clear()
		if v.midLine {
			fmt.Fprintln(ch.out)
		}
		if v.asking != "" {
			fmt.Fprintf(ch.out, "(reply stopped; brokerd withdraws its approval %s)\n", termsafe.Line(v.asking))
		} else {
			fmt.Fprintln(ch.out, "(reply stopped)")
		}
		v.stopped()
		return
	}
}
