// Package rolecli is what the role packages share on the command line:
// finding the home and a role's configuration, building an app whose usage
// errors are told apart, and a daemon's serve command, lock and sockets
// (ServeCommand, Role.Daemon), run until a signal. The daemons' roles
// (Brokerd, Memoryd, ...) are here, with the entries each fails under, so
// that the daemons and bxctl name them once. It reads the environment so
// that core/ never has to.
package rolecli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"boxmaker/core/deploy"
	homepkg "boxmaker/core/home"
	"boxmaker/core/role"
	"boxmaker/core/termsafe"
)

// UsageError is a command line that cannot be understood: exit status 2.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef builds a usage error.
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// HintedError is an error with what to do about it: main prints the
// error as "<name>: <error>" and then each hint as "<name>: hint: <hint>"
// (WriteError; docs/decisions.md, D220).
type HintedError struct {
	Err   error
	Hints []string
}

func (e *HintedError) Error() string { return e.Err.Error() }
func (e *HintedError) Unwrap() error { return e.Err }

// WithHint gives err the hints, lines that say what to do.
func WithHint(err error, hints ...string) error {
	return &HintedError{Err: err, Hints: hints}
}

// WriteError writes err as name's lines: "<name>: <error>", then each of
// its hints as "<name>: hint: <hint>", each made one safe line
// (termsafe.Line): an error may quote what the model or a file said.
func WriteError(w io.Writer, name string, err error) {
	fmt.Fprintf(w, "%s: %s\n", name, termsafe.Line(err.Error()))
	var hinted *HintedError
	if errors.As(err, &hinted) {
		for _, h := range hinted.Hints {
			fmt.Fprintf(w, "%s: hint: %s\n", name, termsafe.Line(h))
		}
	}
}

// NameProcess makes role the process's name (/proc/PID/comm), however the
// binary was started (through a link, as "boxmaker ROLE", by boxmaker up),
// so that pgrep -x and pkill -x find a daemon by its role, and ps shows
// it. The thread group leader's name is the process's; writing it through
// /proc/self works from any thread. Names are cut at 15 bytes by the
// kernel; every role's fits. A failure changes nothing but the name.
func NameProcess(r role.Role) {
	os.WriteFile("/proc/self/comm", []byte(r.String()), 0)
}

// NewApp builds a role's app: it never exits by itself (main.go decides the
// exit status) and it marks flag and argument errors as usage errors.
func NewApp(name, usage string, commands ...*cli.Command) *cli.App {
	app := &cli.App{
		Name:        name,
		Usage:       usage,
		HelpName:    name,
		Commands:    commands,
		HideVersion: true,
		// --generate-bash-completion (hidden) lists the words that may
		// follow: boxmaker completion's scripts ask it.
		EnableBashCompletion: true,
		ExitErrHandler:       func(*cli.Context, error) {},
		OnUsageError:         onUsageError,
		Writer:               os.Stdout,
		ErrWriter:            os.Stderr,
		CommandNotFound:      func(c *cli.Context, cmd string) {},
	}
	app.HideHelpCommand = true
	app.Action = commandNeeded(name, commands, cli.ShowAppHelp, "a command is needed")
	markUsage(name, commands)
	return app
}

// commandNeeded is the action of an app or a group of commands, named
// name, that does nothing but hold cmds: it answers "help [COMMAND]",
// refuses an unknown word naming cmds, and for no word at all shows the
// help (show) and is the usage error needed.
func commandNeeded(name string, cmds []*cli.Command, show func(*cli.Context) error, needed string) cli.ActionFunc {
	return func(c *cli.Context) error {
		if done, err := HelpWord(c, name, cmds); done {
			return err
		}
		if c.NArg() > 0 {
			return UnknownCommand(c.Args().First(), name, cmds)
		}
		show(c)
		return Usagef("%s (see %s --help)", needed, name)
	}
}

func onUsageError(_ *cli.Context, err error, _ bool) error { return &UsageError{Err: err} }

// markUsage makes flag errors usage errors at every level, and gives
// every command that only groups others an action: urfave/cli would show
// the group's help for a mistyped word and exit 0, so that a cron job with
// a typo passed forever.
func markUsage(parent string, cmds []*cli.Command) {
	for _, c := range cmds {
		if c.OnUsageError == nil {
			c.OnUsageError = onUsageError
		}
		full := parent + " " + c.Name
		if len(c.Subcommands) > 0 {
			// urfave/cli's help command exits 0 on a topic it does not
			// know: HelpWord answers "help" instead, in the group's action
			// (a group with an action of its own calls it too).
			c.HideHelpCommand = true
		}
		if len(c.Subcommands) > 0 && c.Action == nil {
			c.Action = commandNeeded(full, c.Subcommands, cli.ShowSubcommandHelp, full+" needs a command")
		}
		markUsage(full, c.Subcommands)
	}
}

// HelpWord answers "help [COMMAND]" where one of cmds was expected (the
// help command of urfave/cli exits 0 on a topic it does not know, so it
// is hidden and this takes its place). done is false for any other word.
func HelpWord(c *cli.Context, parent string, cmds []*cli.Command) (done bool, err error) {
	if c.Args().First() != "help" {
		return false, nil
	}
	switch topic := c.Args().Get(1); {
	case c.NArg() > 2:
		return true, Usagef("help takes one command at most (see %s --help)", parent)
	case topic == "" && c.Command != nil && c.Command.Name != "":
		return true, cli.ShowSubcommandHelp(c)
	case topic == "":
		return true, cli.ShowAppHelp(c)
	}
	for _, cmd := range cmds {
		if cmd.HasName(c.Args().Get(1)) {
			return true, cli.ShowCommandHelp(c, cmd.Name)
		}
	}
	return true, UnknownCommand(c.Args().Get(1), parent, cmds)
}

// UnknownCommand is the usage error for word where one of cmds (the
// commands of parent) was expected: it names them, and the one meant when
// word is a near miss of it.
func UnknownCommand(word, parent string, cmds []*cli.Command) error {
	var names []string
	for _, c := range cmds {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	msg := fmt.Sprintf("unknown command %q", word)
	if near := Nearest(word, names); near != "" {
		msg += fmt.Sprintf("; did you mean %q?", near)
	}
	msg += fmt.Sprintf(" (%s takes %s; see %s --help)", parent, strings.Join(names, ", "), parent)
	return &UsageError{Err: errors.New(msg)}
}

// Nearest is the name of names that word is a near miss of: one edit (a
// letter added, dropped, changed, or two swapped), or two for a name of
// more than four letters; "" when none or several are equally near (but
// of those, the one word starts with: "runx" is "run", not "runs").
func Nearest(word string, names []string) string {
	bestD := 3
	var best []string
	for _, n := range names {
		d := editDistance(word, n)
		if d > 2 || d == 2 && len([]rune(n)) <= 4 {
			continue
		}
		switch {
		case d < bestD:
			best, bestD = []string{n}, d
		case d == bestD:
			best = append(best, n)
		}
	}
	if len(best) == 1 {
		return best[0]
	}
	var prefix []string
	for _, n := range best {
		if strings.HasPrefix(word, n) {
			prefix = append(prefix, n)
		}
	}
	if len(prefix) == 1 {
		return prefix[0]
	}
	return ""
}

// editDistance is the optimal string alignment distance of a and b:
// insertions, deletions, substitutions and swaps of neighbours.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

// NoArgs is action for a command that takes no positional arguments:
// one given is a usage error (ExactArgs), and action does not run.
func NoArgs(action cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		if err := ExactArgs(c, 0, "no arguments"); err != nil {
			return err
		}
		return action(c)
	}
}

// ExactArgs checks the number of positional arguments, after setting
// the flags that came after them (ArgsAndLateFlags: "bxctl refuse ID
// --why TEXT"). The arguments stay c.Args()'s first ones.
func ExactArgs(c *cli.Context, n int, names string) error {
	args, err := ArgsAndLateFlags(c)
	if err != nil {
		return err
	}
	if len(args) != n || (n > 0 && !slices.Equal(args, c.Args().Slice()[:n])) {
		return Usagef("%s takes %s (see %s --help)", c.Command.FullName(), names, c.Command.HelpName)
	}
	return nil
}

// DefaultHome is the home when none is named. It depends on the
// environment and on where this binary is, never on the working
// directory: $BOXMAKER_HOME; else, for a binary in the bin/ folder of a
// Boxmaker checkout (what scripts/build.sh makes), that checkout's .state
// folder; else /var/lib/boxmaker, where an installed binary's home is.
func DefaultHome() string {
	if h := os.Getenv("BOXMAKER_HOME"); h != "" {
		return h
	}
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			if root, ok := checkoutOf(exe); ok {
				return filepath.Join(root, ".state")
			}
		}
	}
	return deploy.Home
}

// checkoutOf is the Boxmaker checkout whose bin/ holds exe: the parent
// of exe's directory, when that directory is named bin and the parent's
// go.mod declares module boxmaker.
func checkoutOf(exe string) (string, bool) {
	bin := filepath.Dir(exe)
	if filepath.Base(bin) != "bin" {
		return "", false
	}
	root := filepath.Dir(bin)
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", false
	}
	first, _, _ := strings.Cut(string(data), "\n")
	return root, strings.TrimSpace(first) == "module boxmaker"
}

// ConfigPath finds role's configuration: --config, else
// $BOXMAKER_HOME/etc/<role>.toml when it exists, else
// /etc/boxmaker/<role>.toml. A $BOXMAKER_HOME that does not exist gives
// the path in it, so that the daemon's error names the home that is
// missing instead of reading /etc/boxmaker.
func ConfigPath(flag string, r role.Role) string {
	p, err := FindConfig(flag, "", r)
	if err != nil {
		return homepkg.Home{Dir: os.Getenv("BOXMAKER_HOME")}.Config(r)
	}
	return p
}

// FindConfig finds role's configuration for a client: flag (--config or
// bxctl's --broker-config, ...), else etc/<role>.toml of the home (home,
// else $BOXMAKER_HOME, else DefaultHome) when it exists, else
// /etc/boxmaker/<role>.toml. A home that was named (home or
// $BOXMAKER_HOME) and does not exist is an error with a hint.
func FindConfig(flag, home string, r role.Role) (string, error) {
	if flag != "" {
		return flag, nil
	}
	named := home != "" || os.Getenv("BOXMAKER_HOME") != ""
	if home == "" {
		home = DefaultHome()
	}
	if named {
		if err := CheckHome(home); err != nil {
			return "", err
		}
	}
	p := homepkg.Home{Dir: home}.Config(r)
	if _, err := os.Stat(p); err == nil || !errors.Is(err, os.ErrNotExist) {
		return p, nil
	}
	return deploy.ConfigFile(r), nil
}

// CheckHome refuses a home directory that does not exist, saying how to
// make one.
func CheckHome(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return WithHint(fmt.Errorf("the home %s does not exist", dir),
			"boxmaker init --home "+dir+" makes it; or name the home you mean with --home or BOXMAKER_HOME")
	case err != nil:
		return fmt.Errorf("cannot use the home %s: %w", dir, err)
	case !fi.IsDir():
		return fmt.Errorf("the home %s is not a directory", dir)
	}
	return nil
}

// ServeName is every daemon's serve command; configFlag and
// checkConfigFlag are the flags each serve takes (ConfigFlag,
// CheckConfigFlag). A role reads them with ConfigOf and CheckingConfig,
// and what runs a daemon (boxmaker up, install's check) builds its
// command line with ServeArgs and CheckConfigArgs.
const (
	ServeName       = "serve"
	configFlag      = "config"
	checkConfigFlag = "check-config"
)

// AcceptBreakFlag is brokerd serve's flag that accepts a broken audit
// chain, and boxmaker up's that passes it on.
const AcceptBreakFlag = "accept-break"

// ServeArgs is the command line, after the binary, that runs r's serve
// on the configuration at path, then extra.
func ServeArgs(r role.Role, path string, extra ...string) []string {
	return append([]string{r.String(), ServeName, "--" + configFlag, path}, extra...)
}

// CheckConfigArgs is the command line, after the binary, that checks the
// configuration at path as r's start would (serve --check-config).
func CheckConfigArgs(r role.Role, path string) []string {
	return []string{r.String(), ServeName, "--" + checkConfigFlag, "--" + configFlag, path}
}

// ConfigOf is the --config (ConfigFlag) c was given, "" for none.
func ConfigOf(c *cli.Context) string { return c.String(configFlag) }

// CheckingConfig reports whether serve was given --check-config: the
// role checks what a start would, says ConfigValid, and starts nothing.
func CheckingConfig(c *cli.Context) bool { return c.Bool(checkConfigFlag) }

// ConfigFlag is the --config flag every role takes.
func ConfigFlag(r role.Role) *cli.StringFlag {
	return &cli.StringFlag{
		Name:  configFlag,
		Usage: "read `PATH` (default: " + ConfigDefault(r) + ")",
	}
}

// ConfigDefault says, for a flag's usage, where role's configuration is
// found when no flag names it (ConfigPath, FindConfig).
func ConfigDefault(r role.Role) string {
	return fmt.Sprintf("$BOXMAKER_HOME/etc/%s.toml, else /etc/boxmaker/%s.toml", r, r)
}

// CheckConfigFlag is the --check-config flag of every daemon's serve: read
// and check the configuration as a start would, then exit without taking
// a lock or touching a socket. `boxmaker install` runs it with a new
// binary before an upgrade restarts anything.
func CheckConfigFlag() *cli.BoolFlag {
	return &cli.BoolFlag{
		Name:  checkConfigFlag,
		Usage: "check the configuration as a start would, print whether it is valid, and exit (nothing is started, locked or written)",
	}
}

// ServeCommand is r's serve command: --config and --check-config before
// its other flags, and no arguments. serve gets the configuration's path
// (ConfigPath) and the configuration, read strictly and checked as
// LoadConfig does (a failure is r's StartFailed): every daemon's start
// begins there. description says what the role does besides what every
// daemon does (startHelp, which comes first in the help).
func ServeCommand[C any](r Role, usage, description string, flags []cli.Flag, serve func(c *cli.Context, path string, cfg C) error) *cli.Command {
	return &cli.Command{
		Name:        ServeName,
		Usage:       usage,
		Description: startHelp(r.Name) + "\n\n" + description,
		Flags:       append([]cli.Flag{ConfigFlag(r.Name), CheckConfigFlag()}, flags...),
		Action: NoArgs(func(c *cli.Context) error {
			path := ConfigPath(ConfigOf(c), r.Name)
			var cfg C
			if err := LoadConfig(path, &cfg, r.StartFailed); err != nil {
				return err
			}
			return serve(c, path, cfg)
		}),
	}
}

// startHelp is what every daemon's start does, as LoadConfig, Daemon and
// --check-config do it.
func startHelp(r role.Role) string {
	return fmt.Sprintf("As every daemon does, %[1]s reads its config strictly (--check-config reads\n"+
		"and checks it as a start would, then exits), takes the lock run/%[1]s.lock\n"+
		"in its home, prepares each socket in a private directory of its own, tells\n"+
		"systemd when it is ready and when it stops, and serves until SIGINT or SIGTERM.", r)
}

// ConfigValid prints the line --check-config ends with when r's
// configuration at path passes.
func (r Role) ConfigValid(path string) error {
	fmt.Printf("%s: %s: the configuration is valid\n", r.Name, path)
	return nil
}

// ArgsAndLateFlags returns c's positional arguments after setting the
// command's flags that came after them ("bxctl approvals show ID --json",
// "yaag run p.ts --record FILE"): urfave/cli v2 stops reading flags at the
// first argument. A late flag takes its value as --name=value or from the
// word after it (a boolean flag needs none); a flag the command does not
// have, or a value it cannot take, is a usage error; "--" ends the flags.
func ArgsAndLateFlags(c *cli.Context) ([]string, error) {
	flags := map[string]cli.Flag{}
	for _, f := range c.Command.Flags {
		for _, n := range f.Names() {
			flags[n] = f
		}
	}
	var args []string
	rest := c.Args().Slice()
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			return append(args, rest[i+1:]...), nil
		}
		name, isFlag := strings.CutPrefix(a, "--")
		if !isFlag {
			name, isFlag = strings.CutPrefix(a, "-")
		}
		if !isFlag || name == "" {
			args = append(args, a)
			continue
		}
		name, value, hasValue := strings.Cut(name, "=")
		f, ok := flags[name]
		if !ok {
			return nil, Usagef("%s: unknown flag %s after the arguments (see %s --help)", c.Command.FullName(), a, c.Command.HelpName)
		}
		if _, isBool := f.(*cli.BoolFlag); isBool && !hasValue {
			value, hasValue = "true", true
		}
		if !hasValue {
			if i+1 == len(rest) {
				return nil, Usagef("%s: the flag %s needs a value (see %s --help)", c.Command.FullName(), a, c.Command.HelpName)
			}
			i++
			value = rest[i]
		}
		if err := c.Set(name, value); err != nil {
			return nil, Usagef("%s: %v", c.Command.FullName(), err)
		}
	}
	return args, nil
}
