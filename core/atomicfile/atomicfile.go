// Package atomicfile replaces a file so that a reader, or the file system
// after a crash, sees either the old contents or the new, never a mix.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile writes data to a temporary file beside path, syncs it, renames
// it over path and syncs the directory, so the rename itself is durable.
// The temporary file is named path + ".tmp"; a leftover one is a write that
// did not finish and is replaced.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if err := writeSyncClose(f, data, perm); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return SyncDir(filepath.Dir(path))
}

func writeSyncClose(f *os.File, data []byte, perm os.FileMode) error {
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(perm) // the umask may have narrowed OpenFile's mode
	}
	if werr == nil {
		werr = f.Sync()
	}
	cerr := f.Close()
	if werr != nil {
		return werr
	}
	return cerr
}

// SyncDir makes the directory's entries (a rename, a new file) durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
