package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestWriteFileReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.json")
	if err := WriteFile(p, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil || string(data) != "two" {
		t.Fatalf("got %q %v", data, err)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	if _, err := os.Stat(p + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("temporary file left: %v", err)
	}
}

func TestWriteFileFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.json")
	WriteFile(p, []byte("old"), 0o600)
	// A directory where the temporary file would go makes the write fail.
	os.Mkdir(p+".tmp", 0o700)
	os.WriteFile(filepath.Join(p+".tmp", "x"), nil, 0o600)
	if err := WriteFile(p, []byte("new"), 0o600); err == nil {
		t.Fatal("write succeeded")
	}
	if data, _ := os.ReadFile(p); string(data) != "old" {
		t.Errorf("old contents lost: %q", data)
	}
}

// Whoever can write the directory may put a link or a FIFO where the
// temporary file goes: the write goes into a file of its own, never
// through them, and never hangs.
func TestWriteFileNeverWritesThroughTheTemporaryName(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	p := filepath.Join(dir, "s.json")
	for _, plant := range []struct {
		name string
		f    func() error
	}{
		{"a symbolic link", func() error { return os.Symlink(victim, p+".tmp") }},
		{"a dangling symbolic link", func() error { return os.Symlink(filepath.Join(dir, "new"), p+".tmp") }},
		{"a hard link", func() error { return os.Link(victim, p+".tmp") }},
		{"a FIFO", func() error { return syscall.Mkfifo(p+".tmp", 0o600) }},
	} {
		if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := plant.f(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- WriteFile(p, []byte(plant.name), 0o600) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s: %v", plant.name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the write hangs", plant.name)
		}
		if data, _ := os.ReadFile(victim); string(data) != "keep" {
			t.Errorf("%s: the victim holds %q", plant.name, data)
		}
		if _, err := os.Lstat(filepath.Join(dir, "new")); !os.IsNotExist(err) {
			t.Errorf("%s: a file was made through the link: %v", plant.name, err)
		}
		fi, err := os.Lstat(p)
		if data, _ := os.ReadFile(p); err != nil || !fi.Mode().IsRegular() || string(data) != plant.name {
			t.Errorf("%s: the file is %v %q", plant.name, fi.Mode(), data)
		}
	}
}
