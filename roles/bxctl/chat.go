package bxctl

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"

	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/core/loop"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
)

func chatCommands() []*cli.Command {
	return []*cli.Command{{
		Name:  "chat",
		Usage: "talk with the agent in the terminal, through loopd's loop socket",
		Description: "chat reads a line, sends it as one turn, and prints the reply as it streams,\n" +
			"with each tool call and its outcome. A call held for an approval shows its id:\n" +
			"answer it from a second terminal with 'bxctl approve ID'. An empty line or\n" +
			"end of input ends the chat; the session goes on with --session next time.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "session", Usage: "continue session `ID` (default: a new one)"},
			&cli.StringFlag{Name: "who", Value: "owner", Usage: "the `NAME` the turns are from"},
		},
		Action: func(c *cli.Context) error {
			if err := rolecli.ExactArgs(c, 0, "no arguments"); err != nil {
				return err
			}
			var cfg conf.Loopd
			if _, err := loadConfig(c, "loop-config", "loopd", &cfg); err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
			defer stop()
			_, err := unix.IoctlGetTermios(int(os.Stdin.Fd()), unix.TCGETS)
			return chat(ctx, cfg.Sockets.Loop, c.String("session"), c.String("who"), os.Stdin, os.Stdout, err == nil)
		},
	}}
}

// chat is the conversation: one turn per line of in. prompt shows "> "
// before each line, for a terminal; from a pipe there is none to show.
func chat(ctx context.Context, socket, session, who string, in io.Reader, out io.Writer, prompt bool) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	if session != "" {
		fmt.Fprintf(out, "session %s\n", session)
	}
	for {
		if prompt {
			fmt.Fprint(out, "> ")
		}
		if !sc.Scan() {
			if prompt {
				fmt.Fprintln(out)
			}
			return sc.Err()
		}
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			return nil
		}
		var res loop.TurnResult
		midLine := false
		err := daemon.Call(ctx, socket, "turn", loop.TurnRequest{Session: session, Who: who, Text: text}, &res, func(raw json.RawMessage) error {
			var e loop.Event
			if err := json.Unmarshal(raw, &e); err != nil {
				return err
			}
			if e.Event == "session" {
				if session == e.Session {
					return nil // shown when the chat began
				}
				session = e.Session
			}
			line := showEvent(e)
			if e.Event == "text" {
				fmt.Fprint(out, termsafe.Text(e.Text)) // the model's words: nothing in them acts on the terminal
				midLine = !strings.HasSuffix(e.Text, "\n")
				return nil
			}
			if line == "" {
				return nil
			}
			if midLine {
				fmt.Fprintln(out)
				midLine = false
			}
			fmt.Fprintln(out, line)
			return nil
		})
		if midLine {
			fmt.Fprintln(out)
		}
		if err != nil {
			return err
		}
		session = res.Session
	}
}

// showEvent is how one event reads in the terminal; text is printed as
// it comes, not here.
func showEvent(e loop.Event) string {
	switch e.Event {
	case "session":
		return "session " + termsafe.Line(e.Session)
	case "tool_call":
		return termsafe.Line(fmt.Sprintf("  [tool %s %s] %s", e.CallID, e.Tool, e.Arguments))
	case "asked":
		return termsafe.Line(fmt.Sprintf("  [tool %s] asked: approval %s; run 'bxctl approve %s' in another terminal", e.CallID, e.Approval, e.Approval))
	case "tool_result":
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
	}
	return ""
}
