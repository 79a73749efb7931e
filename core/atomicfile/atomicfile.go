// Package atomicfile replaces a file so that a reader, or the file system
// after a crash, sees either the old contents or the new, never a mix.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// WriteFile writes data to a temporary file beside path, syncs it, renames
// it over path and syncs the directory, so the rename itself is durable.
// The temporary file is named path + ".tmp"; a leftover one is a write that
// did not finish and is replaced.
//
// Whatever occupies the temporary name is never written through: a file,
// a symbolic link, a FIFO or a hard link there (which whoever can write the
// directory may have put there, aiming at another file) is removed, and
// the temporary file is then created anew (O_EXCL, O_NOFOLLOW), so the
// data goes into a file of its own or the write fails. A directory there
// is left alone, and the write fails.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	tmp := path + ".tmp"
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL | syscall.O_NOFOLLOW
	switch fi, err := os.Lstat(tmp); {
	case err == nil && fi.IsDir():
		flags &^= os.O_EXCL // open says "is a directory"
	case err == nil:
		if err := os.Remove(tmp); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(tmp, flags, perm)
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
