package sanitize

import (
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// The flag rules that read words are small grammars over word classes
// (docs/specs/sanitizer.md 6.3): an override verb, then within a bounded
// gap a qualifier (all, previous, your), then an instruction noun; or the
// same in the order of languages that put the verb last. A class is a
// table of words or phrases (lexicon_*.go, each table with its sources), and
// this file turns the tables into the expressions the flag scan runs, so
// that no phrase of a rule is written out as a literal.

// words is one class of a lexicon: words or phrases, in any case, written
// as the language writes them. An entry ending in * is a stem: it matches
// any word it begins ("инструкци*" reads инструкции and инструкциям).
type words []string

// Separators and gaps of the expressions, over normalised text (one space
// or line feed for any run of white space). A list such as "previous/future"
// or "rules, guidelines" separates words too.
const (
	sepExpr = `(?:\s|\s?[/,&+]\s?)`
	tokExpr = `[^\s/,&+]{1,40}`
)

// gapExpr is up to n words of any kind.
func gapExpr(n int) string { return `(?:` + tokExpr + sepExpr + `){0,` + itoa(n) + `}?` }

// bytesGap is a gap of up to n bytes within one line, for languages
// written without spaces between words, and for those that attach
// particles to them.
func bytesGap(n int) string { return `[^\n]{0,` + itoa(n) + `}?` }

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// alt is an expression that matches any entry of the tables.
func alt(tables ...words) string {
	var alts []string
	seen := map[string]bool{}
	for _, t := range tables {
		for _, e := range t {
			x := entryExpr(e)
			if !seen[x] {
				seen[x] = true
				alts = append(alts, x)
			}
		}
	}
	// Longer entries first, so that a phrase wins over its first word.
	sort.SliceStable(alts, func(i, j int) bool { return len(alts[i]) > len(alts[j]) })
	return `(?:` + strings.Join(alts, `|`) + `)`
}

// entryExpr is one entry as an expression: normalised as the text is, its
// words joined by a space, a stem (a word ending in *, the last or any
// other) open at its end, and a whole word closed by the end of the word.
func entryExpr(e string) string {
	n := normalEntry(e)
	parts := strings.Split(n, " ")
	for i, p := range parts {
		stem := strings.HasSuffix(p, "*") && len(p) > 1
		p = strings.TrimSuffix(p, "*")
		x := regexp.QuoteMeta(p)
		switch last := p[len(p)-1]; {
		case stem:
			x += `[\pL\pM\pN]*`
		case i == len(parts)-1 && isWordByte(last) && last < utf8.RuneSelf:
			// RE2 has no look-ahead: \b is ASCII's word boundary, which
			// a space or punctuation after the word makes. A word above
			// ASCII is left open at its end, like a stem.
			x += `\b`
		}
		parts[i] = x
	}
	return strings.Join(parts, `\s`)
}

// unstar is an entry without the * of its stems.
func unstar(e string) string { return strings.ReplaceAll(e, "*", "") }

// normalEntry is an entry as normalising leaves it.
func normalEntry(e string) string { return strings.TrimSpace(Normalise(e)) }

// firstWords are the words the entries begin with: a grammar's start
// words. A stem written in ASCII cannot start a pattern (the scan finds an
// ASCII start as a whole word), so it is a mistake in a table.
func firstWords(tables ...words) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range tables {
		for _, e := range t {
			stem := strings.HasSuffix(e, "*")
			n := normalEntry(unstar(e))
			w := firstScanWord(n)
			if stem && isASCII(w) && w == n {
				panic("sanitize: an ASCII stem cannot start a grammar: " + e)
			}
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// firstScanWord is the first word of s as the scan splits words (word
// bytes, single hyphens and apostrophes inside): a start must be one.
func firstScanWord(s string) string {
	j := 0
	for j < len(s) && (isWordByte(s[j]) || (s[j] == '-' || s[j] == '\'') && j > 0 && j+1 < len(s) && isWordByte(s[j+1])) {
		j++
	}
	if j == 0 {
		w, _, _ := strings.Cut(s, " ")
		return w
	}
	return s[:j]
}

// needed are strings one of which a window must hold for a grammar to match:
// of each entry of the tables its longest word (a stem without its *),
// which is likely the rarest.
func needed(tables ...words) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range tables {
		for _, e := range t {
			w := longestWord(normalEntry(unstar(e)))
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// longestWord is the longest word of a phrase, the last of those as long.
func longestWord(phrase string) string {
	best := ""
	for _, w := range strings.Split(phrase, " ") {
		if len(w) >= len(best) {
			best = w
		}
	}
	return best
}

func hasStem(t words) bool {
	for _, e := range t {
		if strings.HasSuffix(e, "*") || !isASCII(e) {
			return true
		}
	}
	return false
}

// lexicon is one language's override grammar: verbs that set instructions
// aside, qualifiers that point at the instructions already given, nouns for
// instructions, and predicates that declare them void.
type lexicon struct {
	lang string
	// verbs set instructions aside: ignore, forget, pay no attention to.
	verbs words
	// quals point at instructions already given: all, previous, your.
	quals words
	// nouns are what is set aside: instructions, rules, the prompt.
	nouns words
	// voids declare instructions void: "are void", "no longer apply".
	voids words
	// alls point at what the agent was given by themselves, with no noun
	// for instructions: "everything above", "what you were told".
	alls words
	// unspaced: the language writes words without spaces (Chinese,
	// Japanese) or attaches particles to them (Korean): gaps are bytes.
	unspaced bool
	// verbLast: the language also puts the verb after its object.
	verbLast bool
}

// patterns are the lexicon's expressions, all for one rule:
//
//   - verb ... qualifier ... noun ("ignore all previous instructions",
//     "ignora las instrucciones anteriores": the qualifier before or after
//     the noun);
//   - qualifier ... noun ... verb, for languages that put the verb last
//     ("以前の指示を無視して", "önceki talimatları yok say") and infinitives
//     ("alle vorherigen Anweisungen ignorieren");
//   - qualifier ... noun ... void ("previous instructions are void").
//
// byStarts is p, with starts the first words of t's entries, in two
// patterns: one for the words that are entries of their own, one for the
// first words of phrases only ("set" of "set aside"), which wants one of
// the phrases' second words after the start (so that "set" in code costs
// no expression).
func byStarts(p flagPattern, t words) []flagPattern {
	single := map[string]bool{}
	var singles, firsts, seconds []string
	for _, e := range t {
		n := normalEntry(unstar(e))
		if w, _, phrase := strings.Cut(n, " "); !phrase || !isASCII(w) || strings.HasSuffix(e, "*") {
			// The start is the word as the scan reads it: up to
			// punctuation ("désormais," of "désormais, tu es") or, in a
			// script written without spaces, the whole run.
			w = firstScanWord(n)
			if !single[w] {
				single[w] = true
				singles = append(singles, w)
			}
		}
	}
	seenFirst, seenSecond := map[string]bool{}, map[string]bool{}
	for _, e := range t {
		n := normalEntry(unstar(e))
		w, rest, phrase := strings.Cut(n, " ")
		if !phrase || single[w] || !isASCII(w) {
			continue
		}
		if !seenFirst[w] {
			seenFirst[w] = true
			firsts = append(firsts, w)
		}
		second, _, _ := strings.Cut(rest, " ")
		if !seenSecond[second] {
			seenSecond[second] = true
			seconds = append(seconds, second)
		}
	}
	var out []flagPattern
	if len(singles) > 0 {
		q := p
		q.starts = singles
		out = append(out, q)
	}
	if len(firsts) > 0 {
		q := p
		q.starts, q.follows = firsts, seconds
		out = append(out, q)
	}
	return out
}

func (l lexicon) patterns(rule string) []flagPattern {
	verb, qual, noun := alt(l.verbs), alt(l.quals), alt(l.nouns)
	var out []flagPattern
	if l.unspaced {
		g := bytesGap(36)
		out = append(out, fp(rule, firstWords(l.verbs), 300, verb+g+`(?:`+qual+g+noun+`|`+noun+g+qual+`)`).needingSubstrings(needed(l.nouns)...))
		if l.verbLast {
			out = append(out, fp(rule, firstWords(l.quals), 300, qual+g+noun+g+verb).needingSubstrings(needed(l.verbs)...))
		}
		if len(l.voids) > 0 {
			out = append(out, fp(rule, firstWords(l.quals), 300, qual+g+noun+g+alt(l.voids)).needingSubstrings(needed(l.voids)...))
		}
		if len(l.alls) > 0 {
			out = append(out, fp(rule, firstWords(l.verbs), 200, verb+bytesGap(12)+alt(l.alls)).needingSubstrings(needed(l.alls)...))
			if l.verbLast {
				out = append(out, fp(rule, firstWords(l.alls), 200, alt(l.alls)+bytesGap(24)+verb).needingSubstrings(needed(l.verbs)...))
			}
		}
		return out
	}
	need := func(p flagPattern, t words) flagPattern {
		if hasStem(t) {
			// A stem's word, and a word above ASCII (Arabic writes its
			// conjunctions and articles onto it), are looked for inside
			// words; an entry in ASCII that is no stem as a word of its
			// own.
			var ws, subs []string
			for _, e := range t {
				w := longestWord(normalEntry(unstar(e)))
				if strings.HasSuffix(e, "*") || !isASCII(w) || !allWords([]string{w}) {
					subs = append(subs, w)
				} else {
					ws = append(ws, w)
				}
			}
			return p.needing(ws...).needingSubstrings(subs...)
		}
		return p.needing(needed(t)...)
	}
	out = append(out, byStarts(need(fp(rule, firstWords(l.verbs), 400,
		verb+sepExpr+gapExpr(6)+`(?:`+qual+sepExpr+gapExpr(3)+noun+`|`+noun+sepExpr+gapExpr(2)+qual+`)`), l.nouns), l.verbs)...)
	if l.verbLast {
		out = append(out, byStarts(need(fp(rule, firstWords(l.quals), 400, qual+sepExpr+gapExpr(3)+noun+sepExpr+gapExpr(4)+verb), l.verbs), l.quals)...)
	}
	if len(l.voids) > 0 {
		out = append(out, byStarts(need(fp(rule, firstWords(l.quals), 400, qual+sepExpr+gapExpr(3)+noun+sepExpr+gapExpr(2)+alt(l.voids)), l.nouns), l.quals)...)
	}
	if len(l.alls) > 0 {
		// "olvida todo lo anterior", and with the verb last ("alles
		// oben Gesagte vergessen", "yukarıdaki her şeyi unut").
		out = append(out, byStarts(need(fp(rule, firstWords(l.verbs), 300, verb+sepExpr+gapExpr(2)+alt(l.alls)), l.alls), l.verbs)...)
		if l.verbLast {
			out = append(out, byStarts(need(fp(rule, firstWords(l.alls), 300, alt(l.alls)+sepExpr+gapExpr(3)+verb), l.verbs), l.alls)...)
		}
	}
	return out
}

// lexiconWords are the ASCII words of the English tables and the small
// words between them: what a leet word or letters set apart must read as
// before they are folded (foldLookalikes).
var lexiconWords, maxLexiconWord = func() (map[string]bool, int) {
	set := map[string]bool{}
	longest := 0
	for _, t := range englishVocabulary {
		for _, e := range t {
			for _, w := range strings.Fields(strings.ToLower(unstar(e))) {
				if len(w) < 2 || !isASCII(w) || strings.ContainsAny(w, "'’") {
					continue
				}
				set[w] = true
				longest = max(longest, len(w))
			}
		}
	}
	return set, longest
}()
