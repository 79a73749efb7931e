package audit

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"boxmaker/runbook"
)

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v: %s", name, args, err, out)
	}
}

// Every way of changing the file under a running brokerd: the append that
// follows fails as audit-unavailable saying what changed, nothing reaches
// the file at the log's path, and every later append fails too.
func TestAReplacedFilePoisonsTheLedger(t *testing.T) {
	for _, c := range []struct {
		name, says string
		change     func(t *testing.T, dir, file string)
	}{
		{"cp and mv of identical bytes", "was replaced: the path names inode", func(t *testing.T, dir, file string) {
			run(t, "cp", file, file+".new")
			run(t, "mv", file+".new", file)
		}},
		{"sed -i that changes nothing", "was replaced", func(t *testing.T, dir, file string) {
			run(t, "sed", "-i", "s/no such text//", file)
		}},
		{"an editor's save: old file renamed to a backup, new one written", "was replaced", func(t *testing.T, dir, file string) {
			data, _ := os.ReadFile(file)
			run(t, "mv", file, file+"~")
			os.WriteFile(file, data, 0o600)
		}},
		{"rewritten in place with the same bytes", "was changed by something else", func(t *testing.T, dir, file string) {
			data, _ := os.ReadFile(file)
			os.WriteFile(file, data, 0o600) // truncates and writes: same inode, same size
		}},
		{"the last line cut", "bytes, brokerd made it", func(t *testing.T, dir, file string) {
			data, _ := os.ReadFile(file)
			i := bytes.LastIndexByte(data[:len(data)-1], '\n')
			os.Truncate(file, int64(i+1))
		}},
		{"a line appended by something else", "it was written to by something else", func(t *testing.T, dir, file string) {
			f, _ := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
			f.WriteString("{}\n")
			f.Close()
		}},
		{"removed", "was removed while brokerd held it open", func(t *testing.T, dir, file string) {
			os.Remove(file)
		}},
		{"moved away", "is gone from", func(t *testing.T, dir, file string) {
			os.Rename(file, filepath.Join(filepath.Dir(dir), "elsewhere"))
		}},
		{"a second name linked to it", "has 2 links", func(t *testing.T, dir, file string) {
			os.Link(file, filepath.Join(filepath.Dir(dir), "second-name"))
		}},
		{"replaced by a symbolic link to itself", "was replaced by a symbolic link", func(t *testing.T, dir, file string) {
			os.Rename(file, filepath.Join(filepath.Dir(dir), "real"))
			os.Symlink(filepath.Join(filepath.Dir(dir), "real"), file)
		}},
		{"its mode changed", "was changed by something else", func(t *testing.T, dir, file string) {
			os.Chmod(file, 0o644)
		}},
		{"the whole directory copied back over itself", "was replaced", func(t *testing.T, dir, file string) {
			run(t, "cp", "-a", dir, dir+".copy")
			run(t, "mv", dir, dir+".old")
			run(t, "mv", dir+".copy", dir)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "audit")
			file := filepath.Join(dir, "000001.jsonl")
			l := openLedger(t, dir, Options{})
			if _, err := l.Append(result(1)); err != nil {
				t.Fatal(err)
			}
			c.change(t, dir, file)
			before, _ := os.ReadFile(file)
			_, err := l.Append(result(2))
			if e, _ := runbook.EntryOf(err); e != runbook.AuditUnavailable || !strings.Contains(err.Error(), "cannot write the audit log: 000001.jsonl ") ||
				!strings.Contains(err.Error(), c.says) {
				t.Fatalf("Append after the change = %v, want audit-unavailable saying %q", err, c.says)
			}
			if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
				t.Errorf("the file at the path changed:\n%s", after)
			}
			later := "an earlier audit write failed; every call is denied until brokerd is restarted; " + runbook.Link(runbook.AuditUnavailable)
			if _, err := l.Append(result(3)); err == nil || err.Error() != later {
				t.Errorf("a later Append = %v, want %q", err, later)
			}
		})
	}
}

// A replacement while a batch is being written: the batch went into the
// file brokerd holds, which is no longer the log, so its callers are
// told it failed (their calls do not run).
func TestAFileReplacedDuringAWriteFailsThatWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "audit")
	file := filepath.Join(dir, "000001.jsonl")
	writes := 0
	l := openLedger(t, dir, Options{afterWrite: func() {
		if writes++; writes == 2 {
			data, _ := os.ReadFile(file)
			os.WriteFile(file+".new", data[:bytes.IndexByte(data, '\n')+1], 0o600) // a copy made before the write
			os.Rename(file+".new", file)
		}
	}})
	if _, err := l.Append(result(1)); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(result(2)); err == nil || !strings.Contains(err.Error(), "was replaced") {
		t.Fatalf("the Append whose write met the replacement = %v", err)
	}
}

// brokerd's own rotation is no replacement: the chain goes on across
// files with the check before and after every write.
func TestRotationIsNotAReplacement(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "audit")
	l := openLedger(t, dir, Options{MaxFileSize: 200})
	for k := 1; k <= 20; k++ {
		if _, err := l.Append(result(k)); err != nil {
			t.Fatalf("Append %d: %v", k, err)
		}
	}
	l.Close()
	if rep := verify(t, dir); !rep.OK() || rep.Files < 5 || rep.Records != 20 {
		t.Errorf("Verify: %v, %d files, %d records", findingStrings(rep.Errors), rep.Files, rep.Records)
	}
}
