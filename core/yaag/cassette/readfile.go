package cassette

import "boxmaker/core/regularfile"

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
	return regularfile.ReadFile(path, max)
}
