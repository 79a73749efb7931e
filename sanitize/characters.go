package sanitize

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// characters applies the character rules and reports whether the text
// holds an invisible character (allowed where it stands or not).
func (f *findings) characters(text string) (anyInvisible bool) {
	for i := 0; i < len(text); {
		// Eight printable ASCII bytes at a time: most of any text.
		if i+8 <= len(text) && textASCII8(load8(text, i)) {
			i += 8
			continue
		}
		c := text[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				// A carriage return before a line feed is a Windows line
				// ending, not a way to overwrite a line on a terminal.
				if !(c == '\r' && i+1 < len(text) && text[i+1] == '\n') {
					f.add(RuleControl, i)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			f.add(RuleInvalidUTF8, i)
			i++
			continue
		}
		switch rule := classify(text, i, r, size); rule {
		case "":
		case allowed:
		default:
			f.add(rule, i)
		}
		if !anyInvisible && isInvisible(r) {
			anyInvisible = true
		}
		i += size
	}
	return anyInvisible
}

// allowed is classify's answer for an invisible character in a place where
// ordinary writing puts it.
const allowed = "allowed"

// classify names the rule the rune r at text[i:i+size] breaks, or "" when
// it is an ordinary visible character, or allowed.
func classify(text string, i int, r rune, size int) string {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return RuleControl
	case r == 0x2028 || r == 0x2029:
		// Line and paragraph separators end a line in JavaScript and some
		// editors but not in others: a line that reads differently in two
		// places.
		return RuleControl
	case isBidiControl(r):
		return RuleBidi
	case isNoncharacter(r):
		return RuleNonchar
	case isPrivateUse(r):
		return RulePrivateUse
	}
	if !isInvisible(r) {
		return ""
	}
	prev, _ := utf8.DecodeLastRuneInString(text[:i])
	next, _ := utf8.DecodeRuneInString(text[i+size:])
	if i == 0 {
		prev = -1
	}
	if i+size == len(text) {
		next = -1
	}
	if invisibleAllowed(text, i, r, prev, next) {
		return allowed
	}
	return RuleInvisible
}

// invisibleAllowed holds the decisions of docs/specs/sanitizer.md 6.1 for
// the invisible characters ordinary text uses.
func invisibleAllowed(text string, i int, r, prev, next rune) bool {
	switch {
	case r == 0xfeff:
		// A byte-order mark at the very start is what some editors write;
		// anywhere else it is a zero-width no-break space.
		return i == 0
	case r == 0x200d:
		// Zero-width joiner: inside an emoji sequence (family, profession,
		// rainbow flag), or after a virama to ask for a half form (Hindi
		// and other Indic scripts).
		return (isEmojiBase(prev) || prev == 0xfe0f || isSkinTone(prev)) && isEmojiBase(next) ||
			isVirama(prev) && isLetterOrMark(next)
	case r == 0x200c:
		// Zero-width non-joiner: between letters of a joining script
		// (Persian writes می‌خواهم with one), or after a virama.
		return (isJoiningScript(prev) || isVirama(prev)) && isLetterOrMark(next)
	case r == 0x200e || r == 0x200f || r == 0x061c:
		// Left-to-right, right-to-left and Arabic letter marks: next to
		// right-to-left letters, where they settle the order of digits and
		// punctuation. They cannot reorder text the way embeddings and
		// overrides can.
		return isRTL(prev) || isRTL(next)
	case r == 0x00ad:
		// Soft hyphen: a hyphenation point inside a word.
		return unicode.IsLetter(prev) && unicode.IsLetter(next)
	case r == 0xfe0e || r == 0xfe0f:
		// Text and emoji presentation selectors, once, after a character
		// that has both presentations (symbols, digits for keycaps).
		return isEmojiBase(prev) || unicode.Is(unicode.So, prev) || unicode.Is(unicode.Sm, prev) ||
			prev == '#' || prev == '*' || (prev >= '0' && prev <= '9') || prev == 0xa9 || prev == 0xae
	case r >= 0xfe00 && r <= 0xfe0d, r >= 0xe0100 && r <= 0xe01ef:
		// Standardised and ideographic variation selectors, once, after
		// an ideograph or a mathematical symbol. Runs of selectors can
		// carry hidden bytes, so a selector after a selector is refused.
		return unicode.Is(unicode.Han, prev) || unicode.Is(unicode.Sm, prev) || unicode.Is(unicode.Mongolian, prev)
	case r >= 0xe0020 && r <= 0xe007f:
		return inFlagTagSequence(text, i)
	case r >= 0x0600 && r <= 0x0605, r == 0x06dd, r == 0x070f, r == 0x0890, r == 0x0891, r == 0x08e2, r == 0x110bd, r == 0x110cd:
		// Prepended concatenation marks (Arabic number signs and the
		// like) are drawn: they are not hidden.
		return true
	}
	return false
}

// inFlagTagSequence reports whether the tag character at text[i:] belongs
// to a subdivision flag: U+1F3F4, one to six tag letters or digits, and
// the cancel tag U+E007F. Tag characters anywhere else spell hidden ASCII.
func inFlagTagSequence(text string, i int) bool {
	start := i
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:start])
		if r < 0xe0020 || r > 0xe007f {
			break
		}
		start -= size
	}
	base, _ := utf8.DecodeLastRuneInString(text[:start])
	if start == 0 || base != 0x1f3f4 {
		return false
	}
	n := 0
	for j := start; j < len(text); {
		r, size := utf8.DecodeRuneInString(text[j:])
		switch {
		case r == 0xe007f:
			return n >= 1 && n <= 6 && j >= i
		case r >= 0xe0030 && r <= 0xe0039, r >= 0xe0061 && r <= 0xe007a:
			n++
		default:
			return false
		}
		j += size
	}
	return false
}

func isBidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

func isNoncharacter(r rune) bool {
	return r >= 0xfdd0 && r <= 0xfdef || r&0xfffe == 0xfffe
}

func isPrivateUse(r rune) bool {
	return r >= 0xe000 && r <= 0xf8ff || r >= 0xf0000 && r <= 0xffffd || r >= 0x100000 && r <= 0x10fffd
}

// isInvisible is the set of characters that draw nothing (or nothing of
// their own): format characters, variation selectors, the combining
// grapheme joiner, Hangul fillers and Mongolian variation selectors.
func isInvisible(r rune) bool {
	if r < 0xad {
		return false
	}
	switch {
	case unicode.Is(unicode.Cf, r):
		return true
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef:
		return true
	case r == 0x034f, r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0, r >= 0x180b && r <= 0x180f:
		return true
	}
	return false
}

// isEmojiBase approximates Extended_Pictographic, which the unicode package
// does not carry: the pictograph and symbol blocks emoji come from.
func isEmojiBase(r rune) bool {
	return r >= 0x1f000 && r <= 0x1faff || r >= 0x2600 && r <= 0x27bf ||
		r >= 0x2300 && r <= 0x23ff || r >= 0x2b00 && r <= 0x2bff ||
		r >= 0x2190 && r <= 0x21ff || r == 0x203c || r == 0x2049 || r == 0x2122 || r == 0x2139 ||
		r == 0x3030 || r == 0x303d || r == 0x3297 || r == 0x3299
}

func isSkinTone(r rune) bool { return r >= 0x1f3fb && r <= 0x1f3ff }

// isVirama reports a combining mark of class 9, the virama of Indic
// scripts, after which a joiner or non-joiner chooses a conjunct's form.
func isVirama(r rune) bool {
	if r < 0x900 {
		return false
	}
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	return norm.NFC.Properties(buf[:n]).CCC() == 9
}

func isLetterOrMark(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }

// isJoiningScript: scripts whose letters join, where a non-joiner between
// two letters is ordinary spelling.
func isJoiningScript(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsMark(r)) &&
		(unicode.Is(unicode.Arabic, r) || unicode.Is(unicode.Syriac, r) || unicode.Is(unicode.Nko, r) ||
			unicode.Is(unicode.Mongolian, r) || unicode.Is(unicode.Mandaic, r))
}

func isRTL(r rune) bool {
	return unicode.Is(unicode.Arabic, r) || unicode.Is(unicode.Hebrew, r) || unicode.Is(unicode.Syriac, r) ||
		unicode.Is(unicode.Thaana, r) || unicode.Is(unicode.Nko, r)
}

// removeInvisible drops every invisible character, and returns with the
// text a map from its offsets back to text: an offset maps to the first
// byte of the run of invisible characters just before it, if there is one,
// else to the character itself.
func removeInvisible(text string) (string, func(int) int) {
	var (
		b       strings.Builder
		runAt   []int // where each run of removed characters was, in the cleaned text
		removed = []int{0}
	)
	b.Grow(len(text))
	inRun := false
	for _, r := range text {
		if !isInvisible(r) {
			b.WriteRune(r)
			inRun = false
			continue
		}
		if !inRun {
			runAt = append(runAt, b.Len())
			removed = append(removed, removed[len(removed)-1])
			inRun = true
		}
		removed[len(removed)-1] += utf8.RuneLen(r)
	}
	return b.String(), func(off int) int {
		// The runs before off, not one at off: that one is where off maps.
		return off + removed[sort.SearchInts(runAt, off)]
	}
}
