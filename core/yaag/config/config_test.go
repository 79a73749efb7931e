package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"boxmaker/core/yaag/snapshot"
	"boxmaker/runbook"
)

func write(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLayering(t *testing.T) {
	dir := t.TempDir()
	global := write(t, dir, "etc/yaag.toml", "profile = \"slow\"\nloop_socket = \"/g/loop.sock\"\n[ask]\nstall_ms = 1000\n")
	project := write(t, dir, "p/.yaag/config.toml", "profile = \"fast\"\n[run]\nwall_ms = 5000\n")
	explicit := write(t, dir, "x.toml", "[ask]\noutput_retries = 0\n")
	tests := []struct {
		name string
		src  Sources
		want Config
	}{
		{"every file, later keys win", Sources{Global: global, Project: project, Explicit: explicit},
			Config{Profile: "fast", ProfileOrigin: "the config file " + project, LoopSocket: "/g/loop.sock", Wall: 5 * time.Second, Stall: time.Second, OutputRetries: 0, Files: []string{global, project, explicit}}},
		{"--no-config skips global and project", Sources{Global: global, Project: project, Explicit: explicit, NoConfig: true},
			Config{Wall: time.Hour, Stall: 2 * time.Minute, OutputRetries: 0, Files: []string{explicit}}},
		{"absent global and project are skipped", Sources{Global: filepath.Join(dir, "none.toml"), Project: filepath.Join(dir, "none2.toml")},
			Defaults()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Load(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Error(diff)
			}
		})
	}
}

func TestFilesThatStopTheRun(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		src  Sources
		want string
	}{
		{"--config that is not there", Sources{Explicit: filepath.Join(dir, "missing.toml")}, "the config file " + filepath.Join(dir, "missing.toml") + " does not exist"},
		{"an unknown key", Sources{Project: write(t, dir, "a.toml", "profile = \"x\"\nprofiel = \"y\"\n")}, "a.toml:2: unknown key profiel"},
		{"a key in another case", Sources{Global: write(t, dir, "b.toml", "Profile = \"x\"\n")}, "b.toml:1:"},
		{"a wrong type", Sources{Explicit: write(t, dir, "c.toml", "[run]\nwall_ms = \"long\"\n")}, "c.toml:2:"},
		{"not TOML", Sources{Global: write(t, dir, "d.toml", "profile = \n")}, "d.toml:1:"},
		{"a negative limit", Sources{Explicit: write(t, dir, "e.toml", "[ask]\nstall_ms = -1\n")}, "[ask] stall_ms is -1"},
		{"a directory", Sources{Explicit: dir}, "cannot be read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.src)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasSuffix(err.Error(), "see docs/yaag/troubleshooting.md#config-file") {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add("profile = \"fast\"\n[run]\nwall_ms = 5\n[ask]\nstall_ms = 1\noutput_retries = 2\n")
	f.Add("loop_socket = \"/x\"\n")
	f.Add("[ask]\noutput_retries = 99\n")
	f.Add("[[run]]\n")
	f.Fuzz(func(t *testing.T, data string) {
		c, err := Parse("f.toml", []byte(data))
		if err != nil {
			if !strings.Contains(err.Error(), "f.toml") {
				t.Fatalf("an error that does not name the file: %v", err)
			}
			return
		}
		if r := c.Ask.OutputRetries; r != nil && (*r < 0 || *r > 10) {
			t.Fatalf("accepted output_retries %d", *r)
		}
		if w := c.Run.WallMS; w != nil && *w < 0 {
			t.Fatalf("accepted wall_ms %d", *w)
		}
	})
}

// TestAConfinedRunTakesNoPathFromItsDirectory: under --root the project
// file is read from the Tree (a link to /dev/zero or to another TOML file
// is refused, not read), and its loop_socket is refused: the directory is
// the model's to write.
func TestAConfinedRunTakesNoPathFromItsDirectory(t *testing.T) {
	dir := t.TempDir()
	project := write(t, dir, "p/.yaag/config.toml", "profile = \"fast\"\nloop_socket = \"/run/other/any.sock\"\n")
	tree, err := snapshot.Open(filepath.Join(dir, "p"), snapshot.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Seal()
	_, err = Load(Sources{Project: project, Tree: tree})
	var r *runbook.Refusal
	if !errors.As(err, &r) || r.Entry != runbook.YaagConfigPathKey || !strings.Contains(err.Error(), project+": loop_socket "+string(textPathKey)) {
		t.Fatalf("loop_socket in the project file: %v", err)
	}
	// Without a Tree (the owner's yaag run) it is taken, as before.
	if c, err := Load(Sources{Project: project}); err != nil || c.LoopSocket != "/run/other/any.sock" {
		t.Fatalf("the owner's Run: %+v, %v", c, err)
	}
	for _, target := range []string{"/dev/zero", write(t, dir, "other.toml", "secret_key_name = 1\n")} {
		os.Remove(project)
		if err := os.Symlink(target, project); err != nil {
			t.Fatal(err)
		}
		tree, err := snapshot.Open(filepath.Join(dir, "p"), snapshot.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Load(Sources{Project: project, Tree: tree})
		tree.Seal()
		if !errors.As(err, &r) || r.Entry != runbook.YaagProgramFileRefused || strings.Contains(err.Error(), "secret_key_name") {
			t.Errorf("the project file as a link to %s: %v", target, err)
		}
	}
}
