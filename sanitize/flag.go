package sanitize

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Flags applies the flag rules (docs/specs/sanitizer.md 6.3) to text after
// normalising it and returns each rule that fires, once, at the offset in
// text where its first match starts, ordered by offset. It returns nil
// when none fires.
func Flags(text string) []Finding {
	f := wholeOf(text)
	f.flag(text)
	return f.sorted()
}

// flag applies the flag rules to text, keeping the findings in f's range.
// When that range is not the whole text, its ends must be clean cuts (see
// isCleanCut), so that the normalised text is the normalised pieces joined.
//
// A long text that is not plain is read in pieces, as Check reads chunks,
// so that only the pieces around the characters that make it so are
// normalised: source code holds a "…" or a "²" here and there.
func (f *findings) flag(text string) {
	from, to := f.from, min(f.to, len(text))
	if to-from < 4*pieceMargin || plainText(text) {
		f.flagNormalised(text, from, to)
		return
	}
	ctx := nextContext(text, 0, from)
	for own := from; own < to; {
		var ownEnd int
		switch x := firstNotPlain(text, own, len(text)); {
		case x < 0:
			ownEnd = to
		case x-own > 2*pieceMargin:
			// A plain piece, ending far enough before x that its
			// context after is plain too (mostly).
			ownEnd = cleanCutFrom(text, x-pieceMargin)
		default:
			// The piece around x and every such character close
			// after it.
			for {
				y := firstNotPlain(text, x+1, len(text))
				if y < 0 || y > x+2*pieceMargin {
					break
				}
				x = y
			}
			ownEnd = cleanCutFrom(text, x+pieceMargin)
		}
		if ownEnd < 0 || ownEnd > to {
			ownEnd = to
		}
		end, _ := contextAfter(text, ownEnd, true)
		piece := findings{from: own - ctx, to: ownEnd - ctx}
		piece.flagNormalised(text[ctx:end], piece.from, min(piece.to, end-ctx))
		f.merge(&piece, ctx)
		ctx, own = nextContext(text, ctx, ownEnd), ownEnd
	}
}

// pieceMargin is how far (in bytes) a piece of text read as it is ends
// before a character that is not plain: about the contexts' length.
const pieceMargin = 4096

// flagNormalised is flag on the normalised text.
func (f *findings) flagNormalised(text string, from, to int) {
	var normText string
	normFrom, normTo := 0, 0
	if from == 0 && to == len(text) {
		normText, _ = normalise(text, false)
		normTo = len(normText)
	} else {
		before, _ := normalise(text[:from], false)
		own, _ := normalise(text[from:to], false)
		after, _ := normalise(text[to:], false)
		normText = before + own + after
		normFrom, normTo = len(before), len(before)+len(own)
	}
	first, rotated := flagMatches(normText, normFrom, normTo)
	f.decoded(text, from, to, rotated)
	if len(first) == 0 {
		return
	}
	// Matches are rare: only now is the map back to text built.
	_, offsets := normalise(text, true)
	for rule, off := range first {
		orig := len(text)
		if off < len(offsets) {
			orig = offsets[off]
		}
		f.add(rule, orig)
	}
}

// plainText reports whether normalising text would only fold case and
// white space without changing any length but that of white space runs:
// no control characters but white space, and every character above ASCII
// visible, not white space, as long in lower case, and the text already in
// NFKC. Such text normalises quickly, whatever its length, so flag reads
// it whole. Most text is.
func plainText(text string) bool {
	nonASCII := false
	for i := 0; i < len(text); {
		if i+8 <= len(text) && wideASCII8(load8(text, i)) {
			i += 8
			continue
		}
		switch byteClass[text[i]] {
		case drop:
			return false
		case multi:
			r, size := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError || unicode.IsSpace(r) || isInvisible(r) || unicode.IsControl(r) ||
				utf8.RuneLen(unicode.ToLower(r)) != size {
				return false
			}
			nonASCII = true
			i += size
			continue
		}
		i++
	}
	return !nonASCII || norm.NFKC.IsNormalString(text)
}

// firstNotPlain is where in text[from:to] the first character is that
// plainText would not take, or -1. It only guides where flag cuts the
// pieces: each piece is tested with plainText itself.
func firstNotPlain(text string, from, to int) int {
	for i := from; i < to; {
		if i+8 <= len(text) && wideASCII8(load8(text, i)) {
			i += 8
			continue
		}
		switch byteClass[text[i]] {
		case drop:
			return i
		case multi:
			r, size := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError || unicode.IsSpace(r) || isInvisible(r) || unicode.IsControl(r) ||
				utf8.RuneLen(unicode.ToLower(r)) != size {
				return i
			}
			if p := norm.NFKC.PropertiesString(text[i:]); p.Decomposition() != nil || !p.BoundaryBefore() || !p.BoundaryAfter() {
				return i
			}
			i += size
			continue
		}
		i++
	}
	return -1
}
