// Package loopd is the loopd role's wiring: its flags, its config, the
// selftest at start and the loop socket. The loop itself is core/loop.
package loopd

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/home"
	"boxmaker/core/loop"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
	"boxmaker/runbook"
	"boxmaker/sanitize"
)

// App is loopd's command line.
func App() *cli.App {
	return rolecli.NewApp(rolecli.Loopd.Name.String(), "the agent loop: sessions, model requests, tool calls",
		rolecli.ServeCommand(rolecli.Loopd, "run the selftest, then serve the loop socket until stopped",
			"Once it holds its lock, loopd runs the selftest against the model server\n"+
				"(and exits 1 if it fails), then serves turns on the loop socket.",
			nil, serve),
		&cli.Command{
			Name:  "selftest",
			Usage: "check the model server against [expect], the tag table, tool calls and the cache",
			Description: "selftest runs the checks loopd serve runs before it serves (docs/inference-contract.md)\n" +
				"and prints 'selftest: ok'. Every [expect] value that differs from what the server\n" +
				"reports is named in one failure. With --print-expect it measures the server instead,\n" +
				"runs the other checks with what it measured, and prints the [expect] section the\n" +
				"server passes, ready to paste into loopd.toml in place of the one there.",
			Flags: []cli.Flag{rolecli.ConfigFlag(rolecli.Loopd.Name),
				&cli.BoolFlag{Name: "print-expect", Usage: "print the [expect] section this server passes"}},
			Action: rolecli.NoArgs(func(c *cli.Context) error {
				cfg, err := load(rolecli.ConfigPath(rolecli.ConfigOf(c), rolecli.Loopd.Name))
				if err != nil {
					return err
				}
				if c.Bool("print-expect") {
					section, err := selftestOf(cfg, os.Stderr).PrintExpect(c.Context)
					if err != nil {
						return err
					}
					fmt.Print(section)
					return nil
				}
				if err := selftest(c.Context, cfg, os.Stdout); err != nil {
					return err
				}
				fmt.Println("selftest: ok")
				return nil
			}),
		},
		&cli.Command{
			Name:      "tags",
			Usage:     "print the chat-template tags loopd neutralises, by token id",
			ArgsUsage: "[ID...]",
			Description: "tags prints loopd's compiled tag table, one tag a line: its token id, its kind\n" +
				"(bar <|name|>, open <name>, close </name>), its name and its spelling. With IDs,\n" +
				"only those: the selftest names a tag by its id (runbook entry loopd-tags-unexpected).",
			Action: tags,
		},
	)
}

// tags prints the tag table, or the tags whose ids are named.
func tags(c *cli.Context) error {
	byID := map[int]sanitize.Tag{}
	var all []sanitize.Tag
	for _, t := range sanitize.Tags() {
		byID[t.TokenID] = t
		all = append(all, t)
	}
	if c.Args().Present() {
		all = all[:0]
		for _, a := range c.Args().Slice() {
			id, err := strconv.Atoi(a)
			if err != nil {
				return rolecli.Usagef("tags takes token ids (numbers), not %q", a)
			}
			t, ok := byID[id]
			if !ok {
				return fmt.Errorf("no tag has the token id %d in loopd's table", id)
			}
			all = append(all, t)
		}
	}
	for _, t := range all {
		fmt.Printf("%d %s %s %s\n", t.TokenID, []string{"bar", "open", "close"}[t.Kind], t.Name, t.Text())
	}
	return nil
}

func load(path string) (conf.Loopd, error) {
	var cfg conf.Loopd
	if err := rolecli.LoadConfig(path, &cfg, rolecli.Loopd.StartFailed); err != nil {
		return cfg, err
	}
	return cfg, nil
}

func client(cfg conf.Loopd) *loop.Client {
	return &loop.Client{Socket: cfg.Inference.Socket, Model: cfg.Model, Timeout: cfg.Inference.Timeout()}
}

func selftestOf(cfg conf.Loopd, out io.Writer) loop.Selftest {
	return loop.Selftest{Client: client(cfg), Out: out, Expect: loop.Expect{
		ChatTemplateSHA256: cfg.Expect.ChatTemplateSHA256,
		NCtxPerSlot:        cfg.Expect.NCtxPerSlot,
		Slots:              cfg.Expect.Slots,
		MinCacheReuse:      cfg.Expect.MinCacheReuse,
	}, StartWait: cfg.Inference.StartWait()}
}

func selftest(ctx context.Context, cfg conf.Loopd, out io.Writer) error {
	return selftestOf(cfg, out).Run(ctx)
}

func serve(c *cli.Context, path string, cfg conf.Loopd) error {
	system := loop.DefaultSystemPrompt
	if cfg.SystemPrompt != "" {
		data, err := os.ReadFile(cfg.SystemPrompt)
		if err != nil {
			return runbook.Refuse(runbook.LoopdStartFailed, "cannot read the system prompt: %v", err)
		}
		system = strings.TrimRight(string(data), "\n")
	}
	if rolecli.CheckingConfig(c) {
		return rolecli.Loopd.ConfigValid(path)
	}
	h := home.Home{Dir: cfg.Home}
	rounds := cfg.MaxToolRounds
	if rounds <= 0 {
		rounds = 8
	}
	eng := &loop.Engine{
		SessionsDir:   h.Path(home.DirSessions),
		Client:        client(cfg),
		Broker:        loop.Broker{Socket: cfg.Broker.Socket, Silent: cfg.Broker.Silent()},
		Memory:        loop.Memory{Socket: cfg.Memory.Socket},
		System:        system,
		Thinking:      cfg.Thinking,
		MaxToolRounds: rounds,
		NCtx:          cfg.Expect.NCtxPerSlot, // the selftest checked it against the server
		MaxTokens:     cfg.Inference.MaxTokens,
		Log:           rolecli.Log,
	}
	d := rolecli.Loopd.Daemon(cfg.Home, cfg.Sockets.AllowUIDs)
	d.Socket("loop", cfg.Sockets.Loop, eng.Handlers())
	d.Ready = "loopd: serving on " + cfg.Sockets.Loop
	if err := d.Start(); err != nil {
		return err
	}
	// The selftest's lines are the daemon's: what the model server
	// reported, escaped.
	if err := selftest(c.Context, cfg, termsafe.NewWriter(os.Stdout)); err != nil {
		d.Close()
		return err
	}
	eng.ReportBroker()
	return d.Serve(c.Context)
}
