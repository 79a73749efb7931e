// Package rolecli is what the role packages share on the command line:
// finding the home and a role's configuration, building an app whose usage
// errors are told apart, and running a daemon's sockets until a signal.
// It reads the environment so that core/ never has to.
package rolecli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
)

// UsageError is a command line that cannot be understood: exit status 2.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef builds a usage error.
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// NewApp builds a role's app: it never exits by itself (main.go decides the
// exit status) and it marks flag and argument errors as usage errors.
func NewApp(name, usage string, commands ...*cli.Command) *cli.App {
	app := &cli.App{
		Name:            name,
		Usage:           usage,
		HelpName:        name,
		Commands:        commands,
		HideVersion:     true,
		ExitErrHandler:  func(*cli.Context, error) {},
		OnUsageError:    onUsageError,
		Writer:          os.Stdout,
		ErrWriter:       os.Stderr,
		CommandNotFound: func(c *cli.Context, cmd string) {},
	}
	app.Action = func(c *cli.Context) error {
		if c.NArg() > 0 {
			return Usagef("unknown command %q (see %s --help)", c.Args().First(), name)
		}
		cli.ShowAppHelp(c)
		return Usagef("a command is needed")
	}
	markUsage(commands)
	return app
}

func onUsageError(_ *cli.Context, err error, _ bool) error { return &UsageError{Err: err} }

func markUsage(cmds []*cli.Command) {
	for _, c := range cmds {
		if c.OnUsageError == nil {
			c.OnUsageError = onUsageError
		}
		markUsage(c.Subcommands)
	}
}

// ExactArgs checks the number of positional arguments.
func ExactArgs(c *cli.Context, n int, names string) error {
	if c.NArg() != n {
		return Usagef("%s takes %s (see %s --help)", c.Command.FullName(), names, c.Command.HelpName)
	}
	return nil
}

// DefaultHome is $BOXMAKER_HOME, else the .state folder of the repository
// checkout the working directory is in, else /var/lib/boxmaker.
func DefaultHome() string {
	if h := os.Getenv("BOXMAKER_HOME"); h != "" {
		return h
	}
	if root, ok := checkoutRoot(); ok {
		return filepath.Join(root, ".state")
	}
	return "/var/lib/boxmaker"
}

// checkoutRoot finds the Boxmaker repository around the working directory:
// a go.mod declaring module boxmaker.
func checkoutRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			first, _, _ := strings.Cut(string(data), "\n")
			return dir, strings.TrimSpace(first) == "module boxmaker"
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// ConfigPath finds role's configuration: --config, else
// $BOXMAKER_HOME/etc/<role>.toml when it exists, else
// /etc/boxmaker/<role>.toml.
func ConfigPath(flag, role string) string {
	if flag != "" {
		return flag
	}
	p := filepath.Join(DefaultHome(), "etc", role+".toml")
	if _, err := os.Stat(p); err == nil || !errors.Is(err, os.ErrNotExist) {
		return p
	}
	return filepath.Join("/etc/boxmaker", role+".toml")
}

// ConfigFlag is the --config flag every role takes.
func ConfigFlag(role string) *cli.StringFlag {
	return &cli.StringFlag{
		Name:  "config",
		Usage: fmt.Sprintf("read `PATH` (default: $BOXMAKER_HOME/etc/%s.toml, else /etc/boxmaker/%s.toml)", role, role),
	}
}
