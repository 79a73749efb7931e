package audit

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// With a reserve, a disk filled by something else (a tool) does not stop
// the log: records go into the space kept beyond the file's end, and
// ReserveShort says the reserve could not be renewed. (Issue 8, item 6.)
func TestTheReserveKeepsTheLogWritingOnAFullDisk(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size=4m"); err != nil {
		t.Skipf("cannot mount a tmpfs (root is needed): %v", err)
	}
	t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
	l, err := Open(filepath.Join(dir, "audit"), Options{Reserve: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Append(Record{Type: TypeStart, Note: "before the disk fills"}); err != nil {
		t.Fatal(err)
	}
	// Fill the disk as a tool would, to the last byte.
	f, err := os.Create(filepath.Join(dir, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(f, zeros{}); err == nil {
		t.Fatal("the disk never filled")
	}
	f.Close()
	if l.ReserveShort() {
		t.Errorf("ReserveShort before any write on the full disk")
	}
	// 1 MiB holds about five thousand records; 4000 of them go in, and the
	// ledger says its reserve is short once it could not renew it.
	for i := 0; i < 4000; i++ {
		if _, err := l.Append(Record{Type: TypeDecision, Call: "c", Tool: "read_file", Effect: "deny", Session: "s",
			Note: "the disk of brokerd's home is nearly full"}); err != nil {
			t.Fatalf("record %d on the full disk: %v", i, err)
		}
	}
	if !l.ReserveShort() {
		t.Errorf("ReserveShort is false on a full disk after the reserve was used")
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(filepath.Join(dir, "audit"))
	if err != nil || len(rep.Errors) != 0 {
		t.Errorf("verify: %v %+v", err, rep.Errors)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
