package regularfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadFileReadsARegularFileWithinItsBound(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.json")
	if err := os.WriteFile(p, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(p, 5); err != nil || string(data) != "12345" {
		t.Errorf("ReadFile(5 bytes, max 5) = %q, %v", data, err)
	}
	if _, err := ReadFile(p, 4); err == nil || !strings.Contains(err.Error(), "5 bytes, over the limit of 4") {
		t.Errorf("ReadFile(5 bytes, max 4) = %v", err)
	}
}

// TestOpenRefusesWhatIsNotARegularFile: a FIFO is refused at once (a
// plain open would block until a writer came), and so are a directory
// and a device; a missing file is fs.ErrNotExist.
func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, dir, "/dev/zero"} {
		if f, _, err := Open(p); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Open(%s) = %v, want not a regular file", p, err)
			if f != nil {
				f.Close()
			}
		}
		if _, err := ReadFile(p, 1<<20); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("ReadFile(%s) = %v, want not a regular file", p, err)
		}
	}
	if _, _, err := Open(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(missing) = %v, want fs.ErrNotExist", err)
	}
}
