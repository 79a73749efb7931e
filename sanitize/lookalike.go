package sanitize

import (
	"unicode"
	"unicode/utf8"
)

// foldLookalikes is the last step of normalising (docs/specs/sanitizer.md
// 6.3): word by word, what makes one word look like another is folded, so
// that a rule written once in plain letters reads every spelling:
//
//   - look-alike letters of other scripts (a Cyrillic о in instructiоns)
//     become the Latin letters of their UTS #39 skeleton (lookalikeTable,
//     generated from the Unicode data). A word is folded only when it mixes
//     Latin letters with look-alikes, or when every letter of it has a Latin
//     look-alike: a Russian or Greek word keeps its letters, so that the
//     lexicons of those languages read it as it is written;
//   - leet (1gn0r3): digits and @ $ ! | in a word that, read as letters,
//     is a word of the lexicons. A word that is not (utf8, x509, md5) keeps
//     its digits, so code reads as it is;
//   - letters written apart (i g n o r e, i.g.n.o.r.e): a run of three or
//     more single letters, joined and cut into the lexicons' words, when
//     most of its letters make such words.
//
// Everything happens inside one line, so that text cut at the start of a
// line normalises to the pieces of the whole (isCleanCut). offsets, when
// not nil, holds for each byte of s its offset in the original text; the
// folded text's offsets are returned with it.
func foldLookalikes(s string, offsets []int) (string, []int) {
	var (
		out    []byte // nil until the first change
		outOff []int
		done   int // s[:done] is accounted for in out
		buf    [160]byte
		at     [160]int
	)
	replace := func(from, to int, with []byte, src []int) {
		if out == nil {
			out = make([]byte, 0, len(s))
			if offsets != nil {
				outOff = make([]int, 0, len(s))
			}
		}
		out = append(out, s[done:from]...)
		out = append(out, with...)
		if offsets != nil {
			outOff = append(outOff, offsets[done:from]...)
			for _, p := range src {
				outOff = append(outOff, offsets[p])
			}
		}
		done = to
	}
	for i := 0; i < len(s); {
		if lookClass[s[i]] == lookOther {
			i++
			continue
		}
		j, high, leet := wordEnd(s, i)
		if j == i {
			// A character above ASCII that is no letter: a look-alike
			// delimiter, or nothing to fold.
			r, size := utf8.DecodeRuneInString(s[i:])
			if to, ok := lookalikeTable[r]; ok && len(to) == 1 && !isLetterByte(to[0]) {
				replace(i, i+size, []byte(to), []int{i})
			}
			i += size
			continue
		}
		if j-i == 1 && j+1 < len(s) && spacedSep[s[j]] {
			if end, n := spacedRun(s, i, buf[:], at[:]); n > 0 {
				replace(i, end, buf[:n], at[:n])
				i = end
				continue
			}
		}
		if !high && (!leet || !maybeLexiconWord(s[i:j])) {
			i = j
			continue
		}
		if n, ok := foldWord(s, i, j, high, buf[:], at[:]); ok {
			replace(i, j, buf[:n], at[:n])
		}
		i = j
	}
	if out == nil {
		return s, offsets
	}
	out = append(out, s[done:]...)
	if offsets != nil {
		outOff = append(outOff, offsets[done:]...)
	}
	return string(out), outOff
}

// Byte classes for foldLookalikes.
const (
	lookOther  = iota
	lookLetter // a-z
	lookLeet   // a digit or @ $ ! |, which leet writes for letters
	lookHigh   // the first byte of a character above ASCII
)

var lookClass = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c >= 'a' && c <= 'z':
			t[c] = lookLetter
		case c >= '0' && c <= '9' || c == '@' || c == '$' || c == '!' || c == '|':
			t[c] = lookLeet
		case c >= utf8.RuneSelf:
			t[c] = lookHigh
		}
	}
	return t
}()

// spacedSep are the characters written between letters set apart.
var spacedSep = func() (t [256]bool) {
	for _, c := range " .-_*/+" {
		t[c] = true
	}
	return t
}()

// leetLetter is the letter a leet character stands for; '1' and '|' also
// stand for 'l' (leetAlt).
var leetLetter = func() (t [256]byte) {
	for _, p := range []string{"0o", "1i", "3e", "4a", "5s", "7t", "8b", "9g", "@a", "$s", "!i", "|l"} {
		t[p[0]] = p[1]
	}
	return t
}()

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' }

// wordEnd is the end of the word at s[i]: letters, digits, leet characters
// and letters, marks and numbers above ASCII. high reports one of those.
func wordEnd(s string, i int) (j int, high, leet bool) {
	for j = i; j < len(s); {
		switch lookClass[s[j]] {
		case lookLetter:
			j++
		case lookLeet:
			leet = true
			j++
		case lookHigh:
			r, size := utf8.DecodeRuneInString(s[j:])
			if !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsNumber(r) {
				return j, high, leet
			}
			high = true
			j += size
		default:
			return j, high, leet
		}
	}
	return j, high, leet
}

// maybeLexiconWord is a quick test that a word with leet characters may
// read as a lexicon word: its length, and its first and last bytes read as
// letters, are those of one (lexiconShapes).
func maybeLexiconWord(w string) bool {
	if len(w) < 3 || len(w) > maxLexiconWord {
		return false
	}
	first, last := leetOrSelf(w[0]), leetOrSelf(w[len(w)-1])
	return lexiconShapes.may(len(w), first, last) || first == 'i' && lexiconShapes.may(len(w), 'l', last) ||
		last == 'i' && lexiconShapes.may(len(w), first, 'l')
}

func leetOrSelf(c byte) byte {
	if l := leetLetter[c]; l != 0 {
		return l
	}
	return c
}

// lexiconShapes is a quick test before lexiconWords' map.
var lexiconShapes = newWordShapes(lexiconWords)

// wordShapes has, by length and first letter, a bit for each last letter
// of the words of a set: a word whose shape has no bit is not in the set.
type wordShapes [64][32]uint32

func newWordShapes(set map[string]bool) *wordShapes {
	var t wordShapes
	for w := range set {
		if len(w) < len(t) {
			t[len(w)][w[0]&31] |= 1 << (w[len(w)-1] & 31)
		}
	}
	return &t
}

// may reports whether a word of length n, first byte first and last byte
// last (in lower case) may be in the set.
func (t *wordShapes) may(n int, first, last byte) bool {
	return n < len(t) && t[n][first&31]&(1<<(last&31)) != 0
}

// foldWord folds the word s[i:j] into buf (with, in at, the offset in s each
// byte comes from) and reports whether anything changed.
func foldWord(s string, i, j int, high bool, buf []byte, at []int) (int, bool) {
	if j-i > len(buf) {
		return 0, false
	}
	n, changed := 0, false
	if high {
		latin, mapped, unmapped := false, 0, 0
		for k := i; k < j; {
			r, size := utf8.DecodeRuneInString(s[k:])
			switch _, ok := lookalikeTable[r]; {
			case r < utf8.RuneSelf:
				latin = latin || isLetterByte(byte(r))
			case ok:
				mapped++
			case unicode.IsLetter(r) || unicode.IsNumber(r):
				unmapped++
			}
			k += size
		}
		if mapped == 0 || !latin && unmapped > 0 {
			return 0, false
		}
		for k := i; k < j; {
			r, size := utf8.DecodeRuneInString(s[k:])
			to, ok := lookalikeTable[r]
			if !ok {
				to = s[k : k+size]
			}
			if n+len(to) > len(buf) {
				return 0, false
			}
			for b := 0; b < len(to); b++ {
				buf[n], at[n] = to[b], k
				n++
			}
			k += size
		}
		changed = true
	} else {
		n = copy(buf, s[i:j])
		for k := range n {
			at[k] = i + k
		}
	}
	if m, ok := unleet(buf[:n]); ok {
		copy(buf, m)
		changed = true
	}
	return n, changed
}

// unleet reads a word with leet characters as letters, and returns it when
// it is then a word of the lexicons.
func unleet(w []byte) ([]byte, bool) {
	var plain, alt [64]byte
	if len(w) > len(plain) {
		return nil, false
	}
	letters, leet := 0, 0
	for k, c := range w {
		switch lookClass[c] {
		case lookLetter:
			letters++
			plain[k], alt[k] = c, c
		case lookLeet:
			l := leetLetter[c]
			if l == 0 {
				return nil, false
			}
			leet++
			plain[k], alt[k] = l, l
			if c == '1' || c == '|' {
				plain[k], alt[k] = 'i', 'l'
			}
		default:
			return nil, false
		}
	}
	if leet == 0 || letters < 2 || len(w) < 3 {
		return nil, false
	}
	if lexiconWords[string(plain[:len(w)])] {
		return plain[:len(w)], true
	}
	if lexiconWords[string(alt[:len(w)])] {
		return alt[:len(w)], true
	}
	return nil, false
}

// spacedRun reads a run of single letters set apart from s[i] on, and, when
// most of its letters make lexicon words, writes them into buf joined, with
// a space between the words found. It returns where the run ends and the
// bytes written, or 0 when the run is left as it is.
func spacedRun(s string, i int, buf []byte, at []int) (end, n int) {
	var letters [64]byte
	var pos [64]int
	count := 0
	k := i
	for {
		c := s[k]
		l := c
		if lookClass[c] == lookLeet {
			l = leetLetter[c]
		}
		if !isLetterByte(l) || count == len(letters) {
			break
		}
		letters[count], pos[count] = l, k
		count++
		end = k + 1
		// The next letter: one separator, then a single letter.
		if k+2 >= len(s) || !spacedSep[s[k+1]] || lookClass[s[k+2]] != lookLetter && lookClass[s[k+2]] != lookLeet {
			break
		}
		if k+3 < len(s) && lookClass[s[k+3]] != lookOther {
			break
		}
		k += 2
	}
	if count < 3 {
		return 0, 0
	}
	// Cut the letters into the longest lexicon words, greedily.
	covered := 0
	for p := 0; p < count; {
		w := 0
		for q := min(count, p+maxLexiconWord); q > p+1; q-- {
			if lexiconWords[string(letters[p:q])] {
				w = q - p
				break
			}
		}
		if w == 0 {
			buf[n], at[n] = letters[p], pos[p]
			n++
			p++
			continue
		}
		if n > 0 && buf[n-1] != ' ' {
			buf[n], at[n] = ' ', pos[p]
			n++
		}
		for q := p; q < p+w; q++ {
			buf[n], at[n] = letters[q], pos[q]
			n++
		}
		covered += w
		p += w
		if p < count {
			buf[n], at[n] = ' ', pos[p]
			n++
		}
	}
	if covered*10 < count*7 {
		return 0, 0
	}
	return end, n
}

// The scan's tests of whether foldLookalikes could change a text (see
// scanner): each is true wherever foldLookalikes would fold, and cheap
// where it would not.

// highMayFold reports whether a word above ASCII holds a character with a
// Latin look-alike.
func highMayFold(word string) bool {
	for _, r := range word {
		if r >= utf8.RuneSelf {
			if _, ok := lookalikeTable[r]; ok {
				return true
			}
		}
	}
	return false
}

// leetMayFold reports whether a word foldLookalikes reads in text[i:j]
// (the scan's word, or a leet character), or running on from it through
// @ $ ! |, holds a leet character and may read as a lexicon word.
func leetMayFold(text string, i, j int) bool {
	a := i
	for a > 0 && lookClass[text[a-1]] != lookOther {
		a--
	}
	for a < j {
		if lookClass[text[a]] == lookOther {
			a++
			continue
		}
		b, high, leet := wordEnd(text, a)
		if b == a {
			// A character above ASCII that is no letter.
			_, size := utf8.DecodeRuneInString(text[a:])
			a += size
			continue
		}
		if !high && leet && b-a <= maxLexiconWord && maybeLexiconWord(text[a:b]) {
			var w [64]byte
			if _, ok := unleet(w[:copy(w[:], text[a:b])]); ok {
				return true
			}
		}
		a = b
	}
	return false
}

// spacedMayFold reports whether letters set apart start at text[i], or
// inside the scan's word from i (a_b_c, a-b-c), and would be joined.
func spacedMayFold(text string, i int) bool {
	for p := i; p < len(text); p++ {
		c := text[p]
		if lookClass[c] != lookLetter && lookClass[c] != lookLeet {
			if c == '_' || c == '-' || c == '\'' || c >= utf8.RuneSelf {
				continue
			}
			return false
		}
		if (p == 0 || lookClass[text[p-1]] == lookOther) && threeApart(text, p) {
			var buf [160]byte
			var at [160]int
			if _, n := spacedRun(text, p, buf[:], at[:]); n > 0 {
				return true
			}
		}
		if !isWordByte(c) && p > i {
			return false // leet punctuation ends the scan's word
		}
	}
	return false
}

// threeApart reports whether text[p:] starts with three single letters
// (or leet characters) set apart, the least spacedRun joins.
func threeApart(text string, p int) bool {
	for k := 0; k < 3; k++ {
		q := p + 2*k
		if q >= len(text) || lookClass[text[q]] != lookLetter && lookClass[text[q]] != lookLeet {
			return false
		}
		if q+1 < len(text) && !spacedSep[text[q+1]] && lookClass[text[q+1]] != lookOther {
			return false
		}
		if k < 2 && (q+1 >= len(text) || !spacedSep[text[q+1]]) {
			return false
		}
	}
	return true
}
