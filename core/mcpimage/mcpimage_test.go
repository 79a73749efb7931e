package mcpimage

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"boxmaker/core/ociarchive"
)

// The lockfile pins exactly the reference servers the image offers, and
// nothing that runs at install.
func TestTheLockfilePinsTheReferenceServers(t *testing.T) {
	var lock struct {
		Packages map[string]struct {
			Version      string
			Integrity    string
			Dependencies map[string]string
		}
	}
	if err := json.Unmarshal(Lockfile(), &lock); err != nil {
		t.Fatal(err)
	}
	root := lock.Packages[""]
	if len(root.Dependencies) != len(Servers) {
		t.Fatalf("the lockfile's package depends on %v, want the %d servers %v", root.Dependencies, len(Servers), Servers)
	}
	for _, s := range Servers {
		p, ok := lock.Packages["node_modules/@modelcontextprotocol/server-"+s]
		if !ok || p.Version == "" || !strings.HasPrefix(p.Integrity, "sha512-") {
			t.Errorf("server-%s is not pinned with its integrity: %+v", s, p)
		}
	}
	for name, p := range lock.Packages {
		if name != "" && !strings.HasPrefix(p.Integrity, "sha512-") {
			t.Errorf("%s has no sha512 integrity", name)
		}
	}
}

func TestLibrariesAreWhatLddNames(t *testing.T) {
	if _, err := exec.LookPath("ldd"); err != nil {
		t.Skip("no ldd")
	}
	libs, err := Libraries(context.Background(), "/bin/sh")
	if err != nil {
		t.Fatal(err)
	}
	var loader, libc bool
	for _, l := range libs {
		if !filepath.IsAbs(l) {
			t.Errorf("%q is not a path", l)
		}
		loader = loader || strings.Contains(l, "ld-linux")
		libc = libc || strings.Contains(l, "libc.so")
	}
	if !loader || !libc {
		t.Fatalf("the libraries of /bin/sh %v lack the loader or libc", libs)
	}
	if libs, err := Libraries(context.Background(), "/bin/busybox"); err != nil || len(libs) != 0 {
		if _, serr := os.Stat("/bin/busybox"); serr == nil {
			t.Fatalf("a static program links %v (%v)", libs, err)
		}
	}
}

// Two builds from the same node and lockfile, each with its own npm ci,
// are the same image, byte for byte; and node runs in it.
func TestTheImageIsReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("installs packages from npm")
	}
	for _, p := range []string{"node", "npm", "ldd"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("no %s (scripts/setup.sh installs it)", p)
		}
	}
	ctx := context.Background()
	version, err := NodeVersion(ctx, "node")
	if err != nil {
		t.Fatal(err)
	}
	node, _ := exec.LookPath("node")
	build := func() (ociarchive.Written, []byte) {
		dir := t.TempDir()
		if err := Install(ctx, "npm", dir); err != nil {
			t.Fatal(err)
		}
		img, err := Image(ctx, node, dir, version)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		w, err := img.Write(&buf, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		var hasNode, hasServers int
		for _, e := range img.Entries {
			if "/"+e.Path == NodePath {
				hasNode++
			}
			for _, s := range Servers {
				if "/"+e.Path == EntryPoint(s) {
					hasServers++
				}
			}
		}
		if hasNode != 1 || hasServers != len(Servers) {
			t.Fatalf("the image has node %d times and %d of the %d servers' scripts", hasNode, hasServers, len(Servers))
		}
		return w, buf.Bytes()
	}
	w1, a := build()
	w2, b := build()
	if w1 != w2 || !bytes.Equal(a, b) {
		t.Fatalf("two builds differ: %+v and %+v", w1, w2)
	}
	t.Logf("image %s, manifest %s, layer %d MB", w1.ID, w1.Manifest, w1.Size>>20)
}

func TestAnOldNodeIsRefused(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "node")
	if err := os.WriteFile(old, []byte("#!/bin/sh\necho v18.20.4\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := NodeVersion(context.Background(), old)
	if err == nil || !strings.Contains(err.Error(), "is Node.js v18.20.4; the reference servers need 20 or later") {
		t.Fatalf("got %v", err)
	}
}
