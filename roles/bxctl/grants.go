package bxctl

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/policy"
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
				"brokerd.toml, see --broker-config) and prints \"grants: ok\", or every\n" +
				"problem as <file>:<line>: <problem> and exits 1. While any problem\n" +
				"stands, brokerd denies every call.",
			Action: func(c *cli.Context) error {
				if err := rolecli.ExactArgs(c, 0, "no arguments"); err != nil {
					return err
				}
				dir, err := grantsDir(c)
				if err != nil {
					return err
				}
				return grantsCheck(c.App.Writer, dir)
			},
		}, {
			Name:      "test",
			Usage:     "decide a call as brokerd would, without running it",
			ArgsUsage: "TOOL TARGET",
			Description: "test decides one call of TOOL (read_file, write_file, list_dir, run,\n" +
				"http_fetch, recall, memory) on TARGET (a path, or a URL for http_fetch)\n" +
				"against the grants as they are now, for a session at --taint (and\n" +
				"--untrusted), and prints the verdict, the grant that decided it (or\n" +
				"that none matched), the resolved target and the session's state after\n" +
				"the call. It exits 0 whatever the verdict, and 1 when the grant files\n" +
				"have an error.",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "taint", Value: "public", Usage: "the session's taint: public, private or secret"},
				&cli.BoolFlag{Name: "untrusted", Usage: "the session is already untrusted"},
			},
			Action: func(c *cli.Context) error {
				args, taintName, untrusted, err := testArgs(c)
				if err != nil {
					return err
				}
				if len(args) != 2 {
					return rolecli.Usagef("grants test takes TOOL and TARGET (see bxctl grants test --help)")
				}
				taint, err := policy.ParseTaint(taintName)
				if err != nil {
					return rolecli.Usagef("--taint: %v", err)
				}
				dir, err := grantsDir(c)
				if err != nil {
					return err
				}
				state := policy.State{Taint: taint, Untrusted: untrusted}
				return grantsTest(c.App.Writer, dir, policy.Call{Tool: args[0], Target: args[1]}, state)
			},
		}},
	}}
}

// testArgs takes --taint and --untrusted after TOOL and TARGET as well as
// before them (urfave/cli stops reading flags at the first argument).
// "--" ends the flags, for a target that starts with a dash.
func testArgs(c *cli.Context) (args []string, taint string, untrusted bool, err error) {
	taint, untrusted = c.String("taint"), c.Bool("untrusted")
	rest := c.Args().Slice()
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			return append(args, rest[i+1:]...), taint, untrusted, nil
		case a == "--untrusted" || a == "-untrusted":
			untrusted = true
		case a == "--taint" || a == "-taint":
			if i+1 == len(rest) {
				return nil, "", false, rolecli.Usagef("--taint needs a value: public, private or secret")
			}
			i++
			taint = rest[i]
		case strings.HasPrefix(a, "--taint="):
			taint = strings.TrimPrefix(a, "--taint=")
		case strings.HasPrefix(a, "-") && len(args) < 2 && a != "-":
			return nil, "", false, rolecli.Usagef("grants test: unknown flag %s", a)
		default:
			args = append(args, a)
		}
	}
	return args, taint, untrusted, nil
}

// grantsDir is [paths] grants of brokerd's configuration.
func grantsDir(c *cli.Context) (string, error) {
	var cfg conf.Brokerd
	path, err := loadConfig(c, "broker-config", "brokerd", &cfg)
	if err != nil {
		return "", err
	}
	if cfg.Paths.Grants == "" {
		return "", fmt.Errorf("%s names no grants directory ([paths] grants)", path)
	}
	return cfg.Paths.Grants, nil
}

func grantsCheck(w io.Writer, dir string) error {
	problems := policy.Check(dir)
	if len(problems) == 0 {
		fmt.Fprintln(w, "grants: ok")
		return nil
	}
	for _, p := range problems {
		fmt.Fprintln(w, p)
	}
	return runbook.Refuse(runbook.GrantsInvalid, "%s", policy.GrantsErrorText)
}

func grantsTest(w io.Writer, dir string, call policy.Call, state policy.State) error {
	g := policy.Open(dir)
	defer g.Close()
	d := g.Decide(call, state)
	if d.Err != nil {
		for _, p := range g.Problems() {
			fmt.Fprintln(w, p)
		}
		return d.Err
	}
	fmt.Fprintf(w, "decision: %s\n", d.Verdict)
	if d.Grant != "" {
		fmt.Fprintf(w, "grant: %s (class %s, untrusted %v)\n", d.Grant, d.Class, d.Untrusted)
	} else {
		fmt.Fprintln(w, "grant: none matched")
	}
	if d.Target != "" {
		fmt.Fprintf(w, "target: %s\n", d.Target)
	}
	fmt.Fprintf(w, "reason: %s\n", d.Reason)
	after, _ := json.Marshal(state.After(d))
	fmt.Fprintf(w, "session state after the call: %s\n", after)
	return nil
}
