package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The table in sanitize/ must be what this program writes: no entry is
// written or changed by hand.
func TestTableIsGenerated(t *testing.T) {
	want, err := render()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "lookalike_table.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("sanitize/lookalike_table.go is not what lookalikegen writes: run go generate in sanitize/")
	}
}
