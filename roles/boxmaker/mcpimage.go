package boxmaker

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/urfave/cli/v2"

	"boxmaker/core/mcpimage"
	"boxmaker/roles/rolecli"
)

func mcpImageCommand() *cli.Command {
	return &cli.Command{
		Name:  "mcp-image",
		Usage: "build the image of the MCP reference servers offline, load it and print its reference",
		Description: "mcp-image builds an OCI image of the MCP reference servers (server-filesystem,\n" +
			"server-everything, server-memory) from this machine's Node.js (Debian's nodejs,\n" +
			"20 or later) and the npm packages pinned by the lockfile this binary carries\n" +
			"(npm ci --omit=dev --ignore-scripts; npm's cache makes later builds offline),\n" +
			"loads it with podman load, and prints its reference pinned by digest,\n" +
			mcpimage.Name + "@sha256:..., to put in an MCP server file's image.\n" +
			"The same node and lockfile always give the same digest. See docs/mcp.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "also keep the oci-archive as `FILE`"},
			&cli.StringFlag{Name: "node", Value: "node", Usage: "the Node.js `PROGRAM` put in the image"},
			&cli.StringFlag{Name: "npm", Value: "npm", Usage: "the npm `PROGRAM` that installs the packages"},
			podmanFlag,
			&cli.BoolFlag{Name: "no-load", Usage: "only write the archive (needs --out); prints the digest alone"},
			&cli.BoolFlag{Name: "lockfile", Usage: "print the package-lock.json that pins the packages, and do nothing else"},
		},
		Action: rolecli.NoArgs(func(c *cli.Context) error {
			if c.Bool("lockfile") {
				_, err := os.Stdout.Write(mcpimage.Lockfile())
				return err
			}
			if c.Bool("no-load") && c.String("out") == "" {
				return rolecli.Usagef("--no-load needs --out")
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			ref, err := buildMCPImage(ctx, c.String("node"), c.String("npm"), c.String("podman"), c.String("out"), !c.Bool("no-load"))
			if err != nil {
				return fmt.Errorf("mcp-image: %w", err)
			}
			fmt.Println(ref)
			return nil
		}),
	}
}

// buildMCPImage installs the packages into a temporary directory, writes
// the archive (to out, else to a temporary file) and loads it. Progress
// goes to stderr; stdout carries only the reference.
func buildMCPImage(ctx context.Context, node, npm, podman, out string, load bool) (string, error) {
	version, err := mcpimage.NodeVersion(ctx, node)
	if err != nil {
		return "", err
	}
	if node, err = exec.LookPath(node); err != nil {
		return "", err
	}
	work, err := os.MkdirTemp("", "boxmaker-mcp-image-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	fmt.Fprintf(os.Stderr, "boxmaker: mcp-image: npm ci of the pinned reference servers\n")
	if err := mcpimage.Install(ctx, npm, work); err != nil {
		return "", err
	}
	img, err := mcpimage.Image(ctx, node, work, version)
	if err != nil {
		return "", err
	}
	path := out
	if path == "" {
		path = filepath.Join(work, "image.tar")
	}
	// Written beside its place and renamed, so a failure leaves no
	// partial archive at out.
	f, err := os.CreateTemp(filepath.Dir(path), ".mcp-image-*.tar")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	w, err := img.Write(f, work)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "boxmaker: mcp-image: node %s (%s), image %s, layer %d MB\n", version, node, w.ID, w.Size>>20)
	if out != "" {
		fmt.Fprintf(os.Stderr, "boxmaker: mcp-image: wrote %s\n", out)
	}
	if !load {
		return w.Manifest, nil
	}
	ref, err := mcpimage.Load(ctx, podman, path, w)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "boxmaker: mcp-image: loaded as %s\n", mcpimage.Tag)
	return ref, nil
}
