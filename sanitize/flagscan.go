package sanitize

import (
	"encoding/binary"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

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
	// spareCands, spareNeeds and needFrom are fold's buffers: it builds the
	// moved candidates and needed words' positions in the spares and swaps
	// them with cands and needPos, so that a pooled scanner keeps its
	// arrays (a fold allocating new ones cost more than half of the
	// scan's allocations, and the collections they caused).
	spareCands []candidate
	spareNeeds [][]int
	needFrom   []int
	// needNext and groupNext are match's cursors: for each needed word and
	// group of words, the index in its list of positions of the first one
	// at or after the last candidate asked about (the candidates come in
	// order of offset, so each list is walked once).
	needNext  []int
	groupNext []int
	// subFrom, subTo and subAt are, for each needed substring, the range
	// subsWithin last looked in (only if its subMatch is this match's
	// number, matchNo: else none yet) and the
	// first occurrence it found there (-1: none).
	subFrom, subTo, subAt []int
	subMatch              []uint64
	matchNo               uint64
	// needUsed are the needed words read has positions for: those it
	// empties at the next read (there are thousands of needed words, and
	// a split payload's window reads a few lines).
	needUsed []int
	// highAsked and highAt are highFrom's last question and answer.
	highAsked, highAt int
	// mergeRuns, mergeNext, mergeBuf and mergeSpare are mergeNeeds'
	// buffers.
	mergeRuns, mergeNext [][]int
	mergeBuf, mergeSpare []int
	// leet is leetMayFold's answers for words that stand alone (see
	// leetMayFold below), kept from one read to the next.
	leet [leetSlots]leetEntry
	// allCands keeps, in read, the candidates whose followers are not
	// there too: the text read is one line of a longer one (fold), whose
	// next word may be on the next line, or the reference is reading.
	allCands bool
}

// candidate is a pattern's start at an offset. Its pattern may carry
// followsMet: the scan found one of the pattern's followers after it, in
// text that folding leaves as it is.
type candidate struct{ pattern, at int }

const followsMet = 1 << 30

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
	markBinWords                    // eight or more words of seven or eight binary digits: spaced binary
	markDecWords                    // twelve or more words of two or three digits: character codes in decimal
	markEntities                    // three or more HTML character references (&#105; &#x69; &amp;), or two tags between letters
	markUEscapes                    // four or more \u escapes

	// decodeMarks call for a decoder; a literal calls for the split
	// payload window with markCut or markKey.
	decodeMarks = markRun | markEscapes | markPercent | markMorse | markSignal | markHexWords | markBinWords | markDecWords | markEntities | markUEscapes
)

var scanners = sync.Pool{New: func() any {
	t := flagRules()
	n := len(t.starts.needIDs)
	return &scanner{rules: t, needPos: make([][]int, n), groupPos: make([][]int, t.starts.groups), groupBuilt: make([]bool, t.starts.groups),
		spareNeeds: make([][]int, n), needFrom: make([]int, n),
		needNext: make([]int, n), groupNext: make([]int, t.starts.groups), subFrom: make([]int, len(t.starts.subs)), subTo: make([]int, len(t.starts.subs)), subAt: make([]int, len(t.starts.subs)), subMatch: make([]uint64, len(t.starts.subs))}
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
	for _, c := range "\n%\\.-\"'`@$!|&<" {
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
	if want := len(text) / candBytes; cap(s.cands) < want {
		s.cands = make([]candidate, 0, want)
	}
	for _, id := range s.needUsed {
		s.needPos[id] = s.needPos[id][:0]
	}
	s.needUsed = s.needUsed[:0]
	s.marks = s.marks[:0]
	s.foldAt = s.foldAt[:0]
	var (
		lineStart, line                int
		mayFold                        bool // on this line
		bits                           uint16
		run                            int // the run of base64 characters so far
		quotes, percents, escapes, hex int
		bins, decs, entities, uescapes int
		tags                           int
		tail                           string // the last word before a quote character
		tailHigh                       bool   // whether tail has a byte above ASCII
		splitShapes                    = s.rules.splitShapes
		// lf is the first line feed at or after the last start word
		// whose followers were asked about (len(text): none), looked
		// for once a line, not once a pattern.
		lf = -1
	)
	endLine := func() {
		if bits&decodeMarks != 0 || bits&markLiteral != 0 && bits&(markCut|markKey) != 0 {
			s.marks = append(s.marks, lineMark{line, bits})
		}
		line++
		bits, run, quotes, percents, escapes, hex, bins, decs, entities, uescapes, tags = 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
		mayFold = false
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		kind := idx.nonWord[c]
		if kind == 0 {
			// White space and most punctuation (most bytes of code that
			// are no word's) end a run of base64, and are nothing else.
			run = 0
			continue
		}
		if kind&nwWord == 0 {
			if kind&nwRunSep == 0 {
				run = 0
			} else if run++; run >= minEncoded {
				bits |= markRun
			}
			if kind&^nwRunSep == 0 {
				continue
			}
			if kind&nwPunct != 0 && (kind&nwLineOnly == 0 || atLineStart(text, i)) && idx.punctMay(text, i) {
				for _, ps := range idx.punct[c] {
					if strings.HasPrefix(text[i:], ps.start) && (!patterns[ps.pattern].lineStart || atLineStart(text, i)) {
						s.addCand(candidate{ps.pattern, i})
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
				if i+1 < len(text) && text[i+1] == 'u' {
					if uescapes++; uescapes >= 4 {
						bits |= markUEscapes
					}
				}
			case '&':
				if isEntity(text[i:]) {
					if entities++; entities >= 3 {
						bits |= markEntities
					}
				}
			case '<':
				// A tag between two letters splits a word or two
				// (Ignore<br>all): two of them call for the tags to go.
				if tagBetweenLetters(text, i) {
					if tags++; tags >= 2 {
						bits |= markEntities
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
		// idx.table.findAt(text, i, j), its common case written out:
		// the call cost the scan more than the lookup (every word is
		// looked up; TestScanLooksUpEveryWord holds the two to the same
		// answers).
		var e *wordEntry
		if n := j - i; n <= maxShortWord && i+8 <= len(text) {
			key := binary.LittleEndian.Uint64([]byte(text[i:i+8])) & keyMasks[n]
			if hash := keyHash(key); idx.table.mayHold(hash) {
				e = idx.table.findShort(key, hash)
			}
		} else {
			e = idx.table.findAt(text, i, j)
		}
		if e != nil {
			next := nextWord{id: -2}
			noFollower := false
			if e.follow != nil && !s.allCands {
				next = s.nextAt(text, j, &lf)
				noFollower = e.follow.noneAt(text, i, j, next)
			}
			for _, pi := range e.patterns {
				p := &patterns[pi]
				if p.lineStart && !atLineStart(text, i) {
					continue
				}
				// A start word whose pattern wants one of a few words
				// after it is, most of the time, followed by none: it
				// is no candidate. One followed is marked so, and
				// match does not compare again.
				cp := pi
				if p.followBy != nil && !s.allCands {
					if noFollower {
						continue
					}
					if next.id == -2 {
						next = s.nextAt(text, j, &lf)
					}
					switch p.followedAt(text, i, j, next) {
					case followNo:
						continue
					case followYes:
						cp |= followsMet
					}
				}
				s.addCand(candidate{cp, i})
			}
			if e.need >= 0 {
				if len(s.needPos[e.need]) == 0 {
					s.needUsed = append(s.needUsed, e.need)
				}
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
						s.addCand(candidate{ps.pattern, p})
					}
				}
				p += size
			}
		}
		if last := len(word) - 1; last > 0 && idx.suffixPen[word[last]][word[last-1]>>6]&(1<<(word[last-1]&63)) != 0 {
			for _, sf := range idx.suffixes[word[last]] {
				if len(word) > len(sf.start) && strings.HasSuffix(word, sf.start) {
					s.addCand(candidate{sf.pattern, j - len(sf.start)})
				}
			}
		}
		if withMarks {
			// Leet needs letters and digits in the word (or leet
			// punctuation next to it, below); letters set apart need a
			// single letter and a separator after it.
			if !mayFold && (high && highMayFold(word) || class&(wcDigit|wcLetter) == wcDigit|wcLetter && s.leetMayFold(text, i, j, high) ||
				(j-i == 1 && j+2 < len(text) && spacedSep[text[j]] && spacedMayStart(text, j) || class&wcInner != 0) && spacedMayFold(text, i)) {
				mayFold = true
				s.foldAt = append(s.foldAt, lineStart)
			}
			if n := j - i; n == 2 && isHexByte(word[0]) && isHexByte(word[1]) ||
				n == 4 && word[0] == '0' && word[1] == 'x' && isHexByte(word[2]) && isHexByte(word[3]) {
				if hex++; hex >= minHexWords {
					bits |= markHexWords
				}
			}
			if class&(wcDigit|wcLetter) == wcDigit {
				switch n := j - i; {
				case (n == 7 || n == 8) && binaryWord(word):
					if bins++; bins >= minBinWords {
						bits |= markBinWords
					}
				case n == 2 || n == 3:
					if decs++; decs >= minDecWords {
						bits |= markDecWords
					}
				}
			}
			// mayMakeWord(tail, word), with what the scan knows: whether
			// either word has a byte above ASCII.
			if bits&markCut == 0 && i > 0 && isQuote(text[i-1]) && tail != "" &&
				(tailHigh || high || splitShapes.may(len(tail)+len(word), tail[0], word[len(word)-1])) && cutMakesWord(tail, word) {
				bits |= markCut
			}
			if j < len(text) && isQuote(text[j]) && !isKey(text, j) {
				tail, tailHigh = word, high
			}
		}
		i = j - 1
	}
	if withMarks {
		endLine()
	}
}

// spacedMayStart is a quick test before spacedMayFold for the scan's word
// of one letter or digit, text[j-1], and a separator after it: false only
// when spacedMayFold is. spacedMayFold reads on past the separator only
// through - ' and bytes above ASCII; else its answer is whether three
// letters set apart start at j-1, which wants a letter or leet character
// after the separator. Code's single letters (i := 0, x, y) have none
// (TestSpacedMayStartTurnsAwayNoFold, D1252).
func spacedMayStart(text string, j int) bool {
	d := text[j]
	if d == '-' || d == '\'' || d >= utf8.RuneSelf {
		return true
	}
	k := lookClass[text[j+1]]
	return k == lookLetter || k == lookLeet
}

// leetMayFold is leetMayFold(text, i, j) for the scan's word text[i:j],
// remembered for a word of up to 16 bytes below ASCII with no leet
// punctuation on either side: then leetMayFold reads that word's bytes and
// nothing else, and its answer is the word's. Words with digits and
// letters are most of code's (int64, utf8, x86: 1.4 million a 40 MB, 47
// thousand of them different, all but 16 answered no), and a slot asked
// costs less than the walk (TestScanLeetSlotsAgree, D1250).
func (s *scanner) leetMayFold(text string, i, j int, high bool) bool {
	n := j - i
	if high || n > 16 || i+16 > len(text) || i > 0 && lookClass[text[i-1]] != lookOther || j < len(text) && lookClass[text[j]] != lookOther {
		return leetMayFold(text, i, j)
	}
	k0, k1 := load8(text, i), load8(text, i+8)
	if n < 8 {
		k0, k1 = k0&keyMasks[n], 0
	} else {
		k1 &= keyMasks[n-8] // keyMasks[0] is 0
	}
	// The bytes of a word are none of them zero: its key (k0, k1) is
	// the word's alone, and an empty slot's holds none.
	e := &s.leet[(k0*0x9e3779b97f4a7c15^k1*0xc2b2ae3d27d4eb4f)>>(64-leetBits)]
	if e.k0 == k0 && e.k1 == k1 {
		return e.may
	}
	may := leetMayFold(text, i, j)
	*e = leetEntry{k0, k1, may}
	return may
}

const (
	leetBits  = 10
	leetSlots = 1 << leetBits
)

type leetEntry struct {
	k0, k1 uint64
	may    bool
}

// candBytes is about how many bytes of source code give a candidate (one
// in 13 on the Go distribution's): read makes room for that many at
// once.
const candBytes = 16

// addCand notes a candidate. The list doubles when it is full: append
// grows a long list by a quarter, and a megabyte of source had its
// candidates copied some twenty times as they grew.
func (s *scanner) addCand(c candidate) {
	if len(s.cands) == cap(s.cands) {
		s.cands = slices.Grow(s.cands, max(len(s.cands), 64))
	}
	s.cands = append(s.cands, c)
}

// nextAt is the word after the start word that ends at j (nextWord)
// with its lf: lf is the first line feed at or after the last start word
// asked about, which holds for j too unless it is before j.
func (s *scanner) nextAt(text string, j int, lf *int) nextWord {
	if *lf < j {
		if *lf = strings.IndexByte(text[j:], '\n'); *lf < 0 {
			*lf = len(text)
		} else {
			*lf += j
		}
	}
	next := s.rules.starts.nextWord(text, j)
	next.lf = *lf
	return next
}

// nextWord is the word after the one that ends at j, when a space
// follows it.
func (idx *startIndex) nextWord(text string, j int) nextWord {
	if j+1 >= len(text) || text[j] != ' ' {
		return nextWord{id: -1, end: j}
	}
	k := j + 1
	for k < len(text) && isWordByte(text[k]) {
		k++
	}
	if k == j+1 {
		return nextWord{id: -1, end: k}
	}
	if e := idx.followWords.findAt(text, j+1, k); e != nil {
		return nextWord{id: e.need, end: k}
	}
	return nextWord{id: -1, end: k}
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
	again.allCands = true
	defer func() {
		again.allCands = false
		putScanner(again)
	}()
	cands := s.spareCands[:0]
	if cap(cands) < len(s.cands) {
		// About as many as before folding: room once, not grown.
		cands = make([]candidate, 0, len(s.cands)+len(s.cands)/4)
	}
	ci := 0
	needFrom := s.needFrom
	newNeeds := s.spareNeeds
	for id := range newNeeds {
		needFrom[id] = 0
		newNeeds[id] = newNeeds[id][:0]
	}
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
	}
	s.needPos, s.spareNeeds = newNeeds, s.needPos
	s.needUsed = s.needUsed[:0]
	for id, ps := range s.needPos {
		if len(ps) > 0 {
			s.needUsed = append(s.needUsed, id)
		}
	}
	s.cands, s.spareCands = cands, s.cands
	s.marks = append(marks, s.marks[mi:]...)
	return out, moved
}

// match runs the patterns whose candidates start in [from, to), and
// returns the rules that fire. It decides as matchReference (a test) does,
// the plain reading of a pattern's tests, with shortcuts: the positions of
// needed words and substrings are walked by cursors, as the candidates
// come in order, and an expression is run for its submatches only when it
// matches.
func (s *scanner) match(text string, from, to int) hits {
	idx, patterns := &s.rules.starts, s.rules.patterns
	var first hits
	for g := range s.groupPos {
		s.groupPos[g] = s.groupPos[g][:0]
		s.groupBuilt[g] = false
		s.groupNext[g] = 0
	}
	clear(s.needNext)
	s.matchNo++
	s.highAsked, s.highAt = len(text)+1, 0
	for _, cd := range s.cands {
		pi := cd.pattern &^ followsMet
		p := &patterns[pi]
		if first.has(p.ruleID) || cd.at < from || cd.at >= to {
			continue
		}
		k := cd.at
		end := min(len(text), k+p.span)
		window := text[k:end]
		if p.follows != nil && cd.pattern&followsMet == 0 && !p.followMet(window) {
			continue
		}
		if ids, subs := idx.needWords[pi], idx.needSubs[pi]; ids != nil || subs != nil {
			needEnd := end
			if p.needsWithin > 0 {
				needEnd = min(end, k+p.needsWithin)
			}
			if p.needsUntil != 0 {
				if j := strings.IndexByte(text[k:needEnd], p.needsUntil); j >= 0 {
					needEnd = k + j
				}
			}
			if !(ids != nil && s.groupWithin(idx.needGroup[pi], ids, k, needEnd)) && !(subs != nil && s.subsWithin(text, subs, k, needEnd)) {
				continue
			}
		}
		re := p.re.get()
		if !re.MatchString(window) {
			if !matchCarried(p, text, k, window) {
				continue
			}
		} else if p.check != nil && !p.check(text[checkFrom(text, k, p):k], window, re.FindStringSubmatchIndex(window)) && !matchCarried(p, text, k, window) {
			continue
		}
		first.add(p.ruleID, k)
	}
	return first
}

// subsWithin reports whether one of the needed substrings subs occurs
// whole within [from, to) of text. It answers for that range only, as the
// plain reading does, but remembers for each substring the range it last
// looked in and what it found there: the first occurrence whole within
// it, or none. Patterns that need the same substrings at the same place
// (a language's patterns, the same stems) then look once, and the next
// candidate's window, which overlaps the last one, is looked in only past
// its end.
func (s *scanner) subsWithin(text string, subs []int, from, to int) bool {
	asked := false // whether the range has a byte above ASCII, asked once
	for _, id := range subs {
		sub := s.rules.starts.subs[id]
		if !asked && s.rules.starts.subHigh[id] {
			// A substring above ASCII needs a byte above ASCII in the
			// range: most windows of code and English have none, and
			// the substrings above ASCII come last (indexStarts).
			if s.highFrom(text, from) >= to {
				return false
			}
			asked = true
		}
		look := from
		if s.subMatch[id] == s.matchNo && s.subFrom[id] <= from {
			if at := s.subAt[id]; at >= from {
				if at+len(sub) <= to {
					return true
				}
				continue
			} else if at < 0 {
				if to <= s.subTo[id] {
					continue
				}
				// None lies whole within the range looked in last,
				// which starts at or before from: one within [from,
				// to) ends past its end. A window that moved on is
				// looked in only where it grew.
				look = max(from, s.subTo[id]-len(sub)+1)
			}
		}
		at := indexAt(text[look:to], sub, s.rules.starts.subRare[id])
		if at >= 0 {
			at += look
		}
		s.subFrom[id], s.subTo[id], s.subAt[id], s.subMatch[id] = from, to, at, s.matchNo
		if at >= 0 {
			return true
		}
	}
	return false
}

// highFrom is the offset of the first byte above ASCII at or after from
// in text, or len(text). It remembers the last answer (highAt, asked from
// highAsked), which holds for every from up to it.
func (s *scanner) highFrom(text string, from int) int {
	if s.highAsked <= from && from <= s.highAt {
		return s.highAt
	}
	i := from
	for ; i+8 <= len(text); i += 8 {
		if binary.LittleEndian.Uint64([]byte(text[i:i+8]))&0x8080808080808080 != 0 {
			break
		}
	}
	for i < len(text) && text[i] < utf8.RuneSelf {
		i++
	}
	s.highAsked, s.highAt = from, i
	return i
}

// checkFrom is where the text a pattern's check reads before its match at
// k starts: lookBack bytes before it (at a character's start), or
// lineBefore.
func checkFrom(text string, k int, p *flagPattern) int {
	if p.lookBack > 0 {
		s := max(0, k-p.lookBack)
		for s < k && !utf8.RuneStart(text[s]) {
			s++
		}
		return s
	}
	return lineBefore(text, k, p.prevLine)
}

// lineBefore is where the line holding k starts, or with prev the line
// before it.
func lineBefore(text string, k int, prev bool) int {
	j := strings.LastIndexByte(text[:k], '\n')
	if prev && j > 0 {
		j = strings.LastIndexByte(text[:j], '\n')
	}
	return j + 1
}

// minHexWords is the fewest two-digit hex words in a line that the spaced
// hex decoder reads (twelve bytes: a short instruction).
const minHexWords = 12

// groupWithin reports whether one of the words ids, which are the needed
// words of the group g, occurs at an offset in [from, to). The positions of
// a group's words are merged into one sorted list the first time a
// candidate asks (one list to walk instead of one a word: some patterns
// need forty words).
func (s *scanner) groupWithin(g int, ids []int, from, to int) bool {
	if len(ids) < 4 {
		for _, id := range ids {
			if withinFrom(s.needPos[id], &s.needNext[id], from, to) {
				return true
			}
		}
		return false
	}
	if !s.groupBuilt[g] {
		s.groupBuilt[g] = true
		s.groupPos[g] = s.mergeNeeds(s.groupPos[g][:0], ids)
	}
	return withinFrom(s.groupPos[g], &s.groupNext[g], from, to)
}

// mergeNeeds appends to merged the positions of the needed words ids, in
// order. Each word's list is in order already: the lists are merged two
// by two, a round at a time (sorting them joined cost the scan 2 %;
// D1252).
func (s *scanner) mergeNeeds(merged []int, ids []int) []int {
	runs := s.mergeRuns[:0]
	for _, id := range ids {
		if ps := s.needPos[id]; len(ps) > 0 {
			runs = append(runs, ps)
		}
	}
	for len(runs) > 2 {
		// Merge pairs into the spare buffer, then the next round reads
		// it: buf holds every run of this round, back to back.
		buf := s.mergeBuf[:0]
		next := s.mergeNext[:0]
		for k := 0; k < len(runs); k += 2 {
			start := len(buf)
			if k+1 < len(runs) {
				buf = mergeTwo(buf, runs[k], runs[k+1])
			} else {
				buf = append(buf, runs[k]...)
			}
			next = append(next, buf[start:len(buf):len(buf)])
		}
		// The runs of next point into buf; the buffers change places so
		// that the next round writes where this one read.
		s.mergeBuf, s.mergeSpare = s.mergeSpare, buf
		s.mergeNext, s.mergeRuns = runs[:0], next
		runs = next
	}
	s.mergeRuns = runs[:0]
	switch len(runs) {
	case 1:
		return append(merged, runs[0]...)
	case 2:
		return mergeTwo(merged, runs[0], runs[1])
	}
	return merged
}

// mergeTwo appends the ordered lists a and b to out, in order.
func mergeTwo(out, a, b []int) []int {
	for len(a) > 0 && len(b) > 0 {
		if a[0] <= b[0] {
			out = append(out, a[0])
			a = a[1:]
		} else {
			out = append(out, b[0])
			b = b[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}

// withinFrom reports whether one of the sorted positions ps is in [from,
// to). next is a cursor into ps, the first position at or after the from
// asked before; it moves forward as from grows, and a from before the
// last one asked (a candidate out of order) is searched for.
func withinFrom(ps []int, next *int, from, to int) bool {
	n := *next
	if n > 0 && ps[n-1] >= from {
		n = sort.SearchInts(ps, from)
	} else {
		for n < len(ps) && ps[n] < from {
			n++
		}
	}
	*next = n
	return n < len(ps) && ps[n] < to
}
