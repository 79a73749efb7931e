package boxmaker

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"boxmaker/core/llamastandin"
	"boxmaker/roles/rolecli"
)

// llamaStandinCommand runs the llama-server stand-in as a process, for
// end-to-end scripts and the demo. It is hidden: it is a test peer, not
// something an operator runs.
func llamaStandinCommand() *cli.Command {
	return &cli.Command{
		Name:   "llama-standin",
		Hidden: true,
		Usage:  "serve the scripted llama-server stand-in (for tests and the demo)",
		Description: "llama-standin answers llama-server's HTTP API from a script file\n" +
			"({\"turns\":[{\"content\":...,\"tool_calls\":[...]}]}); POST /standin/switch changes\n" +
			"its behaviour at run time. It is not a model.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "listen", Value: "127.0.0.1:8080", Usage: "listen on `ADDR` (port 0 picks a free one)"},
			&cli.StringFlag{Name: "script", Usage: "the replies, a JSON `FILE`"},
			&cli.StringFlag{Name: "model", Value: llamastandin.DefaultModel, Usage: "the model's `NAME`"},
			&cli.IntFlag{Name: "slots", Value: llamastandin.DefaultSlots, Usage: "total_slots"},
			&cli.IntFlag{Name: "n-ctx", Value: llamastandin.DefaultNCtx, Usage: "context per slot"},
			&cli.DurationFlag{Name: "loading-for", Usage: "answer 503 Loading model for `DURATION` after start"},
			&cli.StringFlag{Name: "api-key", Usage: "refuse requests without `KEY`, as llama-server --api-key does"},
			&cli.StringFlag{Name: "addr-file", Usage: "write the address it listens on to `FILE` (for --listen 127.0.0.1:0)"},
		},
		Action: func(c *cli.Context) error {
			if err := rolecli.ExactArgs(c, 0, "no arguments"); err != nil {
				return err
			}
			var script llamastandin.Script
			if p := c.String("script"); p != "" {
				s, err := llamastandin.LoadScript(p)
				if err != nil {
					return fmt.Errorf("cannot read the script: %w", err)
				}
				script = s
			}
			ln, err := net.Listen("tcp", c.String("listen"))
			if err != nil {
				return err
			}
			srv := llamastandin.New(llamastandin.Options{
				Model: c.String("model"), Slots: c.Int("slots"), NCtx: c.Int("n-ctx"),
				Script: script, Loading: c.Duration("loading-for") > 0, APIKey: c.String("api-key"),
			})
			if d := c.Duration("loading-for"); d > 0 {
				time.AfterFunc(d, func() { srv.SetLoading(false) })
			}
			ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
			defer stop()
			errs := make(chan error, 1)
			go func() { errs <- srv.Serve(ln) }()
			if p := c.String("addr-file"); p != "" {
				if err := os.WriteFile(p, []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
					ln.Close()
					return err
				}
			}
			fmt.Printf("llama-standin: serving on http://%s (a scripted stand-in, not a model)\n", ln.Addr())
			select {
			case err := <-errs:
				return err
			case <-ctx.Done():
			}
			srv.Close()
			if err := <-errs; err != nil && ctx.Err() != context.Canceled {
				return err
			}
			return nil
		},
	}
}
