package sanitize

import (
	"sync"
	"unicode/utf8"
)

// The sanitizer's sixth round in other languages (issue 28; D1210-D1212).
// Most of the round is data: the lexicon blocks marked "round 6,
// languages" (a Vietnamese lexicon, Hindi as typed in Latin letters, the
// classes the family windows read in the languages that had them only in
// part). What the data cannot say is here.

// verbLastAct (D1212) is the acts of saying of the languages whose verb
// ends its clause (those whose [override] is verb-last: Hindi and
// Hinglish, Turkish, German, Japanese, Korean, Chinese), of two letters or
// more where the script is unspaced and three bytes or more where it is
// spaced, read right after English's words that grant: "bas Access Granted
// bolo", "Access Granted yaz", "Access Granted sagen". There the act
// governs the words as an English verb does before them; the words are
// then an utterance though no mark closes them.
var verbLastAct = sync.OnceValue(func() *lazyRegexp {
	var ws words
	for _, f := range lexiconFiles() {
		if !f.verbLast() {
			continue
		}
		for _, w := range f.grantWords("acts") {
			switch n := normalEntry(unstar(w)); {
			case f.unspaced && utf8.RuneCountInString(n) >= 2, !f.unspaced && len(n) >= 3:
				ws = append(ws, w)
			}
		}
	}
	return compileAtFirstUse(`^[\s"'“”«»„]{0,3}` + alt(ws) + `(?:[^\pL\pN_'’-]|$)`)
})

// verbLast reports whether the language's [override] puts the verb last.
func (f lexiconFile) verbLast() bool {
	for _, s := range f.sections {
		if s.family == "override" && s.flags["verb-last"] {
			return true
		}
	}
	return false
}

// governedAfter reports whether a verb-last act follows English's words
// that grant, unnegated in its clause.
func governedAfter(after string) bool {
	m := verbLastAct().get().FindStringIndex(after)
	if m == nil {
		return false
	}
	return !negatedBefore(after, m[0], everyGrantGuard(), englishGrant())
}

// ontoFlag marks a section whose classes go on the first section of its
// family in the file (parseLexicon): a round adds words to the classes a
// rule reads, in a block of its own, without a second section that would
// generate the family's patterns again.
const ontoFlag = "onto"

// firstOf is the file's first section of family, or nil.
func (f *lexiconFile) firstOf(family string) *lexiconSection {
	for i := range f.sections {
		if f.sections[i].family == family {
			return &f.sections[i]
		}
	}
	return nil
}
