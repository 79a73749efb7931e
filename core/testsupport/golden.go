package testsupport

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// GoldenJSON holds v's JSON encoding to testdata/<name>.json, byte for byte
// (one newline after it); with update it writes the file instead. The wire
// packages use it to keep the bytes on their sockets what they were.
func GoldenJSON(tb testing.TB, name string, v any, update bool) {
	tb.Helper()
	got, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join("testdata", name+".json")
	if update {
		if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if string(got)+"\n" != string(want) {
		tb.Errorf("%s encodes as\n%s\nwant (%s)\n%s", name, got, path, want)
	}
}
