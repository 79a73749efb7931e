package recall

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	homepkg "boxmaker/core/home"
	"boxmaker/core/memory"
	"boxmaker/core/sessionid"
	"boxmaker/core/sessionlog"
)

// Progress counts what a Sync or Rebuild has read so far; the last one
// reported is the total.
type Progress struct {
	Files   int // files looked at
	Total   int // files to look at
	Logs    int // session logs read (those with something new, for Sync)
	Records int // session records indexed
	Notes   int // notes indexed
	Skipped int // lines that are not a record (damaged), left out
}

const notesPath = homepkg.DirMemory + "/" + memory.NotesFile

// file is one file the index reads, found on disk.
type file struct {
	rel     string // relative to the home
	session string
	epoch   int64
	size    int64
	mtime   int64
	ino     uint64
}

// dirCache remembers the listing of directories whose modification time
// has not changed, so that a Sync with nothing new reads no directory:
// only the files' sizes are looked at. A listing taken within racyWindow
// of the directory's modification time is not trusted (a file created in
// the same clock tick would not change the time again), as git does with
// its index.
type dirCache map[string]dirListing

type dirListing struct {
	mtime    int64
	listedAt int64
	names    []string
}

const racyWindow = int64(2 * time.Second)

// names lists dir, from the cache when it can.
func (c dirCache) names(dir string) ([]string, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	mtime := fi.ModTime().UnixNano()
	if l, ok := c[dir]; ok && c != nil && l.mtime == mtime && l.listedAt-mtime > racyWindow {
		return l.names, nil
	}
	now := time.Now().UnixNano()
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if c != nil {
		c[dir] = dirListing{mtime: mtime, listedAt: now, names: names}
	}
	return names, nil
}

// listFiles finds the session logs and notes.md, in a stable order, with
// their sizes. cache may be nil; w, when not nil, has every directory
// and file watched before it is listed or looked at.
func listFiles(home string, cache dirCache, w *watcher) ([]file, error) {
	var out []file
	sessions := filepath.Join(home, homepkg.DirSessions)
	dirs, err := cache.names(sessions)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, d := range dirs {
		if !sessionid.Valid(d) {
			continue
		}
		fs, err := sessionFiles(home, d, cache, w)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	out = append(out, file{rel: notesPath})
	return statFiles(home, out, w)
}

// sessionFiles lists the logs in one session's directory (none when it
// is not there), its watch added first.
func sessionFiles(home, session string, cache dirCache, w *watcher) ([]file, error) {
	dir := filepath.Join(home, homepkg.DirSessions, session)
	w.add(dir, watchSessionDir, session)
	names, err := cache.names(dir)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []file
	for _, n := range names {
		epoch, ok := sessionlog.Epoch(n)
		if !ok {
			continue
		}
		out = append(out, file{rel: filepath.Join(homepkg.DirSessions, session, n), session: session, epoch: epoch})
	}
	return out, nil
}

// statFiles keeps the regular files of files that are there, with their
// sizes, modification times and inodes, each watched first.
func statFiles(home string, files []file, w *watcher) ([]file, error) {
	kept := files[:0]
	for _, f := range files {
		path := filepath.Join(home, f.rel)
		if f.rel == notesPath {
			w.add(path, watchNotes, "")
		} else {
			w.add(path, watchLog, f.session)
		}
		fi, err := os.Stat(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since listed, or no notes yet
		}
		if err != nil {
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			continue
		}
		f.size, f.mtime = fi.Size(), fi.ModTime().UnixNano()
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			f.ino = st.Ino
		}
		kept = append(kept, f)
	}
	return kept, nil
}

func (f file) unchanged(s source) bool {
	return f.size == s.size && f.mtime == s.mtime && f.ino == s.ino
}

// Sync indexes what was added to the session logs and notes.md since the
// last Sync: each log from the end of its last complete line read, notes.md
// again whole when it changed. A file that shrank or was replaced is read
// again from its start, and a file that is gone leaves the index.
//
// What to look at comes from the index's watcher: nothing when nothing
// changed (no directory listed, no file stat'd), the directory and logs
// of each session that changed, or everything (the first Sync, an
// overflowed queue, a watcher that could not be set: see watcher).
func (ix *Index) Sync() (Progress, error) {
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	if err := ix.current(); err != nil {
		return Progress{}, err
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.db == nil {
		return Progress{}, fmt.Errorf("index: %s is closed", ix.path)
	}
	if ix.watch == nil {
		ix.watch = newWatcher(ix.home)
	}
	w := ix.watch
	w.drain()
	if ix.file != w.index {
		// Another index file than the last Sync's (put in place, or
		// rebuilt): its sources are not what the events are news to.
		w.all = true
	}
	if w.clean() {
		return Progress{}, nil
	}
	var p Progress
	var err error
	if w.all {
		p, err = ix.syncAll(w)
	} else {
		p, err = ix.syncSome(w)
	}
	if err != nil {
		w.all = true // what was marked is not known to be read: all of it next time
		return p, err
	}
	w.done()
	w.index = ix.file
	return p, nil
}

// syncAll looks at every file, as every Sync did before the watcher,
// and sets the watcher's watches again as it lists.
func (ix *Index) syncAll(w *watcher) (Progress, error) {
	if !w.start() {
		w = nil
	}
	files, err := listFiles(ix.home, ix.dirs, w)
	if err != nil {
		return Progress{}, fmt.Errorf("recall: cannot list the session logs: %w", err)
	}
	work := false
	seen := map[string]bool{}
	for _, f := range files {
		seen[f.rel] = true
		if s, ok := ix.sources[f.rel]; !ok || !f.unchanged(s) {
			work = true
		}
	}
	for p := range ix.sources {
		if !seen[p] {
			work = true
		}
	}
	if !work {
		return Progress{Files: len(files), Total: len(files)}, nil
	}
	sources := map[string]source{}
	for k, v := range ix.sources {
		sources[k] = v
	}
	p, err := ix.index(files, sources)
	if err != nil {
		return p, err
	}
	ix.sources, ix.bySession = sources, nil
	return p, nil
}

// syncSome looks at the directories and logs of the sessions the
// watcher marked, and at notes.md when it was marked: those files, and
// the index's sources of them, are indexed as a Sync of everything
// would, and nothing else is looked at.
func (ix *Index) syncSome(w *watcher) (Progress, error) {
	if ix.bySession == nil {
		ix.bySession = map[string][]string{}
		for rel, s := range ix.sources {
			ix.bySession[s.session] = append(ix.bySession[s.session], rel)
		}
	}
	var files []file
	sources := map[string]source{} // the sources of what is looked at
	for session := range w.dirty {
		fs, err := sessionFiles(ix.home, session, nil, w)
		if err != nil {
			return Progress{}, fmt.Errorf("recall: cannot list the session logs: %w", err)
		}
		files = append(files, fs...)
		for _, rel := range ix.bySession[session] {
			sources[rel] = ix.sources[rel]
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	if w.notes {
		files = append(files, file{rel: notesPath})
		if s, ok := ix.sources[notesPath]; ok {
			sources[notesPath] = s
		}
	}
	files, err := statFiles(ix.home, files, w)
	if err != nil {
		return Progress{}, fmt.Errorf("recall: cannot list the session logs: %w", err)
	}
	before := make([]string, 0, len(sources))
	for rel := range sources {
		before = append(before, rel)
	}
	p, err := ix.index(files, sources)
	if err != nil {
		return p, err
	}
	for _, rel := range before {
		delete(ix.sources, rel)
	}
	for rel, s := range sources {
		ix.sources[rel] = s
	}
	for session := range w.dirty {
		delete(ix.bySession, session)
	}
	for rel, s := range sources {
		if w.dirty[s.session] {
			ix.bySession[s.session] = append(ix.bySession[s.session], rel)
		}
	}
	return p, nil
}

// index runs indexFiles in one transaction.
func (ix *Index) index(files []file, sources map[string]source) (Progress, error) {
	tx, err := ix.db.Begin()
	if err != nil {
		return Progress{}, damaged(ix.path, err)
	}
	p, err := indexFiles(tx, ix.home, files, sources, nil)
	if err != nil {
		tx.Rollback()
		return p, ix.indexError(err)
	}
	if err := tx.Commit(); err != nil {
		return p, damaged(ix.path, err)
	}
	return p, nil
}

// indexError keeps a file's read error apart from the index's own.
func (ix *Index) indexError(err error) error {
	var re *readError
	if errors.As(err, &re) {
		return err
	}
	return damaged(ix.path, err)
}

// readError is a failure to read a session log or notes.md: the index is
// not at fault.
type readError struct{ err error }

func (e *readError) Error() string { return "recall: " + e.err.Error() }
func (e *readError) Unwrap() error { return e.err }

type inserter struct {
	tx  *sql.Tx
	ins *sql.Stmt
}

// indexFiles brings the index in tx up to date with files, updating
// sources (a copy the caller keeps only when tx commits).
func indexFiles(tx *sql.Tx, home string, files []file, sources map[string]source, progress func(Progress)) (Progress, error) {
	p := Progress{Total: len(files)}
	ins, err := tx.Prepare(`INSERT INTO records(rowid, text, session, epoch, seq, at, kind, untrusted, class) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return p, err
	}
	defer ins.Close()

	// Decide where each changed log is read from, and have a goroutine
	// read and decode them ahead of the inserts, in the same order.
	var jobs []readJob
	for _, f := range files {
		s, ok := sources[f.rel]
		if f.rel == notesPath || (ok && f.unchanged(s)) {
			continue
		}
		start := s.offset
		if !ok || f.ino != s.ino || f.size < s.offset {
			start = 0
		}
		jobs = append(jobs, readJob{path: filepath.Join(home, f.rel), start: start})
	}
	done := make(chan struct{})
	defer close(done)
	chunks := readAhead(jobs, done)

	seen := map[string]bool{}
	for _, f := range files {
		seen[f.rel] = true
		s, ok := sources[f.rel]
		if ok && f.unchanged(s) {
			p.Files++
			continue
		}
		if !ok {
			res, err := tx.Exec(`INSERT INTO sources(path, session, epoch, offset, size, mtime, ino) VALUES(?, ?, ?, 0, 0, 0, 0)`, f.rel, f.session, f.epoch)
			if err != nil {
				return p, err
			}
			id, err := res.LastInsertId()
			if err != nil {
				return p, err
			}
			s = source{id: id, session: f.session, epoch: f.epoch}
		}
		if f.rel == notesPath || f.ino != s.ino || f.size < s.offset {
			if err := dropRecords(tx, s.id); err != nil {
				return p, err
			}
			s.offset = 0
		}
		var err error
		if f.rel == notesPath {
			s.offset, err = indexNotes(ins, home, f, s, &p)
		} else {
			s.offset, err = indexLog(ins, chunks, s, &p)
			p.Logs++
		}
		if err != nil {
			return p, err
		}
		s.size, s.mtime, s.ino = f.size, f.mtime, f.ino
		if _, err := tx.Exec(`UPDATE sources SET offset = ?, size = ?, mtime = ?, ino = ? WHERE id = ?`, s.offset, s.size, s.mtime, int64(s.ino), s.id); err != nil {
			return p, err
		}
		sources[f.rel] = s
		p.Files++
		if progress != nil {
			progress(p)
		}
	}
	for rel, s := range sources {
		if seen[rel] {
			continue
		}
		if err := dropRecords(tx, s.id); err != nil {
			return p, err
		}
		if _, err := tx.Exec(`DELETE FROM sources WHERE id = ?`, s.id); err != nil {
			return p, err
		}
		delete(sources, rel)
	}
	return p, nil
}

func dropRecords(tx *sql.Tx, id int64) error {
	_, err := tx.Exec(`DELETE FROM records WHERE rowid BETWEEN ? AND ?`, id<<32, id<<32|(1<<32-1))
	return err
}
