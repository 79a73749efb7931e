package broker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeChange reads the decided target as the runner does: a path that
// runs through a symbolic link (swapped in after the decision) is not
// followed, a file the owner may not read or that has two links is not
// shown, and a missing file is a new one.
func TestWriteChangeReadsOnlyWhatTheOwnerCould(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	os.WriteFile(secret, []byte("the owner's key\n"), 0o600)
	src := filepath.Join(dir, "src")
	os.Mkdir(src, 0o755)
	os.WriteFile(filepath.Join(src, "a.txt"), []byte("one\n"), 0o644)
	os.Symlink(secret, filepath.Join(src, "link.txt"))
	os.Symlink(dir, filepath.Join(dir, "up"))
	os.WriteFile(filepath.Join(src, "root-only.txt"), []byte("root's\n"), 0o600)
	os.WriteFile(filepath.Join(src, "two.txt"), []byte("x\n"), 0o644)
	os.Link(filepath.Join(src, "two.txt"), filepath.Join(src, "two-too.txt"))
	b := &Broker{cfg: Config{OwnerUID: 4242, OwnerGID: 4242}}
	args := []byte(`{"content":"two\n"}`)
	for _, c := range []struct{ name, target, want string }{
		{"a file: its diff", filepath.Join(src, "a.txt"), "-one\n+two\n"},
		{"a missing file: created", filepath.Join(src, "new.txt"), "creates"},
		{"a link at the name is not followed", filepath.Join(src, "link.txt"), "a symbolic link is on the way"},
		{"a link in the directory is not followed", filepath.Join(dir, "up", "secret"), "a symbolic link is on the way"},
		{"a file the owner may not read", filepath.Join(src, "root-only.txt"), "not the owner's to read"},
		{"a file of two links", filepath.Join(src, "two.txt"), "has 2 links"},
		{"a directory", src, "not a regular file"},
		{"no decided path", "src/a.txt", "no decided path"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ch := b.writeChange(c.target, args)
			got := ch.Note + ch.Diff
			if ch.Creates {
				got = "creates"
			}
			if !strings.Contains(got, c.want) {
				t.Fatalf("got %+v, want %q", ch, c.want)
			}
			if strings.Contains(ch.Diff+ch.Note, "key") || strings.Contains(ch.Diff+ch.Note, "root's") {
				t.Fatalf("a file the owner may not read is shown: %+v", ch)
			}
		})
	}
}
