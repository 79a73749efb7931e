package bxctl

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"boxmaker/audit"
	"boxmaker/core/conf"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
	"boxmaker/runbook"
)

// auditCommands are `bxctl audit ...`. They read the log's files directly
// (brokerd's home, from brokerd.toml), so they work whether brokerd runs
// or not, and take no lock.
func auditCommands() []*cli.Command {
	return []*cli.Command{{
		Name:  "audit",
		Usage: "look at brokerd's audit log",
		Subcommands: []*cli.Command{{
			Name:  "verify",
			Usage: "check the whole hash chain of the audit log",
			Description: "verify reads every file of $home/audit (home from brokerd.toml, see\n" +
				"--broker-config) and checks each record's seq and prev. It prints\n" +
				"\"audit: ok\", or each failure as <file>:<line>: <what> and exits 1. Either\n" +
				"way it lists recovered torn lines, accepted breaks, calls that ran with no\n" +
				"result (running or unfinished) and approvals never answered (pending or\n" +
				"abandoned). It changes nothing and may run beside brokerd.",
			Action: func(c *cli.Context) error {
				if err := rolecli.ExactArgs(c, 0, "no arguments"); err != nil {
					return err
				}
				var cfg conf.Brokerd
				if _, err := loadConfig(c, "broker-config", "brokerd", &cfg); err != nil {
					return err
				}
				return auditVerify(c.App.Writer, filepath.Join(cfg.Home, "audit"))
			},
		}},
	}}
}

// auditVerify prints Verify's report and fails when the chain does.
func auditVerify(w io.Writer, dir string) error {
	rep, err := audit.Verify(dir)
	if err != nil {
		return fmt.Errorf("cannot read the audit log: %w", err)
	}
	if rep.OK() {
		fmt.Fprintf(w, "audit: ok (%d %s in %d %s)\n", rep.Records, plural(rep.Records, "record", "records"),
			rep.Files, plural(rep.Files, "file", "files"))
	}
	for _, f := range rep.Errors {
		fmt.Fprintln(w, termsafe.Line(f.String()))
	}
	if len(rep.Recoveries) > 0 {
		fmt.Fprintln(w, "recovered torn lines (each described by the recovery record after it):")
		for _, r := range rep.Recoveries {
			fmt.Fprintf(w, "  %s (%d bytes)\n", r.Position, r.Length)
		}
	}
	if len(rep.Breaks) > 0 {
		fmt.Fprintln(w, "accepted breaks:")
		for _, b := range rep.Breaks {
			fmt.Fprintf(w, "  %s accepts the failure at %s (%s); it covers %s to %s:\n", b.Position, termsafe.Line(b.Failure.String()), termsafe.Line(b.What), termsafe.Line(b.Failure.String()), b.Position)
			for _, f := range b.Covers {
				fmt.Fprintf(w, "    %s\n", termsafe.Line(f.String()))
			}
		}
	}
	if len(rep.Unfinished) > 0 {
		fmt.Fprintln(w, "running or unfinished calls (allowed to run, no result recorded):")
		for _, c := range rep.Unfinished {
			fmt.Fprintf(w, "  %s: call %s (%s %s)\n", c.Position, termsafe.Line(c.Call), termsafe.Line(c.Tool), termsafe.Line(c.Target))
		}
	}
	if len(rep.Pending) > 0 {
		fmt.Fprintln(w, "pending or abandoned approvals (never answered or expired):")
		for _, a := range rep.Pending {
			state := "pending"
			if a.Abandoned {
				state = "abandoned"
			}
			fmt.Fprintf(w, "  %s: approval %s for call %s (%s)\n", a.Position, termsafe.Line(a.Approval), termsafe.Line(a.Call), state)
		}
	}
	if rep.TornTail != nil {
		fmt.Fprintf(w, "the last line, %s, is incomplete: brokerd is writing it, or will recover it at its next start\n", rep.TornTail)
	}
	if !rep.OK() {
		return runbook.Refuse(runbook.AuditChainBroken, "audit: the chain fails at %d %s", len(rep.Errors), plural(len(rep.Errors), "line", "lines"))
	}
	return nil
}
