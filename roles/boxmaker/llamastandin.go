package boxmaker

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"boxmaker/core/llamastandin"
	"boxmaker/roles/rolecli"
)

// llamaStandinCommand runs the llama-server stand-in as a process: for
// the end-to-end scripts, and for a person who wants to run Boxmaker by
// hand without a model server.
func llamaStandinCommand() *cli.Command {
	return &cli.Command{
		Name:  "llama-standin",
		Usage: "serve a scripted stand-in for llama-server (not a model), to run Boxmaker without one",
		Description: "llama-standin answers llama-server's HTTP API (/health, /props, /tokenize,\n" +
			"/apply-template, /v1/chat/completions, ...) as a real llama-server does, with the\n" +
			"real Qwen3.5 chat template, so that inferproxy and loopd can run against it. It is\n" +
			"NOT a model: its replies are written in advance, in a script.\n\n" +
			"Without --script it answers from a small built-in script: loopd's selftest, and a\n" +
			"few commands typed in 'bxctl chat', each turned into the tool call it names\n" +
			"(brokerd then decides it by the home's grants: allowed, denied, or asking you):\n\n" +
			"  read PATH, list PATH, write PATH TEXT, run DIR PROGRAM, fetch URL,\n" +
			"  remember TEXT, recall WORDS\n\n" +
			"after which it says what the tool answered. --print-script prints the built-in\n" +
			"script, to start one of your own from.\n\n" +
			"A script is a JSON file of turns, tried in order against the conversation's last\n" +
			"message:\n\n" +
			"  {\"turns\": [\n" +
			"    {\"when\": \"probe: call the echo tool\", \"tool_calls\": [{\"name\": \"echo\", \"arguments\": {\"text\": \"ok\"}}]},\n" +
			"    {\"when\": \"probe: echo answered ok\", \"content\": \"ok\"},\n" +
			"    {\"match\": \"^read (\\\\S+)$\", \"role\": \"user\", \"tool_calls\": [{\"name\": \"read_file\", \"arguments\": {\"path\": \"$1\"}}]},\n" +
			"    {\"content\": \"Hello.\", \"reasoning\": \"A greeting.\"}\n" +
			"  ]}\n\n" +
			"A turn with \"when\" (a text the message contains) or \"match\" (a regular\n" +
			"expression; $1 in its content and arguments is the first group) answers every\n" +
			"message it fits, optionally only one of a \"role\" (user or tool); the other\n" +
			"turns answer one request each, in order. A turn is content, reasoning (shown\n" +
			"only with thinking on) and tool_calls, or \"raw\": text the model generates as it\n" +
			"is. The first two turns above are what loopd's selftest needs. POST\n" +
			"/standin/switch (its own, not llama-server's) changes its behaviour while it\n" +
			"runs; core/llamastandin's documentation lists the switches.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "listen", Value: "127.0.0.1:8080", Usage: "listen on `ADDR` (port 0 picks a free one)"},
			&cli.StringFlag{Name: "script", Usage: "the replies, a JSON `FILE` (default: the built-in script)"},
			&cli.BoolFlag{Name: "print-script", Usage: "print the built-in script as JSON and exit"},
			&cli.StringFlag{Name: "model", Value: llamastandin.DefaultModel, Usage: "the model's `NAME`"},
			&cli.IntFlag{Name: "slots", Value: llamastandin.DefaultSlots, Usage: "total_slots"},
			&cli.IntFlag{Name: "n-ctx", Value: llamastandin.DefaultNCtx, Usage: "context per slot"},
			&cli.DurationFlag{Name: "loading-for", Usage: "answer 503 Loading model for `DURATION` after start"},
			&cli.StringFlag{Name: "api-key", Usage: "refuse requests without `KEY`, as llama-server --api-key does"},
			&cli.StringFlag{Name: "addr-file", Usage: "write the address it listens on to `FILE` (for --listen 127.0.0.1:0)"},
			&cli.StringFlag{Name: "request-log", Usage: "append a JSON line to `FILE` for each chat request: its last message (role, content), max_tokens (null when it has none), prompt_tokens, cache_n, and why it was refused"},
			&cli.BoolFlag{Name: "no-prompt-cache", Usage: "keep no prompt displaced from its slot, as llama-server --cache-ram 0 (by default it keeps them and gives one back to a request it fits)"},
			&cli.BoolFlag{Name: "require-max-tokens", Usage: "test mode, not llama-server's behaviour: refuse (400) a chat request without max_tokens, which llama-server takes and generates until the context is full"},
		},
		Action: rolecli.NoArgs(func(c *cli.Context) error {
			script := builtinScript()
			if c.Bool("print-script") {
				data, err := json.MarshalIndent(script, "", "  ")
				if err != nil {
					return err
				}
				fmt.Println(string(data))
				return nil
			}
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
			opts := llamastandin.Options{
				Model: c.String("model"), Slots: c.Int("slots"), NCtx: c.Int("n-ctx"),
				Script: script, Loading: c.Duration("loading-for") > 0, APIKey: c.String("api-key"),
				RequireMaxTokens: c.Bool("require-max-tokens"), NoPromptCache: c.Bool("no-prompt-cache"),
			}
			if p := c.String("request-log"); p != "" {
				f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
				if err != nil {
					return err
				}
				defer f.Close()
				var mu sync.Mutex
				opts.OnChat = func(ch llamastandin.Chat) {
					line := map[string]any{"prompt_tokens": ch.PromptTokens, "cache_n": ch.CacheN, "max_tokens": ch.Request.MaxTokens}
					if ch.Refused != "" {
						line = map[string]any{"max_tokens": ch.Request.MaxTokens, "refused": ch.Refused}
					}
					if n := len(ch.Request.Messages); n > 0 {
						line["role"], line["content"] = ch.Request.Messages[n-1].Role, string(ch.Request.Messages[n-1].Content)
					}
					data, _ := json.Marshal(line)
					mu.Lock()
					f.Write(append(data, '\n'))
					mu.Unlock()
				}
			}
			srv := llamastandin.New(opts)
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
		}),
	}
}
