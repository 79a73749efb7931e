package sanitize

import (
	"math/bits"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

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
// normaliseLines is normaliseForm without the map, with, for each line of
// the normalised text, the offset in text of the line it came from (the
// start of the line that holds its first character; 0 for the first).
func normaliseLines(text string) (string, lineMap) {
	if isASCII(text) {
		return fold(text, false)
	}
	if utf8.ValidString(text) {
		return fold(text, true)
	}
	out, offsets := normaliseForm(text, true)
	m := lineMap{from: []int{0}, at: []int{0}}
	for p := 0; p+1 < len(out); p++ {
		if out[p] == '\n' {
			// The map gives a character's segment, which may start
			// with the line feed before it (a mark that begins a line).
			m.from = append(m.from, strings.LastIndexByte(text[:offsets[p+1]+1], '\n')+1)
			m.at = append(m.at, p+1)
		}
	}
	return out, m
}

func normaliseForm(text string, withMap bool) (string, []int) {
	if !withMap {
		if isASCII(text) {
			out, _ := fold(text, false)
			return out, nil
		}
		// norm's String and its Iter disagree after an invalid byte
		// (found by fuzzing); such text is refused anyway, and takes the
		// slow path, which the offsets come from.
		if utf8.ValidString(text) {
			out, _ := fold(text, true)
			return out, nil
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

// lineEnd is the end of the line of text that starts at (or holds) start:
// the offset of its line feed, or the end of the text.
func lineEnd(text string, start int) int {
	if end := strings.IndexByte(text[start:], '\n'); end >= 0 {
		return start + end
	}
	return len(text)
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

// fold is normaliseForm without the map: one pass, writing ASCII bytes
// straight into a buffer the size of the text, as most of source code is
// ASCII. With checkNFKC, a line that holds a character above ASCII is
// first tested for NFKC, and only a line that is not already in NFKC is
// normalised (a line feed starts a new segment, so the lines of a text
// normalise apart); without, the text must be in NFKC already.
//
// It also returns, for each line of the normalised text, the offset in
// text of the line it came from (normaliseLines).
func fold(text string, checkNFKC bool) (string, lineMap) {
	return new(folder).fold(text, checkNFKC)
}

// fold is fold into f's arrays, grown as needed: what it returns shares
// them.
func (f *folder) fold(text string, checkNFKC bool) (string, lineMap) {
	// Room for every byte, a trailing space and an eight-byte copy;
	// only a lower case that grows needs more (below).
	if cap(f.out) < len(text)+8 {
		f.out = make([]byte, len(text)+8)
	}
	f.out = f.out[:cap(f.out)]
	if n := 1 + len(text)/32; cap(f.lines) < n {
		f.lines, f.starts = make([]int, 0, n), make([]int, 0, n)
	}
	f.o, f.space = 0, 0
	f.lines, f.starts = append(f.lines[:0], 0), append(f.starts[:0], 0)
	f.run(text, checkNFKC, -1)
	if f.space != 0 {
		f.out[f.o] = f.space
		f.o++
	}
	if f.o == 0 {
		return "", lineMap{f.lines, f.starts}
	}
	// out is not written again: the string may share it rather than
	// copy the text once more.
	return unsafe.String(&f.out[0], f.o), lineMap{f.lines, f.starts}
}

// folders keeps fold's arrays between the texts flagNormalised reads
// (a chunk of bxctl sanitize check's is a megabyte): allocating them
// afresh was most of what a check allocated, and the collections that
// caused (D1226).
var folders sync.Pool

// maxKeptFold is the longest text whose arrays folders keeps.
const maxKeptFold = 4 << 20

// normaliseLinesReused is normaliseLines in arrays kept from an earlier
// text; done gives them back, after which neither the normalised text nor
// its lines may be read.
func normaliseLinesReused(text string) (form string, lines lineMap, done func()) {
	ascii := isASCII(text)
	if !ascii && !utf8.ValidString(text) {
		form, lines = normaliseLines(text)
		return form, lines, func() {}
	}
	f, _ := folders.Get().(*folder)
	if f == nil {
		f = new(folder)
	}
	form, lines = f.fold(text, !ascii)
	return form, lines, func() {
		if len(text) <= maxKeptFold {
			folders.Put(f)
		}
	}
}

// lineMap says, for each line of a normalised text, where in the text it
// came from the line starts (from: the start of the line that holds its
// first character; 0 for the first line) and where the line starts in the
// normalised text (at).
type lineMap struct{ from, at []int }

// normalisedAt is where in the normalised text the text's line that
// starts at p begins, when p starts a line that holds something
// normalising keeps (a clean cut does), or -1.
func (m lineMap) normalisedAt(p int) int {
	k := sort.SearchInts(m.from, p)
	// The first line's entry is 0 whatever its text: the search may land
	// on an empty first line, whose line the next entry also names.
	for k < len(m.from) && m.from[k] == p {
		if k+1 < len(m.from) && m.from[k+1] == p {
			k++
			continue
		}
		return m.at[k]
	}
	return -1
}

// folder is fold's output: the bytes written, the white space run pending
// (0, ' ' or '\n'), and where each line written came from.
type folder struct {
	out    []byte
	o      int
	space  byte
	lines  []int
	starts []int // where each line starts in out
}

// flush writes the pending white space; lineAt is where in the text the
// line of the character that follows starts.
func (f *folder) flush(lineAt int) {
	f.out[f.o] = f.space
	f.o++
	if f.space == '\n' {
		f.lines = append(f.lines, lineAt)
		f.starts = append(f.starts, f.o)
	}
	f.space = 0
}

// room makes room for n more bytes.
func (f *folder) room(n int) {
	if need := f.o + n; need > len(f.out) {
		f.out = append(f.out, make([]byte, need-len(f.out))...)
	}
}

// run folds text; line, when not -1, is where in the original text the
// line text is (normalised) starts.
func (f *folder) run(text string, checkNFKC bool, line int) {
	lineStart, lineOut, lineSpace, lineLines, lineChecked := 0, f.o, f.space, len(f.lines), false
	lineAt := func() int {
		if line >= 0 {
			return line
		}
		return lineStart
	}
	for i := 0; i < len(text); i++ {
		// Eight bytes of printable ASCII without a run of spaces, at a
		// time, in lower case.
		if f.space == 0 && i+8 <= len(text) {
			// Or as many of them as fold writes as they are (a line's
			// last bytes before its line feed, a word before a tab).
			// (Eight of them is foldable8: one test serves both.)
			x := load8(text, i)
			if n := foldablePrefix8(x); n > 0 {
				store8(f.out[f.o:f.o+8], lower8(x))
				f.o += n
				i += n - 1
				continue
			}
		}
		c := text[i]
		switch byteClass[c] {
		case keep, upper:
			if f.space != 0 {
				f.flush(lineAt())
			}
			f.out[f.o] = lowerASCII[c]
			f.o++
		case blank:
			if f.space == 0 {
				f.space = ' '
			}
		case feed:
			f.space = '\n'
			lineStart, lineOut, lineSpace, lineLines, lineChecked = i+1, f.o, f.space, len(f.lines), false
		case drop:
		case multi:
			if checkNFKC && !lineChecked {
				lineChecked = true
				lineEnd := lineEnd(text, i)
				if line := text[lineStart:lineEnd]; !norm.NFKC.IsNormalString(line) {
					// Write the line again, from its start, in NFKC.
					nfkc := norm.NFKC.String(line)
					f.o, f.space = lineOut, lineSpace
					f.lines, f.starts = f.lines[:lineLines], f.starts[:lineLines]
					f.room(len(nfkc) + len(text) - lineEnd + 9)
					f.run(nfkc, false, lineStart)
					f.room(len(text) - lineEnd + 9)
					i = lineEnd - 1
					continue
				}
			}
			r, size := utf8.DecodeRuneInString(text[i:])
			i += size - 1
			switch {
			case unicode.IsSpace(r):
				if f.space == 0 {
					f.space = ' '
				}
			case isInvisible(r) || unicode.IsControl(r):
			default:
				// Lower case can take more bytes than the character
				// it came from (U+023A is 2 bytes, U+2C65 is 3): keep
				// room for it, a space, and every byte still to come.
				f.room(1 + utf8.UTFMax + (len(text) - i) + 8)
				if f.space != 0 {
					f.flush(lineAt())
				}
				f.o += utf8.EncodeRune(f.out[f.o:], unicode.ToLower(r))
			}
		}
	}
}

// foldable8 reports whether fold writes the eight bytes of x as they are
// but for upper case: printable ASCII, no two spaces in a row, and no space
// last (it might begin a run of white space).
func foldable8(x uint64) bool {
	if !plainASCII8(x) {
		return false
	}
	spaces := zeroBytes8(x ^ (ones * ' '))
	return spaces&(spaces>>8) == 0 && spaces>>63 == 0
}

// foldablePrefix8 is how many of the first bytes of x fold writes as they
// are but for upper case: printable ASCII, no two spaces in a row, and no
// space last. lower8 of x gives them right whatever the bytes after them
// are (its sums carry only upwards).
func foldablePrefix8(x uint64) int {
	// The lowest byte each test marks is exact (a borrow or a carry
	// marks only bytes above a marked one), and so is their union's.
	bad := x & highs
	bad |= (x - ones*0x20) &^ x & highs
	del := x ^ (ones * 0x7f)
	bad |= (del - ones) &^ del & highs
	spaces := zeroBytes8(x ^ (ones * ' '))
	bad |= spaces & (spaces >> 8)
	n := bits.TrailingZeros64(bad) >> 3
	if n > 0 && spaces>>(8*n-1)&1 != 0 {
		n--
	}
	return n
}

// lower8 is x, all of whose bytes are ASCII, with A-Z in lower case.
func lower8(x uint64) uint64 {
	upper := (x + ones*(0x80-'A')) &^ (x + ones*(0x80-'Z'-1)) & highs
	return x | upper>>2
}

// zeroBytes8 has the high bit of each byte of x that is zero, and no other
// bit (exact, unlike the quicker test that only says whether there is one).
func zeroBytes8(x uint64) uint64 {
	const lows = 0x7f7f7f7f7f7f7f7f
	return ^((x&lows + lows) | x | lows)
}

// store8 writes x to b[0:8], little-endian.
func store8(b []byte, x uint64) {
	_ = b[7]
	b[0], b[1], b[2], b[3] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24)
	b[4], b[5], b[6], b[7] = byte(x>>32), byte(x>>40), byte(x>>48), byte(x>>56)
}
