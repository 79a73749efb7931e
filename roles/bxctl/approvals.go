package bxctl

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"boxmaker/core/approval"
	"boxmaker/core/brokerwire"
	"boxmaker/core/conf"
	"boxmaker/core/role"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
)

// approvalCommands are bxctl approvals, approve and refuse: they talk to
// brokerd's admin socket, which [sockets] admin in brokerd.toml names.
func approvalCommands() []*cli.Command {
	return []*cli.Command{
		{
			Name:  "approvals",
			Usage: "list the tool calls waiting for the owner's approval",
			Description: "approvals prints one line per pending approval: its ID, session, call,\n" +
				"grant, how long it has waited, when it expires, the first digits of the\n" +
				"call's SHA-256, and what the call will do (run's command words and\n" +
				"directory, write_file's path, size and first line, http_fetch's URL,\n" +
				"memory's actions). 'bxctl approvals show ID' prints the whole call.\n" +
				"Everything the model wrote is shown with control characters escaped.\n\n" +
				"On a terminal the list fits its width: ID, waiting, expires in and what,\n" +
				"cut at the edge; --wide prints every column there too.",
			Flags:  []cli.Flag{rolecli.JSONFlag, &cli.BoolFlag{Name: "wide", Usage: "every column, also on a terminal"}},
			Action: listApprovals,
			Subcommands: []*cli.Command{{
				Name:      "show",
				Usage:     "print the whole call waiting on approval ID: every argument, write_file's content",
				ArgsUsage: "ID",
				Description: "show prints the call as brokerd will run it if approved: session, call,\n" +
					"grant, target, the call's and the arguments' SHA-256 (as the audit log's\n" +
					"approval_requested record holds them) and every argument; write_file's\n" +
					"content with its size and SHA-256, cut after 4096 bytes unless --full.\n" +
					"Text from the model is shown behind '  | ', escaped.",
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "full", Usage: "show write_file's content and memory's texts whole"},
					rolecli.JSONFlag,
				},
				Action: showApproval,
			}},
		},
		{
			Name:      "approve",
			Usage:     "let the call waiting on approval ID run",
			ArgsUsage: "ID",
			Action:    func(c *cli.Context) error { return answerApproval(c, brokerwire.Approve) },
		},
		{
			Name:      "refuse",
			Usage:     "refuse the call waiting on approval ID",
			ArgsUsage: "ID",
			Flags:     []cli.Flag{&cli.StringFlag{Name: "why", Usage: "the reason, for the model and the audit log (`TEXT`)"}},
			Action:    func(c *cli.Context) error { return answerApproval(c, brokerwire.Refuse) },
		},
	}
}

// adminCall sends one request to brokerd's admin socket (its path from
// brokerd's config). A refusal from brokerd comes back with its own text.
func adminCall(c *cli.Context, kind string, body, out any) error {
	var cfg conf.Brokerd
	if _, err := brokerConfig.load(c, &cfg); err != nil {
		return err
	}
	return peer{role.Brokerd, cfg.Sockets.Admin}.call(c.Context, 30*time.Second, kind, body, out, nil)
}

func listApprovals(c *cli.Context) error {
	if done, err := rolecli.HelpWord(c, "bxctl approvals", c.Command.Subcommands); done {
		return err
	}
	args, err := rolecli.ArgsAndLateFlags(c)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		// approvals is a group too (approvals show): a stray word is a
		// mistyped command, refused as everywhere (D221).
		return rolecli.UnknownCommand(args[0], "bxctl approvals", c.Command.Subcommands)
	}
	var list brokerwire.ApprovalsList
	if err := adminCall(c, brokerwire.KindApprovalsList, nil, &list); err != nil {
		return err
	}
	w := c.App.Writer
	if rolecli.WantsJSON(c) {
		if list.Approvals == nil {
			list.Approvals = []brokerwire.Pending{}
		}
		return rolecli.WriteJSON(w, list)
	}
	if len(list.Approvals) == 0 {
		fmt.Fprintln(w, "approvals: none pending")
		return nil
	}
	now := time.Now()
	if width := terminalWidth(w); width > 0 && !c.Bool("wide") {
		return narrowApprovals(w, width, list.Approvals, now)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSESSION\tCALL\tGRANT\tWAITING\tEXPIRES IN\tCALL SHA-256\tWHAT")
	for _, p := range list.Approvals {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.ID, p.Session, p.Call, oneLine(p.Grant),
			now.Sub(p.Requested).Round(time.Second), p.Expires.Sub(now).Round(time.Second), short(p.CallHash), approval.Summary(p))
	}
	return tw.Flush()
}

func showApproval(c *cli.Context) error {
	args, err := rolecli.ArgsAndLateFlags(c)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return rolecli.Usagef("%s takes one argument, the approval's ID (bxctl approvals lists them)", c.Command.FullName())
	}
	id := args[0]
	var p brokerwire.Pending
	if err := adminCall(c, brokerwire.KindApprovalShow, brokerwire.ApprovalShow{ID: id}, &p); err != nil {
		return err
	}
	if rolecli.WantsJSON(c) {
		return rolecli.WriteJSON(c.App.Writer, p)
	}
	o := approval.Options{Now: time.Now(), More: fmt.Sprintf("bxctl approvals show %s --full shows it all", id)}
	if c.Bool("full") {
		o.ContentLimit = -1
	}
	return approval.Render(c.App.Writer, p, o)
}

// terminalWidth is the width of the terminal w is, or 0 when it is not
// one (a pipe, a file: every column, for scripts).
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !isTerminal(f) {
		return 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil || width <= 0 {
		return 80
	}
	return width
}

// narrowApprovals lists the approvals in width columns: the ID, how long
// each has waited, when it expires and what the call will do, cut at the
// edge; approvals show has the rest.
func narrowApprovals(w io.Writer, width int, ps []brokerwire.Pending, now time.Time) error {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tWAITING\tEXPIRES IN\tWHAT")
	for _, p := range ps {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.ID, now.Sub(p.Requested).Round(time.Second), p.Expires.Sub(now).Round(time.Second), approval.Summary(p))
	}
	tw.Flush()
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if r := []rune(line); len(r) > width-1 {
			line = string(r[:width-2]) + "…"
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w, "(bxctl approvals show ID: the whole call; --wide: every column)")
	return nil
}

func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}

// oneLine keeps a value on its row: control characters are shown escaped.
func oneLine(s string) string {
	if s == "" {
		return "-"
	}
	return termsafe.Line(s)
}

func answerApproval(c *cli.Context, answer string) error {
	if err := rolecli.ExactArgs(c, 1, "one argument, the approval's ID (bxctl approvals lists them)"); err != nil {
		return err
	}
	req := brokerwire.ApprovalAnswer{ID: c.Args().First(), Answer: answer, Why: c.String("why")}
	var p brokerwire.Pending
	if err := adminCall(c, brokerwire.KindApprovalAnswer, req, &p); err != nil {
		return err
	}
	word := "approved"
	if answer == brokerwire.Refuse {
		word = "refused"
	}
	fmt.Fprintf(c.App.Writer, "%s: %s %s (call %s, session %s): %s\n", answer, p.ID, word, p.Call, p.Session, approval.Summary(p))
	return nil
}
