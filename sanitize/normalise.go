package sanitize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Normalise is the text the flag rules read (docs/specs/sanitizer.md 6.3):
// NFKC (full-width and other compatibility forms become plain letters),
// lower case (Unicode simple case mapping), invisible and control
// characters removed, and each run of white space folded to one character:
// a line feed if the run holds one, else a space. Lines survive so that a
// rule can ask for the start of a line. Then look-alikes are folded, word
// by word (foldLookalikes): letters of other scripts that look like Latin
// ones (UTS #39 confusables), leet digits in a word of the lexicons, and
// letters written apart (i g n o r e).
func Normalise(text string) string {
	out, _ := normalise(text, false)
	return out
}

// normalise returns the normalised text and, when withMap is set, for each
// byte of it the offset in text of the character it came from.
func normalise(text string, withMap bool) (string, []int) {
	out, offsets := normaliseForm(text, withMap)
	return foldLookalikes(out, offsets)
}

// normaliseForm is normalise up to the look-alikes: NFKC, case, invisible
// characters and white space.
func normaliseForm(text string, withMap bool) (string, []int) {
	if !withMap {
		if isASCII(text) {
			return fold(text), nil
		}
		// norm's String and its Iter disagree after an invalid byte
		// (found by fuzzing); such text is refused anyway, and takes the
		// slow path, which the offsets come from.
		if utf8.ValidString(text) {
			return fold(norm.NFKC.String(text)), nil
		}
	}
	var b strings.Builder
	b.Grow(len(text))
	var offsets []int
	if withMap {
		offsets = make([]int, 0, len(text))
	}
	space := byte(0) // the pending white space run: 0, ' ' or '\n'
	spaceAt := 0
	emit := func(r rune, at int) {
		if unicode.IsSpace(r) {
			if space == 0 {
				spaceAt = at
				space = ' '
			}
			if r == '\n' {
				space = '\n'
			}
			return
		}
		if isInvisible(r) || unicode.IsControl(r) {
			return
		}
		if space != 0 {
			b.WriteByte(space)
			if withMap {
				offsets = append(offsets, spaceAt)
			}
			space = 0
		}
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b.WriteByte(byte(r))
			if withMap {
				offsets = append(offsets, at)
			}
			return
		}
		r = unicode.ToLower(r)
		n, _ := b.WriteRune(r)
		if withMap {
			for range n {
				offsets = append(offsets, at)
			}
		}
	}
	if isASCII(text) {
		// NFKC leaves ASCII as it is.
		for i := 0; i < len(text); i++ {
			emit(rune(text[i]), i)
		}
	} else {
		var it norm.Iter
		it.InitString(norm.NFKC, text)
		for !it.Done() {
			at := it.Pos()
			seg := it.Next()
			for _, r := range string(seg) {
				emit(r, at)
			}
		}
	}
	if space != 0 {
		b.WriteByte(space)
		if withMap {
			offsets = append(offsets, spaceAt)
		}
	}
	return b.String(), offsets
}

func isASCII(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if load8(s, i)&highs != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Byte classes for fold's ASCII path.
const (
	keep  = iota // copied as it is
	upper        // copied in lower case
	blank        // white space other than a line feed
	feed         // a line feed
	drop         // an ASCII control character
	multi        // the first byte of a character above ASCII
)

var byteClass = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c >= utf8.RuneSelf:
			t[c] = multi
		case c == '\n':
			t[c] = feed
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			t[c] = blank
		case c < 0x20 || c == 0x7f:
			t[c] = drop
		case 'A' <= c && c <= 'Z':
			t[c] = upper
		}
	}
	return t
}()

// lowerASCII maps each byte to itself, but A-Z to a-z.
var lowerASCII = func() (t [256]byte) {
	for c := range 256 {
		t[c] = byte(c)
		if 'A' <= c && c <= 'Z' {
			t[c] = byte(c) + 'a' - 'A'
		}
	}
	return t
}()

// fold is normalise after NFKC, without the map: one pass, writing ASCII
// bytes straight into a buffer the size of the text, as most of source code
// is ASCII.
func fold(text string) string {
	// Room for every byte, a trailing space and an eight-byte copy;
	// only a lower case that grows needs more (below).
	out := make([]byte, len(text)+8)
	o := 0
	space := byte(0)
	for i := 0; i < len(text); i++ {
		// Eight bytes that need nothing done, at a time.
		if space == 0 && i+8 <= len(text) && copyable8(load8(text, i)) {
			copy(out[o:o+8], text[i:i+8])
			o += 8
			i += 7
			continue
		}
		c := text[i]
		switch byteClass[c] {
		case keep, upper:
			if space != 0 {
				out[o] = space
				o++
				space = 0
			}
			out[o] = lowerASCII[c]
			o++
		case blank:
			if space == 0 {
				space = ' '
			}
		case feed:
			space = '\n'
		case drop:
		case multi:
			r, size := utf8.DecodeRuneInString(text[i:])
			i += size - 1
			switch {
			case unicode.IsSpace(r):
				if space == 0 {
					space = ' '
				}
			case isInvisible(r) || unicode.IsControl(r):
			default:
				// Lower case can take more bytes than the character
				// it came from (U+023A is 2 bytes, U+2C65 is 3): keep
				// room for it, a space, and every byte still to come.
				if need := o + 1 + utf8.UTFMax + (len(text) - i) + 8; need > len(out) {
					out = append(out, make([]byte, need-len(out))...)
				}
				if space != 0 {
					out[o] = space
					o++
					space = 0
				}
				o += utf8.EncodeRune(out[o:], unicode.ToLower(r))
			}
		}
	}
	if space != 0 {
		out[o] = space
		o++
	}
	return string(out[:o])
}

// copyable8 reports whether fold copies all eight bytes of x as they are:
// ASCII above the space, not DEL, not upper case.
func copyable8(x uint64) bool {
	if x&highs != 0 {
		return false
	}
	low := (x - ones*0x21) &^ x & highs
	del := x ^ (ones * 0x7f)
	isDel := (del - ones) &^ del & highs
	upper := (x + ones*(0x80-'A')) &^ (x + ones*(0x80-'Z'-1)) & highs
	return low == 0 && isDel == 0 && upper == 0
}
