package bxctl

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"boxmaker/audit"
	"boxmaker/core/conf"
	"boxmaker/core/home"
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
			Usage: "check the whole hash chain of the audit log, and the heads witnessed outside it",
			Description: "verify reads every file of $home/audit (home from brokerd.toml, see\n" +
				"--broker-config) and checks each record's seq and prev. It prints\n" +
				"\"audit: ok\", or each failure as <file>:<line>: <what> and exits 1. Either\n" +
				"way it lists recovered torn lines, accepted breaks, calls that ran with no\n" +
				"result (running or unfinished) and approvals never answered (pending or\n" +
				"abandoned), with the hashes their records hold.\n\n" +
				"--witness FILE checks every head brokerd witnessed (the lines\n" +
				"\"audit: head <file>:<line> seq <n> sha256 <hash>\" of its witness file,\n" +
				"[audit] witness_file, or of its journal with --witness -:\n" +
				"journalctl -u brokerd -o cat | bxctl audit verify --witness -). A log cut\n" +
				"below a witnessed head, or with any line at or before one changed, is a\n" +
				"finding of its own and exits 1.\n\n" +
				"--call SESSION/CALL also prints every record of that call. Progress is shown\n" +
				"on standard error when it is a terminal and the check takes more than a\n" +
				"second. It changes nothing and may run beside brokerd.",
			Flags: []cli.Flag{
				&cli.StringSliceFlag{Name: "witness", Usage: "check the heads witnessed in `FILE` (- for standard input); may be given more than once"},
				&cli.StringFlag{Name: "call", Usage: "print every record of the call `SESSION/CALL`"},
				rolecli.JSONFlag,
			},
			Action: func(c *cli.Context) error {
				args, err := rolecli.ArgsAndLateFlags(c)
				if err != nil {
					return err
				}
				if len(args) > 0 {
					return rolecli.Usagef("%s takes no arguments (see %s --help)", c.Command.FullName(), c.Command.HelpName)
				}
				var o audit.VerifyOptions
				if call := c.String("call"); call != "" {
					var ok bool
					if o.Session, o.Call, ok = strings.Cut(call, "/"); !ok || o.Session == "" || o.Call == "" {
						return rolecli.Usagef("--call takes SESSION/CALL, such as 20261201-101500-1a2b3c4d/call_0")
					}
				}
				var sources []string
				for _, src := range c.StringSlice("witness") {
					ws, name, err := readWitnessSource(src, os.Stdin)
					if err != nil {
						return err
					}
					if len(ws) == 0 {
						return runbook.Refuse(runbook.AuditWitnessMismatch, "audit: %s holds no witness line (audit: head <file>:<line> seq <n> sha256 <hash>)", termsafe.Line(name))
					}
					o.Witnesses = append(o.Witnesses, ws...)
					sources = append(sources, name)
				}
				var cfg conf.Brokerd
				if _, err := brokerConfig.load(c, &cfg); err != nil {
					return err
				}
				o.Progress = progressOn(c.App.ErrWriter)
				return auditVerify(c.App.Writer, filepath.Join(cfg.Home, home.DirAudit), o, sources, rolecli.WantsJSON(c))
			},
		}},
	}}
}

// readWitnessSource reads the witness lines of a file, or of in for "-".
func readWitnessSource(src string, in io.Reader) ([]audit.Witness, string, error) {
	if src == "-" {
		ws, err := audit.ReadWitnesses(in, "stdin")
		if err != nil {
			return nil, "", fmt.Errorf("cannot read the witness lines on standard input: %w", err)
		}
		return ws, "stdin", nil
	}
	f, err := os.Open(src)
	if err != nil {
		return nil, "", fmt.Errorf("cannot read the witness file: %w", err)
	}
	defer f.Close()
	ws, err := audit.ReadWitnesses(f, src)
	if err != nil {
		return nil, "", fmt.Errorf("cannot read the witness file %s: %w", src, err)
	}
	return ws, src, nil
}

// progressOn shows how far a long check is on w, when w is a terminal.
func progressOn(w io.Writer) func(done, total int64) {
	f, ok := w.(*os.File)
	if !ok || !isTerminal(f) {
		return nil
	}
	return progress(f, time.Now)
}

// progress shows how far a check is on w once it has taken more than a
// second, at most ten times a second, and wipes the line at the end.
func progress(w io.Writer, now func() time.Time) func(done, total int64) {
	start := now()
	var last time.Time
	shown := false
	return func(done, total int64) {
		t := now()
		switch {
		case done >= total:
			if shown {
				fmt.Fprint(w, "\r\x1b[K")
				shown = false
			}
			return
		case t.Sub(start) < time.Second || t.Sub(last) < 100*time.Millisecond:
			return
		}
		last, shown = t, true
		fmt.Fprintf(w, "\raudit: verifying: %.1f of %.1f MB (%d%%) ", float64(done)/1e6, float64(total)/1e6, done*100/total)
	}
}

// auditVerify prints Verify's report and fails when the chain does, or
// when the log does not hold a witnessed head.
func auditVerify(w io.Writer, dir string, o audit.VerifyOptions, sources []string, asJSON bool) error {
	rep, err := audit.VerifyWith(dir, o)
	if err != nil {
		return fmt.Errorf("cannot read the audit log: %w", err)
	}
	if asJSON {
		if err := rolecli.WriteJSON(w, verifyJSON(rep, sources, o)); err != nil {
			return err
		}
	} else {
		writeVerify(w, rep, o)
	}
	switch {
	case len(rep.Errors) > 0:
		return runbook.Refuse(runbook.AuditChainBroken, "audit: the chain fails at %d %s", len(rep.Errors), plural(len(rep.Errors), "line", "lines"))
	case len(rep.WitnessErrors) > 0:
		return runbook.Refuse(runbook.AuditWitnessMismatch, "audit: the log does not hold %d of %d witnessed %s",
			len(rep.WitnessErrors), rep.Witnessed, plural(rep.Witnessed, "head", "heads"))
	}
	return nil
}

func writeVerify(w io.Writer, rep *audit.Report, o audit.VerifyOptions) {
	line := func(format string, args ...any) { fmt.Fprintln(w, termsafe.Line(fmt.Sprintf(format, args...))) }
	if rep.OK() {
		heads := ""
		if rep.Witnessed > 0 {
			heads = fmt.Sprintf("; %d witnessed %s held", rep.Witnessed, plural(rep.Witnessed, "head", "heads"))
		}
		line("audit: ok (%d %s in %d %s%s)", rep.Records, plural(rep.Records, "record", "records"),
			rep.Files, plural(rep.Files, "file", "files"), heads)
	}
	for _, f := range rep.Errors {
		line("%s", f)
	}
	if len(rep.WitnessErrors) > 0 {
		fmt.Fprintf(w, "witnessed heads the log does not hold (cut below them, or a line at or before them changed; %s):\n",
			runbook.Link(runbook.AuditWitnessMismatch))
		for _, f := range rep.WitnessErrors {
			line("  %s", f)
		}
	}
	if len(rep.Recoveries) > 0 {
		fmt.Fprintln(w, "recovered torn lines (each described by the recovery record after it):")
		for _, r := range rep.Recoveries {
			line("  %s (%d bytes)", r.Position, r.Length)
		}
	}
	if len(rep.Breaks) > 0 {
		fmt.Fprintln(w, "accepted breaks:")
		for _, b := range rep.Breaks {
			line("  %s accepts the failure at %s (%s); it covers %s to %s:", b.Position, b.Failure, b.What, b.Failure, b.Position)
			for _, f := range b.Covers {
				line("    %s", f)
			}
		}
	}
	if len(rep.Unfinished) > 0 {
		fmt.Fprintln(w, "running or unfinished calls (allowed to run, no result recorded):")
		for _, c := range rep.Unfinished {
			content := ""
			if c.ContentSHA256 != "" {
				content = ", content sha256 " + c.ContentSHA256
			}
			line("  %s: call %s (%s %s) in session %s%s", c.Position, c.Call, c.Tool, c.Target, orDash(c.Session), content)
		}
	}
	if len(rep.Pending) > 0 {
		fmt.Fprintln(w, "pending or abandoned approvals (never answered or expired):")
		for _, a := range rep.Pending {
			state := "pending"
			if a.Abandoned {
				state = "abandoned"
			}
			line("  %s: approval %s for call %s (%s) in session %s%s", a.Position, a.Approval, a.Call, state, orDash(a.Session), hashes(a))
		}
	}
	if rep.TornTail != nil {
		line("the last line, %s, is incomplete: brokerd is writing it, or will recover it at its next start", rep.TornTail)
	}
	if o.Call != "" {
		line("records of call %s of session %s: %d", o.Call, o.Session, len(rep.CallRecords))
		for _, r := range rep.CallRecords {
			line("  %s: %s", r.Position, r.Line)
		}
	}
}

func hashes(a audit.Approval) string {
	var s string
	if a.CallSHA256 != "" {
		s += ", call sha256 " + a.CallSHA256
	}
	if a.ArgumentsSHA256 != "" {
		s += ", arguments sha256 " + a.ArgumentsSHA256
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// The --json document (docs/json.md).
type (
	verifyDoc struct {
		OK         bool          `json:"ok"`
		Files      int           `json:"files"`
		Records    int           `json:"records"`
		Bytes      int64         `json:"bytes"`
		Errors     []findingDoc  `json:"errors"`
		Witness    *witnessDoc   `json:"witness,omitempty"`
		Recoveries []recoveryDoc `json:"recoveries"`
		Breaks     []breakDoc    `json:"breaks"`
		Unfinished []callDoc     `json:"unfinished"`
		Pending    []pendingDoc  `json:"pending"`
		TornTail   *positionDoc  `json:"torn_tail"`
		Call       *callRecsDoc  `json:"call,omitempty"`
	}
	positionDoc struct {
		File string `json:"file"`
		Line int    `json:"line"`
	}
	findingDoc struct {
		positionDoc
		What string `json:"what"`
	}
	witnessDoc struct {
		Sources    []string      `json:"sources"`
		Heads      int           `json:"heads"`
		Mismatches []mismatchDoc `json:"mismatches"`
	}
	mismatchDoc struct {
		Source positionDoc `json:"source"`
		positionDoc
		Seq    uint64 `json:"seq"`
		SHA256 string `json:"sha256"`
		Found  string `json:"found"`
	}
	recoveryDoc struct {
		positionDoc
		Length int `json:"length"`
	}
	breakDoc struct {
		positionDoc
		Failure positionDoc  `json:"failure"`
		What    string       `json:"what"`
		Covers  []findingDoc `json:"covers"`
	}
	callDoc struct {
		positionDoc
		Session       string `json:"session"`
		Call          string `json:"call"`
		Tool          string `json:"tool"`
		Target        string `json:"target"`
		ContentSHA256 string `json:"content_sha256,omitempty"`
	}
	pendingDoc struct {
		positionDoc
		Approval        string `json:"approval"`
		Session         string `json:"session"`
		Call            string `json:"call"`
		Abandoned       bool   `json:"abandoned"`
		CallSHA256      string `json:"call_sha256,omitempty"`
		ArgumentsSHA256 string `json:"arguments_sha256,omitempty"`
	}
	callRecsDoc struct {
		Session string         `json:"session"`
		Call    string         `json:"call"`
		Records []callRecLines `json:"records"`
	}
	callRecLines struct {
		positionDoc
		Record audit.Record `json:"record"`
	}
)

func pos(p audit.Position) positionDoc { return positionDoc{p.File, p.Line} }

func findingsDoc(fs []audit.Finding) []findingDoc {
	out := []findingDoc{}
	for _, f := range fs {
		out = append(out, findingDoc{pos(f.Position), f.What})
	}
	return out
}

func verifyJSON(rep *audit.Report, sources []string, o audit.VerifyOptions) verifyDoc {
	d := verifyDoc{OK: rep.OK(), Files: rep.Files, Records: rep.Records, Bytes: rep.Bytes, Errors: findingsDoc(rep.Errors),
		Recoveries: []recoveryDoc{}, Breaks: []breakDoc{}, Unfinished: []callDoc{}, Pending: []pendingDoc{}}
	if len(sources) > 0 {
		d.Witness = &witnessDoc{Sources: sources, Heads: rep.Witnessed, Mismatches: []mismatchDoc{}}
		for _, f := range rep.WitnessErrors {
			d.Witness.Mismatches = append(d.Witness.Mismatches, mismatchDoc{Source: pos(f.Source), positionDoc: pos(f.Position),
				Seq: f.Seq, SHA256: f.SHA256, Found: f.Found})
		}
	}
	for _, r := range rep.Recoveries {
		d.Recoveries = append(d.Recoveries, recoveryDoc{pos(r.Position), r.Length})
	}
	for _, b := range rep.Breaks {
		d.Breaks = append(d.Breaks, breakDoc{pos(b.Position), pos(b.Failure), b.What, findingsDoc(b.Covers)})
	}
	for _, c := range rep.Unfinished {
		d.Unfinished = append(d.Unfinished, callDoc{pos(c.Position), c.Session, c.Call, c.Tool, c.Target, c.ContentSHA256})
	}
	for _, a := range rep.Pending {
		d.Pending = append(d.Pending, pendingDoc{pos(a.Position), a.Approval, a.Session, a.Call, a.Abandoned, a.CallSHA256, a.ArgumentsSHA256})
	}
	if rep.TornTail != nil {
		t := pos(*rep.TornTail)
		d.TornTail = &t
	}
	if o.Call != "" {
		d.Call = &callRecsDoc{Session: o.Session, Call: o.Call, Records: []callRecLines{}}
		for _, r := range rep.CallRecords {
			d.Call.Records = append(d.Call.Records, callRecLines{pos(r.Position), r.Record})
		}
	}
	return d
}
