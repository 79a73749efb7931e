package bxctl

import (
	"context"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"boxmaker/core/broker"
	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/roles/rolecli"
)

// approvalCommands are bxctl approvals, approve and refuse: they talk to
// brokerd's admin socket, which [sockets] admin in brokerd.toml names.
func approvalCommands() []*cli.Command {
	return []*cli.Command{
		{
			Name:   "approvals",
			Usage:  "list the tool calls waiting for the owner's approval",
			Action: listApprovals,
		},
		{
			Name:      "approve",
			Usage:     "let the call waiting on approval ID run",
			ArgsUsage: "ID",
			Action:    func(c *cli.Context) error { return answerApproval(c, "approve") },
		},
		{
			Name:      "refuse",
			Usage:     "refuse the call waiting on approval ID",
			ArgsUsage: "ID",
			Flags:     []cli.Flag{&cli.StringFlag{Name: "why", Usage: "the reason, for the model and the audit log (`TEXT`)"}},
			Action:    func(c *cli.Context) error { return answerApproval(c, "refuse") },
		},
	}
}

// adminSocket reads brokerd's config for the admin socket's path.
func adminSocket(c *cli.Context) (string, error) {
	var cfg conf.Brokerd
	if _, err := loadConfig(c, "broker-config", "brokerd", &cfg); err != nil {
		return "", err
	}
	return cfg.Sockets.Admin, nil
}

// adminCall sends one request to brokerd's admin socket. A refusal from
// brokerd comes back with its own text.
func adminCall(c *cli.Context, kind string, body, out any) error {
	sock, err := adminSocket(c)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.Context, 30*time.Second)
	defer cancel()
	return callError("brokerd", sock, daemon.Call(ctx, sock, kind, body, out, nil))
}

func listApprovals(c *cli.Context) error {
	if err := rolecli.ExactArgs(c, 0, "no arguments"); err != nil {
		return err
	}
	var list broker.ApprovalsList
	if err := adminCall(c, broker.KindApprovalsList, nil, &list); err != nil {
		return err
	}
	if len(list.Approvals) == 0 {
		fmt.Println("approvals: none pending")
		return nil
	}
	now := time.Now()
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tSESSION\tCALL\tTOOL\tTARGET\tGRANT\tWAITING\tEXPIRES IN\tCALL SHA-256")
	for _, p := range list.Approvals {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.ID, p.Session, p.Call, p.Tool, oneLine(p.Target), p.Grant,
			now.Sub(p.Requested).Round(time.Second), p.Expires.Sub(now).Round(time.Second), p.CallHash[:12])
	}
	return w.Flush()
}

// oneLine keeps a target on its row: control characters are shown escaped.
func oneLine(s string) string {
	if s == "" {
		return "-"
	}
	return strings.Trim(fmt.Sprintf("%q", s), `"`)
}

func answerApproval(c *cli.Context, answer string) error {
	if err := rolecli.ExactArgs(c, 1, "one argument, the approval's ID (bxctl approvals lists them)"); err != nil {
		return err
	}
	req := broker.ApprovalAnswer{ID: c.Args().First(), Answer: answer, Why: c.String("why")}
	var p broker.Pending
	if err := adminCall(c, broker.KindApprovalAnswer, req, &p); err != nil {
		return err
	}
	word := "approved"
	if answer == "refuse" {
		word = "refused"
	}
	fmt.Printf("%s: %s %s (call %s: %s on %s, session %s)\n", answer, p.ID, word, p.Call, p.Tool, oneLine(p.Target), p.Session)
	return nil
}
