// Package recall is the search index over past sessions and notes: SQLite
// FTS5 at <home>/index/memory.sqlite3 (WAL mode). It is the only package of
// Boxmaker that imports github.com/mattn/go-sqlite3.
//
// The index is disposable: everything in it is read from
// <home>/sessions/<id>/<epoch>.jsonl (the "text" of user, assistant and tool
// records, docs/specs/loop.md, "Session log") and <home>/memory/notes.md
// (each note with its header: session, time, class, untrusted). Sync
// follows both as they grow; Rebuild makes a new index beside the old one
// and swaps it in.
//
// # Schema
//
//	meta(key, value)                 version of this schema
//	sources(id, path, session, epoch, offset, size, mtime, ino)
//	                                 one row per file read: how far
//	records  FTS5(text; session, epoch, seq, at, kind, untrusted, class unindexed)
//
// A record's rowid is its source's id shifted left 32 bits, plus its seq
// (a note's number in notes.md), so a source's records are one rowid range.
package recall

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	sqlite3 "github.com/mattn/go-sqlite3"

	"boxmaker/runbook"
)

// schemaVersion changes whenever the schema or what is indexed changes; an
// index of another version is rebuilt at Open.
const schemaVersion = "1"

// File is where the index lives under the home.
const File = "index/memory.sqlite3"

var schema = []string{
	`CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
	`CREATE TABLE sources(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, session TEXT NOT NULL, epoch INTEGER NOT NULL,
		offset INTEGER NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT NULL, ino INTEGER NOT NULL)`,
	`CREATE VIRTUAL TABLE records USING fts5(text, session UNINDEXED, epoch UNINDEXED, seq UNINDEXED, at UNINDEXED,
		kind UNINDEXED, untrusted UNINDEXED, class UNINDEXED, tokenize = 'unicode61 remove_diacritics 2')`,
	`INSERT INTO meta(key, value) VALUES('version', '` + schemaVersion + `')`,
}

// Index is an open recall index. Its methods are safe for concurrent use.
type Index struct {
	home string
	path string

	mu        sync.RWMutex // Search holds it shared; Sync and the swap of Rebuild exclusively
	db        *sql.DB
	sources   map[string]source
	syncMu    sync.Mutex // one Sync or Rebuild at a time; guards dirs, watch and bySession too
	dirs      dirCache
	watch     *watcher            // what changed since the last Sync; made by the first
	bySession map[string][]string // the sources of each session (notes.md's under ""); nil until a partial Sync needs it
	file      fileID              // the file db was opened on; guarded by mu
	closed    bool                // Close was called; guarded by mu
}

// fileID is a file's identity: a file put in the index's place (a copy,
// a restore, a mistake) is another file, though its name is the same.
type fileID struct{ dev, ino uint64 }

func idOf(fi os.FileInfo) fileID {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}
	}
	return fileID{dev: uint64(st.Dev), ino: st.Ino}
}

// source is how far one file has been read.
type source struct {
	id      int64
	session string
	epoch   int64
	offset  int64 // bytes read: up to the end of the last complete line
	size    int64
	mtime   int64
	ino     uint64
}

// damaged is the error of an index that cannot be read or written.
func damaged(path string, err error) error {
	return runbook.Refuse(runbook.MemoryIndexDamaged, "index: %s: %v", path, err)
}

// Open opens the index of home. A missing index, or one of another schema
// version, is rebuilt first (progress may be nil); a damaged one is an
// error starting "index:" (memory-index-damaged) and is left as it is.
func Open(home string, progress func(Progress)) (*Index, error) {
	ix := &Index{home: home, path: filepath.Join(home, File), dirs: dirCache{}}
	if err := os.MkdirAll(filepath.Dir(ix.path), 0o700); err != nil {
		return nil, damaged(ix.path, err)
	}
	_, err := os.Stat(ix.path)
	if errors.Is(err, fs.ErrNotExist) {
		if _, err := build(home, ix.path, progress); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, damaged(ix.path, err)
	}
	err = ix.open()
	if errors.Is(err, errOldVersion) {
		if _, err := build(home, ix.path, progress); err != nil {
			return nil, err
		}
		err = ix.open()
	}
	if err != nil {
		return nil, err
	}
	return ix, nil
}

var errOldVersion = errors.New("index of another version")

// driverName is go-sqlite3 with the pragmas every connection of the
// index gets: searches read scattered pages (bm25 reads each matching
// row's size), which a memory map and a larger page cache make cheap.
const driverName = "sqlite3-boxmaker-recall"

// registerDriver registers driverName once, when the index is first
// opened (not in init: every role links this package).
var registerDriver = sync.OnceFunc(func() {
	sql.Register(driverName, &sqlite3.SQLiteDriver{
		ConnectHook: func(c *sqlite3.SQLiteConn) error {
			_, err := c.Exec(`PRAGMA mmap_size = 1073741824; PRAGMA cache_size = -32768; PRAGMA temp_store = MEMORY`, nil)
			return err
		},
	})
})

func openDB(path string, create bool) (*sql.DB, error) {
	mode := "rw"
	if create {
		mode = "rwc"
		// SQLite creates a database 0644 (less the umask), and its -wal
		// and -shm files with the database's mode. The index holds what
		// the sessions said: create it 0600 first, whatever the umask.
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, err
		}
		f.Close()
	}
	// An index made before this, or whose mode was changed by hand.
	if err := privateFiles(path); err != nil {
		return nil, err
	}
	dsn := "file:" + path + "?mode=" + mode + "&_busy_timeout=10000&_txlock=immediate"
	if !create {
		dsn += "&_journal_mode=WAL&_synchronous=NORMAL"
	}
	registerDriver()
	return sql.Open(driverName, dsn)
}

// privateFiles makes the index and its -wal and -shm files, those that
// exist, readable and writable by their owner only.
func privateFiles(path string) error {
	for _, ext := range []string{"", "-wal", "-shm"} {
		st, err := os.Stat(path + ext)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if st.Mode().Perm() != 0o600 {
			if err := os.Chmod(path+ext, 0o600); err != nil {
				return err
			}
		}
	}
	return nil
}

func (ix *Index) open() error {
	before, err := os.Stat(ix.path)
	if err != nil {
		return damaged(ix.path, err)
	}
	db, err := openDB(ix.path, false)
	if err != nil {
		return damaged(ix.path, err)
	}
	var v string
	if err := db.QueryRow(`SELECT value FROM meta WHERE key = 'version'`).Scan(&v); err != nil {
		db.Close()
		return damaged(ix.path, err)
	}
	if v != schemaVersion {
		db.Close()
		return errOldVersion
	}
	srcs, err := loadSources(db)
	if err != nil {
		db.Close()
		return damaged(ix.path, err)
	}
	// The file read is the one stat saw (no swap in between), or the
	// next check finds it replaced and opens it again.
	ix.db, ix.sources, ix.file, ix.bySession = db, srcs, idOf(before), nil
	return nil
}

// current makes sure the index in use is the file at the index's path, as
// it is now: a file put in its place, or its removal, while memoryd runs
// is found at the next search or sync, not at the next start. A replaced
// file is opened (and damaged if it is no index); a missing one is
// damaged (bxctl reindex builds it). A damaged index stays closed, and
// each call tries again, so a fix by hand is found as well.
func (ix *Index) current() error {
	fi, err := os.Stat(ix.path)
	ix.mu.RLock()
	same := err == nil && ix.db != nil && idOf(fi) == ix.file
	ix.mu.RUnlock()
	if same {
		return nil
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	fi, err = os.Stat(ix.path)
	if err == nil && ix.db != nil && idOf(fi) == ix.file {
		return nil // another call opened it meanwhile
	}
	if ix.closed {
		return fmt.Errorf("index: %s is closed", ix.path)
	}
	if ix.db != nil {
		ix.db.Close()
		ix.db = nil
	}
	if err != nil {
		return damaged(ix.path, err)
	}
	err = ix.open()
	if errors.Is(err, errOldVersion) {
		return damaged(ix.path, errors.New("the file in the index's place is an index of another version"))
	}
	return err
}

func loadSources(db *sql.DB) (map[string]source, error) {
	rows, err := db.Query(`SELECT id, path, session, epoch, offset, size, mtime, ino FROM sources`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]source{}
	for rows.Next() {
		var s source
		var p string
		var ino int64
		if err := rows.Scan(&s.id, &p, &s.session, &s.epoch, &s.offset, &s.size, &s.mtime, &ino); err != nil {
			return nil, err
		}
		s.ino = uint64(ino)
		out[p] = s
	}
	return out, rows.Err()
}

// Close closes the index.
func (ix *Index) Close() error {
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	if ix.watch != nil {
		ix.watch.close()
		ix.watch = nil
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.closed = true
	if ix.db == nil {
		return nil
	}
	err := ix.db.Close()
	ix.db = nil
	return err
}

// Path is the index file.
func (ix *Index) Path() string { return ix.path }

// isConstraint tells a duplicate rowid from other failures.
func isConstraint(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.Code == sqlite3.ErrConstraint
}
