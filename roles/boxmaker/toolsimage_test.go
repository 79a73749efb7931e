package boxmaker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boxmaker/core/conf"
	"boxmaker/core/runner"
)

// tools-image writes the archive it was asked for, whole, with the ID the
// builder computes; the test binary is not static, so busybox (which is)
// stands in as the executor here. core/runner's tests load and run the
// real thing.
func TestBuildToolsImageWritesTheArchive(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tools.tar")
	img := runner.ToolsImage{Executor: "/bin/busybox", Busybox: "/bin/busybox"}
	id, err := buildToolsImage(context.Background(), img, out, "podman", false)
	if err != nil {
		t.Fatal(err)
	}
	want, err := img.ID()
	if err != nil || id != want {
		t.Errorf("printed %s, the image's ID is %s (%v)", id, want, err)
	}
	if fi, err := os.Stat(out); err != nil || fi.Size() < 1<<20 {
		t.Errorf("the archive: %v, %v", fi, err)
	}
}

func TestBuildToolsImageRefusesADynamicExecutorAndWritesNothing(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tools.tar")
	// Debian's ls is dynamically linked; the test binary may be either,
	// depending on cgo and -race.
	const dynamic = "/bin/ls"
	_, err := buildToolsImage(context.Background(), runner.ToolsImage{Executor: dynamic, Busybox: "/bin/busybox"}, out, "podman", false)
	if err == nil || !strings.Contains(err.Error(), "is dynamically linked") {
		t.Errorf("got %v, want a refusal of the dynamic %s", err, dynamic)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a partial archive was left: %v", err)
	}
}

// init pins the ID this binary would build; a dynamic binary cannot be the
// executor, so the configuration then gets an empty image and is still a
// valid brokerd.toml. The test binary is static or dynamic depending on
// cgo and -race: each case checks its own outcome.
func TestInitPinsTheImageOfThisBinary(t *testing.T) {
	dir := t.TempDir()
	if err := initHome(dir, false, 1000, 1000, true, modelServer{}); err != nil {
		t.Fatal(err)
	}
	var b conf.Brokerd
	if err := conf.Load(filepath.Join(dir, "etc", "brokerd.toml"), &b); err != nil {
		t.Fatal(err)
	}
	if b.Runner.Runtime != runner.RuntimeAuto || b.Runner.Podman != "podman" {
		t.Errorf("[runner] is %+v", b.Runner)
	}
	exe, err := executable()
	if err != nil {
		t.Fatal(err)
	}
	if runner.CheckStatic(exe) != nil {
		if b.Runner.Image != "" {
			t.Errorf("a dynamic binary got the image %q", b.Runner.Image)
		}
		return
	}
	want, err := runner.ToolsImage{Executor: exe, Busybox: "/bin/busybox"}.ID()
	if err != nil {
		t.Fatal(err)
	}
	if b.Runner.Image != want {
		t.Errorf("[runner] image = %q, want this binary's image %q", b.Runner.Image, want)
	}
}
