// Package boxmaker holds the commands of the binary itself, as opposed to
// its roles: version, links, init, gate, tools-image, mcp-image and the hidden
// tool-exec (and, as they are built, up and demo).
package boxmaker

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/home"
	"boxmaker/core/role"
	"boxmaker/roles/rolecli"
	"boxmaker/runbook"
	"boxmaker/runbook/gate"
)

// Build says what was built: set by main from the linker flags.
type Build struct {
	Version string
	Commit  string
	// Apps are the command lines of the binary and of every role it
	// has, for the completion and the man pages.
	Apps func() []*cli.App
}

// Commands are the binary's own commands, for main's dispatch table.
// checks are further checks `boxmaker gate` runs (the sanitizer corpora, for
// one), each returning its problems.
func Commands(b Build, roles []role.Role, checks ...GateCheck) []*cli.Command {
	return append(installCommands(b, roles),
		llamaStandinCommand(),
		completionCommand(b),
		manCommand(b),
		upCommand(roles),
		demoCommand(roles),
		&cli.Command{
			Name:  "version",
			Usage: "print the version and the commit it was built from",
			Flags: []cli.Flag{rolecli.JSONFlag},
			Action: rolecli.NoArgs(func(c *cli.Context) error {
				if rolecli.WantsJSON(c) {
					return rolecli.WriteJSON(c.App.Writer, struct {
						Version string `json:"version"`
						Commit  string `json:"commit"`
					}{b.Version, b.Commit})
				}
				fmt.Printf("boxmaker %s (commit %s)\n", b.Version, b.Commit)
				return nil
			}),
		},
		&cli.Command{
			Name:      "links",
			Usage:     "make a symlink named after each role in DIR, pointing at this binary",
			ArgsUsage: "DIR",
			Action: func(c *cli.Context) error {
				if err := rolecli.ExactArgs(c, 1, "one argument, DIR"); err != nil {
					return err
				}
				return links(c.Args().First(), roles)
			},
		},
		&cli.Command{
			Name:  "init",
			Usage: "create a development home with a commented configuration for every role",
			Description: "init makes the home's directories (0700) and writes etc/<role>.toml for each\n" +
				"role and an empty etc/grants/, every path inside the home. It does not\n" +
				"overwrite a configuration that exists unless --force is given. gatewayd.toml\n" +
				"is written with every line a comment: it needs a Mattermost server, a token\n" +
				"and user ids that only you know, and up starts gatewayd once it sets any.\n\n" +
				"memoryd.toml has [memory] review = true: the agent's writes to memory.md and\n" +
				"user.md wait for bxctl memory accept (review = false lets a public, trusted\n" +
				"session write them directly; the runbook's memory-write-staged says more).\n\n" +
				"init runs as root (with sudo), as the daemons do; run as another user, or on a\n" +
				"home a user made, it refuses at once (the runbook's run-as-root). With an owner\n" +
				"it names the owner's uid in brokerd's, loopd's and memoryd's allow_uids and\n" +
				"shares the home, etc/ and run/ (0750) and the configs (0640) with the owner's\n" +
				"group, so that the owner's own bxctl reaches the home. On a home whose\n" +
				"brokerd.toml exists, --owner is written into it and init says so.\n\n" +
				"brokerd.toml's [runner] owner_uid and owner_gid name the user brokerd acts\n" +
				"for: the files tools write belong to them. init writes --owner, else the\n" +
				"user running it (the one sudo names, when run with sudo as root); run as\n" +
				"root without either, it writes 0, and brokerd runs no file tool until the\n" +
				"owner is set.\n\n" +
				"With --model-url, inferproxy.toml's upstream is that server, and when it\n" +
				"answers, loopd.toml's model is the id its /v1/models reports (or --model) and\n" +
				"[expect] is what its /props reports, which loopd's selftest then checks at\n" +
				"every start. A server that does not answer yet leaves them as they are, and\n" +
				"init says how to fill them later (loopd selftest --print-expect).",
			Flags: []cli.Flag{
				homeFlag,
				&cli.BoolFlag{Name: "force", Usage: "replace configuration files that exist"},
				&cli.StringFlag{Name: "owner", Usage: "the user brokerd acts for, as `UID:GID` (default: the user running init)"},
				&cli.StringFlag{Name: "model-url", Usage: "the llama-server at `URL` (such as http://127.0.0.1:8080): inferproxy's upstream, and, when it answers, loopd's model and [expect]"},
				modelFlag,
			},
			Action: rolecli.NoArgs(func(c *cli.Context) error {
				dir := homeOf(c)
				if err := rootShape("init", dir); err != nil {
					return err
				}
				uid, gid, err := initOwner(c.String("owner"))
				if err != nil {
					return err
				}
				var ms modelServer
				if u := c.String("model-url"); u != "" {
					if ms, err = askModelServer(c.Context, u, c.String("model")); err != nil {
						return err
					}
				} else if c.String("model") != "" {
					return rolecli.Usagef("--model names the model at --model-url; give --model-url too")
				}
				return initHome(dir, c.Bool("force"), uid, gid, c.String("owner") != "", ms)
			}),
		},
		&cli.Command{
			Name:  "gate",
			Usage: "check the runbook against the code (CI runs it)",
			Description: "gate prints file:line: problem for each entry used in code without a heading\n" +
				"in docs/runbook.md, each heading no code uses, each file outside runbook/ that\n" +
				"writes the runbook link by hand, and each quoted message that no longer\n" +
				"stands in the file it quotes. It exits 1 when it finds any.",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "root", Value: ".", Usage: "the repository `DIR`"},
			},
			Action: rolecli.NoArgs(func(c *cli.Context) error {
				return runGate(c.String("root"), checks)
			}),
		},
		toolsImageCommand(),
		mcpImageCommand(),
		toolExecCommand(),
		egressProxyCommand(),
	)
}

func links(dir string, roles []role.Role) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find this binary: %w", err)
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return fmt.Errorf("cannot find this binary: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, r := range roles {
		p := filepath.Join(dir, r.String())
		if fi, err := os.Lstat(p); err == nil {
			if fi.Mode()&fs.ModeSymlink == 0 {
				return fmt.Errorf("%s exists and is not a symbolic link; not replacing it", p)
			}
			if err := os.Remove(p); err != nil {
				return err
			}
		}
		if err := os.Symlink(exe, p); err != nil {
			return err
		}
	}
	fmt.Printf("links: %s -> %s (%s)\n", dir, exe, strings.Join(role.Names(roles), ", "))
	return nil
}

// rootShape refuses, before anything is done, what Boxmaker does not
// support (D880): verb run as another user than root, or on a home an
// ordinary user made.
func rootShape(verb, dir string) error {
	if uid := os.Geteuid(); uid != 0 {
		return runbook.Refuse(runbook.RunAsRoot,
			"boxmaker %s runs as uid %d, and Boxmaker's daemons run as root: the tools run in root's Podman (rootless Podman is not supported); run it with sudo (sudo env PATH=\"$PATH\" boxmaker %s ...), and your own bxctl reaches the home", verb, uid, verb)
	}
	return home.Home{Dir: dir}.RootOwned()
}

// initOwner is the owner init writes: --owner UID:GID, else the user
// running init, else (root) the user sudo names; 0:0 when none is known.
func initOwner(flag string) (uid, gid int, err error) {
	if flag != "" {
		u, g, ok := strings.Cut(flag, ":")
		uid, uerr := strconv.Atoi(u)
		gid, gerr := strconv.Atoi(g)
		if !ok || uerr != nil || gerr != nil || uid <= 0 || gid <= 0 {
			return 0, 0, rolecli.Usagef("--owner %q is not UID:GID of a user other than root (for example 1000:1000)", flag)
		}
		return uid, gid, nil
	}
	if os.Geteuid() != 0 {
		return os.Geteuid(), os.Getegid(), nil
	}
	uid, uerr := strconv.Atoi(os.Getenv("SUDO_UID"))
	gid, gerr := strconv.Atoi(os.Getenv("SUDO_GID"))
	if uerr == nil && gerr == nil && uid > 0 && gid > 0 {
		return uid, gid, nil
	}
	return 0, 0, nil
}

func initHome(dir string, force bool, ownerUID, ownerGID int, ownerGiven bool, ms modelServer) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if strings.ContainsAny(abs, "\"\\\n") {
		return rolecli.Usagef("the home %q has a character a configuration value cannot hold (\", \\ or a newline)", abs)
	}
	h := home.Home{Dir: abs}
	if err := h.Create(); err != nil {
		return err
	}
	// The tools image's ID follows from this binary and busybox alone
	// (docs/decisions.md), so init can pin it before it is loaded.
	toolsImage, err := toolsImageID()
	if err != nil {
		fmt.Printf("init: [runner] image left empty: %v\n", err)
	}
	keptBroker := ""
	// The owner's bxctl reaches the home (D880): its uid in the daemons'
	// allow_uids, and the home shared with its group once written.
	peers, configs, kept := "", []string{}, []string{}
	if ownerUID > 0 && os.Geteuid() == 0 {
		peers = strconv.Itoa(ownerUID)
	}
	for _, r := range conf.Files() {
		p := h.Config(r.Name)
		flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
		if force {
			flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		}
		f, err := os.OpenFile(p, flags, 0o600)
		if errors.Is(err, fs.ErrExist) {
			fmt.Printf("init: kept %s (it exists; --force replaces it)\n", p)
			if r.Name == role.Brokerd {
				keptBroker = p
			}
			if r.Name == role.Brokerd || r.Name == role.Loopd || r.Name == role.Memoryd {
				kept = append(kept, p)
			}
			configs = append(configs, p)
			continue
		}
		if err != nil {
			return err
		}
		_, werr := f.WriteString(r.RenderWith(ms.fill(conf.TemplateData{Home: abs, ToolsImage: toolsImage, OwnerUID: ownerUID, OwnerGID: ownerGID, AllowUIDs: peers})))
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return werr
		}
		configs = append(configs, p)
		fmt.Printf("init: wrote %s\n", p)
		if r.Name == role.Memoryd {
			fmt.Println("init: [memory] review = true: the agent's writes to memory.md and user.md wait for you (bxctl memory review, bxctl memory accept EDIT)")
		}
	}
	if toolsImage != "" {
		fmt.Printf("init: [runner] image is %s; boxmaker tools-image loads it\n", toolsImage)
	}
	if keptBroker != "" {
		if err := keptOwner(keptBroker, ownerUID, ownerGID, ownerGiven); err != nil {
			return err
		}
	} else if ownerUID == 0 {
		fmt.Println("init: [runner] owner_uid and owner_gid left 0: brokerd runs no file tool until they name the user it acts for (init --owner UID:GID)")
	} else {
		fmt.Printf("init: [runner] tools act for the owner %d:%d; their files belong to that user\n", ownerUID, ownerGID)
	}
	if peers != "" {
		if err := h.Share(ownerGID, configs); err != nil {
			return err
		}
		fmt.Printf("init: the home is root's, shared with group %d: the owner's bxctl reads its configs and reaches its daemons (allow_uids = [%d] in brokerd.toml, loopd.toml and memoryd.toml it wrote)\n", ownerGID, ownerUID)
		for _, p := range kept {
			if !allowsUID(p, uint32(ownerUID)) {
				fmt.Printf("init: %s was kept, and its [sockets] allow_uids does not name the owner %d: the daemon refuses the owner's bxctl until it does (add %d there, then restart the daemon)\n", p, ownerUID, ownerUID)
			}
		}
	}
	ms.report(h)
	fmt.Printf("init: home %s is ready; grants go in %s\n", abs, h.Grants())
	return nil
}

// gateHint follows the gate's problems.
const gateHint = "each line above is <file>:<line>: <problem>; an entry needs its heading in docs/runbook.md, with the five parts its first section names; run boxmaker gate again once each is fixed"

// GateCheck is one further check of the gate.
type GateCheck func(root string) ([]runbook.Problem, error)

func runGate(root string, checks []GateCheck) error {
	problems, err := gate.Check(root)
	if err != nil {
		return err
	}
	for _, check := range checks {
		more, err := check(root)
		if err != nil {
			return err
		}
		problems = append(problems, more...)
	}
	for _, p := range problems {
		fmt.Println(p)
	}
	switch len(problems) {
	case 0:
	case 1:
		return rolecli.WithHint(errors.New("gate: 1 problem"), gateHint)
	default:
		return rolecli.WithHint(fmt.Errorf("gate: %d problems", len(problems)), gateHint)
	}
	fmt.Println("gate: ok")
	return nil
}
