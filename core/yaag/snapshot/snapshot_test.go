package snapshot

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"boxmaker/runbook"
)

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, root string, l Limits) *Tree {
	t.Helper()
	tr, err := Open(root, l)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tr.Seal)
	return tr
}

func refusal(t *testing.T, err error, e runbook.Entry, want string) {
	t.Helper()
	var r *runbook.Refusal
	if !errors.As(err, &r) || r.Entry != e || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want a refusal (%s) saying %q", err, e.Page(), want)
	}
}

// TestReadRefusesWhatIsNotTheDirectorysRegularFile replays what a model
// can leave in the directory: a link to a root-only file outside it, a
// link to /dev/zero, a FIFO (which must not block), a path out, a file
// of two names. Each is refused, and the first refusal sticks.
func TestReadRefusesWhatIsNotTheDirectorysRegularFile(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "progs")
	write(t, filepath.Join(base, "shadow"), "root:$6$x\n")
	os.Chmod(filepath.Join(base, "shadow"), 0o600)
	write(t, filepath.Join(base, "other.toml"), "key = 1\n")
	write(t, filepath.Join(dir, "ok.ts"), "1")
	for _, l := range [][2]string{{filepath.Join(base, "shadow"), "shadow.txt"}, {"/dev/zero", ".yaag/config.toml"}, {filepath.Join(base, "other.toml"), ".yaag/registry.toml"}, {base, "up"}} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(l[1])), 0o755)
		if err := os.Symlink(l[0], filepath.Join(dir, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.ts"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(base, "other.toml"), filepath.Join(dir, "hard.toml")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{"shadow.txt", "shadow.txt is not a file this Run may read: a symbolic link is on the way"},
		{".yaag/config.toml", "config.toml is not a file this Run may read: a symbolic link is on the way"},
		{".yaag/registry.toml", "a symbolic link is on the way"},
		{"up/shadow", "a symbolic link is on the way"},
		{"fifo.ts", "it is not a regular file (a FIFO)"},
		{"hard.toml", "it has 2 hard links"},
		{"../shadow", "is outside " + dir},
		{filepath.Join(base, "shadow"), "is outside " + dir},
	} {
		tr := open(t, dir, DefaultLimits)
		done := make(chan error, 1)
		go func() { _, err := tr.ReadFile(c.path); done <- err }()
		select {
		case err := <-done:
			refusal(t, err, runbook.YaagProgramFileRefused, c.want)
			refusal(t, tr.Err(), runbook.YaagProgramFileRefused, c.want)
			if _, err := tr.ReadFile("ok.ts"); err != nil {
				t.Errorf("%s: a regular file after it: %v", c.path, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the read blocked", c.path)
		}
	}
	// The directory itself as a link.
	if err := os.Symlink(dir, filepath.Join(base, "dirlink")); err != nil {
		t.Fatal(err)
	}
	_, err := Open(filepath.Join(base, "dirlink"), DefaultLimits)
	refusal(t, err, runbook.YaagProgramFileRefused, "a symbolic link is on the way")
}

func TestLimitsAreEachFilesAndAllFiles(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "sparse.ts"))
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(3 << 30) // 3 GiB, nothing written: refused before a byte is read
	f.Close()
	write(t, filepath.Join(dir, "a.ts"), strings.Repeat("a", 60))
	write(t, filepath.Join(dir, "b.ts"), strings.Repeat("b", 60))
	tr := open(t, dir, Limits{File: 100, Total: 100, Count: 10})
	_, err = tr.ReadFile("sparse.ts")
	refusal(t, err, runbook.YaagProgramTooLarge, "sparse.ts has 3221225472 bytes, over a confined Run's limit of 100 bytes for one file")
	tr = open(t, dir, Limits{File: 100, Total: 100, Count: 10})
	if _, err := tr.ReadFile("a.ts"); err != nil {
		t.Fatal(err)
	}
	_, err = tr.ReadFile("b.ts")
	refusal(t, err, runbook.YaagProgramTooLarge, "would bring the files read to 120 bytes, over a confined Run's limit of 100 bytes for all files")
	tr = open(t, dir, Limits{File: 100, Total: 1000, Count: 2})
	tr.Kind("x1")
	tr.Kind("x2")
	_, err = tr.Kind("a.ts")
	refusal(t, err, runbook.YaagProgramTooLarge, "over a confined Run's limit of 2 files and names looked up")
}

// TestASealedTreeServesWhatItRead: after Seal the Tree answers from
// memory, the way it answered first (absent stays absent), and reads
// nothing new; its Manifest is what it read, and Check refuses another.
func TestASealedTreeServesWhatItRead(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "p.ts"), "one")
	tr := open(t, dir, DefaultLimits)
	tr.ReadFile("p.ts")
	if k, _ := tr.Kind(".yaag/config.toml"); k != Absent {
		t.Fatalf("config: %v", k)
	}
	before := tr.Manifest()
	tr.Seal()
	write(t, filepath.Join(dir, "p.ts"), "two")
	write(t, filepath.Join(dir, ".yaag/config.toml"), "profile = \"x\"\n")
	if data, err := tr.ReadFile("p.ts"); err != nil || string(data) != "one" {
		t.Errorf("p.ts after the seal: %q, %v", data, err)
	}
	if _, err := tr.ReadFile(".yaag/config.toml"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("config after the seal: %v", err)
	}
	if _, err := tr.ReadFile("new.ts"); err == nil || !strings.Contains(err.Error(), "was not read when the Run began") {
		t.Errorf("a new name after the seal: %v", err)
	}
	if m := tr.Manifest(); m.SHA256 != before.SHA256 || len(m.Files) != 1 || m.Files[0].Path != "p.ts" || m.Files[0].Size != 3 {
		t.Errorf("manifest %+v, want %+v", m, before)
	}
	if err := before.Check(before.SHA256); err != nil {
		t.Error(err)
	}
	again := open(t, dir, DefaultLimits)
	again.ReadFile("p.ts")
	again.ReadFile(".yaag/config.toml")
	m := again.Manifest()
	if m.SHA256 == before.SHA256 {
		t.Fatal("the manifest did not change with the files")
	}
	refusal(t, m.Check(before.SHA256), runbook.YaagProgramChanged, "changed after the owner approved it: the approval was for files of sha256 "+before.SHA256)
}
