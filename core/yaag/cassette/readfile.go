package cassette

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// The largest files yaag reads as a Run's history. A Cassette of 1,000
// Asks is under 1 MiB; an answers file is what a person types.
const (
	MaxDocument int64 = 256 << 20
	MaxAnswers  int64 = 1 << 20
)

// ReadFile reads a Cassette, a Checkpoint, a journal or an answers file:
// files that a Run's own Agents may have written (write_file, a program
// they ran), so nothing about them is trusted. Only a regular file is
// read, of at most max bytes: a FIFO or a device is refused rather than
// opened for reading (it would block yaag, or never end), and a file over
// the bound is refused before it is read. A missing file's error is
// fs.ErrNotExist.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("not a regular file (%v)", fi.Mode().Type())}
	}
	if fi.Size() > max {
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%d bytes, over the %d this yaag reads", fi.Size(), max)}
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("over the %d bytes this yaag reads", max)}
	}
	return data, nil
}
