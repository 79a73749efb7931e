package bxctl

import (
	"fmt"
	"io"
	"os"
	"syscall"
	"unsafe"

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
				"The rules are those compiled into this binary (docs/specs/sanitizer.md).\n" +
				"From a terminal, end the text with Ctrl-D on a line of its own.",
			Flags: []cli.Flag{rolecli.JSONFlag},
			Action: func(c *cli.Context) error {
				args, err := rolecli.ArgsAndLateFlags(c) // "TEXT --json"
				if err != nil {
					return err
				}
				if len(args) > 1 {
					return rolecli.Usagef("at most one argument, TEXT (quote it; without it the text is read from standard input)")
				}
				report := sanitizeReport
				if rolecli.WantsJSON(c) {
					report = sanitizeReportJSON
				}
				if len(args) == 1 {
					refusals, flags := sanitize.Check(args[0])
					return report(c.App.Writer, refusals, flags)
				}
				if f, ok := c.App.Reader.(*os.File); ok && isTerminal(f) {
					fmt.Fprintln(c.App.ErrWriter, "bxctl: sanitize check: reading the text from this terminal; end it with Ctrl-D on a line of its own (or give it as TEXT, or on a pipe)")
				}
				return sanitizeCheck(c.App.Writer, c.App.Reader, report)
			},
		}},
	}}
}

// sanitizeCheck checks everything r yields and prints the findings. A
// regular file (`bxctl sanitize check < FILE`) is mapped into memory and
// read in place; anything else (a pipe, a terminal) is read a chunk at a
// time, and never held whole however long it is.
func sanitizeCheck(w io.Writer, r io.Reader, report func(io.Writer, []sanitize.Finding, []sanitize.Finding) error) error {
	if f, ok := r.(*os.File); ok {
		if text, unmap, ok := mapFile(f); ok {
			refusals, flags := sanitize.Check(text)
			unmap()
			return report(w, refusals, flags)
		}
	}
	refusals, flags, err := sanitize.CheckReader(r)
	if err != nil {
		return fmt.Errorf("cannot read standard input: %w", err)
	}
	return report(w, refusals, flags)
}

// mapFile maps a regular file, read only, from its current offset, and
// returns it as a string, valid until unmap is called. ok is false when f
// is not a regular file, is empty, or cannot be mapped: then it is read.
// The string is never written (the mapping is read only) and does not
// outlive unmap: the sanitizer keeps offsets, not text. A file cut short
// while it is read ends the command with SIGBUS, as it would cat(1)'s
// mmap-based cousins; bxctl reads, it never writes the file.
func mapFile(f *os.File) (text string, unmap func(), ok bool) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() == 0 || st.Size() != int64(int(st.Size())) {
		return "", nil, false
	}
	at, err := f.Seek(0, io.SeekCurrent)
	if err != nil || at != 0 {
		// Mapping starts at a page boundary; a shell gives offset 0.
		return "", nil, false
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return "", nil, false
	}
	return unsafe.String(&data[0], len(data)), func() { syscall.Munmap(data) }, true
}

// sanitizeReport prints the findings and fails when there are any.
func sanitizeReport(w io.Writer, refusals, flags []sanitize.Finding) error {
	found := append(refusals, flags...)
	for _, f := range found {
		fmt.Fprintf(w, "%s at byte %d: %s\n", f.Rule, f.Offset, f.Reason)
	}
	if len(found) > 0 {
		return fmt.Errorf("sanitize check: %d %s fired", len(found), plural(len(found), "rule", "rules"))
	}
	return nil
}

// findingJSON is one rule that fired, in sanitize check --json.
type findingJSON struct {
	Rule   string `json:"rule"`
	Kind   string `json:"kind"` // refuse or flag
	Offset int    `json:"offset"`
	Reason string `json:"reason"`
}

// sanitizeReportJSON is sanitizeReport as one JSON document
// (docs/json.md), with the same exit status.
func sanitizeReportJSON(w io.Writer, refusals, flags []sanitize.Finding) error {
	out := struct {
		Clean    bool          `json:"clean"`
		Findings []findingJSON `json:"findings"`
	}{Findings: []findingJSON{}}
	for _, f := range refusals {
		out.Findings = append(out.Findings, findingJSON{Rule: f.Rule, Kind: "refuse", Offset: f.Offset, Reason: f.Reason})
	}
	for _, f := range flags {
		out.Findings = append(out.Findings, findingJSON{Rule: f.Rule, Kind: "flag", Offset: f.Offset, Reason: f.Reason})
	}
	out.Clean = len(out.Findings) == 0
	if err := rolecli.WriteJSON(w, out); err != nil {
		return err
	}
	if !out.Clean {
		return fmt.Errorf("sanitize check: %d %s fired", len(out.Findings), plural(len(out.Findings), "rule", "rules"))
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
