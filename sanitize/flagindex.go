package sanitize

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

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
	if len(flagPatterns) >= followsMet {
		panic("sanitize: more flag patterns than a candidate holds")
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
	idx.needSubs = make([][]int, len(flagPatterns))
	subIDs := map[string]int{}
	idx.nonWord = nonWordKind
	needID := func(w string) *wordEntry {
		e := entry(w)
		if e.need < 0 {
			e.need = len(idx.needIDs)
			idx.needIDs[w] = e.need
		}
		return e
	}
	// The followers that are one word each, numbered: the scan looks the
	// word after a start up once, and each pattern asks whether its
	// number is among its followers'.
	followIDs := map[string]int{}
	for pi := range flagPatterns {
		for _, w := range flagPatterns[pi].follows {
			if _, ok := followIDs[w]; !ok && isWordOnly(w) {
				followIDs[w] = len(followIDs)
			}
		}
	}
	followWords := map[string]*wordEntry{}
	for w, id := range followIDs {
		followWords[w] = &wordEntry{word: w, need: id}
	}
	idx.followWords = newWordTable(followWords)
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
				if len(s) == 1 {
					idx.suffixPen[last] = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
				} else {
					pen := s[len(s)-2]
					idx.suffixPen[last][pen>>6] |= 1 << (pen & 63)
				}
			}
		}
		for _, w := range p.needs {
			idx.needWords[pi] = append(idx.needWords[pi], needID(w).need)
		}
		for _, sub := range p.needSubs {
			id, ok := subIDs[sub]
			if !ok {
				id = len(idx.subs)
				subIDs[sub] = id
				idx.subs = append(idx.subs, sub)
				idx.subHigh = append(idx.subHigh, !isASCII(sub))
				idx.subRare = append(idx.subRare, rarestByte(sub))
			}
			idx.needSubs[pi] = append(idx.needSubs[pi], id)
		}
		// The substrings above ASCII last: a window with no byte above
		// ASCII (most of code and English) skips them all at once.
		sort.SliceStable(idx.needSubs[pi], func(a, b int) bool {
			return !idx.subHigh[idx.needSubs[pi][a]] && idx.subHigh[idx.needSubs[pi][b]]
		})
		p.followBy = nil
		if p.follows != nil {
			p.followBy = newFollowTable(p.follows, followIDs)
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
			switch {
			case len(p.start) > 1:
				idx.punctNext[c][p.start[1]>>6] |= 1 << (p.start[1] & 63)
			case !flagPatterns[p.pattern].lineStart:
				idx.punctOne[c] = punctAlone
			case idx.punctOne[c] == 0:
				idx.punctOne[c] = punctLineStart
			}
		}
		if lineOnly {
			idx.nonWord[c] |= nwLineOnly
		}
	}
	for _, e := range words {
		e.follow = entryFollowOf(flagPatterns, e.patterns)
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
	// follow is what its patterns with followers want after it, when
	// the scan can tell for all of them at once (entryFollow.noneAt).
	follow *entryFollow
}

// entryFollow is the followers of a start word's patterns that have
// followers (flagPattern.follows), when each of them is one word of word
// bytes: ids, their numbers among the followers (startIndex.followWords);
// longest, the longest of them; minSpan, the shortest of the patterns'
// spans. Most start words are followed by no follower of any of their
// patterns (a start word of forty patterns, thirty of them with
// followers), and the scan tells so once, not once a pattern.
type entryFollow struct {
	ids              []uint64
	longest, minSpan int
}

// entryFollowOf is the entryFollow of the patterns, or nil when none has
// followers or one has a follower that is not one word of word bytes (an
// empty one, one with a space).
func entryFollowOf(flagPatterns []flagPattern, patterns []int) *entryFollow {
	var f *entryFollow
	for _, pi := range patterns {
		t := flagPatterns[pi].followBy
		if t == nil {
			continue
		}
		if t.empty || len(t.others) > 0 {
			return nil
		}
		if f == nil {
			f = &entryFollow{minSpan: flagPatterns[pi].span}
		}
		for len(f.ids) < len(t.ids) {
			f.ids = append(f.ids, 0)
		}
		for k, bits := range t.ids {
			f.ids[k] |= bits
		}
		f.longest = max(f.longest, t.longest)
		f.minSpan = min(f.minSpan, flagPatterns[pi].span)
	}
	return f
}

// noneAt reports whether the start word text[i:j], with next the word
// after it (its lf set), is followed by a follower of none of its
// patterns, as each pattern's followedAt would answer followNo: nothing
// it compares reaches the next line, and either no space follows the
// word, or the next word ends inside every pattern's window and is no
// follower of any of them.
func (f *entryFollow) noneAt(text string, i, j int, next nextWord) bool {
	if next.lf < j+2+f.longest {
		return false
	}
	if j >= len(text) || text[j] != ' ' {
		return true
	}
	if next.end > i+f.minSpan {
		return false
	}
	return next.id < 0 || next.id >= len(f.ids)*64 || f.ids[next.id>>6]&(1<<(next.id&63)) == 0
}

// wordTable finds a word's entry: open addressing, at most one entry in
// eight slots, so that a word that is in no pattern (most words) costs a
// hash and a look at one empty slot. A word of eight bytes or fewer (nine
// words in ten of source code and English) is found by its bytes packed in
// a uint64 (wordKey): one load from the text, a multiply for the hash, and
// one comparison of the key instead of a comparison of strings; a longer
// one by wordHash and its string.
type wordTable struct {
	// bloom has two bits for each word's hash (from its low and its high
	// half): most words of a text are in no table, and this answers for
	// them from a small array. With some 2,500 words, one bit let about 4 %
	// of the other words through to a probe of slots; two let 0.6 %.
	bloom [1 << 10]uint64
	// shortKeys hold the short words' keys (0 is an empty slot: no word
	// byte is 0), shortAt their index in entries.
	shortKeys []uint64
	shortAt   []uint32
	shortMask uint32
	// slots hold a long word's hash in the high half and its index in
	// entries plus one in the low half; 0 is an empty slot. A probe
	// compares the hashes before it compares words.
	slots   []uint64
	entries []wordEntry
	mask    uint32
}

// maxShortWord is the longest word wordTable finds by its key.
const maxShortWord = 8

func newWordTable(words map[string]*wordEntry) wordTable {
	short := 0
	for w := range words {
		if len(w) <= maxShortWord {
			short++
		}
	}
	size := func(n int) int {
		size := 1
		for size < 8*n {
			size *= 2
		}
		return size
	}
	nShort, nLong := size(short), size(len(words)-short)
	t := wordTable{shortKeys: make([]uint64, nShort), shortAt: make([]uint32, nShort), shortMask: uint32(nShort - 1),
		slots: make([]uint64, nLong), mask: uint32(nLong - 1)}
	names := make([]string, 0, len(words))
	for w := range words {
		names = append(names, w)
	}
	sort.Strings(names)
	for _, w := range names {
		if w == "" {
			panic("sanitize: an empty word in a word table")
		}
		var hash uint32
		if len(w) <= maxShortWord {
			key := wordKey(w, 0, len(w))
			hash = keyHash(key)
			h := hash & t.shortMask
			for t.shortKeys[h] != 0 {
				h = (h + 1) & t.shortMask
			}
			t.shortKeys[h], t.shortAt[h] = key, uint32(len(t.entries))
		} else {
			hash = wordHash(w)
			h := hash & t.mask
			for t.slots[h] != 0 {
				h = (h + 1) & t.mask
			}
			t.slots[h] = uint64(hash)<<32 | uint64(len(t.entries)+1)
		}
		t.bloom[hash>>6&(1<<10-1)] |= 1 << (hash & 63)
		t.bloom[hash>>16&(1<<10-1)] |= 1 << (hash >> 26)
		t.entries = append(t.entries, *words[w])
	}
	return t
}

// find is the entry of the word w, or nil.
func (t *wordTable) find(w string) *wordEntry { return t.findAt(w, 0, len(w)) }

// findAt is the entry of the word text[i:j] (j > i, no byte 0: a word
// of the scan), or nil.
func (t *wordTable) findAt(text string, i, j int) *wordEntry {
	if n := j - i; n <= maxShortWord {
		// wordKey, written out: it does not inline.
		var key uint64
		if i+8 <= len(text) {
			key = binary.LittleEndian.Uint64([]byte(text[i:i+8])) & keyMasks[n&15]
		} else {
			key = wordKeyAtEnd(text, i, j)
		}
		if hash := keyHash(key); t.mayHold(hash) {
			return t.findShort(key, hash)
		}
		return nil
	}
	return t.findLong(text[i:j])
}

// findShort is the entry of the short word of this key and hash, or nil.
func (t *wordTable) findShort(key uint64, hash uint32) *wordEntry {
	for h := hash & t.shortMask; ; h = (h + 1) & t.shortMask {
		k := t.shortKeys[h]
		if k == key {
			return &t.entries[t.shortAt[h]]
		}
		if k == 0 {
			return nil
		}
	}
}

// findLong is the entry of the word w, longer than maxShortWord, or nil.
func (t *wordTable) findLong(w string) *wordEntry {
	hash := wordHash(w)
	if !t.mayHold(hash) {
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

// mayHold reports whether the bloom filter lets a word of this hash
// through to the slots.
func (t *wordTable) mayHold(hash uint32) bool {
	return t.bloom[hash>>6&(1<<10-1)]&(1<<(hash&63)) != 0 && t.bloom[hash>>16&(1<<10-1)]&(1<<(hash>>26)) != 0
}

// wordKey is the word text[i:j], of one to eight bytes, packed
// little-endian in a uint64 with zeros above: one load when eight bytes
// of text follow i. Two words have the same key only if they are the same
// (no word byte is 0).
func wordKey(text string, i, j int) uint64 {
	if i+8 <= len(text) {
		return binary.LittleEndian.Uint64([]byte(text[i:i+8])) & keyMasks[(j-i)&15]
	}
	return wordKeyAtEnd(text, i, j)
}

// wordKeyAtEnd is wordKey where fewer than eight bytes follow i (kept
// out of line, so that wordKey inlines).
//
//go:noinline
func wordKeyAtEnd(text string, i, j int) uint64 {
	var k uint64
	for p := j - 1; p >= i; p-- {
		k = k<<8 | uint64(text[p])
	}
	return k
}

// keyMasks keep the first n bytes of eight (n up to eight).
var keyMasks = func() (m [16]uint64) {
	for n := 1; n <= maxShortWord; n++ {
		m[n] = uint64(1)<<(8*n) - 1
	}
	return m
}()

// keyHash is wordTable's hash of a short word's key.
func keyHash(key uint64) uint32 {
	h := key * 0x9e3779b97f4a7c15
	return uint32(h >> 32)
}

// isWordOnly reports whether s is one or more word bytes and nothing else.
func isWordOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) {
			return false
		}
	}
	return s != ""
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
	table wordTable
	// followWords holds the followers (flagPattern.follows) that are one
	// word of word bytes, each with its number as its need.
	followWords wordTable
	needIDs     map[string]int
	needWords   [][]int
	// subs are the substrings patterns need, each once; needSubs are, for
	// each pattern, its needed substrings' indices there, those of ASCII
	// first (the scanner keeps where each last occurred:
	// scanner.subsWithin).
	subs     []string
	subHigh  []bool // the substring has a byte above ASCII
	subRare  []int  // where the substring's rarest byte is (indexAt)
	needSubs [][]int
	// needGroup is, for each pattern, the group of its needed words
	// (patterns that need the same words share one); groups is how many.
	needGroup []int
	groups    int
	suffixes  [256][]patternStart // by last byte
	// suffixPen has, for each last byte, a bit for the byte before it in
	// each of suffixes (all bits for a start of one byte): most words'
	// last two bytes end no start.
	suffixPen [256][4]uint64
	punct     [256][]patternStart
	// punctNext has, for each first byte of punct's starts, a bit for the
	// second byte of each of its starts of two bytes or more; punctOne
	// tells whether it has a start of one byte (punctAlone: one that need
	// not start a line). A byte followed by none of those second bytes
	// starts none of its longer starts ("[" and "!" of code, "![", "[inst]").
	punctNext [256][4]uint64
	punctOne  [256]uint8
	// nonWord is nonWordKind, with nwPunct for the bytes that start a
	// pattern.
	nonWord [256]uint8
	// runes are the starts above ASCII, by their first character: they
	// are looked for at every character of a word that is not ASCII.
	runes map[rune][]patternStart
}

// punctOne's values.
const (
	punctLineStart = 1 + iota // a start of one byte, of patterns that want a line's start
	punctAlone                // a start of one byte that need not start a line
)

// punctMay reports whether one of the punctuation starts that begin with
// text[i] may start there: one of one byte (at a line's start, if it
// wants one), or a longer one whose second byte follows. It is what the
// scan asks before comparing the starts one by one (the comparisons
// decide; this only turns away bytes that start none; D1252).
func (idx *startIndex) punctMay(text string, i int) bool {
	c := text[i]
	switch idx.punctOne[c] {
	case punctAlone:
		return true
	case punctLineStart:
		if atLineStart(text, i) {
			return true
		}
	}
	if i+1 >= len(text) {
		return false
	}
	d := text[i+1]
	return idx.punctNext[c][d>>6]&(1<<(d&63)) != 0
}

// wordHash is wordTable's hash of a long word: its length, its first two
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

// byteRarity ranks bytes by how often they occur in source code and
// English, lower for commoner ones (letters by English frequency; white
// space and the commonest punctuation first; bytes above ASCII last but
// one: a substring of another script is searched by its first byte).
var byteRarity = func() (t [256]uint8) {
	for c := range 256 {
		t[c] = 200
	}
	for i, c := range []byte(" \netaoinsrhldcu\t.,()_=\"pmfgywb:;v-k/*{}0x1jqz") {
		t[c] = uint8(i)
	}
	return t
}()

// rarestByte is the offset of the byte of sub that occurs least often in
// text (byteRarity); the first byte of a substring above ASCII.
func rarestByte(sub string) int {
	if !isASCII(sub) {
		return 0
	}
	at := 0
	for i := 1; i < len(sub); i++ {
		if byteRarity[sub[i]] > byteRarity[sub[at]] {
			at = i
		}
	}
	return at
}

// indexAt is strings.Index(s, sub), finding sub by its byte at offset
// rare: the byte search skips most of a text of source code, where the
// first bytes of "passw" or "approved" occur at every few bytes.
func indexAt(s, sub string, rare int) int {
	if rare == 0 || len(sub) > len(s) {
		return strings.Index(s, sub)
	}
	c := sub[rare]
	for from := rare; from <= len(s)-len(sub)+rare; {
		j := strings.IndexByte(s[from:len(s)-len(sub)+rare+1], c)
		if j < 0 {
			return -1
		}
		start := from + j - rare
		if s[start:start+len(sub)] == sub {
			return start
		}
		from += j + 1
	}
	return -1
}
