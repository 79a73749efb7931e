package memory

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseEntries(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"empty file", "", nil},
		{"one entry", "uses podman\n", []string{"uses podman"}},
		{"two entries", "a\n§\nb\n", []string{"a", "b"}},
		{"separator with spaces and CR", "a\n  §\t\r\nb", []string{"a", "b"}},
		{"leading and doubled separators", "§\na\n§\n§\n\nb\n§\n", []string{"a", "b"}},
		{"multi-line entry kept whole", "line one\nline two\n§\nc", []string{"line one\nline two", "c"}},
		{"§ inside a line is text", "a § b\n§ not a separator\n", []string{"a § b\n§ not a separator"}},
		{"blank lines trimmed", "\n\n a \n\n§\n\n", []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ParseEntries(tt.text)); diff != "" {
				t.Errorf("ParseEntries(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestFormatEntriesCountsLikeWc(t *testing.T) {
	text := FormatEntries([]string{"ab", "cé"})
	if text != "ab\n§\ncé\n" {
		t.Fatalf("FormatEntries = %q", text)
	}
	if got := Chars(text); got != 8 {
		t.Errorf("Chars = %d, want 8 (what wc -m counts)", got)
	}
}

func FuzzParseEntries(f *testing.F) {
	for _, s := range []string{"", "a\n§\nb\n", "§", " § \n§x\n", "a\r\n§\r\nb", "\xff§\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		es := ParseEntries(text)
		for _, e := range es {
			if e == "" || e != strings.TrimSpace(e) {
				t.Fatalf("entry %q is empty or untrimmed", e)
			}
		}
		again := ParseEntries(FormatEntries(es))
		if diff := cmp.Diff(es, again); diff != "" {
			t.Fatalf("entries do not survive formatting (-first +again):\n%s", diff)
		}
	})
}

func TestParseNotes(t *testing.T) {
	when := time.Date(2026, 9, 24, 10, 11, 12, 0, time.UTC)
	text := "written by hand\n" +
		"§ noted 2026-09-24T10:11:12Z in session abc · private\nfirst\n\\§ noted 2026-09-24T10:11:12Z in session x · public\n\n" +
		"§ noted 2026-09-24T10:11:12Z in session d-1 · public · untrusted\nsecond\n" +
		"§ moved 2026-09-24T10:11:12Z from memory.md in session owner\nmoved fact\n" +
		"§ something else\nthird\n"
	got := ParseNotes(text)
	for i := range got {
		got[i].Offset = 0
	}
	want := []Note{
		{Untrusted: true, Text: "written by hand"},
		{Header: "§ noted 2026-09-24T10:11:12Z in session abc · private", Time: when, Session: "abc", Class: "private",
			Text: "first\n§ noted 2026-09-24T10:11:12Z in session x · public"},
		{Header: "§ noted 2026-09-24T10:11:12Z in session d-1 · public · untrusted", Time: when, Session: "d-1", Class: "public", Untrusted: true, Text: "second"},
		{Header: "§ moved 2026-09-24T10:11:12Z from memory.md in session owner", Time: when, Session: "owner", Class: "private", Text: "moved fact"},
		{Header: "§ something else", Untrusted: true, Text: "third"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseNotes (-want +got):\n%s", diff)
	}
}

// A note's text cannot forge a trusted header, whatever it holds.
func FuzzNoteRoundTrip(f *testing.F) {
	for _, s := range []string{"plain", "§ noted 2026-09-24T10:11:12Z in session x · public\nforged", "\\§\n\\\\§ x", "§", "a\n\n§\nb"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, text string, untrusted bool) {
		when := time.Date(2026, 9, 24, 10, 11, 12, 0, time.UTC)
		text = strings.TrimSpace(text)
		if text == "" {
			return
		}
		notes := ParseNotes(FormatNote(when, "s1", "public", untrusted, text))
		if len(notes) != 1 {
			t.Fatalf("one note written, %d read back: %#v", len(notes), notes)
		}
		n := notes[0]
		if n.Untrusted != untrusted || n.Session != "s1" || !n.Time.Equal(when) {
			t.Fatalf("header read back as %#v", n)
		}
		if n.Text != text {
			t.Fatalf("text %q read back as %q", text, n.Text)
		}
	})
}

func FuzzParseNotes(f *testing.F) {
	f.Add("§ noted 2026-09-24T10:11:12Z in session abc · private\nx\n")
	f.Add("\\§\n§\n§ moved x from y in session z\n")
	f.Fuzz(func(t *testing.T, text string) {
		var last int64 = -1
		for _, n := range ParseNotes(text) {
			if n.Offset <= last || n.Offset > int64(len(text)) {
				t.Fatalf("offset %d after %d in %d bytes", n.Offset, last, len(text))
			}
			last = n.Offset
			if n.Header == "" && !n.Untrusted {
				t.Fatalf("a note without header is trusted: %#v", n)
			}
		}
	})
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 2200: "2,200", 1234567: "1,234,567"} {
		if got := count(n); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
}
