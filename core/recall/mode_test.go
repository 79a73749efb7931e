package recall

import (
	"os"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// indexModes is the permission bits of the index and its -wal and -shm
// files ("missing" for one that does not exist).
func indexModes(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, ext := range []string{"", "-wal", "-shm"} {
		st, err := os.Stat(path + ext)
		switch {
		case os.IsNotExist(err):
			out["index"+ext] = "missing"
		case err != nil:
			t.Fatal(err)
		default:
			out["index"+ext] = st.Mode().Perm().String()
		}
	}
	return out
}

// The index holds what every session said: it and its -wal and -shm files
// are the owner's only, whatever the umask, when built, after a rebuild
// swaps in a new one, and when an older index with wider modes is opened.
func TestIndexFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)

	home := t.TempDir()
	appendFile(t, logPath(home, "s1", 0), logLine(1, "user", "first words"))
	ix, err := Open(home, nil)
	if err != nil {
		t.Fatal(err)
	}
	appendFile(t, logPath(home, "s1", 0), logLine(2, "user", "second words"))
	if _, err := ix.Sync(); err != nil {
		t.Fatal(err)
	}
	search(t, ix, "words")
	private := map[string]string{"index": "-rw-------", "index-wal": "-rw-------", "index-shm": "-rw-------"}
	if diff := cmp.Diff(private, indexModes(t, ix.Path())); diff != "" {
		t.Errorf("a new index (-want +got):\n%s", diff)
	}

	if _, err := ix.Rebuild(nil); err != nil {
		t.Fatal(err)
	}
	appendFile(t, logPath(home, "s1", 0), logLine(3, "user", "third words"))
	if _, err := ix.Sync(); err != nil {
		t.Fatal(err)
	}
	search(t, ix, "words")
	if diff := cmp.Diff(private, indexModes(t, ix.Path())); diff != "" {
		t.Errorf("after a rebuild (-want +got):\n%s", diff)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	// An index left 0644 by an older build, with its -wal and -shm (a
	// copy of them, as a crash leaves them), is made private on open.
	for _, ext := range []string{"", "-wal", "-shm"} {
		p := ix.Path() + ext
		if _, err := os.Stat(p); os.IsNotExist(err) {
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix = openIndex(t, home)
	if got, _ := search(t, ix, "third"); len(got) != 1 {
		t.Errorf("the reopened index lost a record: %v", got)
	}
	if diff := cmp.Diff(private, indexModes(t, ix.Path())); diff != "" {
		t.Errorf("an older index, reopened (-want +got):\n%s", diff)
	}
}
