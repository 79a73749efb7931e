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
	exe, err := executable()
	if err != nil {
		t.Fatal(err)
	}
	_, err = buildToolsImage(context.Background(), runner.ToolsImage{Executor: exe, Busybox: "/bin/busybox"}, out, "podman", false)
	if err == nil || !strings.Contains(err.Error(), "is dynamically linked") {
		t.Errorf("got %v, want a refusal of the dynamic test binary", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a partial archive was left: %v", err)
	}
}

// init pins the ID this binary would build; a dynamic binary (the test
// binary) cannot be the executor, so the configuration gets an empty image
// and is still a valid brokerd.toml.
func TestInitLeavesTheImageEmptyForADynamicBinary(t *testing.T) {
	dir := t.TempDir()
	if err := initHome(dir, false); err != nil {
		t.Fatal(err)
	}
	var b conf.Brokerd
	if err := conf.Load(filepath.Join(dir, "etc", "brokerd.toml"), &b); err != nil {
		t.Fatal(err)
	}
	if b.Runner.Image != "" || b.Runner.Runtime != "runc" || b.Runner.Podman != "podman" {
		t.Errorf("[runner] is %+v", b.Runner)
	}
}
