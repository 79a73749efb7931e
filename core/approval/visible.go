package approval

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
)

// Visible is the JSON text raw with every rune a terminal shows as
// nothing (invisible) written as its JSON escape: \u200b, or the pair
// \udb40\udc41 above U+FFFF. Such runes stand only inside a JSON
// document's strings, so the text still reads as the same JSON, and the
// owner sees all the server will be given: a second text spelled in the
// Unicode tags or behind zero-width characters shows as escapes. Text
// that is not JSON is escaped the same way.
func Visible(raw string) string {
	if strings.IndexFunc(raw, invisible) < 0 {
		return raw
	}
	var b strings.Builder
	for _, r := range raw {
		switch {
		case !invisible(r):
			b.WriteRune(r)
		case r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// invisible reports a rune that takes no room and shows no mark: the
// format characters (zero-width spaces and joiners, direction marks, the
// byte-order mark, the Unicode tags), the variation selectors, and the
// Hangul fillers, which render as blank.
func invisible(r rune) bool {
	switch {
	case unicode.Is(unicode.Cf, r):
		return true
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef: // variation selectors
		return true
	case r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0: // Hangul fillers
		return true
	}
	return false
}
