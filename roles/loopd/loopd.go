// Package loopd is the loopd role's wiring: its flags, its config, the
// selftest at start and the loop socket. The loop itself is core/loop.
package loopd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/core/home"
	"boxmaker/core/loop"
	"boxmaker/core/loopwire"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
	"boxmaker/runbook"
)

// App is loopd's command line.
func App() *cli.App {
	return rolecli.NewApp(rolecli.Loopd.Name, "the agent loop: sessions, model requests, tool calls",
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
				cfg, err := load(rolecli.ConfigPath(c.String("config"), rolecli.Loopd.Name))
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
	)
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
	if c.Bool("check-config") {
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
	d.Socket("loop", cfg.Sockets.Loop, map[string]daemon.Handler{loopwire.KindTurn: turnHandler(eng),
		loopwire.KindAgentSpawn: answer("an agent.spawn request", eng.Spawn), loopwire.KindAgentAsk: agentAskHandler(eng),
		loopwire.KindAgentFork: answer("an agent.fork request", eng.Fork), loopwire.KindAgentCompact: agentCompactHandler(eng),
		loopwire.KindAgentAnswer: answer("an agent.answer request", eng.Answer)})
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

// turnHandler answers "turn" requests: the events stream as they come,
// and the final answer is the session and the whole reply. A failed turn
// is printed for the operator as well as answered.
func turnHandler(eng *loop.Engine) daemon.Handler {
	return func(ctx context.Context, _ daemon.Peer, body json.RawMessage, s *daemon.Stream) (any, error) {
		var req loopwire.TurnRequest
		dec := json.NewDecoder(strings.NewReader(string(body)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			return nil, fmt.Errorf("the turn request is not {\"session\",\"who\",\"text\"}: %v", err)
		}
		ctx, stop := whileClientStays(ctx, s)
		defer stop()
		res, err := eng.Turn(ctx, req, func(e loopwire.Event) error { return s.Send(e) })
		if err != nil {
			if !errors.Is(err, context.Canceled) {
				session := req.Session
				if session == "" {
					session = "(new)"
				}
				fmt.Fprintf(rolecli.Log, "loopd: session %s: %v\n", session, err)
			}
			return nil, err
		}
		return res, nil
	}
}

// whileClientStays is ctx, cancelled when the client of the request has
// gone: a turn nobody waits for ends (the person left the chat, a yaag
// Run was killed), and so does a blocking tool call in it (yaag_run says
// its Run goes on in the background).
func whileClientStays(ctx context.Context, s *daemon.Stream) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-s.Gone():
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// decodeStrict reads a request body, refusing unknown fields.
func decodeStrict(body json.RawMessage, v any, shape string) error {
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the request is not %s: %v", shape, err)
	}
	return nil
}

// answer is the handler of a request that streams nothing: its body read
// strictly (decodeStrict) as a Q, answered by f. agent.spawn (a hermetic
// session for a yaag Agent), agent.fork (a new session from a boundary of
// an Agent's or a Run's host session) and agent.answer (the person's
// answers appended to the session that asked) are such requests.
func answer[Q, R any](shape string, f func(context.Context, Q) (R, error)) daemon.Handler {
	return func(ctx context.Context, _ daemon.Peer, body json.RawMessage, _ *daemon.Stream) (any, error) {
		var req Q
		if err := decodeStrict(body, &req, shape); err != nil {
			return nil, err
		}
		return f(ctx, req)
	}
}

// agentAskHandler answers agent.ask, streaming the turn's events.
func agentAskHandler(eng *loop.Engine) daemon.Handler {
	return func(ctx context.Context, _ daemon.Peer, body json.RawMessage, s *daemon.Stream) (any, error) {
		var req loopwire.AskRequest
		if err := decodeStrict(body, &req, "an agent.ask request"); err != nil {
			return nil, err
		}
		ctx, stop := whileClientStays(ctx, s)
		defer stop()
		res, err := eng.Ask(ctx, req, func(e loopwire.Event) error { return s.Send(e) })
		if err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintf(rolecli.Log, "loopd: session %s: %v\n", req.Session, err)
		}
		if res.ModelError != nil {
			fmt.Fprintf(rolecli.Log, "loopd: session %s: the model server failed: %s\n", req.Session, res.ModelError.Message)
		}
		if err != nil {
			return nil, err
		}
		return res, nil
	}
}

// agentCompactHandler answers agent.compact, streaming the summary turn's
// events.
func agentCompactHandler(eng *loop.Engine) daemon.Handler {
	return func(ctx context.Context, _ daemon.Peer, body json.RawMessage, s *daemon.Stream) (any, error) {
		var req loopwire.CompactRequest
		if err := decodeStrict(body, &req, "an agent.compact request"); err != nil {
			return nil, err
		}
		return eng.Compact(ctx, req, func(e loopwire.Event) error { return s.Send(e) })
	}
}
