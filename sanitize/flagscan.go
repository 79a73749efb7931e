package sanitize

import (
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// flagPattern is one expression of a flag rule.
// needsMet reports whether window, up to the first needsUntil byte when
// one is set, holds one of the words the pattern needs.
func (p *flagPattern) needsMet(window string) bool {
	region := window
	if p.needsUntil != 0 {
		if j := strings.IndexByte(region, p.needsUntil); j >= 0 {
			region = region[:j]
		}
	}
	return containsAny(region, p.needs)
}

type flagPattern struct {
	rule string
	// starts are the words a match begins with.
	starts []string
	// inWord lets a start be the end of a longer word (github_token); by
	// default a start must begin a word.
	inWord bool
	// lineStart wants a start at the start of a line.
	lineStart bool
	// needs, when set, are strings one of which the window must hold
	// before the expression runs (a cheap first test): as whole words
	// when every one is a word, else as substrings; with needsUntil, the
	// window up to the first such byte must hold one (the line, the HTML
	// tag).
	needs      []string
	needsUntil byte
	needsSub   bool
	// span is the longest match in bytes: the window's length.
	span int
	re   *regexp.Regexp
	// check, when set, must accept the match: before is the normalised
	// line up to the match, window the text the expression ran on.
	check func(before, window string, match []int) bool
}

func fp(rule string, starts []string, span int, expr string) flagPattern {
	return flagPattern{rule: rule, starts: starts, span: span, re: regexp.MustCompile(`^(?:` + expr + `)`)}
}

func (p flagPattern) needing(s ...string) flagPattern { p.needs = s; return p }

// needingSubstrings is needing, the strings looked for inside words (stems,
// and words of scripts written without spaces).
func (p flagPattern) needingSubstrings(s ...string) flagPattern {
	p.needs, p.needsSub = s, true
	return p
}
func (p flagPattern) needingBefore(until byte, s ...string) flagPattern {
	p.needs, p.needsUntil = s, until
	return p
}
func (p flagPattern) inWords() flagPattern     { p.inWord = true; return p }
func (p flagPattern) atLineStart() flagPattern { p.lineStart = true; return p }
func (p flagPattern) checked(c func(string, string, []int) bool) flagPattern {
	p.check = c
	return p
}

// flagMatches returns, for each rule that fires on the normalised text, the
// offset of its first match. It reads the text once, noting at the start of
// each word the patterns that start with it (and at each punctuation
// character that starts a pattern) and where the words that patterns need
// occur; then it runs the expressions only where a pattern's start has one
// of its needed words close enough behind it. Only candidates that start in
// [from, to) are tried; the text around them is read all the same.
//
// rotated reports whether the text holds one of the decodeSignals: a word
// of an instruction in ROT13 or backwards.
func flagMatches(text string, from, to int) (first map[string]int, rotated bool) {
	type candidate struct{ pattern, at int }
	var (
		cands   []candidate
		needPos = make([][]int, len(starts.needIDs))
	)
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !isWordByte(c) {
			if !starts.isPunct[c] {
				continue
			}
			for _, ps := range starts.punct[c] {
				if strings.HasPrefix(text[i:], ps.start) && (!flagPatterns[ps.pattern].lineStart || atLineStart(text, i)) {
					cands = append(cands, candidate{ps.pattern, i})
				}
			}
			continue
		}
		j := i + 1
		for j < len(text) && (isWordByte(text[j]) || (text[j] == '-' || text[j] == '\'') && j+1 < len(text) && isWordByte(text[j+1])) {
			j++
		}
		word := text[i:j]
		h := wordHash(word)
		if starts.filter[h/64]&(1<<(h%64)) != 0 {
			for _, pi := range starts.words[word] {
				if !flagPatterns[pi].lineStart || atLineStart(text, i) {
					cands = append(cands, candidate{pi, i})
				}
			}
		}
		if starts.needFilter[h/64]&(1<<(h%64)) != 0 {
			if id, ok := starts.needIDs[word]; ok {
				needPos[id] = append(needPos[id], i)
			}
		}
		if len(starts.runes) > 0 && !isASCII(word) {
			// A start in a script written without spaces, or with its
			// words inflected, may stand anywhere in a word.
			for p := i; p < j; {
				r, size := utf8.DecodeRuneInString(text[p:])
				for _, ps := range starts.runes[r] {
					if strings.HasPrefix(text[p:j], ps.start) && (!flagPatterns[ps.pattern].lineStart || atLineStart(text, p)) {
						cands = append(cands, candidate{ps.pattern, p})
					}
				}
				p += size
			}
		}
		if sfs := starts.suffixes[word[len(word)-1]]; sfs != nil {
			for _, sf := range sfs {
				if len(word) > len(sf.start) && strings.HasSuffix(word, sf.start) {
					cands = append(cands, candidate{sf.pattern, j - len(sf.start)})
				}
			}
		}
		i = j - 1
	}

	for _, id := range starts.signals {
		if len(needPos[id]) > 0 {
			rotated = true
		}
	}
	for _, cd := range cands {
		p := &flagPatterns[cd.pattern]
		if _, done := first[p.rule]; done || cd.at < from || cd.at >= to {
			continue
		}
		k := cd.at
		end := min(len(text), k+p.span)
		window := text[k:end]
		if ids := starts.needWords[cd.pattern]; ids != nil {
			if !anyWithin(needPos, ids, k, end) {
				continue
			}
			if p.needsUntil != 0 {
				if j := strings.IndexByte(window, p.needsUntil); j >= 0 && !anyWithin(needPos, ids, k, k+j) {
					continue
				}
			}
		} else if len(p.needs) > 0 && !p.needsMet(window) {
			continue
		}
		if p.check == nil {
			if !p.re.MatchString(window) {
				continue
			}
		} else if m := p.re.FindStringSubmatchIndex(window); m == nil ||
			!p.check(text[strings.LastIndexByte(text[:k], '\n')+1:k], window, m) {
			continue
		}
		if first == nil {
			first = map[string]int{}
		}
		first[p.rule] = k
	}
	return first, rotated
}

// anyWithin reports whether one of the words ids occurs at an offset in
// [from, to).
func anyWithin(pos [][]int, ids []int, from, to int) bool {
	for _, id := range ids {
		ps := pos[id]
		n := sort.SearchInts(ps, from)
		if n < len(ps) && ps[n] < to {
			return true
		}
	}
	return false
}

// starts indexes the patterns by their start words, and by the words they
// need when every string a pattern needs is a whole word.
var starts = func() (idx startIndex) {
	idx.words = map[string][]int{}
	idx.needIDs = map[string]int{}
	idx.needWords = make([][]int, len(flagPatterns))
	for pi, p := range flagPatterns {
		for _, s := range p.starts {
			if !isASCII(s) {
				if idx.runes == nil {
					idx.runes = map[rune][]patternStart{}
				}
				r, _ := utf8.DecodeRuneInString(s)
				idx.runes[r] = append(idx.runes[r], patternStart{s, pi})
				continue
			}
			if !isWordByte(s[0]) {
				idx.punct[s[0]] = append(idx.punct[s[0]], patternStart{s, pi})
				idx.isPunct[s[0]] = true
				continue
			}
			idx.words[s] = append(idx.words[s], pi)
			h := wordHash(s)
			idx.filter[h/64] |= 1 << (h % 64)
			if p.inWord {
				last := s[len(s)-1]
				idx.suffixes[last] = append(idx.suffixes[last], patternStart{s, pi})
			}
		}
		if len(p.needs) == 0 || p.needsSub || !allWords(p.needs) {
			continue
		}
		for _, w := range p.needs {
			id, ok := idx.needIDs[w]
			if !ok {
				id = len(idx.needIDs)
				idx.needIDs[w] = id
				h := wordHash(w)
				idx.needFilter[h/64] |= 1 << (h % 64)
			}
			idx.needWords[pi] = append(idx.needWords[pi], id)
		}
	}
	for _, w := range decodeSignals {
		id, ok := idx.needIDs[w]
		if !ok {
			id = len(idx.needIDs)
			idx.needIDs[w] = id
			h := wordHash(w)
			idx.needFilter[h/64] |= 1 << (h % 64)
		}
		idx.signals = append(idx.signals, id)
	}
	return idx
}()

// allWords reports whether every string is one word as flagMatches splits
// words: word bytes, with single hyphens or apostrophes inside, and ASCII
// (words above ASCII are inflected or not set apart: they are needed as
// substrings).
func allWords(ss []string) bool {
	for _, s := range ss {
		if !isASCII(s) {
			return false
		}
		for i := 0; i < len(s); i++ {
			inner := (s[i] == '-' || s[i] == '\'') && i > 0 && i+1 < len(s) && isWordByte(s[i-1]) && isWordByte(s[i+1])
			if !isWordByte(s[i]) && !inner {
				return false
			}
		}
	}
	return true
}

type startIndex struct {
	words map[string][]int
	// filter is a Bloom filter of the start words by length and first
	// and last byte: most words of a text are no start, and this answers
	// for them without a map lookup.
	filter     [1024]uint64
	needIDs    map[string]int
	needFilter [1024]uint64
	needWords  [][]int
	suffixes   [256][]patternStart // by last byte
	punct      [256][]patternStart
	isPunct    [256]bool
	// runes are the starts above ASCII, by their first character: they
	// are looked for at every character of a word that is not ASCII.
	runes map[rune][]patternStart
	// signals are the ids of decodeSignals among the needed words.
	signals []int
}

func wordHash(w string) uint32 { return wordHashOf(len(w), w[0], w[len(w)-1]) }

func wordHashOf(n int, first, last byte) uint32 {
	return (uint32(n)*0x9e3779b1 ^ uint32(first)*0x85ebca6b ^ uint32(last)*0xc2b2ae35) % (1024 * 64)
}

type patternStart struct {
	start   string
	pattern int
}

func atLineStart(text string, k int) bool {
	return k == 0 || text[k-1] == '\n' || (text[k-1] == ' ' && (k == 1 || text[k-2] == '\n'))
}

func isWordByte(c byte) bool { return wordBytes[c] }

// wordBytes: a-z, 0-9, _ and every byte of a character above ASCII (the
// normalised text has no upper case).
var wordBytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
	}
	return t
}()

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
