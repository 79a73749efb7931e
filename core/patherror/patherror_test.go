package patherror

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestReasonIsTheSystemsWords(t *testing.T) {
	_, err := os.Open(filepath.Join(t.TempDir(), "missing"))
	if got := Reason(err); got != syscall.ENOENT {
		t.Errorf("Reason(%v) = %v, want ENOENT", err, got)
	}
	if got := Reason(fmt.Errorf("loading: %w", err)); got != syscall.ENOENT {
		t.Errorf("Reason of a wrapped path error = %v, want ENOENT", got)
	}
	plain := errors.New("not a path error")
	if got := Reason(plain); got != plain {
		t.Errorf("Reason(%v) = %v, want it unchanged", plain, got)
	}
}
