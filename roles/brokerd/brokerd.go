// Package brokerd is the brokerd role's wiring: its flags, its config and
// its sockets. The decision path itself is in core/.
package brokerd

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/core/home"
	"boxmaker/roles/rolecli"
	"boxmaker/runbook"
)

// App is brokerd's command line.
func App() *cli.App {
	return rolecli.NewApp("brokerd", "decide, record and run the model's tool calls", &cli.Command{
		Name:  "serve",
		Usage: "serve the tool, admin and state sockets until stopped",
		Description: "brokerd reads its config strictly, takes the lock run/brokerd.lock in its home,\n" +
			"prepares each socket in a private directory of its own, and serves until\n" +
			"SIGINT or SIGTERM.",
		Flags:  []cli.Flag{rolecli.ConfigFlag("brokerd")},
		Action: serve,
	})
}

func serve(c *cli.Context) error {
	if err := rolecli.ExactArgs(c, 0, "no arguments"); err != nil {
		return err
	}
	path := rolecli.ConfigPath(c.String("config"), "brokerd")
	var cfg conf.Brokerd
	if err := rolecli.LoadConfig(path, &cfg, runbook.BrokerdStartFailed); err != nil {
		return err
	}
	h := home.Home{Dir: cfg.Home}
	socket := func(name, path string) *daemon.Socket {
		return &daemon.Socket{
			Role: "brokerd", Name: name, Path: path,
			Kinds:        map[string]daemon.Handler{rolecli.PingKind: rolecli.Ping("brokerd", name)},
			AllowUIDs:    cfg.Sockets.AllowUIDs,
			ListenerLost: runbook.BrokerdListenerLost,
			Log:          os.Stderr,
		}
	}
	d := &rolecli.Daemon{
		Role:        "brokerd",
		LockPath:    h.Lock("brokerd"),
		StartFailed: runbook.BrokerdStartFailed,
		Sockets: []*daemon.Socket{
			socket("broker", cfg.Sockets.Broker),
			socket("admin", cfg.Sockets.Admin),
			socket("state", cfg.Sockets.State),
		},
		Ready: fmt.Sprintf("brokerd: serving tools on %s and approvals on %s", cfg.Sockets.Broker, cfg.Sockets.Admin),
	}
	if err := d.Start(); err != nil {
		return err
	}
	return d.Serve(c.Context)
}
