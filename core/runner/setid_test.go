package runner

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// The owner the tests act for and the uid their tools run as: neither is
// root, nor brokerd's (the test's) uid, nor each other.
const (
	testOwnerUID = 1000
	testOwnerGID = 1000
	testToolUID  = 65533
)

// writeOwnedFile writes a file of the owner's.
func writeOwnedFile(t testing.TB, path, content string, mode fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, testOwnerUID, testOwnerGID); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // chown clears set-id bits
		t.Fatal(err)
	}
}

// mkdirOwned makes a directory of the owner's.
func mkdirOwned(t testing.TB, path string) {
	t.Helper()
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, testOwnerUID, testOwnerGID); err != nil {
		t.Fatal(err)
	}
}

// buildProbe builds testdata/setidprobe, static, into dir as the owner's.
func buildProbe(t *testing.T, dir string) {
	t.Helper()
	out := filepath.Join(dir, "setidprobe")
	build := exec.Command("go", "build", "-trimpath", "-o", out, "./testdata/setidprobe")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./testdata/setidprobe: %v\n%s", err, b)
	}
	if err := os.Chown(out, testOwnerUID, testOwnerGID); err != nil {
		t.Fatal(err)
	}
}

// A tool is the model's program: it may try every way to leave a file
// that gives another user more than the owner gave them. From the host,
// after the container has ended, nothing in the owner's directory may be
// set-user-ID or set-group-ID, a device, or owned by anyone but the
// owner; and the tool never ran as root. (Issue 8, item 2.)
func TestToolCannotLeaveSetIDFilesDevicesOrRootFiles(t *testing.T) {
	d := resolvedTempDir(t)
	// Writable by any uid, so that every attempt is made whatever uid the
	// tool runs as: the test is about what is left, not who may write.
	if err := os.Chmod(d, 0o777); err != nil {
		t.Fatal(err)
	}
	writeOwnedFile(t, d+"/suid-src", "#!/bin/sh\n", 0o4755)
	buildProbe(t, d)
	script := strings.Join([]string{
		"id -u; id -g",
		"cp /bin/boxmaker bm && chmod 4755 bm",
		"echo a > f-suid; chmod u+s f-suid",
		"echo a > f-sgid; chmod g+s f-sgid",
		"echo a > f-6755; chmod 6755 f-6755",
		"cp -p suid-src copied-p",
		"mknod null c 1 3",
		"mknod fifo p",
		"echo a > f-root; chown 0:0 f-root",
		"mkdir d-sgid; chmod 2755 d-sgid",
		"./setidprobe",
		"true",
	}, "; ")
	r := newTestRunner(t, nil)
	res, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "run", Paths: []string{d}, Command: script})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the tool's output:\n%s\n%s", res.Stdout, res.Stderr)
	if ids := strings.Fields(res.Stdout); len(ids) < 2 || ids[0] != strconv.Itoa(testToolUID) || ids[1] != strconv.Itoa(testToolUID) {
		t.Errorf("the tool ran as uid and gid %q, want %d (never root)", ids[:min(2, len(ids))], testToolUID)
	}
	// The attempts that should make plain files did make them: the
	// checks below are about real files.
	for _, name := range []string{"bm", "f-suid", "f-sgid", "f-6755", "f-root", "p-plain", "d-sgid", "fifo"} {
		if _, err := os.Lstat(filepath.Join(d, name)); err != nil {
			t.Errorf("the tool made no %s: %v", name, err)
		}
	}
	err = filepath.WalkDir(d, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == d || p == d+"/suid-src" {
			return nil
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		st := fi.Sys().(*syscall.Stat_t)
		switch {
		case fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid) != 0:
			t.Errorf("%s is left %v: set-id", strings.TrimPrefix(p, d+"/"), fi.Mode())
		case fi.Mode()&fs.ModeDevice != 0:
			t.Errorf("%s is left a device (%v)", strings.TrimPrefix(p, d+"/"), fi.Mode())
		}
		if st.Uid != testOwnerUID || st.Gid != testOwnerGID {
			t.Errorf("%s belongs to %d:%d, not to the owner %d:%d", strings.TrimPrefix(p, d+"/"), st.Uid, st.Gid, testOwnerUID, testOwnerGID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
