package sessionlog

import (
	"strconv"
	"testing"
)

func TestEpoch(t *testing.T) {
	for name, want := range map[string]int64{
		"0.jsonl": 0, "1.jsonl": 1, "42.jsonl": 42, "999999999999999999.jsonl": 999999999999999999,
	} {
		if got, ok := Epoch(name); !ok || got != want {
			t.Errorf("Epoch(%q) = %d, %v; want %d", name, got, ok, want)
		}
	}
	for _, name := range []string{
		"", ".jsonl", "jsonl", "0", "0.json", "00.jsonl", "01.jsonl", "-1.jsonl", "+1.jsonl", " 1.jsonl",
		"1.jsonl.tmp", "1a.jsonl", "1.JSONL", "1000000000000000000.jsonl", "0x1.jsonl", "１.jsonl",
	} {
		if got, ok := Epoch(name); ok {
			t.Errorf("Epoch(%q) = %d, true; want no epoch", name, got)
		}
	}
}

// Every name FileName gives is read back as its epoch.
func TestFileNameIsReadBack(t *testing.T) {
	for _, e := range []int{0, 1, 9, 10, 12345, 999999999999999999} {
		name := FileName(e)
		if name != strconv.Itoa(e)+".jsonl" {
			t.Errorf("FileName(%d) = %q", e, name)
		}
		if got, ok := Epoch(name); !ok || got != int64(e) {
			t.Errorf("Epoch(FileName(%d)) = %d, %v", e, got, ok)
		}
	}
}
