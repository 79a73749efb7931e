package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"boxmaker/core/mcpimage"
)

// The scripts' commands for MCP servers.
var mcpCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"mcpimage":    cmdMcpimage,
	"mcprefimage": cmdMcprefimage,
}

var mcpImage struct {
	once sync.Once
	ref  string // localhost/boxmaker-test-mcp@sha256:...
	err  error
}

// cmdMcpimage builds core/testpeer/mcpserver static, imports it alone as
// /srv into an image (podman import, no registry), once for the test
// binary, and sets $MCP_IMAGE to the image pinned by its digest.
//
//	mcpimage
func cmdMcpimage(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: mcpimage")
	}
	mcpImage.once.Do(func() { mcpImage.ref, mcpImage.err = buildMCPImage() })
	if mcpImage.err != nil {
		ts.Fatalf("mcpimage: %v", mcpImage.err)
	}
	ts.Setenv("MCP_IMAGE", mcpImage.ref)
}

func buildMCPImage() (string, error) {
	dir, err := os.MkdirTemp("", "mcpimage-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	root := filepath.Join(dir, "root")
	build := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(root, "srv"), "./core/testpeer/mcpserver")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return "", &exec.ExitError{Stderr: out}
	}
	// One tag for every run: a run's import moves it, and the digest
	// names the image this run imported.
	const tag = "localhost/boxmaker-test-mcp:test"
	imp := exec.Command("sh", "-c", `tar -C "$1" -c . | podman import --change USER=65534:65534 - "$2" >/dev/null && podman image inspect --format '{{.Digest}}' "$2"`, "sh", root, tag)
	out, err := imp.Output()
	if err != nil {
		return "", err
	}
	return "localhost/boxmaker-test-mcp@" + strings.TrimSpace(string(out)), nil
}

var mcpRefImage struct {
	once sync.Once
	ref  string // localhost/boxmaker-mcp-ref@sha256:...
	err  error
}

// cmdMcprefimage builds and loads the image of the MCP reference servers
// with the static binary's `boxmaker mcp-image`, as an operator would,
// once for the test binary, and sets $MCP_REF_IMAGE to the reference it
// printed (pinned by digest) and $MCP_NODE, $MCP_EVERYTHING,
// $MCP_FILESYSTEM and $MCP_MEMORY to node's path and each server's
// script in the image.
//
//	mcprefimage
func cmdMcprefimage(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: mcprefimage")
	}
	mcpRefImage.once.Do(func() { mcpRefImage.ref, mcpRefImage.err = buildMCPRefImage() })
	if mcpRefImage.err != nil {
		ts.Fatalf("mcprefimage: %v", mcpRefImage.err)
	}
	ts.Setenv("MCP_REF_IMAGE", mcpRefImage.ref)
	ts.Setenv("MCP_NODE", mcpimage.NodePath)
	for _, s := range mcpimage.Servers {
		ts.Setenv("MCP_"+strings.ToUpper(s), mcpimage.EntryPoint(s))
	}
}
