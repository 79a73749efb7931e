package testsupport

import (
	"os"
	"testing"
)

// EditFile replaces the file at path by what edit makes of its content
// (mode 0600), as a test damages a log or a state file; a file it cannot
// read or write fails the test.
func EditFile(tb testing.TB, path string, edit func([]byte) []byte) {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, edit(data), 0o600); err != nil {
		tb.Fatal(err)
	}
}
