package recall

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"boxmaker/core/atomicfile"
)

// Rebuild builds a new index of home beside the one in use and swaps it
// in. Use it when no Index of home is open (an open one: Index.Rebuild).
func Rebuild(home string, progress func(Progress)) (Progress, error) {
	path := filepath.Join(home, File)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return Progress{}, damaged(path, err)
	}
	return build(home, path, progress)
}

// Rebuild builds a new index beside the one in use, from everything in
// sessions/ and notes.md, and swaps it in. Searches go on against the old
// index until the swap.
func (ix *Index) Rebuild(progress func(Progress)) (Progress, error) {
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	tmp := ix.path + ".new"
	p, err := buildAt(ix.home, tmp, progress)
	if err != nil {
		return p, err
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.db != nil {
		ix.db.Close() // checkpoints and removes the WAL
		ix.db = nil
	}
	if err := swap(tmp, ix.path); err != nil {
		ix.open() // go on with the old index if it is still there
		return p, err
	}
	return p, ix.open()
}

func build(home, path string, progress func(Progress)) (Progress, error) {
	tmp := path + ".new"
	p, err := buildAt(home, tmp, progress)
	if err != nil {
		return p, err
	}
	return p, swap(tmp, path)
}

// swap puts the new index in place of the old. The old one's WAL and
// shared-memory files go first: SQLite would replay a WAL left beside a
// database it does not belong to.
func swap(tmp, path string) error {
	for _, ext := range []string{"-wal", "-shm"} {
		if err := os.Remove(path + ext); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return damaged(path, err)
		}
	}
	if err := os.Rename(tmp, path); err != nil {
		return damaged(path, err)
	}
	if err := atomicfile.SyncDir(filepath.Dir(path)); err != nil {
		return damaged(path, err)
	}
	return nil
}

// buildAt writes a complete index at path (replacing anything there),
// with journalling off while it fills (a crash leaves only a file that
// the next build replaces), then syncs it.
func buildAt(home, path string, progress func(Progress)) (Progress, error) {
	for _, ext := range []string{"", "-journal", "-wal", "-shm"} {
		if err := os.Remove(path + ext); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Progress{}, damaged(path, err)
		}
	}
	db, err := openDB(path, true)
	if err != nil {
		return Progress{}, damaged(path, err)
	}
	db.SetMaxOpenConns(1)
	p, err := fill(db, home, progress)
	if cerr := db.Close(); err == nil && cerr != nil {
		err = damaged(path, cerr)
	}
	if err == nil {
		err = syncFile(path)
	}
	if err != nil {
		os.Remove(path)
		return p, err
	}
	return p, nil
}

func fill(db *sql.DB, home string, progress func(Progress)) (Progress, error) {
	path := filepath.Join(home, File)
	for _, q := range []string{`PRAGMA journal_mode = OFF`, `PRAGMA synchronous = OFF`, `PRAGMA cache_size = -65536`} {
		if _, err := db.Exec(q); err != nil {
			return Progress{}, damaged(path, err)
		}
	}
	for _, q := range schema {
		if _, err := db.Exec(q); err != nil {
			return Progress{}, damaged(path, err)
		}
	}
	files, err := listFiles(home, nil, nil)
	if err != nil {
		return Progress{}, fmt.Errorf("recall: cannot list the session logs: %w", err)
	}
	if progress != nil {
		progress(Progress{Total: len(files)})
	}
	// A large in-memory table of terms before each flush to disk makes
	// fewer, larger segments to merge; Sync's small transactions go back
	// to the default afterwards.
	if _, err := db.Exec(`INSERT INTO records(records, rank) VALUES('hashsize', 67108864)`); err != nil {
		return Progress{}, damaged(path, err)
	}
	tx, err := db.Begin()
	if err != nil {
		return Progress{}, damaged(path, err)
	}
	p, err := indexFiles(tx, home, files, map[string]source{}, progress)
	if err != nil {
		tx.Rollback()
		var re *readError
		if errors.As(err, &re) {
			return p, err
		}
		return p, damaged(path, err)
	}
	if err := tx.Commit(); err != nil {
		return p, damaged(path, err)
	}
	if _, err := db.Exec(`INSERT INTO records(records, rank) VALUES('hashsize', 1048576)`); err != nil {
		return p, damaged(path, err)
	}
	if _, err := db.Exec(`INSERT INTO records(records) VALUES('optimize')`); err != nil {
		return p, damaged(path, err)
	}
	if _, err := db.Exec(`PRAGMA journal_mode = WAL`); err != nil {
		return p, damaged(path, err)
	}
	return p, nil
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return damaged(path, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return damaged(path, err)
	}
	return nil
}
