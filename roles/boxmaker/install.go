package boxmaker

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/deploy"
	"boxmaker/core/role"
	"boxmaker/core/runner"
	"boxmaker/roles/rolecli"
)

func installCommands(b Build, roles []role.Role) []*cli.Command {
	root := &cli.StringFlag{Name: "root", Hidden: true, Usage: "write every file under `DIR` instead of / (tests)"}
	dryRun := &cli.BoolFlag{Name: "dry-run", Usage: "print every step and change nothing"}
	return []*cli.Command{
		{
			Name:  "install",
			Usage: "install this binary on the host as systemd services, or upgrade an older install to it",
			Description: "install copies this binary to PREFIX/bin with a link per role, writes\n" +
				"/etc/boxmaker/<role>.toml where missing (never over a file that exists), makes\n" +
				"/etc/boxmaker/grants and the home /var/lib/boxmaker (0700), writes the units\n" +
				"(<role>.service and boxmaker.target in /etc/systemd/system) and loads the tools\n" +
				"image into root's Podman. Over an older install it is an upgrade: every config\n" +
				"is checked with the new binary (<role> serve --check-config) before anything\n" +
				"installed changes, the binary is replaced in one rename, and the daemons that\n" +
				"run are restarted in order; a failed check leaves the old version running.\n" +
				"It prints each step as it does it (--dry-run: only prints them), then what\n" +
				"is left for you. See docs/deployment.md.",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "prefix", Value: deploy.DefaultPrefix, Usage: "install the binary and its links in `DIR`/bin"},
				&cli.StringFlag{Name: "user", Usage: "the user tools act as, written as brokerd.toml's [runner] owner_uid and owner_gid: it must exist (default: the system user boxmaker, made if missing)"},
				dryRun,
				root,
			},
			Action: rolecli.NoArgs(func(c *cli.Context) error {
				return install(c, b, roles)
			}),
		},
		{
			Name:  "uninstall",
			Usage: "remove what boxmaker install made; the home and the configs stay unless named",
			Description: "uninstall stops and disables the units, removes them, the role links and the\n" +
				"binary. The home (/var/lib/boxmaker: the audit log, sessions, memory) stays\n" +
				"unless --remove-home is given; /etc/boxmaker and gatewayd's encrypted token\n" +
				"stay unless --remove-config is given.",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "prefix", Value: deploy.DefaultPrefix, Usage: "the binary and its links are in `DIR`/bin"},
				&cli.BoolFlag{Name: "remove-home", Usage: "also remove " + deploy.Home + ", the audit log with it"},
				&cli.BoolFlag{Name: "remove-config", Usage: "also remove " + deploy.ConfigDir + " (configs and grants) and " + deploy.CredentialFile},
				dryRun,
				root,
			},
			Action: rolecli.NoArgs(func(c *cli.Context) error {
				if err := needRoot(c, "uninstall"); err != nil {
					return err
				}
				u := &deploy.Uninstall{
					Layout:       deploy.Layout{Root: c.String("root"), Prefix: c.String("prefix")},
					Roles:        roles,
					RemoveHome:   c.Bool("remove-home"),
					RemoveConfig: c.Bool("remove-config"),
					Host:         hostTools{},
				}
				return deploy.Run(os.Stdout, "uninstall", u.Plan(), c.Bool("dry-run"))
			}),
		},
	}
}

func needRoot(c *cli.Context, verb string) error {
	if c.Bool("dry-run") || c.String("root") != "" || os.Geteuid() == 0 {
		return nil
	}
	return fmt.Errorf("%s needs root: it writes %s, /etc and /var/lib (--dry-run prints the steps without)", verb, c.String("prefix"))
}

func install(c *cli.Context, b Build, roles []role.Role) error {
	if err := needRoot(c, "install"); err != nil {
		return err
	}
	exe, err := executable()
	if err != nil {
		return err
	}
	image, err := runner.ToolsImage{Executor: exe, Busybox: defaultBusybox}.ID()
	if err != nil {
		return fmt.Errorf("cannot install %s: %w", exe, err)
	}
	var configs []deploy.Config
	for _, r := range conf.Roles {
		if !slices.Contains(roles, r.Name) {
			continue
		}
		data := conf.TemplateData{Home: deploy.Home, Grants: deploy.GrantsDir, ToolsImage: image}
		c := deploy.Config{Role: r.Name, Text: r.RenderWith(data)}
		if r.Name == role.Brokerd { // [runner] owner_uid, owner_gid: the user the tools act for (D521)
			c.ForOwner = func(uid, gid int) string {
				d := data
				d.OwnerUID, d.OwnerGID = uid, gid
				return r.RenderWith(d)
			}
		}
		configs = append(configs, c)
	}
	// An optional daemon's config (gatewayd's) is the owner's to write;
	// one that exists is checked with the new binary like the others.
	layout := deploy.Layout{Root: c.String("root"), Prefix: c.String("prefix")}
	for _, r := range conf.Optional {
		if _, err := os.Stat(layout.OnDisk(deploy.ConfigFile(r.Name))); err == nil && slices.Contains(roles, r.Name) {
			configs = append(configs, deploy.Config{Role: r.Name})
		}
	}
	toolsUser, create := c.String("user"), false
	if toolsUser == "" {
		toolsUser, create = deploy.DefaultToolsUser, true
	}
	in := &deploy.Install{
		Layout:    deploy.Layout{Root: c.String("root"), Prefix: c.String("prefix")},
		NewBinary: exe,
		Roles:     roles,
		Configs:   configs,
		User:      toolsUser, CreateUser: create,
		Host: hostTools{noImage: c.String("root") != ""},
		Out:  os.Stdout,
	}
	steps, upgrade, err := in.Plan()
	if err != nil {
		return err
	}
	if err := deploy.Run(os.Stdout, "install", steps, c.Bool("dry-run")); err != nil {
		in.Abandon()
		return err
	}
	if c.Bool("dry-run") {
		return nil
	}
	if upgrade {
		fmt.Printf("install: upgraded to boxmaker %s (commit %s); the configs and the home were kept\n", b.Version, b.Commit)
		return nil
	}
	fmt.Printf("install: boxmaker %s is installed. What is left for you:\n", b.Version)
	for i, s := range deploy.OwnerSteps(in.Layout, toolsUser) {
		fmt.Printf("  %d. %s\n", i+1, s)
	}
	return nil
}

// hostTools is deploy.Host on the real host. With noImage (a --root
// install, for tests) the tools image is not loaded.
type hostTools struct{ noImage bool }

func (hostTools) CheckConfig(binary string, r role.Role, config string) error {
	out, err := exec.Command(binary, rolecli.CheckConfigArgs(r, config)...).CombinedOutput()
	if err != nil {
		if msg := strings.TrimSpace(string(out)); msg != "" {
			return errors.New(msg)
		}
		return err
	}
	return nil
}

func (hostTools) ToolsImageID(binary string) (string, error) {
	return runner.ToolsImage{Executor: binary, Busybox: defaultBusybox}.ID()
}

func (h hostTools) LoadToolsImage(binary string) error {
	if h.noImage {
		fmt.Println("install:    (not loaded: --root)")
		return nil
	}
	cmd := exec.Command(binary, "tools-image")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}

func (hostTools) Systemd() bool {
	fi, err := os.Stat("/run/systemd/system")
	return err == nil && fi.IsDir()
}

func (hostTools) Systemctl(args ...string) error {
	cmd := exec.Command("systemctl", args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("systemctl %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

func (hostTools) EnsureUser(name string, create bool) (int, int, error) {
	u, err := user.Lookup(name)
	var unknown user.UnknownUserError
	if errors.As(err, &unknown) && create {
		out, cerr := exec.Command("useradd", "--system", "--user-group", "--no-create-home",
			"--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", "--comment", "Boxmaker tools", name).CombinedOutput()
		if cerr != nil {
			return 0, 0, fmt.Errorf("useradd %s: %v: %s", name, cerr, strings.TrimSpace(string(out)))
		}
		u, err = user.Lookup(name)
	}
	if err != nil {
		return 0, 0, err
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if uid == 0 {
		return 0, 0, fmt.Errorf("the tools' user %s is uid 0: tools never run as root", name)
	}
	return uid, gid, nil
}
