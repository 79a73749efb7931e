// Package mcpimage builds the image of the MCP reference servers
// (@modelcontextprotocol/server-filesystem, server-everything and
// server-memory) offline, from what this machine has: its Node.js (the
// node program and the shared libraries it links, as ldd names them) and
// the npm packages pinned by refservers/package-lock.json, installed with
// `npm ci --omit=dev --ignore-scripts` (npm checks each package's
// integrity against the lockfile; no package's install script runs). No
// image is pulled from a registry. The image is written reproducibly by
// core/ociarchive: the same node and the same lockfile give the same
// digest.
//
// Inside the image:
//
//	/usr/bin/node                      this machine's node
//	/lib..., /usr/lib...               the libraries it links, at the paths ldd names
//	/app/package.json, package-lock.json
//	/app/node_modules/...              what npm ci installed
//	/data                              an empty directory (a server's default root)
//	/tmp                               01777 (the runner mounts a tmpfs there)
//
// A server runs as ["/usr/bin/node", "/app/node_modules/@modelcontextprotocol/server-<name>/dist/index.js", args...]
// (EntryPoint).
package mcpimage

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"boxmaker/core/ociarchive"
)

// Name is the name a loaded image carries; server files pin it by
// digest (Name@sha256:...), never by this tag.
const Name = "localhost/boxmaker-mcp-ref"

// Tag is the tag podman load gives it, for people reading podman images.
const Tag = Name + ":latest"

// NodePath is where the image holds node.
const NodePath = "/usr/bin/node"

// AppDir is where the image holds the npm packages.
const AppDir = "/app"

// MinNodeMajor is the oldest Node.js the pinned packages run on (their
// lockfile's engines: @hono/node-server >=20).
const MinNodeMajor = 20

// Servers are the reference servers the image holds, by their short name.
var Servers = []string{"everything", "filesystem", "memory"}

// EntryPoint is the script node runs for the reference server name.
func EntryPoint(name string) string {
	return AppDir + "/node_modules/@modelcontextprotocol/server-" + name + "/dist/index.js"
}

//go:embed refservers/package.json refservers/package-lock.json
var refservers embed.FS

// Lockfile is the package-lock.json that pins the image's packages.
func Lockfile() []byte {
	b, _ := refservers.ReadFile("refservers/package-lock.json")
	return b
}

// NodeVersion runs node --version and checks it is at least MinNodeMajor.
func NodeVersion(ctx context.Context, node string) (string, error) {
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %v", node, err)
	}
	v := strings.TrimSpace(string(out))
	m := regexp.MustCompile(`^v(\d+)\.\d+\.\d+`).FindStringSubmatch(v)
	if m == nil {
		return "", fmt.Errorf("%s --version said %q, not vN.N.N", node, v)
	}
	if major, _ := strconv.Atoi(m[1]); major < MinNodeMajor {
		return "", fmt.Errorf("%s is Node.js %s; the reference servers need %d or later (Debian 13's nodejs, or bookworm-backports')", node, v, MinNodeMajor)
	}
	return v, nil
}

// Install writes the pinned package.json and package-lock.json into dir
// and runs npm ci there. npm reads its cache first (--prefer-offline):
// once the packages were fetched, building again needs no network.
func Install(ctx context.Context, npm, dir string) error {
	for _, f := range []string{"package.json", "package-lock.json"} {
		b, err := refservers.ReadFile("refservers/" + f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			return err
		}
	}
	cmd := exec.CommandContext(ctx, npm, "ci", "--prefix", dir, "--omit=dev", "--ignore-scripts",
		"--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci: %v\n%s", err, bytes.TrimSpace(out))
	}
	return nil
}

// Image is the image of node (a host path) and the packages Install put
// in dir.
func Image(ctx context.Context, node, dir, nodeVersion string) (ociarchive.Image, error) {
	node, err := filepath.EvalSymlinks(node)
	if err != nil {
		return ociarchive.Image{}, err
	}
	libs, err := Libraries(ctx, node)
	if err != nil {
		return ociarchive.Image{}, err
	}
	var entries []ociarchive.Entry
	dirs := map[string]bool{}
	addDirs := func(p string) {
		for d := filepath.Dir(p); d != "." && !dirs[d]; d = filepath.Dir(d) {
			dirs[d] = true
			entries = append(entries, ociarchive.Entry{Path: d, Dir: true})
		}
	}
	file := func(p, src string, exec bool) {
		addDirs(p)
		entries = append(entries, ociarchive.Entry{Path: p, Source: src, Exec: exec})
	}
	file(strings.TrimPrefix(NodePath, "/"), node, true)
	for _, l := range libs {
		real, err := filepath.EvalSymlinks(l)
		if err != nil {
			return ociarchive.Image{}, err
		}
		file(strings.TrimPrefix(l, "/"), real, true)
	}
	for _, d := range []string{"data", "tmp"} {
		dirs[d] = true
		entries = append(entries, ociarchive.Entry{Path: d, Dir: true, Sticky: d == "tmp"})
	}
	app := strings.TrimPrefix(AppDir, "/")
	dirs[app] = true
	entries = append(entries, ociarchive.Entry{Path: app, Dir: true})
	for _, f := range []string{"package.json", "package-lock.json"} {
		file(app+"/"+f, filepath.Join(dir, f), false)
	}
	modules := filepath.Join(dir, "node_modules")
	err = filepath.WalkDir(modules, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		in := app + "/" + filepath.ToSlash(rel)
		switch t := d.Type(); {
		case t.IsDir():
			dirs[in] = true
			entries = append(entries, ociarchive.Entry{Path: in, Dir: true})
		case t&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			if filepath.IsAbs(target) {
				return fmt.Errorf("%s links to %s, outside what npm installed", p, target)
			}
			entries = append(entries, ociarchive.Entry{Path: in, Linkname: target})
		case t.IsRegular():
			fi, err := d.Info()
			if err != nil {
				return err
			}
			entries = append(entries, ociarchive.Entry{Path: in, Source: p, Exec: fi.Mode()&0o111 != 0})
		default:
			return fmt.Errorf("%s is neither a file, a directory nor a link", p)
		}
		return nil
	})
	if err != nil {
		return ociarchive.Image{}, err
	}
	return ociarchive.Image{
		Name:    Tag,
		Entries: entries,
		Config: ociarchive.Config{
			Env:        []string{"PATH=/usr/bin", "HOME=/tmp", "NODE_ENV=production"},
			Cmd:        []string{NodePath, "--version"},
			WorkingDir: AppDir,
			User:       "65534:65534",
			Labels:     map[string]string{"boxmaker": "mcp-ref", "boxmaker.node": nodeVersion},
			CreatedBy:  "boxmaker mcp-image",
		},
	}, nil
}

// lddLine is one line of ldd's answer that names a file: "name => /path
// (0x...)" or "/path (0x...)" (the loader).
var lddLine = regexp.MustCompile(`^\s*(?:\S+\s+=>\s+)?(/\S+)\s+\(0x[0-9a-f]+\)$`)

// Libraries are the shared libraries and the loader that program links,
// as ldd names them (the loader at the path the program asks for).
func Libraries(ctx context.Context, program string) ([]string, error) {
	out, err := exec.CommandContext(ctx, "ldd", program).CombinedOutput()
	s := string(out)
	if strings.Contains(s, "not a dynamic executable") || strings.Contains(s, "statically linked") {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("ldd %s: %v: %s", program, err, strings.TrimSpace(s))
	}
	var libs []string
	for _, line := range strings.Split(s, "\n") {
		switch {
		case strings.Contains(line, "=> not found"):
			return nil, fmt.Errorf("ldd %s: %s", program, strings.TrimSpace(line))
		case lddLine.MatchString(line):
			libs = append(libs, lddLine.FindStringSubmatch(line)[1])
		}
	}
	return libs, nil
}

// Load loads the oci-archive at path with podman load and checks that
// Podman now has the image w names, under that manifest digest. It
// returns the reference a server file pins: Name@sha256:<manifest>.
func Load(ctx context.Context, podman, path string, w ociarchive.Written) (string, error) {
	if out, err := exec.CommandContext(ctx, podman, "load", "-q", "-i", path).CombinedOutput(); err != nil {
		return "", fmt.Errorf("podman load: %v: %s", err, bytes.TrimSpace(out))
	}
	ref := Name + "@" + w.Manifest
	out, err := exec.CommandContext(ctx, podman, "image", "inspect", "--format", "{{.Id}}", ref).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("podman image inspect %s after loading: %v: %s", ref, err, bytes.TrimSpace(out))
	}
	if got := "sha256:" + strings.TrimPrefix(strings.TrimSpace(string(out)), "sha256:"); got != w.ID {
		return "", fmt.Errorf("podman has %s as %s, but the archive's image is %s", ref, got, w.ID)
	}
	return ref, nil
}
