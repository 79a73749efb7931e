package bxctl

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"boxmaker/roles/rolecli"
	"boxmaker/sanitize"
)

// sanitizeCommands are `bxctl sanitize ...`: the operator's way to ask the
// sanitizer about a text without storing it anywhere.
func sanitizeCommands() []*cli.Command {
	return []*cli.Command{{
		Name:  "sanitize",
		Usage: "ask the sanitizer about a text",
		Subcommands: []*cli.Command{{
			Name:      "check",
			Usage:     "name each refuse and flag rule that fires on TEXT (or on standard input)",
			ArgsUsage: "[TEXT]",
			Description: "check prints one line for each rule that fires: the rule, the byte offset\n" +
				"of its first match, and what the text contains. It writes nothing and\n" +
				"reads no configuration. It exits 0 when no rule fires and 1 when any does.\n" +
				"The rules are those compiled into this binary (docs/specs/sanitizer.md).",
			Action: func(c *cli.Context) error {
				if c.NArg() > 1 {
					return rolecli.Usagef("at most one argument, TEXT (quote it; without it the text is read from standard input)")
				}
				text := c.Args().First()
				if c.NArg() == 0 {
					data, err := io.ReadAll(c.App.Reader)
					if err != nil {
						return fmt.Errorf("cannot read standard input: %w", err)
					}
					text = string(data)
				}
				return sanitizeCheck(c.App.Writer, text)
			},
		}},
	}}
}

// sanitizeCheck prints the findings and fails when there are any.
func sanitizeCheck(w io.Writer, text string) error {
	found := append(sanitize.Refusals(text), sanitize.Flags(text)...)
	for _, f := range found {
		fmt.Fprintf(w, "%s at byte %d: %s\n", f.Rule, f.Offset, f.Reason)
	}
	if len(found) > 0 {
		return fmt.Errorf("sanitize check: %d %s fired", len(found), plural(len(found), "rule", "rules"))
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
