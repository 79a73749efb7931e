package bxctl

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"

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
			"answer it from a second terminal with 'bxctl approve ID'.\n\n" +
			"On a terminal: an empty line is ignored; a paste of several lines is one\n" +
			"message (the terminal's bracketed paste), sent when you press Enter; Ctrl-C\n" +
			"during a reply stops showing it and returns to the prompt (loopd drops a reply\n" +
			"it cannot send, and logs nothing of it); Ctrl-C on a line with text drops the\n" +
			"text and stays at the prompt; Ctrl-C or Ctrl-D at an empty prompt ends the\n" +
			"chat. Lines are edited as the terminal does (Backspace, Ctrl-U, Ctrl-W),\n" +
			"at most 4095 bytes each.\n\n" +
			"From a pipe or a file: each line is one message, empty lines are skipped, and\n" +
			"the chat ends with the input; it exits 1 if any turn failed.\n\n" +
			"Commands, alone on a line: /help, /session (the session's id), /new (the next\n" +
			"message begins a new session), /quit. A model or broker error is shown and\n" +
			"the chat goes on; the session goes on with --session next time.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "session", Usage: "continue session `ID` (default: a new one)"},
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
			if err := (peer{role.Loopd, cfg.Sockets.Loop}).call(c.Context, 10*time.Second, daemon.PingKind, nil, nil, nil); err != nil {
				return err
			}
			interrupts := make(chan os.Signal, 1)
			signal.Notify(interrupts, os.Interrupt, syscall.SIGTERM)
			defer signal.Stop(interrupts)
			ch := &chatter{
				socket: cfg.Sockets.Loop, session: c.String("session"), who: c.String("who"),
				home: cfg.Home, out: os.Stdout, errOut: os.Stderr,
				interactive: isTerminal(os.Stdin),
			}
			if ch.interactive && isTerminal(os.Stdout) {
				var restore func()
				restore, ch.ctrlCEndsLine = terminalForChat(os.Stdin, os.Stdout)
				defer restore()
			}
			return ch.run(c.Context, os.Stdin, interrupts)
		}),
	}}
}

// chatter is one chat: where it sends, the session it is in, and where
// it shows things.
type chatter struct {
	socket, session, who, home string
	out, errOut                io.Writer
	interactive                bool // standard input is a terminal: prompt, banner, paste
	// ctrlCEndsLine: the terminal ends a line at Ctrl-C instead of
	// sending SIGINT (terminalForChat), so the chat sees what was typed.
	ctrlCEndsLine bool
	failed        bool // a turn failed (the exit status on a pipe)

	msgs    <-chan message // what readMessages reads
	pending []message      // read while a turn ran (typed ahead), sent next
}

// Bracketed paste: the terminal wraps pasted text in these.
const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// ctrlC is the byte Ctrl-C sends.
const ctrlC = '\x03'

// terminalForChat turns on bracketed paste, turns off the echo of
// control characters as ^X (so the paste markers do not show), and makes
// Ctrl-C end the line (VEOL) instead of sending SIGINT (VINTR off), so
// that the chat reads what was typed before it and can tell a Ctrl-C on
// a line with text (clear it) from one at an empty prompt (end); the
// kernel still edits the line. ctrlCEndsLine says whether that took; it
// returns what puts the terminal back.
func terminalForChat(in, out *os.File) (restore func(), ctrlCEndsLine bool) {
	fd := int(in.Fd())
	old, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err == nil {
		t := *old
		t.Lflag &^= unix.ECHOCTL
		t.Cc[unix.VINTR] = 0 // _POSIX_VDISABLE
		t.Cc[unix.VEOL] = ctrlC
		ctrlCEndsLine = unix.IoctlSetTermios(fd, unix.TCSETS, &t) == nil
	}
	fmt.Fprint(out, "\x1b[?2004h")
	return func() {
		fmt.Fprint(out, "\x1b[?2004l")
		if old != nil {
			unix.IoctlSetTermios(fd, unix.TCSETS, old)
		}
	}, ctrlCEndsLine
}

// message is one message read, or the end of the input.
type message struct {
	text      string
	interrupt bool  // the line ended with Ctrl-C: text is what was typed before it
	err       error // io.EOF at the end
}

// readMessages reads messages from in: a line each, or on a terminal a
// bracketed paste of several lines as one (it ends with the line that
// holds the paste's end). With ctrlCEndsLine a Ctrl-C ends a line too,
// and the message is an interrupt.
func readMessages(in io.Reader, interactive, ctrlCEndsLine bool) <-chan message {
	ch := make(chan message)
	go func() {
		defer close(ch)
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := readLine(r, ctrlCEndsLine)
			if interactive && strings.Contains(line, pasteStart) {
				var b strings.Builder
				b.WriteString(line)
				for err == nil && !strings.Contains(line, pasteEnd) {
					line, err = readLine(r, ctrlCEndsLine)
					b.WriteString(line)
				}
				line = strings.NewReplacer(pasteStart, "", pasteEnd, "").Replace(b.String())
			}
			if ctrlCEndsLine && strings.HasSuffix(line, string(ctrlC)) {
				ch <- message{text: strings.TrimSuffix(line, string(ctrlC)), interrupt: true}
			} else if line != "" {
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

// readLine reads up to and including the next line feed, or with ctrlC
// also the next Ctrl-C.
func readLine(r *bufio.Reader, ctrlCEndsLine bool) (string, error) {
	if !ctrlCEndsLine {
		return r.ReadString('\n')
	}
	var b strings.Builder
	for {
		c, err := r.ReadByte()
		if err != nil {
			return b.String(), err
		}
		b.WriteByte(c)
		if c == '\n' || c == ctrlC {
			return b.String(), nil
		}
	}
}

var slashCommandRE = regexp.MustCompile(`^/[a-z]+$`)

const chatHelp = `/help     this list
/session  the session's id (for bxctl chat --session ID)
/new      the next message begins a new session
/quit     end the chat (so do Ctrl-D and Ctrl-C at an empty prompt)
Anything else is a message for the agent. Ctrl-C during a reply stops it;
Ctrl-C on a line you are typing drops the line.`

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
	} else if ch.session != "" {
		fmt.Fprintf(ch.out, "session %s\n", ch.session)
	}
	ch.msgs = readMessages(in, ch.interactive, ch.ctrlCEndsLine)
	for {
		if ch.interactive {
			fmt.Fprint(ch.out, "> ")
		}
		var m message
		if len(ch.pending) > 0 {
			m, ch.pending = ch.pending[0], ch.pending[1:]
		} else {
			select {
			case m = <-ch.msgs:
			case <-interrupts:
				if ch.interactive {
					fmt.Fprintln(ch.out)
				}
				return ch.end()
			}
		}
		if m.interrupt {
			if m.text == "" { // Ctrl-C at an empty prompt
				fmt.Fprintln(ch.out)
				return ch.end()
			}
			fmt.Fprintln(ch.out, "^C") // what was typed is dropped; a new prompt
			continue
		}
		if m.err != nil {
			if ch.interactive {
				fmt.Fprintln(ch.out)
			}
			if m.err != io.EOF {
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

// turn sends one message and shows the reply as it streams. An interrupt
// stops showing it; an error is shown, and the chat goes on.
func (ch *chatter) turn(ctx context.Context, text string, interrupts <-chan os.Signal) {
	tctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	midLine := false
	go func() {
		var res loopwire.TurnResult
		err := peer{role.Loopd, ch.socket}.call(tctx, 0, loopwire.KindTurn, loopwire.TurnRequest{Session: ch.session, Who: ch.who, Text: text}, &res, func(raw json.RawMessage) error {
			var e loopwire.Event
			if err := json.Unmarshal(raw, &e); err != nil {
				return err
			}
			if e.Event == loopwire.EventSession {
				if ch.session == e.Session {
					return nil // shown when the chat began
				}
				ch.session = e.Session
			}
			if e.Event == loopwire.EventText {
				fmt.Fprint(ch.out, termsafe.Text(e.Text)) // the model's words: nothing in them acts on the terminal
				midLine = !strings.HasSuffix(e.Text, "\n")
				return nil
			}
			line := showEvent(e)
			if line == "" {
				return nil
			}
			if midLine {
				fmt.Fprintln(ch.out)
				midLine = false
			}
			fmt.Fprintln(ch.out, line)
			return nil
		})
		if err == nil && res.Session != "" {
			ch.session = res.Session
		}
		done <- err
	}()
	// On a terminal that ends lines at Ctrl-C, the Ctrl-C comes as a
	// message: read them while the turn runs, keeping what was typed
	// ahead for after it. (On a pipe, reading on would hold the whole
	// input in memory.)
	var msgs <-chan message
	if ch.ctrlCEndsLine {
		msgs = ch.msgs
	}
	var err error
wait:
	for {
		select {
		case err = <-done:
			break wait
		case m, ok := <-msgs:
			if !ok {
				msgs = nil
				continue
			}
			if !m.interrupt {
				ch.pending = append(ch.pending, m)
				continue
			}
		case <-interrupts:
		}
		cancel()
		<-done
		if midLine {
			fmt.Fprintln(ch.out)
		}
		fmt.Fprintln(ch.out, "(reply stopped)")
		return
	}
	if midLine {
		fmt.Fprintln(ch.out)
	}
	if err != nil {
		ch.failed = true
		rolecli.WriteError(ch.errOut, role.Bxctl.String(), err)
	}
}

// showEvent is how one event reads in the terminal; text is printed as
// it comes, not here. What the model or a tool wrote is made safe for
// the terminal.
func showEvent(e loopwire.Event) string {
	switch e.Event {
	case loopwire.EventSession:
		return "session " + termsafe.Line(e.Session)
	case loopwire.EventToolCall:
		return fmt.Sprintf("  [tool %s %s] %s", termsafe.Line(e.CallID), termsafe.Line(e.Tool), termsafe.Line(string(e.Arguments)))
	case loopwire.EventAsked:
		return termsafe.Line(fmt.Sprintf("  [tool %s] asked: approval %s; run 'bxctl approve %s' in another terminal", e.CallID, e.Approval, e.Approval))
	case loopwire.EventToolResult:
		text := e.Text
		if len(text) > 200 {
			text = text[:200] + "..."
		}
		// brokerd's texts often begin with the outcome ("denied: ..."): say it once.
		text = strings.TrimPrefix(text, e.Outcome+": ")
		// A tool's result (a file, a page) is shown escaped and indented,
		// so that none of it acts on the terminal or passes for a line of
		// bxctl's own.
		return fmt.Sprintf("  [tool %s] %s: %s", termsafe.Line(e.CallID), termsafe.Line(e.Outcome), strings.ReplaceAll(termsafe.Text(text), "\n", "\n    "))
	case loopwire.EventNotice: // loopd's own word on the reply, such as a cut-off
		return "  [loopd] " + termsafe.Line(e.Text)
	}
	return ""
}
