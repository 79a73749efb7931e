// Package regularfile opens a file for reading only when it is a regular
// file. A file that someone else can put in place (one a Run's Agents may
// have written, a note file under the home, a witness file on another
// disk) may be a FIFO, which a plain open blocks on for as long as no one
// writes to it, or a device, which never ends: both are refused before
// anything is read.
package regularfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Open opens path for reading, with its FileInfo, when it is a regular
// file; anything else is refused without blocking (O_NONBLOCK, then
// fstat). A missing file's error is fs.ErrNotExist (errors.Is).
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("not a regular file (%v)", fi.Mode().Type())}
	}
	return f, fi, nil
}

// ReadFile reads the regular file at path (Open) whole when it is at
// most max bytes: a larger one is refused before it is read, and so is
// one that grows past max while it is read.
func ReadFile(path string, max int64) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > max {
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%d bytes, over the limit of %d", fi.Size(), max)}
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("over the limit of %d bytes", max)}
	}
	return data, nil
}
