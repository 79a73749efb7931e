// Package memoryd is the memoryd role's wiring: its flags, its config and
// its three sockets (block for loopd, tools for brokerd, admin for bxctl).
// What they answer is core/memoryd; the memory itself is core/memory, the
// index core/recall; the sockets' protocol is core/memorywire.
package memoryd

import (
	"context"
	"time"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/honcho"
	core "boxmaker/core/memoryd"
	"boxmaker/roles/rolecli"
)

// App is memoryd's command line.
func App() *cli.App {
	return rolecli.NewApp(rolecli.Memoryd.Name.String(), "keep the agent's memory and notes, and search past sessions",
		rolecli.ServeCommand(rolecli.Memoryd, "serve the block, tool and admin sockets until stopped",
			"Once it holds its lock, memoryd opens memory/ (writing the starter soul.md\n"+
				"when it is missing, finishing a write a crash cut short) and the recall\n"+
				"index (building it when it is missing).\n"+
				"\n"+
				"With [honcho] in its config (docs/specs/honcho.md) it also syncs the\n"+
				"conversations and memory to Honcho by trust, through an outbox on disk\n"+
				"(memory/outbox/, bxctl memory sync shows it), and recall searches the\n"+
				"[[honcho.read]] workspaces too. [honcho] is checked before anything starts.",
			nil, serve))
}

func serve(c *cli.Context, path string, cfg conf.Memoryd) error {
	// [honcho] is judged before the lock and the home are touched: a
	// wrong workspace name must not send anything anywhere.
	hcfg, err := honcho.CheckConfig(path, cfg.Honcho, cfg.Secrets)
	if err != nil {
		return err
	}
	if rolecli.CheckingConfig(c) {
		return rolecli.Memoryd.ConfigValid(path)
	}
	srv := core.New(core.Options{
		Home:         cfg.Home,
		StateSocket:  cfg.Broker.State,
		StateTimeout: time.Duration(cfg.Broker.TimeoutMS) * time.Millisecond,
		Log:          rolecli.Log,
	})
	d := rolecli.Memoryd.Daemon(cfg.Home, cfg.Sockets.AllowUIDs)
	d.Socket("block", cfg.Sockets.Block, srv.BlockKinds())
	d.Socket("broker", cfg.Sockets.Broker, srv.ToolKinds())
	d.Socket("admin", cfg.Sockets.Admin, srv.AdminKinds())
	d.Ready = "memoryd: serving"
	// The lock first: a second memoryd must meet already-running, not a
	// busy memory/ or index. Nothing is served before Serve.
	if err := d.Start(); err != nil {
		return err
	}
	if err := srv.Open(cfg.Memory.ReviewOn()); err != nil {
		d.Close()
		return err
	}
	defer srv.Close()
	ctx, cancel := context.WithCancel(c.Context)
	defer cancel()
	if hcfg != nil {
		srv.StartHoncho(ctx, hcfg)
	}
	if cfg.Recall.SyncMS > 0 {
		go srv.Follow(ctx, time.Duration(cfg.Recall.SyncMS)*time.Millisecond)
	}
	return d.Serve(ctx)
}
