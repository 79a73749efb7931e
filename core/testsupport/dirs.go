package testsupport

import (
	"os"
	"testing"
)

// ShortDir is a new directory under /tmp, removed when the test ends: a
// unix socket's path must stay under 108 bytes, which t.TempDir() under a
// long TMPDIR (or a long test name) does not promise.
func ShortDir(tb testing.TB) string {
	tb.Helper()
	d, err := os.MkdirTemp("/tmp", "bxt")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(d) })
	return d
}
