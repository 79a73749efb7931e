// Package bxctl is the operator's command line. It reads the daemons'
// configurations to find their sockets and files; each area of commands
// (grants, audit, approvals, memory, chat, ...) is a file of its own.
package bxctl

import (
	"github.com/urfave/cli/v2"

	"boxmaker/roles/rolecli"
)

// App is bxctl's command line.
func App() *cli.App {
	app := rolecli.NewApp("bxctl", "the operator's commands for a Boxmaker home", commands()...)
	app.Flags = []cli.Flag{
		&cli.StringFlag{Name: "broker-config", Usage: "brokerd's config `PATH` (default: $BOXMAKER_HOME/etc/brokerd.toml, else /etc/boxmaker/brokerd.toml)"},
		&cli.StringFlag{Name: "memory-config", Usage: "memoryd's config `PATH` (default: $BOXMAKER_HOME/etc/memoryd.toml, else /etc/boxmaker/memoryd.toml)"},
		&cli.StringFlag{Name: "loop-config", Usage: "loopd's config `PATH` (default: $BOXMAKER_HOME/etc/loopd.toml, else /etc/boxmaker/loopd.toml)"},
	}
	return app
}

// commands lists every area's commands. Each area adds itself here.
func commands() []*cli.Command {
	var cmds []*cli.Command
	cmds = append(cmds, sanitizeCommands()...)
	cmds = append(cmds, grantsCommands()...)
	cmds = append(cmds, auditCommands()...)
	cmds = append(cmds, approvalCommands()...)
	cmds = append(cmds, chatCommands()...)
	cmds = append(cmds, memoryCommands()...)
	return cmds
}

// configPath finds a daemon's configuration for a bxctl command: the
// global flag, else the usual search.
func configPath(c *cli.Context, flag, role string) string {
	return rolecli.ConfigPath(c.String(flag), role)
}
