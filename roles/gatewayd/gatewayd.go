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

	"boxmaker/core/brokerwire"
	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/core/gateway"
	"boxmaker/core/loopwire"
	"boxmaker/core/secrets"
	"boxmaker/roles/rolecli"
)

// App is gatewayd's command line.
func App() *cli.App {
	return rolecli.NewApp(rolecli.Gatewayd.Name.String(), "the Mattermost bot: conversations with loopd, and brokerd's approvals",
		rolecli.ServeCommand(rolecli.Gatewayd, "connect to Mattermost and answer its posts until stopped",
			"gatewayd's config is docs/specs/gateway.md, section 3. It reads its token\n"+
				"from the one place [secrets.<name>] names, listens on gateway.sock for\n"+
				"brokerd's approvals, opens gateway/state.json, and connects to Mattermost: it\n"+
				"prints \"gatewayd: connected to <url> as <user>\" (and only then tells systemd it\n"+
				"is ready) once connected, and tries again by itself while Mattermost cannot be\n"+
				"reached. It answers posts from [allow] users: direct messages, posts that\n"+
				"mention it, and replies in its threads, each thread one Boxmaker session. It\n"+
				"posts a reply of a session above public (brokerd's state socket, [broker]\n"+
				"state) only where everyone who can read it is in [allow] users; elsewhere the\n"+
				"reply goes to the asker by direct message. It exits 1 when Mattermost refuses\n"+
				"the token or the state file cannot be written.",
			nil, serve))
}

func serve(c *cli.Context, path string, raw conf.Gatewayd) error {
	cfg, err := gateway.CheckConfig(path, raw)
	if err != nil {
		return err
	}
	if rolecli.CheckingConfig(c) {
		return rolecli.Gatewayd.ConfigValid(path)
	}
	if w := secrets.Warning(cfg.TokenName, cfg.Token); w != nil {
		fmt.Fprintf(rolecli.Log, "gatewayd: warning: %v\n", w)
	}
	token, err := secrets.Read(cfg.TokenName, cfg.Token, secrets.ProcessEnv())
	if err != nil {
		return err
	}
	httpc := gateway.NewHTTPClient(cfg.RootCAs, time.Minute)
	ready := make(chan struct{})
	var once sync.Once
	var g *gateway.Gateway
	d := rolecli.Gatewayd.Daemon(cfg.Home, cfg.AllowUIDs)
	sock := d.Socket("gateway", cfg.Socket, nil) // its kinds are the gateway's, added once it is made
	d.ReadyAfter = ready
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
		SessionState: func(ctx context.Context, session string) (string, error) {
			var st brokerwire.SessionState
			err := daemon.Call(ctx, cfg.StateSocket, brokerwire.KindSessionState, brokerwire.SessionStateRequest{Session: session}, &st, nil)
			return st.Taint, err
		},
		Log:   rolecli.Log,
		Ready: func() { once.Do(func() { close(ready) }) },
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
