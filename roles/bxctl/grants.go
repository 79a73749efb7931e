package bxctl

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/mcpconf"
	"boxmaker/core/mcppin"
	"boxmaker/core/policy"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
	"boxmaker/runbook"
)

// grantsCommands are `bxctl grants check` and `bxctl grants test`. They
// read the grants directory ([paths] grants of brokerd.toml) themselves,
// exactly as brokerd does at each call, so they work whether brokerd runs
// or not, and they run nothing.
func grantsCommands() []*cli.Command {
	return []*cli.Command{{
		Name:  "grants",
		Usage: "check the grant files and try calls against them",
		Subcommands: []*cli.Command{{
			Name:  "check",
			Usage: "report every problem of the grant files",
			Description: "check reads every file of the grants directory ([paths] grants in\n" +
				"brokerd.toml, see --broker-config and --home) and prints \"grants: ok\", or\n" +
				"every problem as <file>:<line>: <problem> and exits 1. While any problem\n" +
				"stands, brokerd denies every call.\n\n" +
				"It also prints warnings, <file>:<line>: warning: <what>, for grants that are\n" +
				"valid but match nothing as written: a path that does not exist, a path\n" +
				"through a symbolic link (calls are decided on resolved paths), an empty\n" +
				"directory. Warnings do not make the check fail unless --strict is given.",
			Flags: []cli.Flag{
				&cli.BoolFlag{Name: "strict", Usage: "exit 1 on warnings too"},
				rolecli.JSONFlag,
			},
			Action: rolecli.NoArgs(func(c *cli.Context) error {
				dir, harness, err := grantsDir(c)
				if err != nil {
					return err
				}
				return grantsCheck(c.App.Writer, dir, harness, mcpServersOf(c), c.Bool("strict"), rolecli.WantsJSON(c))
			}),
		}, {
			Name:      "test",
			Usage:     "decide a call as brokerd would, without running it",
			ArgsUsage: "TOOL TARGET",
			Description: "test decides one call of TOOL (read_file, write_file, list_dir, run,\n" +
				"http_fetch, recall, memory) on TARGET (a path, or a URL for http_fetch)\n" +
				"against the grants as they are now, for a session at --taint (and\n" +
				"--untrusted), and prints the verdict, the grant that decided it (or\n" +
				"that none matched), the resolved target and the session's state after\n" +
				"the call.\n\n" +
				"Exit status: 0 allow, 3 ask, 4 deny; 1 when the grant files have an\n" +
				"error (every call is then denied), 2 for a usage error. So a script can\n" +
				"write: bxctl grants test read_file /srv/x && echo allowed",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "taint", Value: policy.Public.String(), Usage: "the session's taint: public, private or secret"},
				&cli.BoolFlag{Name: "untrusted", Usage: "the session is already untrusted"},
				rolecli.JSONFlag,
			},
			Action: func(c *cli.Context) error {
				args, err := rolecli.ArgsAndLateFlags(c)
				if err != nil {
					return err
				}
				if len(args) != 2 {
					return rolecli.Usagef("grants test takes TOOL and TARGET (see bxctl grants test --help)")
				}
				taint, err := policy.ParseTaint(c.String("taint"))
				if err != nil {
					return rolecli.Usagef("--taint: %v", err)
				}
				dir, harness, err := grantsDir(c)
				if err != nil {
					return err
				}
				state := policy.State{Taint: taint, Untrusted: c.Bool("untrusted")}
				return grantsTest(c.App.Writer, dir, harness, policy.Call{Tool: args[0], Target: args[1]}, state, rolecli.WantsJSON(c))
			},
		}},
	}}
}

// grantsDir is [paths] grants of brokerd's configuration, and the
// harness's directories that no grant may touch, as brokerd protects them.
func grantsDir(c *cli.Context) (string, []policy.Harness, error) {
	var cfg conf.Brokerd
	path, err := brokerConfig.load(c, &cfg)
	if err != nil {
		return "", nil, err
	}
	if cfg.Paths.Grants == "" {
		return "", nil, fmt.Errorf("%s names no grants directory ([paths] grants)", path)
	}
	return cfg.Paths.Grants, policy.BrokerdHarness(cfg, path), nil
}

// grantsCheckJSON is grants check --json (docs/json.md).
type grantsCheckJSON struct {
	OK       bool          `json:"ok"`
	Dir      string        `json:"dir"`
	Grants   int           `json:"grants"`
	Problems []problemJSON `json:"problems"`
	Warnings []problemJSON `json:"warnings"`
}

type problemJSON struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	Text string `json:"text"`
}

func problemsJSON(ps []policy.Problem) []problemJSON {
	out := make([]problemJSON, 0, len(ps))
	for _, p := range ps {
		out = append(out, problemJSON{File: p.File, Line: p.Line, Text: p.Text})
	}
	return out
}

// warningLine renders a warning as "<file>:<line>: warning: <what>".
func warningLine(p policy.Problem) string {
	p.Text = "warning: " + p.Text
	return p.String()
}

// mcpServersOf is what grants check holds mcp grants against: the
// servers of the MCP servers directory and what the owner accepted of
// each (docs/mcp.md). A directory that cannot be found declares none.
func mcpServersOf(c *cli.Context) policy.MCPServers {
	k := policy.MCPServers{Declared: map[string]bool{}, Invalid: map[string]bool{}, Accepted: map[string][]string{}}
	var cfg conf.Brokerd
	if _, err := brokerConfig.load(c, &cfg); err != nil {
		return k
	}
	dir, harness, err := mcpDir(c)
	if err != nil {
		return k
	}
	rep := mcpconf.Load(dir, harness...)
	for name := range rep.Servers {
		k.Declared[name] = true
		if a, ok, err := mcppin.Load(cfg.Home, name); err == nil && ok {
			k.Accepted[name] = sortedNames(a.Tools)
		}
	}
	for name := range rep.Invalid {
		k.Invalid[name] = true
	}
	return k
}

func grantsCheck(w io.Writer, dir string, harness []policy.Harness, servers policy.MCPServers, strict, asJSON bool) error {
	rep := policy.CheckWithWarnings(dir, harness...)
	rep.Warnings = append(rep.Warnings, rep.MCPWarnings(servers)...)
	failed := len(rep.Problems) > 0 || strict && len(rep.Warnings) > 0
	if asJSON {
		if err := rolecli.WriteJSON(w, grantsCheckJSON{OK: !failed, Dir: dir, Grants: rep.Grants,
			Problems: problemsJSON(rep.Problems), Warnings: problemsJSON(rep.Warnings)}); err != nil {
			return err
		}
	} else {
		for _, p := range rep.Problems {
			fmt.Fprintln(w, termsafe.Line(p.String()))
		}
		for _, p := range rep.Warnings {
			fmt.Fprintln(w, termsafe.Line(warningLine(p)))
		}
		if !failed {
			switch n := len(rep.Warnings); n {
			case 0:
				fmt.Fprintln(w, "grants: ok")
			default:
				fmt.Fprintf(w, "grants: ok, with %d %s (--strict makes them fail)\n", n, plural(n, "warning", "warnings"))
			}
		}
	}
	if len(rep.Problems) > 0 {
		return runbook.Refuse(runbook.GrantsInvalid, "%s", policy.GrantsErrorText)
	}
	if failed {
		return fmt.Errorf("grants: %d %s, and --strict makes warnings fail", len(rep.Warnings), plural(len(rep.Warnings), "warning", "warnings"))
	}
	return nil
}

// grantsTestJSON is grants test --json (docs/json.md).
type grantsTestJSON struct {
	Decision   policy.Effect `json:"decision"`
	Grant      string        `json:"grant,omitempty"`
	Class      *policy.Taint `json:"class,omitempty"`
	Untrusted  bool          `json:"untrusted"`
	Target     string        `json:"target,omitempty"`
	Reason     string        `json:"reason"`
	StateAfter policy.State  `json:"state_after"`
}

// testStatus is grants test's exit status for a verdict.
func testStatus(v policy.Effect) error {
	switch v {
	case policy.Ask:
		return &rolecli.StatusError{Code: 3}
	case policy.Deny:
		return &rolecli.StatusError{Code: 4}
	}
	return nil
}

func grantsTest(w io.Writer, dir string, harness []policy.Harness, call policy.Call, state policy.State, asJSON bool) error {
	g := policy.Open(dir, harness...)
	defer g.Close()
	d := g.Decide(call, state)
	if d.Err != nil {
		if asJSON {
			if err := rolecli.WriteJSON(w, grantsCheckJSON{Dir: dir, Problems: problemsJSON(g.Problems()), Warnings: []problemJSON{}}); err != nil {
				return err
			}
		} else {
			for _, p := range g.Problems() {
				fmt.Fprintln(w, termsafe.Line(p.String()))
			}
		}
		return d.Err
	}
	if asJSON {
		out := grantsTestJSON{Decision: d.Verdict, Grant: d.Grant, Untrusted: d.Untrusted, Target: d.Target,
			Reason: d.Reason, StateAfter: state.After(d)}
		if d.Grant != "" {
			out.Class = &d.Class
		}
		if err := rolecli.WriteJSON(w, out); err != nil {
			return err
		}
		return testStatus(d.Verdict)
	}
	fmt.Fprintf(w, "decision: %s\n", d.Verdict)
	if d.Grant != "" {
		fmt.Fprintf(w, "grant: %s (class %s, untrusted %v)\n", d.Grant, d.Class, d.Untrusted)
	} else {
		fmt.Fprintln(w, "grant: none matched")
	}
	if d.Target != "" {
		fmt.Fprintf(w, "target: %s\n", termsafe.Line(d.Target))
	}
	fmt.Fprintf(w, "reason: %s\n", termsafe.Line(d.Reason))
	after, _ := json.Marshal(state.After(d))
	fmt.Fprintf(w, "session state after the call: %s\n", after)
	return testStatus(d.Verdict)
}
