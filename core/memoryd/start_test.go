package memoryd

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"boxmaker/runbook"
)

// memoryd-start-failed, the starter soul.md case: memory/soul.md is missing
// and the starter cannot be written. Tests run as root, so a mode cannot
// stop the write; a directory where the write's temporary file goes can.
func TestStartFailsWhenTheStarterSoulCannotBeWritten(t *testing.T) {
	home := t.TempDir()
	mem := filepath.Join(home, "memory")
	if err := os.MkdirAll(filepath.Join(mem, "soul.md.tmp"), 0o700); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	s := New(Options{Home: home, Log: &log})
	err := s.Open(false)
	if err == nil {
		s.store.Close()
		t.Fatal("memoryd opened its memory without a soul.md")
	}
	soul := filepath.Join(mem, "soul.md")
	want := "cannot open the memory directory: cannot write the starter " + soul +
		": open " + soul + ".tmp: is a directory; " + runbook.Link(runbook.MemorydStartFailed)
	if err.Error() != want {
		t.Errorf("error:\n got %s\nwant %s", err, want)
	}
	if e, _ := runbook.EntryOf(err); e != runbook.MemorydStartFailed {
		t.Errorf("entry %q, want %s", e, runbook.MemorydStartFailed)
	}
	if _, err := os.Lstat(soul); !os.IsNotExist(err) {
		t.Errorf("soul.md: %v, want it still missing", err)
	}
	if _, err := os.Stat(filepath.Join(home, "index")); !os.IsNotExist(err) {
		t.Errorf("the index was touched after the memory failed: %v", err)
	}

	// The fix the runbook gives: clear the way, start again.
	if err := os.Remove(soul + ".tmp"); err != nil {
		t.Fatal(err)
	}
	if err := s.Open(false); err != nil {
		t.Fatalf("after the fix: %v", err)
	}
	defer s.store.Close()
	if s.ix != nil {
		defer s.ix.Close()
	}
	if _, err := os.Stat(soul); err != nil {
		t.Errorf("the starter soul.md was not written: %v", err)
	}
}
