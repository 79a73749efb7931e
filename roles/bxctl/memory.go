package bxctl

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"

	"boxmaker/core/conf"
	"boxmaker/core/memorywire"
	"boxmaker/core/role"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
)

// memoryCommands are bxctl memory log, review, accept and reject, and
// bxctl reindex: they talk to memoryd's admin socket, which [sockets] admin
// in memoryd.toml names.
func memoryCommands() []*cli.Command {
	return []*cli.Command{
		{
			Name:  "memory",
			Usage: "the agent's memory edits: the journal and the writes staged for review",
			Subcommands: []*cli.Command{
				{
					Name:  "log",
					Usage: "list every memory edit with its outcome (never its text)",
					Description: "Each line is an edit: its id, time, session, outcome and files. The\n" +
						"outcome is updated, noted, staged, accepted, rejected, untrusted,\n" +
						"flagged <rule> or refused <rule>.",
					Flags:  []cli.Flag{rolecli.JSONFlag},
					Action: rolecli.NoArgs(memoryLog),
				},
				{
					Name:   "review",
					Usage:  "show the writes staged for the owner's review, with their text",
					Flags:  []cli.Flag{rolecli.JSONFlag},
					Action: rolecli.NoArgs(memoryReview),
				},
				{
					Name:      "accept",
					Usage:     "apply the staged edit EDIT to memory.md or user.md",
					ArgsUsage: "EDIT",
					Action:    memoryAccept,
				},
				{
					Name:      "reject",
					Usage:     "drop the staged edit EDIT; the files do not change",
					ArgsUsage: "EDIT",
					Action:    memoryReject,
				},
				memorySyncCommand(),
			},
		},
		{
			Name:  "reindex",
			Usage: "rebuild the recall index from the session logs and notes.md",
			Description: "memoryd builds a new index beside the one in use (recall goes on with the\n" +
				"old one meanwhile), then puts it in its place. Progress is shown when\n" +
				"standard error is a terminal; at the end bxctl prints how many logs,\n" +
				"records and notes were read.",
			Flags:  []cli.Flag{rolecli.JSONFlag},
			Action: rolecli.NoArgs(reindex),
		},
	}
}

// memorydCall sends one request to memoryd's admin socket (its path from
// memoryd's config). A refusal from memoryd comes back with its own text.
// timeout 0 means none: a rebuild takes as long as the logs are long.
func memorydCall(c *cli.Context, kind string, body, out any, timeout time.Duration, onEvent func(json.RawMessage) error) error {
	var cfg conf.Memoryd
	if _, err := memoryConfig.load(c, &cfg); err != nil {
		return err
	}
	return peer{role.Memoryd, cfg.Sockets.Admin}.call(c.Context, timeout, kind, body, out, onEvent)
}

func memoryLog(c *cli.Context) error {
	var ans memorywire.LogAnswer
	if err := memorydCall(c, memorywire.KindLog, nil, &ans, 30*time.Second, nil); err != nil {
		return err
	}
	if rolecli.WantsJSON(c) {
		if ans.Edits == nil {
			ans.Edits = []memorywire.LogEntry{}
		}
		return rolecli.WriteJSON(c.App.Writer, ans)
	}
	if len(ans.Edits) == 0 {
		fmt.Fprintln(c.App.Writer, "memory: no edits yet")
		return nil
	}
	w := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "EDIT\tTIME\tSESSION\tOUTCOME\tFILES")
	for _, e := range ans.Edits {
		files := strings.Join(e.Files, ",")
		if files == "" {
			files = "-"
		}
		session := e.Session
		if session == "" {
			session = "-"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", termsafe.Line(e.Edit), e.Time.UTC().Format(time.RFC3339), termsafe.Line(session),
			termsafe.Line(fmt.Sprint(e)), termsafe.Line(files))
	}
	return w.Flush()
}

func memoryReview(c *cli.Context) error {
	var ans memorywire.ReviewAnswer
	if err := memorydCall(c, memorywire.KindReview, nil, &ans, 30*time.Second, nil); err != nil {
		return err
	}
	if rolecli.WantsJSON(c) {
		if ans.Staged == nil {
			ans.Staged = []memorywire.StagedEdit{}
		}
		return rolecli.WriteJSON(c.App.Writer, ans)
	}
	writeReview(c.App.Writer, ans.Staged)
	return nil
}

// writeReview shows each staged edit and its actions, texts indented so
// that a text's own lines cannot pass for the listing's.
func writeReview(w io.Writer, staged []memorywire.StagedEdit) {
	if len(staged) == 0 {
		fmt.Fprintln(w, "memory: nothing staged for review")
		return
	}
	for i, e := range staged {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "edit %s, staged %s by session %s (%s):\n", termsafe.Line(e.Edit), e.Time.UTC().Format(time.RFC3339),
			termsafe.Line(e.Session), termsafe.Line(e.Class))
		for _, a := range e.Actions {
			file := a.Target()
			switch a.Action {
			case memorywire.ActionAdd:
				fmt.Fprintf(w, "  add to %s:\n", file)
			case memorywire.ActionReplace:
				fmt.Fprintf(w, "  replace in %s the entry holding %s with:\n", file, termsafe.Line(strconv.Quote(a.Old)))
			case memorywire.ActionRemove:
				fmt.Fprintf(w, "  remove from %s the entry holding %s\n", file, termsafe.Line(strconv.Quote(a.Old)))
			case memorywire.ActionNote:
				fmt.Fprintf(w, "  note in notes.md:\n")
			}
			for _, line := range strings.Split(a.Text, "\n") {
				if a.Text != "" {
					fmt.Fprintf(w, "    | %s\n", termsafe.Line(line))
				}
			}
		}
	}
	fmt.Fprintln(w, "\nbxctl memory accept EDIT applies one; bxctl memory reject EDIT drops it.")
}

func editArg(c *cli.Context) (string, error) {
	if err := rolecli.ExactArgs(c, 1, "one argument, the edit's id (bxctl memory review lists them)"); err != nil {
		return "", err
	}
	return c.Args().First(), nil
}

func memoryAccept(c *cli.Context) error {
	edit, err := editArg(c)
	if err != nil {
		return err
	}
	var ans memorywire.AcceptAnswer
	if err := memorydCall(c, memorywire.KindAccept, memorywire.EditRequest{Edit: edit}, &ans, 30*time.Second, nil); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "accept: %s accepted: %s\n", ans.Edit, ans.Answer)
	return nil
}

func memoryReject(c *cli.Context) error {
	edit, err := editArg(c)
	if err != nil {
		return err
	}
	if err := memorydCall(c, memorywire.KindReject, memorywire.EditRequest{Edit: edit}, nil, 30*time.Second, nil); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "reject: %s rejected; no file was changed\n", edit)
	return nil
}

func reindex(c *cli.Context) error {
	tty := isTerminal(os.Stderr)
	shown := false
	onEvent := func(raw json.RawMessage) error {
		var p memorywire.Progress
		if !tty || json.Unmarshal(raw, &p) != nil {
			return nil
		}
		fmt.Fprintf(os.Stderr, "\rreindex: %d of %d files, %d records, %d notes ", p.Files, p.Total, p.Records, p.Notes)
		shown = true
		return nil
	}
	var p memorywire.Progress
	err := memorydCall(c, memorywire.KindReindex, nil, &p, 0, onEvent)
	if shown {
		fmt.Fprint(os.Stderr, "\r\033[K")
	}
	if err != nil {
		return err
	}
	if rolecli.WantsJSON(c) {
		return rolecli.WriteJSON(c.App.Writer, reindexJSON{Logs: p.Logs, Records: p.Records, Notes: p.Notes, Skipped: p.Skipped, Seconds: p.Seconds})
	}
	fmt.Fprintf(c.App.Writer, "reindex: read %d %s, %d %s and %d %s in %.1fs\n",
		p.Logs, plural(p.Logs, "log", "logs"), p.Records, plural(p.Records, "record", "records"),
		p.Notes, plural(p.Notes, "note", "notes"), p.Seconds)
	if p.Skipped > 0 {
		fmt.Fprintf(c.App.Writer, "reindex: left out %d damaged %s of session logs\n", p.Skipped, plural(p.Skipped, "line", "lines"))
	}
	return nil
}

// reindexJSON is reindex --json (docs/json.md).
type reindexJSON struct {
	Logs    int     `json:"logs"`
	Records int     `json:"records"`
	Notes   int     `json:"notes"`
	Skipped int     `json:"skipped"`
	Seconds float64 `json:"seconds"`
}

// isTerminal tells whether f is a terminal: progress is drawn only there,
// never into a file or a pipe.
func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
