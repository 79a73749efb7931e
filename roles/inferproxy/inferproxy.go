// Package inferproxy is the inferproxy role's wiring: its flags and
// config. The proxy itself is core/inferproxy.
package inferproxy

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	core "boxmaker/core/inferproxy"
	"boxmaker/core/secrets"
	"boxmaker/roles/rolecli"
	"boxmaker/runbook"
)

func flags() []cli.Flag {
	return []cli.Flag{
		rolecli.ConfigFlag(rolecli.Inferproxy.Name),
		rolecli.CheckConfigFlag(),
		&cli.StringFlag{Name: "listen", Usage: "serve on the unix socket `PATH` (its lock is PATH.lock)"},
		&cli.StringFlag{Name: "upstream", Usage: "the model server's `URL`, such as http://127.0.0.1:8080"},
		&cli.IntFlag{Name: "burst", Usage: fmt.Sprintf("at most `N` requests open upstream at once (default %d)", core.DefaultBurst)},
		&cli.DurationFlag{Name: "queue-timeout", Usage: fmt.Sprintf("how long a request waits for its turn before a 503 (default %s)", core.DefaultQueueTimeout)},
	}
}

// App is inferproxy's command line: `inferproxy --listen SOCKET --upstream
// URL`, or `inferproxy serve` with the same flags.
func App() *cli.App {
	serveCmd := &cli.Command{
		Name:  rolecli.ServeName,
		Usage: "proxy the socket to the model server until stopped (the same as no command)",
		Description: "inferproxy takes the lock <socket>.lock, prepares the socket in a private\n" +
			"directory, prints 'inferproxy: <socket> -> <upstream>' and serves until SIGINT or\n" +
			"SIGTERM. With both --listen and --upstream it reads no config unless --config is given.",
		Flags:  flags(),
		Action: rolecli.NoArgs(serve),
	}
	app := rolecli.NewApp(rolecli.Inferproxy.Name.String(), "the only way from loopd to the model server: an HTTP proxy on a unix socket", serveCmd)
	app.Flags = flags()
	app.Action = func(c *cli.Context) error {
		if done, err := rolecli.HelpWord(c, rolecli.Inferproxy.Name.String(), app.Commands); done {
			return err
		}
		if c.NArg() > 0 {
			return rolecli.UnknownCommand(c.Args().First(), rolecli.Inferproxy.Name.String(), []*cli.Command{serveCmd})
		}
		return serve(c)
	}
	return app
}

func serve(c *cli.Context) error {
	var cfg conf.Inferproxy
	path := "--listen and --upstream"
	if rolecli.ConfigOf(c) != "" || c.String("listen") == "" || c.String("upstream") == "" {
		path = rolecli.ConfigPath(rolecli.ConfigOf(c), rolecli.Inferproxy.Name)
		if err := rolecli.LoadConfig(path, &cfg, rolecli.Inferproxy.StartFailed); err != nil {
			return err
		}
	}
	if v := c.String("listen"); v != "" {
		cfg.Listen = v
	}
	if v := c.String("upstream"); v != "" {
		cfg.Upstream = v
	}
	if c.IsSet("burst") {
		cfg.Burst = c.Int("burst")
	}
	timeout := time.Duration(cfg.QueueTimeoutMS) * time.Millisecond
	if c.IsSet("queue-timeout") {
		timeout = c.Duration("queue-timeout")
	}
	if cfg.Burst < 0 || timeout < 0 || cfg.IdleTimeoutMS < 0 {
		return rolecli.Usagef("the burst, the queue timeout and the idle timeout must not be negative")
	}
	opts := core.Options{
		Listen: cfg.Listen, Upstream: cfg.Upstream, Burst: cfg.Burst,
		QueueTimeout: timeout, IdleTimeout: time.Duration(cfg.IdleTimeoutMS) * time.Millisecond,
		AllowUIDs: cfg.AllowUIDs, Log: rolecli.Log,
	}
	src, err := upstreamKeySource(path, cfg)
	if err != nil {
		return err
	}
	if rolecli.CheckingConfig(c) {
		if err := opts.Check(); err != nil {
			return err
		}
		return rolecli.Inferproxy.ConfigValid(path)
	}
	if src != nil {
		if w := secrets.Warning(cfg.UpstreamKeySecret, *src); w != nil {
			fmt.Fprintf(rolecli.Log, "inferproxy: warning: %v\n", w)
		}
		key, err := secrets.Read(cfg.UpstreamKeySecret, *src, secrets.ProcessEnv())
		if err != nil {
			return err
		}
		opts.UpstreamKey = &key
	}
	s, err := core.Start(opts)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Println(s.StartLine())
	rolecli.Notify(rolecli.Inferproxy.Name, daemon.NotifyReady)
	stopped := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			rolecli.Notify(rolecli.Inferproxy.Name, daemon.NotifyStopping)
		case <-stopped:
		}
	}()
	err = s.Serve(ctx)
	close(stopped)
	return err
}

// upstreamKeySource is the [secrets.<name>] table upstream_key_secret
// names, checked for its shape; nil when no key is configured.
func upstreamKeySource(path string, cfg conf.Inferproxy) (*secrets.Source, error) {
	name := cfg.UpstreamKeySecret
	if name == "" {
		return nil, nil
	}
	src, ok := cfg.Secrets[name]
	if !ok {
		return nil, runbook.Refuse(runbook.InferproxyStartFailed, "%s: upstream_key_secret names [secrets.%s], which the file does not have", path, name)
	}
	if err := src.Check(); err != nil {
		return nil, runbook.Refuse(runbook.InferproxyStartFailed, "%s: secret %s: %v", path, name, err)
	}
	return &src, nil
}
