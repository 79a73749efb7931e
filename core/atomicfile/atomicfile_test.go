package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
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
