// Package patherror gives the system's reason for a failed file
// operation without the decoration Go adds, for a message that names the
// file already: "cannot read /etc/x: permission denied", not "cannot read
// /etc/x: open /etc/x: permission denied".
package patherror

import (
	"errors"
	"io/fs"
)

// Reason is the error a *fs.PathError in err's chain wraps (the
// system's words), or err itself when it holds none.
func Reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
