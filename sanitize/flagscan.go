package sanitize

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// subsMet reports whether the part of window the pattern's needs are
// looked for in holds one of its needed substrings.
func (p *flagPattern) subsMet(window string) bool {
	region := window
	if p.needsWithin > 0 && len(region) > p.needsWithin {
		region = region[:p.needsWithin]
	}
	if p.needsUntil != 0 {
		if j := strings.IndexByte(region, p.needsUntil); j >= 0 {
			region = region[:j]
		}
	}
	if p.subsHigh && isASCII(region) {
		return false
	}
	return containsAny(region, p.needSubs)
}

// flagPattern is one expression of a flag rule.
type flagPattern struct {
	rule   string
	ruleID int // the rule's index in flagRuleNames
	// starts are the words a match begins with.
	starts []string
	// inWord lets a start be the end of a longer word (github_token); by
	// default a start must begin a word.
	inWord bool
	// lineStart wants a start at the start of a line.
	lineStart bool
	// needs and needSubs, when set, are words and strings one of which
	// the window must hold before the expression runs (a cheap first
	// test): a word as a word of the scan (the scan notes where each is),
	// a substring anywhere (stems, scripts written without spaces,
	// strings that are no word); with needsUntil, the window up to the
	// first such byte must hold one (the line, the HTML tag).
	needs      []string
	needSubs   []string
	subsHigh   bool // every needed substring is above ASCII
	needsUntil byte
	// needsWithin, when set, is how far after the start (in bytes) a
	// needed word must start.
	needsWithin int
	// follows, when set, are the words one of which must follow the
	// start word (after one space): a cheap test for patterns whose start
	// is a common word ("root" in "root access granted").
	follows []string
	// span is the longest match in bytes: the window's length.
	span int
	re   *lazyRegexp
	// check, when set, must accept the match: before is the normalised
	// line up to the match, window the text the expression ran on.
	check func(before, window string, match []int) bool
}

func fp(rule string, starts []string, span int, expr string) flagPattern {
	return flagPattern{rule: rule, starts: starts, span: span, re: &lazyRegexp{expr: `^(?:` + expr + `)`}}
}

// lazyRegexp is a pattern's expression, compiled the first time a scan
// gets as far as running it. Compiled at package init, the expressions
// cost every role's process start about 100 ms and 20 MB (every role
// links sanitize; yaag's start goal is 20 ms), and a scan runs few of
// them. A bad expression panics at its first use instead of at start:
// TestFlagExpressionsCompile compiles each one.
type lazyRegexp struct {
	once sync.Once
	expr string
	re   *regexp.Regexp
}

// compileAtFirstUse is expr, compiled by its first get.
func compileAtFirstUse(expr string) *lazyRegexp { return &lazyRegexp{expr: expr} }

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}

// needing wants one of s in the window: each a word when it is one (as the
// scan splits words), else a substring.
func (p flagPattern) needing(s ...string) flagPattern {
	for _, w := range s {
		if allWords([]string{w}) {
			p.needs = append(p.needs, w)
		} else {
			p.needSubs = append(p.needSubs, w)
		}
	}
	return p.withSubs()
}

// needingSubstrings is needing, the strings looked for inside words (stems,
// and words of scripts written without spaces).
func (p flagPattern) needingSubstrings(s ...string) flagPattern {
	p.needSubs = append(p.needSubs, s...)
	return p.withSubs()
}

func (p flagPattern) withSubs() flagPattern {
	p.subsHigh = len(p.needSubs) > 0
	for _, w := range p.needSubs {
		p.subsHigh = p.subsHigh && !isASCII(w)
	}
	return p
}

func (p flagPattern) needingBefore(until byte, s ...string) flagPattern {
	p = p.needing(s...)
	p.needsUntil = until
	return p
}

// needingWithin is needing, the word within n bytes of the start.
func (p flagPattern) needingWithin(n int, s ...string) flagPattern {
	p = p.needing(s...)
	p.needsWithin = n
	return p
}

// followedBy wants one of the words right after the start word.
func (p flagPattern) followedBy(s ...string) flagPattern { p.follows = s; return p }

// followMet reports whether the word after the first word of window is
// one of p.follows.
func (p *flagPattern) followMet(window string) bool {
	i := 0
	for i < len(window) && (isWordByte(window[i]) || (window[i] == '-' || window[i] == '\'') && i > 0 && i+1 < len(window) && isWordByte(window[i+1])) {
		i++
	}
	if i >= len(window) || window[i] != ' ' && window[i] != '\n' {
		return false
	}
	rest := window[i+1:]
	for _, w := range p.follows {
		if strings.HasPrefix(rest, w) && (len(rest) == len(w) || !isWordByte(rest[len(w)])) {
			return true
		}
	}
	return false
}

func (p flagPattern) inWords() flagPattern     { p.inWord = true; return p }
func (p flagPattern) atLineStart() flagPattern { p.lineStart = true; return p }
func (p flagPattern) checked(c func(string, string, []int) bool) flagPattern {
	p.check = c
	return p
}

// hits are the rules that fired on a text, each with the offset of its
// first match, by rule index (flagRuleIndex).
type hits struct {
	set uint64
	at  [64]int
}

func (h *hits) has(id int) bool { return h.set&(1<<id) != 0 }

func (h *hits) add(id, at int) {
	if !h.has(id) || at < h.at[id] {
		h.set |= 1 << id
		h.at[id] = at
	}
}

// any reports whether a rule other than those in except fired.
func (h *hits) anyBut(except hits) bool { return h.set&^except.set&^(1<<hardcodedID) != 0 }

// flagMatches returns the rules that fire on the normalised text, each at
// the offset of its first match starting in [from, to).
func flagMatches(text string, from, to int) hits {
	s := getScanner()
	defer putScanner(s)
	s.read(text, false)
	return s.match(text, from, to)
}

// scanner reads a normalised text once (read), noting at the start of each
// word the patterns that start with it (and at each punctuation character
// that starts a pattern) and where the words that patterns need occur; then
// match runs the expressions only where a pattern's start has one of its
// needed words close enough behind it.
//
// With marks, the same reading also notes, line by line, what the decoders
// need (lineMark: a long run of base64 characters, escapes, string
// literals, a word of an instruction in ROT13, ...), so that they read only
// the lines that may hold something for them, and whether folding
// look-alikes (foldLookalikes) could change the text at all: most text has
// no look-alike, no leet word of the lexicons and no letters set apart, and
// is not folded.
type scanner struct {
	rules   *flagTables
	cands   []candidate
	needPos [][]int
	marks   []lineMark
	// foldAt are the starts of the lines where folding look-alikes may
	// change the text (with marks only).
	foldAt []int
	// groupPos are the merged positions of each group of needed words
	// (groupWithin), built when first asked for.
	groupPos   [][]int
	groupBuilt []bool
}

type candidate struct{ pattern, at int }

// lineMark is what a line of the normalised text may hold for the
// decoders: its index (the number of line feeds before it) and marks.
type lineMark struct {
	line int
	bits uint16
}

// Marks of a line.
const (
	markRun      uint16 = 1 << iota // a run of minEncoded or more base64, base32 or hex characters
	markEscapes                     // eight or more \x escapes
	markPercent                     // three or more % signs
	markMorse                       // ".-" or "-."
	markSignal                      // a word of an instruction in ROT13 or backwards (decodeSignals)
	markHexWords                    // twelve or more two-digit hex words: spaced hex
	markLiteral                     // two or more quote characters: a string literal
	markCut                         // a literal's first word that makes a vocabulary word after the last literal's last word
	markKey                         // a key word of split payloads (splitKeys)

	// decodeMarks call for a decoder; a literal calls for the split
	// payload window with markCut or markKey.
	decodeMarks = markRun | markEscapes | markPercent | markMorse | markSignal | markHexWords
)

var scanners = sync.Pool{New: func() any {
	t := flagRules()
	return &scanner{rules: t, needPos: make([][]int, len(t.starts.needIDs)), groupPos: make([][]int, t.starts.groups), groupBuilt: make([]bool, t.starts.groups)}
}}

func getScanner() *scanner  { return scanners.Get().(*scanner) }
func putScanner(s *scanner) { scanners.Put(s) }

// Kinds of a byte for the scan (nonWordKind, startIndex.nonWord).
const (
	nwPunct    = 1 << iota // starts a pattern
	nwLineOnly             // starts only patterns that want the start of a line
	nwRunSep               // + / -: inside a run of base64
	nwMark                 // looked at for the marks: line feed, %, \, . -, quotes, leet punctuation
	nwWord                 // a word byte (isWordByte), which is none of the above
)

var nonWordKind = func() (t [256]uint8) {
	for c := range 256 {
		if isWordByte(byte(c)) {
			t[c] = nwWord
		}
	}
	for _, c := range "+/-" {
		t[c] |= nwRunSep
	}
	for _, c := range "\n%\\.-\"'`@$!|" {
		t[c] |= nwMark
	}
	return t
}()

// Classes of a word byte (wordClass): every word byte has wcWord.
const (
	wcWord   = 1 << iota
	wcHigh   // a byte of a character above ASCII
	wcDigit  // 0-9
	wcInner  // _, and (set by the scan) - or ' inside a word
	wcLetter // a-z
)

var wordClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= 'a' && c <= 'z':
			t[c] = wcWord | wcLetter
		case c >= '0' && c <= '9':
			t[c] = wcWord | wcDigit
		case c == '_':
			t[c] = wcWord | wcInner
		case c >= utf8.RuneSelf:
			t[c] = wcWord | wcHigh
		}
	}
	return t
}()

func isQuote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

// read scans text (see scanner).
func (s *scanner) read(text string, withMarks bool) {
	idx, patterns := &s.rules.starts, s.rules.patterns
	s.cands = s.cands[:0]
	for i := range s.needPos {
		s.needPos[i] = s.needPos[i][:0]
	}
	s.marks = s.marks[:0]
	s.foldAt = s.foldAt[:0]
	var (
		lineStart, line                int
		mayFold                        bool // on this line
		bits                           uint16
		run                            int // the run of base64 characters so far
		quotes, percents, escapes, hex int
		tail                           string // the last word before a quote character
	)
	endLine := func() {
		if bits&decodeMarks != 0 || bits&markLiteral != 0 && bits&(markCut|markKey) != 0 {
			s.marks = append(s.marks, lineMark{line, bits})
		}
		line++
		bits, run, quotes, percents, escapes, hex = 0, 0, 0, 0, 0, 0
		mayFold = false
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if kind := idx.nonWord[c]; kind&nwWord == 0 {
			if kind&nwRunSep == 0 {
				run = 0
			} else if run++; run >= minEncoded {
				bits |= markRun
			}
			if kind&^nwRunSep == 0 {
				continue
			}
			if kind&nwPunct != 0 && (kind&nwLineOnly == 0 || atLineStart(text, i)) {
				for _, ps := range idx.punct[c] {
					if strings.HasPrefix(text[i:], ps.start) && (!patterns[ps.pattern].lineStart || atLineStart(text, i)) {
						s.cands = append(s.cands, candidate{ps.pattern, i})
					}
				}
			}
			if kind&nwMark == 0 || !withMarks {
				continue
			}
			switch c {
			case '\n':
				endLine()
				lineStart = i + 1
			case '%':
				if percents++; percents >= 3 {
					bits |= markPercent
				}
			case '\\':
				if i+1 < len(text) && text[i+1] == 'x' {
					if escapes++; escapes >= 8 {
						bits |= markEscapes
					}
				}
			case '.', '-':
				if i+1 < len(text) && (text[i+1] == '.' || text[i+1] == '-') && text[i+1] != c {
					bits |= markMorse
				}
			case '"', '\'', '`':
				if quotes++; quotes >= 2 {
					bits |= markLiteral
				}
			case '@', '$', '!', '|':
				if !mayFold && (leetMayFold(text, i, i+1) || spacedMayFold(text, i)) {
					mayFold = true
					s.foldAt = append(s.foldAt, lineStart)
				}
			}
			continue
		}
		j, class := i+1, wordClass[c]
		for j < len(text) {
			if k := wordClass[text[j]]; k != 0 {
				class |= k
				j++
				continue
			}
			if d := text[j]; (d == '-' || d == '\'') && j+1 < len(text) && wordClass[text[j+1]] != 0 {
				class |= wcInner
				j++
				continue
			}
			break
		}
		word := text[i:j]
		high := class&wcHigh != 0
		if high {
			run = 0
		} else if run += j - i; run >= minEncoded {
			bits |= markRun
		}
		if e := idx.table.find(word); e != nil {
			for _, pi := range e.patterns {
				if !patterns[pi].lineStart || atLineStart(text, i) {
					s.cands = append(s.cands, candidate{pi, i})
				}
			}
			if e.need >= 0 {
				s.needPos[e.need] = append(s.needPos[e.need], i)
				bits |= e.marks
			}
		}
		if high && len(idx.runes) > 0 {
			// A start in a script written without spaces, or with its
			// words inflected, may stand anywhere in a word.
			for p := i; p < j; {
				r, size := utf8.DecodeRuneInString(text[p:])
				for _, ps := range idx.runes[r] {
					if strings.HasPrefix(text[p:j], ps.start) && (!patterns[ps.pattern].lineStart || atLineStart(text, p)) {
						s.cands = append(s.cands, candidate{ps.pattern, p})
					}
				}
				p += size
			}
		}
		if sfs := idx.suffixes[word[len(word)-1]]; sfs != nil {
			for _, sf := range sfs {
				if len(word) > len(sf.start) && strings.HasSuffix(word, sf.start) {
					s.cands = append(s.cands, candidate{sf.pattern, j - len(sf.start)})
				}
			}
		}
		if withMarks {
			// Leet needs letters and digits in the word (or leet
			// punctuation next to it, below); letters set apart need a
			// single letter and a separator after it.
			if !mayFold && (high && highMayFold(word) || class&(wcDigit|wcLetter) == wcDigit|wcLetter && leetMayFold(text, i, j) ||
				(j-i == 1 && j+2 < len(text) && spacedSep[text[j]] || class&wcInner != 0) && spacedMayFold(text, i)) {
				mayFold = true
				s.foldAt = append(s.foldAt, lineStart)
			}
			if n := j - i; n == 2 && isHexByte(word[0]) && isHexByte(word[1]) ||
				n == 4 && word[0] == '0' && word[1] == 'x' && isHexByte(word[2]) && isHexByte(word[3]) {
				if hex++; hex >= minHexWords {
					bits |= markHexWords
				}
			}
			if i > 0 && isQuote(text[i-1]) && tail != "" && mayMakeWord(tail, word) && cutMakesWord(tail, word) {
				bits |= markCut
			}
			if j < len(text) && isQuote(text[j]) && !isKey(text, j) {
				tail = word
			}
		}
		i = j - 1
	}
	if withMarks {
		endLine()
	}
}

// fold folds the look-alikes of the lines foldAt names, in text (the text
// read), and moves what the scan noted to the folded text: what it noted
// on a line that changed is read again from the folded line. It returns
// the folded text and, for an offset of text at a line start, where it is
// now (moved).
func (s *scanner) fold(text string) (string, func(int) int) {
	type change struct{ start, end, newLen int }
	var changes []change
	var b strings.Builder
	prev := 0
	for _, ls := range s.foldAt {
		le := lineEnd(text, ls)
		folded, _ := foldLookalikes(text[ls:le], nil)
		if folded == text[ls:le] {
			continue
		}
		if changes == nil {
			b.Grow(len(text))
		}
		b.WriteString(text[prev:ls])
		b.WriteString(folded)
		prev = le
		changes = append(changes, change{ls, le, len(folded)})
	}
	if changes == nil {
		return text, func(p int) int { return p }
	}
	b.WriteString(text[prev:])
	out := b.String()
	// moved maps an offset of text outside the changed lines.
	moved := func(p int) int {
		for _, c := range changes {
			if c.end > p {
				break
			}
			p += c.newLen - (c.end - c.start)
		}
		return p
	}
	// What the scan noted on a changed line is dropped, and the folded
	// line read again; everything after moves.
	line := 0
	lineAt, countedTo := 0, 0
	again := getScanner()
	defer putScanner(again)
	var cands []candidate
	ci := 0
	needFrom := make([]int, len(s.needPos))
	newNeeds := make([][]int, len(s.needPos))
	var marks []lineMark
	mi := 0
	delta := 0
	for _, c := range changes {
		for ; ci < len(s.cands) && s.cands[ci].at < c.start; ci++ {
			cd := s.cands[ci]
			cands = append(cands, candidate{cd.pattern, cd.at + delta})
		}
		for ; ci < len(s.cands) && s.cands[ci].at < c.end; ci++ {
		}
		for id, ps := range s.needPos {
			k := needFrom[id]
			for ; k < len(ps) && ps[k] < c.start; k++ {
				newNeeds[id] = append(newNeeds[id], ps[k]+delta)
			}
			for ; k < len(ps) && ps[k] < c.end; k++ {
			}
			needFrom[id] = k
		}
		line += strings.Count(text[countedTo:c.start], "\n")
		countedTo = c.start
		lineAt = c.start + delta
		again.read(out[lineAt:lineAt+c.newLen], true)
		for _, cd := range again.cands {
			cands = append(cands, candidate{cd.pattern, cd.at + lineAt})
		}
		for id, ps := range again.needPos {
			for _, p := range ps {
				newNeeds[id] = append(newNeeds[id], p+lineAt)
			}
		}
		for ; mi < len(s.marks) && s.marks[mi].line < line; mi++ {
			marks = append(marks, s.marks[mi])
		}
		var bits uint16
		for _, m := range again.marks {
			bits |= m.bits
		}
		if mi < len(s.marks) && s.marks[mi].line == line {
			bits |= s.marks[mi].bits
			mi++
		}
		if bits != 0 {
			marks = append(marks, lineMark{line, bits})
		}
		delta += c.newLen - (c.end - c.start)
	}
	for ; ci < len(s.cands); ci++ {
		cd := s.cands[ci]
		cands = append(cands, candidate{cd.pattern, cd.at + delta})
	}
	for id, ps := range s.needPos {
		for _, p := range ps[needFrom[id]:] {
			newNeeds[id] = append(newNeeds[id], p+delta)
		}
		s.needPos[id] = newNeeds[id]
	}
	s.cands = cands
	s.marks = append(marks, s.marks[mi:]...)
	return out, moved
}

// match runs the patterns whose candidates start in [from, to), and
// returns the rules that fire.
func (s *scanner) match(text string, from, to int) hits {
	idx, patterns := &s.rules.starts, s.rules.patterns
	var first hits
	for g := range s.groupPos {
		s.groupPos[g] = s.groupPos[g][:0]
		s.groupBuilt[g] = false
	}
	for _, cd := range s.cands {
		p := &patterns[cd.pattern]
		if first.has(p.ruleID) || cd.at < from || cd.at >= to {
			continue
		}
		k := cd.at
		end := min(len(text), k+p.span)
		window := text[k:end]
		if p.follows != nil && !p.followMet(window) {
			continue
		}
		if ids := idx.needWords[cd.pattern]; ids != nil || p.needSubs != nil {
			needEnd := end
			if p.needsWithin > 0 {
				needEnd = min(end, k+p.needsWithin)
			}
			if p.needsUntil != 0 {
				if j := strings.IndexByte(window, p.needsUntil); j >= 0 {
					needEnd = min(needEnd, k+j)
				}
			}
			if !(ids != nil && s.groupWithin(idx.needGroup[cd.pattern], ids, k, needEnd)) && (p.needSubs == nil || !p.subsMet(window)) {
				continue
			}
		}
		if p.check == nil {
			if !p.re.get().MatchString(window) {
				continue
			}
		} else if m := p.re.get().FindStringSubmatchIndex(window); m == nil ||
			!p.check(text[strings.LastIndexByte(text[:k], '\n')+1:k], window, m) {
			continue
		}
		first.add(p.ruleID, k)
	}
	return first
}

// minHexWords is the fewest two-digit hex words in a line that the spaced
// hex decoder reads (twelve bytes: a short instruction).
const minHexWords = 12

// groupWithin reports whether one of the words ids, which are the needed
// words of the group g, occurs at an offset in [from, to). The positions of
// a group's words are merged into one sorted list the first time a
// candidate asks (one search instead of one a word: some patterns need
// forty words).
func (s *scanner) groupWithin(g int, ids []int, from, to int) bool {
	if len(ids) < 4 {
		return anyWithin(s.needPos, ids, from, to)
	}
	if !s.groupBuilt[g] {
		s.groupBuilt[g] = true
		merged := s.groupPos[g][:0]
		for _, id := range ids {
			merged = append(merged, s.needPos[id]...)
		}
		sort.Ints(merged)
		s.groupPos[g] = merged
	}
	ps := s.groupPos[g]
	n := sort.SearchInts(ps, from)
	return n < len(ps) && ps[n] < to
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

// flagRuleNames are the flag rules' names, in name order; a rule's index
// is its place here (flagPattern.ruleID, hits).
var flagRuleNames, hardcodedID = func() ([]string, int) {
	var names []string
	for name := range flagReasons {
		names = append(names, name)
	}
	sort.Strings(names)
	return names, sort.SearchStrings(names, RuleFlagHardcodedSecret)
}()

// indexStarts indexes the patterns by their start words, and by the words
// they need when every string a pattern needs is a whole word; the words
// that mark a line for the decoders (decodeSignals, splitKeys) are among
// the needed words too. It sets each pattern's ruleID.
func indexStarts(flagPatterns []flagPattern) (idx startIndex) {
	if len(flagRuleNames) > 64 {
		panic("sanitize: more flag rules than hits holds")
	}
	words := map[string]*wordEntry{}
	entry := func(w string) *wordEntry {
		e := words[w]
		if e == nil {
			e = &wordEntry{word: w, need: -1}
			words[w] = e
		}
		return e
	}
	idx.needIDs = map[string]int{}
	idx.needWords = make([][]int, len(flagPatterns))
	idx.nonWord = nonWordKind
	needID := func(w string) *wordEntry {
		e := entry(w)
		if e.need < 0 {
			e.need = len(idx.needIDs)
			idx.needIDs[w] = e.need
		}
		return e
	}
	for pi := range flagPatterns {
		p := &flagPatterns[pi]
		p.ruleID = sort.SearchStrings(flagRuleNames, p.rule)
		if p.ruleID == len(flagRuleNames) || flagRuleNames[p.ruleID] != p.rule {
			panic("sanitize: a flag pattern of a rule without a reason: " + p.rule)
		}
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
				idx.nonWord[s[0]] |= nwPunct
				continue
			}
			e := entry(s)
			e.patterns = append(e.patterns, pi)
			if p.inWord {
				last := s[len(s)-1]
				idx.suffixes[last] = append(idx.suffixes[last], patternStart{s, pi})
			}
		}
		for _, w := range p.needs {
			idx.needWords[pi] = append(idx.needWords[pi], needID(w).need)
		}
	}
	for _, w := range decodeSignals {
		needID(w).marks |= markSignal
	}
	for _, w := range splitKeys {
		needID(w).marks |= markKey
	}
	for c, ps := range idx.punct {
		lineOnly := len(ps) > 0
		for _, p := range ps {
			lineOnly = lineOnly && flagPatterns[p.pattern].lineStart
		}
		if lineOnly {
			idx.nonWord[c] |= nwLineOnly
		}
	}
	idx.table = newWordTable(words)
	idx.needGroup = make([]int, len(flagPatterns))
	groupOf := map[string]int{}
	for pi, ids := range idx.needWords {
		key := fmt.Sprint(ids)
		g, ok := groupOf[key]
		if !ok {
			g = len(groupOf)
			groupOf[key] = g
		}
		idx.needGroup[pi] = g
	}
	idx.groups = len(groupOf)
	return idx
}

// wordEntry is what the scan notes for a word: the patterns that start
// with it, and its id among the words patterns need (or -1) with the line
// marks it sets.
type wordEntry struct {
	word     string
	patterns []int
	need     int
	marks    uint16
}

// wordTable finds a word's entry: open addressing by wordHash, at most one
// entry in eight slots, so that a word that is in no pattern (most words)
// costs a hash and a look at one empty slot.
type wordTable struct {
	// bloom has a bit for each word's hash: most words of a text are in
	// no table, and this answers for them from a small array.
	bloom [1 << 10]uint64
	// slots hold a word's hash in the high half and its index in entries
	// plus one in the low half; 0 is an empty slot. A probe compares the
	// hashes before it compares words.
	slots   []uint64
	entries []wordEntry
	mask    uint32
}

func newWordTable(words map[string]*wordEntry) wordTable {
	size := 1
	for size < 8*len(words) {
		size *= 2
	}
	t := wordTable{slots: make([]uint64, size), mask: uint32(size - 1)}
	names := make([]string, 0, len(words))
	for w := range words {
		names = append(names, w)
	}
	sort.Strings(names)
	for _, w := range names {
		hash := wordHash(w)
		h := hash & t.mask
		for t.slots[h] != 0 {
			h = (h + 1) & t.mask
		}
		t.slots[h] = uint64(hash)<<32 | uint64(len(t.entries)+1)
		t.bloom[hash>>6&(1<<10-1)] |= 1 << (hash & 63)
		t.entries = append(t.entries, *words[w])
	}
	return t
}

func (t *wordTable) find(w string) *wordEntry {
	hash := wordHash(w)
	if t.bloom[hash>>6&(1<<10-1)]&(1<<(hash&63)) == 0 {
		return nil
	}
	for h := hash & t.mask; ; h = (h + 1) & t.mask {
		slot := t.slots[h]
		if slot == 0 {
			return nil
		}
		if uint32(slot>>32) == hash {
			if e := &t.entries[uint32(slot)-1]; e.word == w {
				return e
			}
		}
	}
}

// allWords reports whether every string is one word as the scan splits
// words: word bytes (those of characters above ASCII among them), with
// single hyphens or apostrophes inside.
func allWords(ss []string) bool {
	for _, s := range ss {
		if s == "" {
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
	// table holds every word that starts a pattern, is needed by one, or
	// marks a line.
	table     wordTable
	needIDs   map[string]int
	needWords [][]int
	// needGroup is, for each pattern, the group of its needed words
	// (patterns that need the same words share one); groups is how many.
	needGroup []int
	groups    int
	suffixes  [256][]patternStart // by last byte
	punct     [256][]patternStart
	// nonWord is nonWordKind, with nwPunct for the bytes that start a
	// pattern.
	nonWord [256]uint8
	// runes are the starts above ASCII, by their first character: they
	// are looked for at every character of a word that is not ASCII.
	runes map[rune][]patternStart
}

// wordHash is wordTable's hash of a word: its length, its first two
// bytes, its middle one and its last.
func wordHash(w string) uint32 {
	second := byte(0)
	if len(w) > 1 {
		second = w[1]
	}
	h := (uint32(w[0]) | uint32(second)<<8 | uint32(w[len(w)-1])<<16 | uint32(len(w))<<24) ^ uint32(w[len(w)/2])<<4
	h *= 0x9e3779b1
	return h ^ h>>15
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
