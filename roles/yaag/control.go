package yaag

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"boxmaker/core/termsafe"
	"boxmaker/core/yaag/control"
	"boxmaker/core/yaag/engine"
	"boxmaker/core/yaag/runs"
	"boxmaker/roles/rolecli"
)

func runsCommand() *cli.Command {
	return &cli.Command{
		Name:  "runs",
		Usage: "list the Runs of this home, from their records in $BOXMAKER_HOME/yaag/runs/",
		Description: "Each line is a Run: its id, status (running, completed, failed, stopped, paused,\n" +
			"or lost: its record says running and its process is gone), when it started,\n" +
			"and its program; a Run another one continued says so.",
		Flags: []cli.Flag{rolecli.JSONFlag},
		Action: func(c *cli.Context) error {
			args, err := lateFlags(c)
			if err != nil {
				return err
			}
			if len(args) != 0 {
				return rolecli.Usagef("runs takes no arguments (yaag status RUN reads one Run)")
			}
			list, err := store().List()
			if err != nil {
				return err
			}
			if rolecli.WantsJSON(c) {
				if list == nil {
					list = []runs.Record{}
				}
				return rolecli.WriteJSON(c.App.Writer, map[string]any{"runs": list})
			}
			l := termsafe.Line
			for _, r := range list {
				fmt.Fprintf(c.App.Writer, "%s  %-9s  %s  %s", l(r.ID), l(r.Status), l(r.StartedAt), l(r.Program))
				if r.ResumedBy != "" {
					fmt.Fprintf(c.App.Writer, "  (resumed by %s)", l(r.ResumedBy))
				}
				fmt.Fprintln(c.App.Writer)
			}
			return nil
		},
	}
}

// oneRun reads the one Run id argument.
func oneRun(c *cli.Context, what string) (string, error) {
	args, err := lateFlags(c)
	if err != nil {
		return "", err
	}
	if len(args) != 1 {
		return "", usage(c, "%s takes one Run id (yaag runs lists them)", what)
	}
	return args[0], nil
}

func statusCommand() *cli.Command {
	return &cli.Command{
		Name:      "status",
		Usage:     "read a Run: its record, and, while it runs, its Agents through its Control Channel",
		ArgsUsage: "RUN",
		Flags:     []cli.Flag{rolecli.JSONFlag},
		Action: func(c *cli.Context) error {
			id, err := oneRun(c, "status")
			if err != nil {
				return err
			}
			var st control.Status
			rec, err := runs.Request(c.Context, store(), id, control.KindStatus, struct{}{}, &st)
			var ended *runs.EndedError
			switch {
			case errors.As(err, &ended):
				err = nil
			case err != nil && !isNoRun(err):
				err = control.Failed("status", err)
			}
			if isNoRun(err) {
				return err
			}
			if rolecli.WantsJSON(c) {
				out := map[string]any{"record": rec}
				if err == nil && !rec.Ended() {
					out["live"] = st
				}
				if werr := rolecli.WriteJSON(c.App.Writer, out); werr != nil {
					return werr
				}
				return err
			}
			printRecord(c.App.Writer, rec)
			if err == nil && !rec.Ended() {
				fmt.Fprintf(c.App.Writer, "state: %s\n", termsafe.Line(st.State))
				for _, a := range st.Agents {
					fmt.Fprintf(c.App.Writer, "agent %s (%s): session %s, %d Asks, %d in flight\n", termsafe.Line(a.Agent), termsafe.Line(a.Definition), termsafe.Line(a.Session), a.Asks, a.InFlight)
				}
			}
			return err
		},
	}
}

func isNoRun(err error) bool {
	var nr *runs.NoRunError
	return errors.As(err, &nr)
}

func printRecord(w io.Writer, r runs.Record) {
	l := termsafe.Line
	fmt.Fprintf(w, "run: %s\nstatus: %s\nprogram: %s\nstarted: %s\n", l(r.ID), l(r.Status), l(r.Program), l(r.StartedAt))
	for _, f := range []struct{ k, v string }{{"ended", r.EndedAt}, {"mode", r.Mode}, {"cassette", r.Cassette}, {"checkpoint", r.Checkpoint},
		{"host session", r.Host}, {"resumed from", r.ResumedFrom}, {"resumed by", r.ResumedBy}, {"error", r.Error}} {
		if f.v != "" {
			fmt.Fprintf(w, "%s: %s\n", f.k, l(f.v))
		}
	}
	if r.Result != nil {
		fmt.Fprintf(w, "result: %s\n", termsafe.JSON(r.Result))
	}
	for _, q := range r.Questions {
		fmt.Fprintf(w, "question %s: %s\n", l(q.Key), l(q.Question))
		if a, ok := r.Answers[q.Key]; ok {
			fmt.Fprintf(w, "answered %s: %s\n", l(q.Key), l(a)) // by yaag answer: what a resume gives
		}
	}
}

func waitFlag() cli.Flag {
	return &cli.DurationFlag{Name: "wait", Value: control.DefaultWait, Usage: "how long the Run may take to settle (`DURATION`)"}
}

// controlled sends pause or stop and words its refusal.
func controlled(c *cli.Context, kind string) error {
	id, err := oneRun(c, kind)
	if err != nil {
		return err
	}
	var ans control.Answer
	_, err = runs.Request(c.Context, store(), id, kind, control.Request{WaitMS: c.Duration("wait").Milliseconds()}, &ans)
	var ce *control.Error
	switch {
	case errors.As(err, &ce):
		return control.Failed(kind, err)
	case err != nil:
		return err
	}
	if rolecli.WantsJSON(c) {
		return rolecli.WriteJSON(c.App.Writer, ans)
	}
	l := termsafe.Line
	switch {
	case ans.Checkpoint != "":
		fmt.Fprintf(c.App.Writer, "yaag: run %s %s; its Checkpoint is %s\n", l(id), l(ans.Status), l(ans.Checkpoint))
	default:
		fmt.Fprintf(c.App.Writer, "yaag: run %s %s\n", l(id), l(ans.Status))
	}
	return nil
}

func pauseCommand() *cli.Command {
	return &cli.Command{
		Name:      "pause",
		Usage:     "pause a Run at its next settled boundary: its Checkpoint is written, and it stops",
		ArgsUsage: "RUN",
		Description: "No new spawn or Ask starts; the Asks in flight run to their end and are\n" +
			"journaled; then the Run writes its Checkpoint (yaag run PROGRAM --resume it\n" +
			"later) and stops. When they do not end within --wait the pause is withdrawn\n" +
			"(FLUSH_BUDGET) and the Run goes on. A refused pause changes nothing: Pause\n" +
			"failed: <code> (docs/yaag/troubleshooting.md#pause-refused).",
		Flags:  []cli.Flag{waitFlag(), rolecli.JSONFlag},
		Action: func(c *cli.Context) error { return controlled(c, control.KindPause) },
	}
}

func stopCommand() *cli.Command {
	return &cli.Command{
		Name:      "stop",
		Usage:     "stop a Run now: its Asks in flight are cut, and its Cassette keeps what completed",
		ArgsUsage: "RUN",
		Flags:     []cli.Flag{waitFlag(), rolecli.JSONFlag},
		Action:    func(c *cli.Context) error { return controlled(c, control.KindStop) },
	}
}

func reattachCommand() *cli.Command {
	return &cli.Command{
		Name:      "reattach",
		Usage:     "follow a Run's events from another terminal, to its end",
		ArgsUsage: "RUN",
		Description: "reattach prints the Run's events so far and then as they come, and ends as\n" +
			"the Run does (the same exit status as yaag run). A Run that another one\n" +
			"continued (its Checkpoint was resumed) is refused, naming that Run;\n" +
			"--successor follows it to the last Run that continued it.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "successor", Usage: "follow a resumed Run's successor"},
			&cli.BoolFlag{Name: "json", Usage: "print the events as JSON lines"},
		},
		Action: func(c *cli.Context) error {
			id, err := oneRun(c, "reattach")
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(c.Context, syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			p := &printer{w: c.App.Writer, errw: c.App.ErrWriter, json: c.Bool("json")}
			lines := &lineWriter{f: func(line []byte) {
				var e engine.Event
				if json.Unmarshal(line, &e) != nil || e.Event == engine.EventRunEnd {
					return
				}
				if e.Event == engine.EventSuccessor {
					fmt.Fprintf(p.errw, "yaag: following %s, which continued it\n", termsafe.Line(e.Run))
					return
				}
				p.event(e)
			}}
			end, err := runs.Follow(ctx, store(), id, c.Bool("successor"), lines)
			if err != nil {
				return err
			}
			return p.end(end)
		},
	}
}

// lineWriter calls f with each whole line written to it.
type lineWriter struct {
	f   func([]byte)
	buf []byte
}

func (w *lineWriter) Write(b []byte) (int, error) {
	w.buf = append(w.buf, b...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		w.f(w.buf[:i])
		w.buf = w.buf[i+1:]
	}
}

func answerCommand() *cli.Command {
	return &cli.Command{
		Name:      "answer",
		Usage:     "record answers to a Checkpoint's questions, for its resume",
		ArgsUsage: "CHECKPOINT [KEY TEXT]",
		Description: "answer records the answer TEXT of question KEY (or each answer of --answers\n" +
			"FILE, {\"<key>\": \"<answer>\"}) in the home's record of the Checkpoint's Run, and\n" +
			"writes it into the Checkpoint, for yaag run PROGRAM --resume CHECKPOINT: a resume\n" +
			"takes answers from the home and --answers, never from the document alone. A key that names no question of the Checkpoint, or a\n" +
			"second answer that differs from the first, is refused; the same answer again\n" +
			"is accepted. The keys are in the Checkpoint's questions and\n" +
			"resume.answersTemplate.",
		Flags: []cli.Flag{&cli.StringFlag{Name: "answers", Usage: "the answers, a JSON `FILE`"}},
		Action: func(c *cli.Context) error {
			args, err := lateFlags(c)
			if err != nil {
				return err
			}
			answers := map[string]string{}
			switch {
			case len(args) == 3 && !c.IsSet("answers"):
				answers[args[1]] = args[2]
			case len(args) == 1 && c.IsSet("answers"):
				if answers, err = readAnswers(c.String("answers")); err != nil {
					return err
				}
			default:
				return usage(c, "answer takes a Checkpoint and KEY TEXT, or a Checkpoint and --answers FILE")
			}
			d, err := runs.Answer(store(), args[0], answers)
			if err != nil {
				return err
			}
			l := termsafe.Line
			for _, q := range d.Questions {
				if a, ok := d.Answers[q.Key]; ok {
					fmt.Fprintf(c.App.Writer, "yaag: %s answered: %s\n", l(q.Key), l(a))
				} else {
					fmt.Fprintf(c.App.Writer, "yaag: %s has no answer yet: %s\n", l(q.Key), l(q.Question))
				}
			}
			if d.Resume != nil && len(d.Answers) == len(d.Questions) {
				fmt.Fprintf(c.App.Writer, "yaag: every question is answered; go on with: yaag run <program> --resume %s\n", l(args[0]))
			}
			return nil
		},
	}
}
