// Command boxmaker is Boxmaker's one binary. The name it is started under
// picks the role (a symlink named brokerd is brokerd); started as boxmaker,
// its first argument does. This file is the dispatch table and the one
// place that decides the exit status: 0, 1 for a failure, 2 for usage.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"boxmaker/core/role"
	// Its init holds the collector back while the process starts.
	_ "boxmaker/core/startgc"
	"boxmaker/roles/boxmaker"
	"boxmaker/roles/brokerd"
	"boxmaker/roles/bxctl"
	"boxmaker/roles/gatewayd"
	"boxmaker/roles/inferproxy"
	"boxmaker/roles/loopd"
	"boxmaker/roles/memoryd"
	"boxmaker/roles/rolecli"
	"boxmaker/roles/yaag"
	"boxmaker/sanitize"
)

// Set by the linker: -X main.version=... -X main.commit=...
var (
	version = "dev"
	commit  = "unknown"
)

// roles maps each role (core/role) to its command line. A role a later
// issue builds is absent until then.
var roles = map[role.Role]func() *cli.App{
	role.Brokerd:    brokerd.App,
	role.Bxctl:      bxctl.App,
	role.Gatewayd:   gatewayd.App,
	role.Inferproxy: inferproxy.App,
	role.Loopd:      loopd.App,
	role.Memoryd:    memoryd.App,
	role.Yaag:       yaag.App,
}

func main() { os.Exit(run(os.Args)) }

func run(args []string) int {
	reason := rolecli.TakeReasonFD()
	r, ok := builtRole(roleName(args[0]))
	if !ok {
		args = args[1:]
		if len(args) > 0 {
			r, ok = builtRole(args[0])
		}
	}
	name := "boxmaker"
	var app *cli.App
	if ok {
		name = r.String()
		rolecli.NameProcess(r)
		app = roles[r]()
		args[0] = name
	} else {
		app = boxmakerApp()
		args = append([]string{name}, args...)
	}
	showVersion(app)
	err := app.Run(args)
	rolecli.WriteReason(reason, err) // for boxmaker up, which started this one
	return exitStatus(name, err)
}

// showVersion gives app --version, which prints what 'boxmaker version'
// does, under the app's name (bxctl --version: bxctl dev (commit ...)).
// The flag has no short form: -v is free for the roles.
func showVersion(app *cli.App) {
	app.HideVersion = false
	app.Version = version
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Usage: "print the version and the commit it was built from"}
	cli.VersionPrinter = func(c *cli.Context) {
		fmt.Fprintf(c.App.Writer, "%s %s (commit %s)\n", c.App.Name, version, commit)
	}
}

// allApps are the binary's command line and each role's, as they run.
func allApps() []*cli.App {
	apps := []*cli.App{boxmakerApp()}
	for _, r := range builtRoles() {
		apps = append(apps, roles[r]())
	}
	for _, a := range apps {
		showVersion(a)
	}
	return apps
}

func boxmakerApp() *cli.App {
	app := rolecli.NewApp("boxmaker", "a self-hosted agent harness: one binary, one role per name",
		boxmaker.Commands(boxmaker.Build{Version: version, Commit: commit, Apps: allApps}, builtRoles(), sanitize.CheckCorpora)...)
	app.Description = "Run a role as 'boxmaker ROLE ...' or through a symlink named after it\n" +
		"(boxmaker links DIR makes them). The roles: " + strings.Join(roleNames(), ", ") + "."
	app.Action = func(c *cli.Context) error {
		if done, err := rolecli.HelpWord(c, "boxmaker", c.App.Commands); done {
			return err
		}
		if c.NArg() > 0 {
			return unknownRoleOrCommand(c.Args().First(), c.App.Commands)
		}
		cli.ShowAppHelp(c)
		return rolecli.Usagef("a role or a command is needed")
	}
	return app
}

// unknownRoleOrCommand is the usage error for a first word that is
// neither a role nor one of the binary's commands.
func unknownRoleOrCommand(word string, cmds []*cli.Command) error {
	var names []string
	for _, c := range cmds {
		if !c.Hidden && c.Name != "help" {
			names = append(names, c.Name)
		}
	}
	msg := fmt.Sprintf("unknown command %q", word)
	if near := rolecli.Nearest(word, append(roleNames(), names...)); near != "" {
		msg += fmt.Sprintf("; did you mean %q?", near)
	}
	return rolecli.Usagef("%s (the roles are %s; the commands are %s; see boxmaker --help)",
		msg, strings.Join(roleNames(), ", "), strings.Join(names, ", "))
}

// builtRole is the role named name when this binary has it.
func builtRole(name string) (role.Role, bool) {
	r, ok := role.Lookup(name)
	if _, built := roles[r]; !ok || !built {
		return role.Role{}, false
	}
	return r, true
}

// builtRoles are the roles this binary has, sorted by name.
func builtRoles() []role.Role {
	var rs []role.Role
	for _, r := range role.All() {
		if _, ok := roles[r]; ok {
			rs = append(rs, r)
		}
	}
	return rs
}

func roleNames() []string { return role.Names(builtRoles()) }

// roleName is the name the binary was started under: through a chain of
// symlinks, the name of the last link, the one that points at the binary.
func roleName(argv0 string) string {
	p := argv0
	if !strings.Contains(p, "/") {
		found, err := exec.LookPath(p)
		if err != nil {
			return p
		}
		p = found
	}
	name := filepath.Base(p)
	for range 40 {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			break
		}
		name = filepath.Base(p)
		target, err := os.Readlink(p)
		if err != nil {
			break
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
	}
	return name
}

func exitStatus(name string, err error) int {
	if err == nil {
		return 0
	}
	var status *rolecli.StatusError
	if errors.As(err, &status) {
		return status.Code
	}
	// An error may quote what the model or a file said: escaped, on one
	// line, as every daemon's lines are.
	rolecli.WriteError(os.Stderr, name, err)
	var usage *rolecli.UsageError
	if errors.As(err, &usage) {
		return 2
	}
	return 1
}
