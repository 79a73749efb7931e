package boxmaker

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/pelletier/go-toml/v2"
	"github.com/urfave/cli/v2"

	"boxmaker/core/atomicfile"
	"boxmaker/core/home"
	"boxmaker/core/patherror"
	"boxmaker/core/policy"
	"boxmaker/core/role"
	"boxmaker/core/runner"
	"boxmaker/core/termsafe"
	"boxmaker/core/yaag/workspace"
	"boxmaker/roles/rolecli"
)

// defaultBusybox is where Debian's busybox-static puts its binary.
const defaultBusybox = "/bin/busybox"

// The flags of the commands that build the tools image (tools-image, and
// demo when Podman does not have it).
var (
	busyboxFlag = &cli.StringFlag{Name: "busybox", Value: defaultBusybox, Usage: "the static busybox `FILE` for the tools image (Debian: busybox-static)"}
	podmanFlag  = &cli.StringFlag{Name: "podman", Value: "podman", Usage: "the Podman `PROGRAM`"}
)

func toolsImageCommand() *cli.Command {
	return &cli.Command{
		Name:  "tools-image",
		Usage: "build the tools image offline, load it into Podman and print its ID",
		Description: "tools-image builds an OCI image holding this binary (the tool executor; it must\n" +
			"be the static build of scripts/build.sh) and busybox for the run tool, loads it\n" +
			"with podman load, and prints its ID: put that in brokerd.toml's [runner] image.\n" +
			"The same binary and busybox always give the same ID; loading again is harmless.\n" +
			"It says whether the home's brokerd.toml names that ID already.",
		Flags: []cli.Flag{
			homeFlag,
			&cli.StringFlag{Name: "out", Usage: "also keep the oci-archive as `FILE`"},
			busyboxFlag,
			podmanFlag,
			&cli.BoolFlag{Name: "no-load", Usage: "only write the archive (needs --out)"},
		},
		Action: rolecli.NoArgs(func(c *cli.Context) error {
			if c.Bool("no-load") && c.String("out") == "" {
				return rolecli.Usagef("--no-load needs --out")
			}
			exe, err := executable()
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			id, err := buildToolsImage(ctx, runner.ToolsImage{Executor: exe, Busybox: c.String("busybox")},
				c.String("out"), c.String("podman"), !c.Bool("no-load"))
			if err != nil {
				return err
			}
			if !c.Bool("no-load") {
				fmt.Fprintln(os.Stderr, "boxmaker: tools-image: "+imageNamed(home.Home{Dir: homeOf(c)}.Config(role.Brokerd), id))
			}
			fmt.Println(id)
			return nil
		}),
	}
}

// executable is this binary, links resolved: what goes into the image.
func executable() (string, error) {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return "", fmt.Errorf("cannot find this binary: %w", err)
	}
	return exe, nil
}

// buildToolsImage writes the archive (to out, else to a temporary file)
// and loads it. Progress goes to stderr; stdout carries only the ID.
func buildToolsImage(ctx context.Context, img runner.ToolsImage, out, podman string, load bool) (string, error) {
	path := out
	if path == "" {
		f, err := os.CreateTemp("", "boxmaker-tools-*.tar")
		if err != nil {
			return "", err
		}
		path = f.Name()
		f.Close()
		defer os.Remove(path)
	}
	// In memory first (the image is the size of two binaries), so a
	// failure leaves no partial archive at out.
	var buf bytes.Buffer
	id, err := img.WriteArchive(&buf)
	if err == nil {
		err = atomicfile.WriteFile(path, buf.Bytes(), 0o644)
	}
	if err != nil {
		return "", fmt.Errorf("tools image: %w", err)
	}
	if out != "" {
		fmt.Fprintf(os.Stderr, "boxmaker: tools-image: wrote %s\n", out)
	}
	if !load {
		return id, nil
	}
	if err := runner.LoadImage(ctx, podman, path, id); err != nil {
		return "", fmt.Errorf("tools image: %w", err)
	}
	fmt.Fprintf(os.Stderr, "boxmaker: tools-image: loaded %s as %s\n", id, runner.ToolsImageName)
	return id, nil
}

// imageNamed says whether the brokerd config at path names the image id
// in [runner] image already, and what to do when it does not.
func imageNamed(path, id string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("no %s to check (%v): put the ID in brokerd.toml's [runner] image", path, patherror.Reason(err))
	}
	var cfg struct {
		Runner struct {
			Image string `toml:"image"`
		} `toml:"runner"`
	}
	if err := toml.Unmarshal(data, &cfg); err != nil {
		return fmt.Sprintf("%s cannot be read (%v): put the ID in its [runner] image", path, err)
	}
	switch cfg.Runner.Image {
	case id:
		return fmt.Sprintf("%s names this image already ([runner] image); nothing to change", path)
	case "":
		return fmt.Sprintf("%s names no image yet: put the ID in its [runner] image, and restart brokerd", path)
	}
	return fmt.Sprintf("%s names another image, %s: put the ID in its [runner] image to use this one, and restart brokerd", path, termsafe.Line(cfg.Runner.Image))
}

// toolsImageID is the ID tools-image would print, for init: computed from
// this binary and busybox, without Podman.
func toolsImageID() (string, error) {
	exe, err := executable()
	if err != nil {
		return "", err
	}
	return runner.ToolsImage{Executor: exe, Busybox: defaultBusybox}.ID()
}

// toolExecCommand is the tool executor, run by the runner inside the
// container: one JSON request as its argument, one JSON result on stdout.
// It is hidden: a person has no use for it.
func toolExecCommand() *cli.Command {
	return &cli.Command{
		Name:      runner.CommandToolExec,
		Hidden:    true,
		Usage:     "run one tool call inside the tools container (the runner's executor)",
		ArgsUsage: "REQUEST",
		Action: func(c *cli.Context) error {
			if err := rolecli.ExactArgs(c, 1, "one argument, the request as JSON"); err != nil {
				return err
			}
			var req runner.Request
			if err := json.Unmarshal([]byte(c.Args().First()), &req); err != nil {
				return rolecli.Usagef("the request is not JSON: %v", err)
			}
			var res runner.Result
			if req.Tool == string(policy.YaagSetupWorkspace) {
				res = runner.SetupWorkspace(req, workspace.Write, string(workspace.TextWritten))
			} else {
				res = runner.Execute(context.Background(), req, os.Stdin)
			}
			return json.NewEncoder(os.Stdout).Encode(res)
		},
	}
}
