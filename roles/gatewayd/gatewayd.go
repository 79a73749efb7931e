// Package gatewayd is the gatewayd role's wiring: its flags, its config,
// its token, gateway.sock and the loop socket's call. What it does is
// core/gateway; gateway.sock's protocol is core/gatewaywire.
package gatewayd

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/core/gateway"
	"boxmaker/core/home"
	"boxmaker/core/loopwire"
	"boxmaker/core/secrets"
	"boxmaker/roles/rolecli"
	"boxmaker/runbook"
)

// App is gatewayd's command line.
func App() *cli.App {
	return rolecli.NewApp("gatewayd", "the Mattermost bot: conversations with loopd, and brokerd's approvals",
		rolecli.ServeCommand("gatewayd", "connect to Mattermost and answer its posts until stopped",
			"gatewayd reads its config strictly (docs/specs/gateway.md, section 3), reads\n"+
				"its token from the one place [secrets.<name>] names, takes the lock\n"+
				"run/gatewayd.lock, listens on gateway.sock for brokerd's approvals, opens\n"+
				"gateway/state.json, and connects to Mattermost: it prints\n"+
				"\"gatewayd: connected to <url> as <user>\" (and tells systemd it is ready) once\n"+
				"connected, and tries again by itself while Mattermost cannot be reached. It\n"+
				"answers posts from [allow] users: direct messages, posts that mention it,\n"+
				"and replies in its threads, each thread one Boxmaker session. It stops on\n"+
				"SIGINT or SIGTERM, and exits 1 when Mattermost refuses the token or the\n"+
				"state file cannot be written.",
			nil, serve))
}

func serve(c *cli.Context, path string) error {
	var raw conf.Gatewayd
	if err := rolecli.LoadConfig(path, &raw, runbook.GatewaydStartFailed); err != nil {
		return err
	}
	cfg, err := gateway.CheckConfig(path, raw)
	if err != nil {
		return err
	}
	if c.Bool("check-config") {
		return rolecli.ConfigValid("gatewayd", path)
	}
	if w := secrets.Warning(cfg.TokenName, cfg.Token); w != nil {
		fmt.Fprintf(rolecli.Log, "gatewayd: warning: %v\n", w)
	}
	token, err := secrets.Read(cfg.TokenName, cfg.Token, secrets.ProcessEnv())
	if err != nil {
		return err
	}
	h := home.Home{Dir: cfg.Home}
	httpc := gateway.NewHTTPClient(cfg.RootCAs, time.Minute)
	ready := make(chan struct{})
	var once sync.Once
	var g *gateway.Gateway
	handlers := map[string]daemon.Handler{}
	sock := rolecli.Socket("gatewayd", "gateway", cfg.Socket, handlers, cfg.AllowUIDs, runbook.ListenerLost)
	d := &rolecli.Daemon{
		Role:        "gatewayd",
		LockPath:    h.Lock("gatewayd"),
		StartFailed: runbook.GatewaydStartFailed,
		Sockets:     []*daemon.Socket{sock},
		ReadyAfter:  ready,
	}
	if err := d.Start(); err != nil {
		return err
	}
	state, err := gateway.OpenState(gateway.StateFile(cfg.Home))
	if err != nil {
		d.Close()
		return err
	}
	g = gateway.New(gateway.Options{
		Config: cfg,
		Client: &gateway.Client{URL: cfg.URL, Token: token.Reveal(), HTTP: httpc},
		HTTP:   httpc,
		State:  state,
		Loop:   loopCall(cfg.LoopSocket),
		Log:    rolecli.Log,
		Ready:  func() { once.Do(func() { close(ready) }) },
	})
	for k, h := range g.Handlers() {
		sock.Kinds[k] = h
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	runErr := make(chan error, 1)
	go func() {
		err := g.Run(ctx)
		cancel() // a fatal error stops the sockets too
		runErr <- err
	}()
	serveErr := d.Serve(ctx)
	cancel()
	if err := <-runErr; err != nil {
		return err
	}
	return serveErr
}

// loopCall sends a turn to loopd's loop socket, streaming its events.
func loopCall(socket string) gateway.LoopFunc {
	return func(ctx context.Context, req loopwire.TurnRequest, onEvent func(loopwire.Event) error) (loopwire.TurnResult, error) {
		var res loopwire.TurnResult
		err := daemon.Call(ctx, socket, loopwire.KindTurn, req, &res, func(raw json.RawMessage) error {
			var e loopwire.Event
			if err := json.Unmarshal(raw, &e); err != nil {
				return fmt.Errorf("an event from loopd is not an event: %v", err)
			}
			return onEvent(e)
		})
		return res, err
	}
}
