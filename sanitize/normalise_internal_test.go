package sanitize

import "testing"

// The flag rules match on the fast path's text and report offsets through
// the slow path's map: the two must agree on every text.
func FuzzNormalisePathsAgree(f *testing.F) {
	for _, s := range []string{"", "A  b\n\n c", "ＩＧＮＯＲＥ e\u0301 \u200b x\u0085y", "\xff\xfeA", "ﬁ\u00a0\u3000end \r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		fast, _ := normalise(text, false)
		slow, offsets := normalise(text, true)
		if fast != slow {
			t.Fatalf("normalise(%q): fast path %q, slow path %q", text, fast, slow)
		}
		if len(offsets) != len(slow) {
			t.Fatalf("normalise(%q): %d offsets for %d bytes", text, len(offsets), len(slow))
		}
		for i := 1; i < len(offsets); i++ {
			if offsets[i] < offsets[i-1] || offsets[i] > len(text) {
				t.Fatalf("normalise(%q): offsets out of order or range: %v", text, offsets)
			}
		}
	})
}

// The eight-byte tests must say what a byte-by-byte loop says.
func FuzzEightByteTests(f *testing.F) {
	for _, s := range []string{"abcdefgh", "abcdefg\x7f", "abcdefg\n", "\tabc\ndef", "a\rb\vc\fd\x0e", "\x08\x09\x0a\x0b\x0c\x0d\x0e\x1f", "\x00\x00\x00\x00\x00\x00\x00\x09", "abc\x80defg", " ~~~~~~~", "\x1fabcdefg", "ABCDEFGH", "@[`{azAZ", "!!!!!!!!"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) < 8 {
			return
		}
		plain, copyable := true, true
		for i := 0; i < 8; i++ {
			c := s[i]
			if c < 0x20 || c > 0x7e {
				plain = false
			}
			if c <= 0x20 || c > 0x7e || 'A' <= c && c <= 'Z' {
				copyable = false
			}
		}
		text, wide := true, true
		for i := 0; i < 8; i++ {
			c := s[i]
			if !(c >= 0x20 && c <= 0x7e || c == '\t' || c == '\n') {
				text = false
			}
			if !(c >= 0x20 && c <= 0x7e || c >= '\t' && c <= '\r') {
				wide = false
			}
		}
		x := load8(s, 0)
		if got := textASCII8(x); got != text {
			t.Fatalf("textASCII8(%q) = %v, want %v", s[:8], got, text)
		}
		if got := wideASCII8(x); got != wide {
			t.Fatalf("wideASCII8(%q) = %v, want %v", s[:8], got, wide)
		}
		if got := plainASCII8(x); got != plain {
			t.Fatalf("plainASCII8(%q) = %v, want %v", s[:8], got, plain)
		}
		if got := copyable8(x); got != copyable {
			t.Fatalf("copyable8(%q) = %v, want %v", s[:8], got, copyable)
		}
	})
}
