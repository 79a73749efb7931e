package testsupport

import (
	"errors"
	"os/exec"
)

// ExitCode is the exit status of a command that ran, from the error its
// Run or Wait returned: 0 for nil, the status an *exec.ExitError holds
// (-1 for a signal). Any other error means the command did not run, and
// is returned.
func ExitCode(err error) (int, error) {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &ee):
		return ee.ExitCode(), nil
	}
	return 0, err
}
