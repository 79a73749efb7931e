// Package bxctl is the operator's command line. It reads the daemons'
// configurations to find their sockets and files; each area of commands
// (grants, audit, approvals, memory, chat, ...) is a file of its own.
package bxctl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/core/role"
	"boxmaker/roles/rolecli"
	"boxmaker/runbook"
)

// App is bxctl's command line.
func App() *cli.App {
	app := rolecli.NewApp(role.Bxctl.String(), "the operator's commands for a Boxmaker home", commands()...)
	app.Flags = []cli.Flag{
		&cli.StringFlag{Name: "home", Usage: "the home `DIR` whose etc/ holds the configs (default: $BOXMAKER_HOME, else .state in a checkout, else /var/lib/boxmaker; then /etc/boxmaker)"},
	}
	for _, d := range daemonConfigs {
		app.Flags = append(app.Flags, &cli.StringFlag{Name: d.role.BxctlFlag,
			Usage: fmt.Sprintf("%s's config `PATH`%s (default: %s)", d.role.Name, d.note, rolecli.ConfigDefault(d.role.Name))})
	}
	return app
}

// daemonConfig is a daemon's configuration as bxctl finds it: the daemon,
// whose BxctlFlag is the global flag that names the file.
type daemonConfig struct {
	role rolecli.Role
	note string // in the flag's usage: who reads it, when not every command
}

var (
	brokerConfig     = daemonConfig{rolecli.Brokerd, ""}
	memoryConfig     = daemonConfig{rolecli.Memoryd, ""}
	loopConfig       = daemonConfig{rolecli.Loopd, ""}
	inferproxyConfig = daemonConfig{rolecli.Inferproxy, ", for doctor"}
	gatewayConfig    = daemonConfig{rolecli.Gatewayd, ", for doctor"}
)

// daemonConfigs are the flags in the order --help lists them.
var daemonConfigs = []daemonConfig{brokerConfig, memoryConfig, loopConfig, inferproxyConfig, gatewayConfig}

// commands lists every area's commands. Each area adds itself here.
func commands() []*cli.Command {
	var cmds []*cli.Command
	cmds = append(cmds, sanitizeCommands()...)
	cmds = append(cmds, grantsCommands()...)
	cmds = append(cmds, mcpCommands()...)
	cmds = append(cmds, auditCommands()...)
	cmds = append(cmds, approvalCommands()...)
	cmds = append(cmds, chatCommands()...)
	cmds = append(cmds, sessionsCommands()...)
	cmds = append(cmds, memoryCommands()...)
	cmds = append(cmds, doctorCommands()...)
	return cmds
}

// path finds the daemon's configuration for a bxctl command: its flag,
// else the home's (--home, $BOXMAKER_HOME), else /etc/boxmaker. A named
// home that does not exist is refused.
func (d daemonConfig) path(c *cli.Context) (string, error) {
	return rolecli.FindConfig(c.String(d.role.BxctlFlag), c.String("home"), d.role.Name)
}

// load reads the daemon's configuration, found as path does, strictly
// into v, and returns its path.
func (d daemonConfig) load(c *cli.Context, v any) (string, error) {
	path, err := d.path(c)
	if err != nil {
		return "", err
	}
	err = conf.Load(path, v)
	var missing *conf.MissingError
	if errors.As(err, &missing) && c.String(d.role.BxctlFlag) == "" {
		return path, rolecli.WithHint(err,
			fmt.Sprintf("bxctl looks for etc/%s.toml in the home, then in /etc/boxmaker: name the home with --home DIR (or BOXMAKER_HOME), or make one with boxmaker init --home DIR", d.role.Name))
	}
	return path, err
}

// peer is a daemon's socket as bxctl calls it: role names the daemon in
// what bxctl says when the call fails.
type peer struct {
	role   role.Role
	socket string
}

// call sends one request of kind to the socket and reads its answer into
// out, each event line before it to onEvent (nil: the kind streams none).
// timeout 0 means none (a rebuild, a turn: as long as they take). A
// failure is callError's.
func (p peer) call(ctx context.Context, timeout time.Duration, kind string, body, out any, onEvent func(json.RawMessage) error) error {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return callError(p.role, p.socket, daemon.Call(ctx, p.socket, kind, body, out, onEvent))
}

// callError is what bxctl says when a call to role's socket failed: the
// daemon's own refusal as it gave it (a peer check, a refusal of the
// request), else what happened, with a hint only where the cause is known.
// It never guesses that a daemon is down when it answered.
func callError(r role.Role, sock string, err error) error {
	var re *daemon.RemoteError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &re):
		if refusal := re.Refusal(); refusal != nil {
			return refusal // the daemon's refusal, its entry kept
		}
		return errors.New(re.Text)
	case errors.Is(err, syscall.ENOENT), errors.Is(err, syscall.ECONNREFUSED):
		return rolecli.WithHint(runbook.Refuse(runbook.DaemonNotRunning, "cannot reach %s at %s", r, sock),
			fmt.Sprintf("nothing listens on that socket: start %s (boxmaker up --home DIR, or %s serve --config PATH)", r, r),
			fmt.Sprintf("pgrep -a -x %s shows whether one runs, and its --config which home it serves", r))
	case errors.Is(err, syscall.EACCES):
		return rolecli.WithHint(fmt.Errorf("cannot reach %s at %s: permission denied", r, sock),
			fmt.Sprintf("the socket belongs to the user %s runs as: run bxctl as that user", r))
	}
	return fmt.Errorf("the call to %s at %s failed: %v", r, sock, err)
}
