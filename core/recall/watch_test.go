package recall

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"boxmaker/core/memory"
)

func mustSync(t *testing.T, ix *Index) Progress {
	t.Helper()
	p, err := ix.Sync()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func wantHits(t *testing.T, ix *Index, step string, hits map[string]int) {
	t.Helper()
	for w, n := range hits {
		if got, _ := search(t, ix, w); len(got) != n {
			t.Errorf("%s: %s: %v, want %d hits", step, w, got, n)
		}
	}
}

// A Sync looks only at what changed: nothing when nothing did (no
// listing, no stat: Total 0, where it was every file), the one log a
// turn wrote to; and every change is seen: a record appended, a new
// session, a log replaced by a rename, a session's directory replaced,
// a write through a hard link elsewhere (the watch is on the file, not
// only its directory), a session removed, notes.md replaced, sessions/
// itself replaced.
func TestSyncLooksOnlyAtWhatChanged(t *testing.T) {
	home := t.TempDir()
	for _, s := range []string{"s1", "s2", "s3"} {
		appendFile(t, logPath(home, s, 0), logLine(1, "user", "first of "+s))
	}
	ix := openIndex(t, home)
	if p := mustSync(t, ix); p.Total != 3 { // the first Sync looks at everything
		t.Fatalf("first Sync: %+v", p)
	}
	if p := mustSync(t, ix); p != (Progress{}) {
		t.Fatalf("Sync with nothing new: %+v, want nothing looked at", p)
	}

	appendFile(t, logPath(home, "s2", 0), logLine(2, "user", "alpha"))
	if p := mustSync(t, ix); p.Total != 1 || p.Records != 1 {
		t.Fatalf("Sync after one turn: %+v, want the one log and its record", p)
	}
	wantHits(t, ix, "appended", map[string]int{"alpha": 1})

	appendFile(t, logPath(home, "s4", 0), logLine(1, "user", "beta"))
	appendFile(t, logPath(home, "s4", 1), logLine(1, "user", "gamma"))
	mustSync(t, ix)
	wantHits(t, ix, "a new session", map[string]int{"beta": 1, "gamma": 1})

	tmp := filepath.Join(home, "sessions", "s1", "0.jsonl.tmp")
	os.WriteFile(tmp, []byte(logLine(1, "user", "delta")), 0o600)
	if err := os.Rename(tmp, logPath(home, "s1", 0)); err != nil {
		t.Fatal(err)
	}
	mustSync(t, ix)
	wantHits(t, ix, "a log replaced", map[string]int{"delta": 1, "first": 2})

	other := filepath.Join(home, "sessions", "s3-new")
	appendFile(t, filepath.Join(other, "0.jsonl"), logLine(1, "user", "epsilon"))
	if err := os.Rename(filepath.Join(home, "sessions", "s3"), filepath.Join(home, "s3-old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, filepath.Join(home, "sessions", "s3")); err != nil {
		t.Fatal(err)
	}
	mustSync(t, ix)
	wantHits(t, ix, "a session's directory replaced", map[string]int{"epsilon": 1, "first": 1})

	link := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Link(logPath(home, "s2", 0), link); err != nil {
		t.Fatal(err)
	}
	appendFile(t, link, logLine(3, "tool", "zeta"))
	mustSync(t, ix)
	wantHits(t, ix, "written through a hard link", map[string]int{"zeta": 1})

	os.RemoveAll(filepath.Join(home, "sessions", "s4"))
	mustSync(t, ix)
	wantHits(t, ix, "a session removed", map[string]int{"beta": 0, "gamma": 0})

	notes := filepath.Join(home, "memory", "notes.md")
	appendFile(t, notes+".tmp", memory.FormatNote(t0, "s1", "public", false, "eta"))
	if err := os.Rename(notes+".tmp", notes); err != nil {
		t.Fatal(err)
	}
	mustSync(t, ix)
	wantHits(t, ix, "notes.md replaced", map[string]int{"eta": 1})

	sessions := filepath.Join(home, "sessions")
	if err := os.Rename(sessions, sessions+".old"); err != nil {
		t.Fatal(err)
	}
	appendFile(t, logPath(home, "s5", 0), logLine(1, "user", "theta"))
	mustSync(t, ix)
	wantHits(t, ix, "sessions/ replaced", map[string]int{"theta": 1, "alpha": 0, "first": 0})
	appendFile(t, logPath(home, "s5", 0), logLine(2, "user", "iota"))
	if p := mustSync(t, ix); p.Total != 1 {
		t.Errorf("the new sessions/ is not watched: %+v", p)
	}
	wantHits(t, ix, "after sessions/ replaced", map[string]int{"iota": 1})
}

// A record appended while the index is open and one appended while it
// is closed (memoryd stopped) are both found.
func TestSyncFindsWhatWasWrittenWhileClosed(t *testing.T) {
	home := t.TempDir()
	appendFile(t, logPath(home, "s1", 0), logLine(1, "user", "first"))
	ix := openIndex(t, home)
	mustSync(t, ix)
	appendFile(t, logPath(home, "s1", 0), logLine(2, "user", "running"))
	mustSync(t, ix)
	wantHits(t, ix, "while open", map[string]int{"running": 1})
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	appendFile(t, logPath(home, "s1", 0), logLine(3, "user", "stopped"))
	appendFile(t, logPath(home, "s2", 0), logLine(1, "user", "stopped too"))
	ix = openIndex(t, home)
	mustSync(t, ix)
	wantHits(t, ix, "while closed", map[string]int{"running": 1, "stopped": 2})
}

// When the kernel's queue of events overflows, the events after it are
// lost; the overflow makes the next Sync look at everything, so a record
// written while the queue was full is found.
func TestSyncAfterAnOverflowLooksAtEverything(t *testing.T) {
	raw, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events")
	if err != nil {
		t.Fatal(err)
	}
	max, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil || max > 1<<20 {
		t.Fatalf("max_queued_events %q: %v", raw, err)
	}
	home := t.TempDir()
	appendFile(t, logPath(home, "s1", 0), logLine(1, "user", "first"))
	appendFile(t, logPath(home, "s2", 0), logLine(1, "user", "second"))
	ix := openIndex(t, home)
	mustSync(t, ix)
	// Two files written in turns: events that differ, which the kernel
	// does not merge, until the queue is full.
	var fs [2]*os.File
	for i := range fs {
		f, err := os.Create(filepath.Join(home, "sessions", "s1", strconv.Itoa(i)+".scratch"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		fs[i] = f
	}
	for i := 0; i < max+100; i++ {
		if _, err := fs[i%2].Write([]byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	appendFile(t, logPath(home, "s2", 0), logLine(2, "user", "overflowed"))
	mustSync(t, ix)
	if ix.watch.overflows == 0 {
		t.Fatal("the queue did not overflow: the test did not test the fallback")
	}
	wantHits(t, ix, "after an overflow", map[string]int{"overflowed": 1})
	appendFile(t, logPath(home, "s2", 0), logLine(3, "user", "watched again"))
	if p := mustSync(t, ix); p.Total != 1 {
		t.Errorf("after the full Sync the watches are not set again: %+v", p)
	}
	wantHits(t, ix, "after the full Sync", map[string]int{"watched": 1})
}

// A watcher that cannot be made leaves every Sync a full one, as before.
func TestSyncWithoutAWatcherLooksAtEverything(t *testing.T) {
	home := t.TempDir()
	appendFile(t, logPath(home, "s1", 0), logLine(1, "user", "first"))
	appendFile(t, logPath(home, "s2", 0), logLine(1, "user", "second"))
	ix := openIndex(t, home)
	mustSync(t, ix)
	ix.watch.broken() // as when inotify_init1 or a watch fails
	appendFile(t, logPath(home, "s1", 0), logLine(2, "user", "unwatched"))
	if p := mustSync(t, ix); p.Total != 2 {
		t.Errorf("Sync without a watcher: %+v, want every file looked at", p)
	}
	wantHits(t, ix, "without a watcher", map[string]int{"unwatched": 1})
	appendFile(t, logPath(home, "s1", 0), logLine(3, "user", "still"))
	mustSync(t, ix)
	wantHits(t, ix, "without a watcher, again", map[string]int{"still": 1})
}

// An index file put in the index's place (restored from a copy) holds
// older sources than the events since tell of: the next Sync looks at
// everything, so what the copy lacks is read again.
func TestSyncAfterTheIndexWasReplacedLooksAtEverything(t *testing.T) {
	home := t.TempDir()
	appendFile(t, logPath(home, "s1", 0), logLine(1, "user", "alpha"))
	ix := openIndex(t, home)
	mustSync(t, ix)
	if _, err := ix.Rebuild(nil); err != nil { // a file with no WAL beside it, to copy
		t.Fatal(err)
	}
	path := filepath.Join(home, File)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	appendFile(t, logPath(home, "s1", 0), logLine(2, "user", "beta"))
	mustSync(t, ix)
	wantHits(t, ix, "before the copy is restored", map[string]int{"beta": 1})
	for _, ext := range []string{"-wal", "-shm"} {
		os.Remove(path + ext)
	}
	if err := os.WriteFile(path+".copy", data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".copy", path); err != nil {
		t.Fatal(err)
	}
	mustSync(t, ix)
	wantHits(t, ix, "after the copy is restored", map[string]int{"alpha": 1, "beta": 1})
}
