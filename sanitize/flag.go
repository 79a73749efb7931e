package sanitize

import "strings"

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
func (f *findings) flag(text string) {
	f.flagNormalised(text, f.from, min(f.to, len(text)))
}

// flagNormalised is flag on the normalised text.
//
// The text is normalised up to the look-alikes (normaliseForm) and read
// once by the scan, which also says whether folding look-alikes could
// change anything; only then is it folded and read again. The decoders
// read only the lines the scan marked.
func (f *findings) flagNormalised(text string, from, to int) {
	// The ends of the range are clean cuts: the normalised text of the
	// whole is that of the pieces joined, and they start lines of it.
	formText, lines, done := normaliseLinesReused(text)
	defer done()
	formFrom, formTo := 0, len(formText)
	if from > 0 {
		formFrom = lines.normalisedAt(from)
	}
	if to < len(text) {
		formTo = lines.normalisedAt(to)
	}
	if formFrom < 0 || formTo < 0 {
		panic("sanitize: a range that does not end at clean cuts")
	}
	s := getScanner()
	defer putScanner(s)
	s.read(formText, true)
	normText, normFrom, normTo := formText, formFrom, formTo
	if len(s.foldAt) > 0 {
		var moved func(int) int
		normText, moved = s.fold(formText)
		normFrom, normTo = moved(formFrom), moved(formTo)
	}
	first := s.match(normText, normFrom, normTo)
	f.decoded(text, from, to, lines.from, s.marks)
	if first.set == 0 {
		return
	}
	// Matches are rare: only now is each mapped back to the text, through
	// the line it is on.
	var offsets []int // the whole text's map, if a line's will not do
	for id, name := range flagRuleNames {
		if !first.has(id) {
			continue
		}
		off := first.at[id]
		orig, ok := lineOffset(text, lines.from, normText, off)
		if !ok {
			if offsets == nil {
				_, offsets = normalise(text, true)
			}
			orig = len(text)
			if off < len(offsets) {
				orig = offsets[off]
			}
		}
		f.add(name, orig)
	}
}

// lineOffset maps the byte off of the normalised text norm back to text:
// it finds the line off is on, the line of text it came from (lines), and
// normalises that line alone with its map. It reports false when it
// cannot tell.
func lineOffset(text string, lines []int, norm string, off int) (int, bool) {
	if off >= len(norm) {
		return 0, false
	}
	k := strings.Count(norm[:off], "\n")
	if k >= len(lines) {
		return 0, false
	}
	ls := strings.LastIndexByte(norm[:off], '\n') + 1
	start := lines[k]
	end := lineEnd(text, start)
	line, offsets := normalise(text[start:end], true)
	// Alone, the line keeps a space for white space before it, which the
	// whole text folded into the line feed before.
	r := off - ls
	if len(line) > 0 && line[0] == ' ' && norm[ls] != ' ' {
		r++
	}
	if r >= len(line) || line[r] != norm[off] {
		return 0, false
	}
	return start + offsets[r], true
}
