package sanitize

import (
	"regexp"
	"sort"
	"strings"
	"sync"
)

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
	needsUntil byte
	// needsWithin, when set, is how far after the start (in bytes) a
	// needed word must start.
	needsWithin int
	// follows, when set, are the words one of which must follow the
	// start word (after one space): a cheap test for patterns whose start
	// is a common word ("root" in "root access granted").
	follows []string
	// followBy is follows by their first byte (set by indexStarts): most
	// windows' second word starts with none of them, and the rest are
	// compared with the few that start as it does.
	followBy *followTable
	// span is the longest match in bytes: the window's length.
	span int
	re   *lazyRegexp
	// carried: the pattern is read again across a carrier's lines when
	// its expression fails (carrier.go).
	carried bool
	// check, when set, must accept the match: before is the normalised
	// line up to the match, window the text the expression ran on.
	check func(before, window string, match []int) bool
	// prevLine gives check the line before the match's too (a block
	// opened there: "if ok:").
	prevLine bool
	// lookBack, when set, gives check the lookBack bytes before the match
	// instead (from a character's start), across lines: the sentence
	// before the match's, a made-up exchange's turns (D1163).
	lookBack int
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
	return p
}

// needingSubstrings is needing, the strings looked for inside words (stems,
// and words of scripts written without spaces).
func (p flagPattern) needingSubstrings(s ...string) flagPattern {
	p.needSubs = append(p.needSubs, s...)
	return p
}

// needsUntilByte is needingBefore for the needs already set.
func (p flagPattern) needsUntilByte(until byte) flagPattern { p.needsUntil = until; return p }

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
	return p.followBy.met(window[i+1:])
}

// followedAt tells whether the start word text[i:j] of a whole text,
// whose window is text[i:i+span], is followed by one of p.follows: what
// the scan can tell as it reads the word. It cannot (followUnknown) when
// what it would compare reaches the next line (folding look-alikes may
// change that line before match reads it). next is the word after the
// start (nextWord), with its lf set.
func (p *flagPattern) followedAt(text string, i, j int, next nextWord) followAnswer {
	end := min(len(text), i+p.span)
	t := p.followBy
	if j >= end {
		return followNo
	}
	if next.lf < min(end, j+2+t.longest) {
		return followUnknown
	}
	if text[j] != ' ' {
		return followNo
	}
	if next.end > end {
		// The window ends inside the next word: compare as met does.
		return followAnswerOf(t.met(text[j+1 : end]))
	}
	rest := text[j+1 : end]
	if len(rest) == 0 {
		return followAnswerOf(t.empty)
	}
	if t.empty && !isWordByte(rest[0]) {
		return followYes
	}
	// A follower of word bytes only is met when it is the next word
	// whole: the bytes before the first that is no word byte.
	if next.id >= 0 && next.id < len(t.ids)*64 && t.ids[next.id>>6]&(1<<(next.id&63)) != 0 {
		return followYes
	}
	for _, w := range t.others {
		if strings.HasPrefix(rest, w) && (len(rest) == len(w) || !isWordByte(rest[len(w)])) {
			return followYes
		}
	}
	return followNo
}

// followAnswer is what the scan knows of a start's followers.
type followAnswer uint8

const (
	followNo followAnswer = iota
	followYes
	followUnknown
)

func followAnswerOf(met bool) followAnswer {
	if met {
		return followYes
	}
	return followNo
}

// nextWord is the word after a start word and a space: where it ends (at
// the first byte that is no word byte) and its number among the
// followers (startIndex.followWords), or -1; and lf, the first line feed
// at or after the start word's end (len(text): none).
type nextWord struct{ id, end, lf int }

// followTable holds a pattern's follows sorted by their first byte, with
// where each first byte's run starts (from), and whether one of them is
// empty (met by any word boundary); the scan asks ids, the numbers of the
// follows of word bytes only, and others, the rest. With forty follows,
// comparing each with the next word was most of the time the scan spent
// on them.
type followTable struct {
	words   []string
	from    [257]uint16
	empty   bool
	longest int
	ids     []uint64
	others  []string
}

func newFollowTable(follows []string, ids map[string]int) *followTable {
	t := &followTable{}
	for _, w := range follows {
		if w == "" {
			t.empty = true
			continue
		}
		t.words = append(t.words, w)
		t.longest = max(t.longest, len(w))
		id, ok := ids[w]
		if !ok {
			t.others = append(t.others, w)
			continue
		}
		for len(t.ids) <= id>>6 {
			t.ids = append(t.ids, 0)
		}
		t.ids[id>>6] |= 1 << (id & 63)
	}
	if len(t.words) >= 1<<16 {
		panic("sanitize: too many follows for a pattern")
	}
	sort.SliceStable(t.words, func(a, b int) bool { return t.words[a][0] < t.words[b][0] })
	n := 0
	for c := range 257 {
		for n < len(t.words) && int(t.words[n][0]) < c {
			n++
		}
		t.from[c] = uint16(n)
	}
	return t
}

// met reports whether rest, the text after the start word and its
// space, begins with one of the follows ending at a word boundary.
func (t *followTable) met(rest string) bool {
	if len(rest) == 0 {
		return t.empty
	}
	c := rest[0]
	if t.empty && !isWordByte(c) {
		return true
	}
	for _, w := range t.words[t.from[c]:t.from[int(c)+1]] {
		if strings.HasPrefix(rest, w) && (len(rest) == len(w) || !isWordByte(rest[len(w)])) {
			return true
		}
	}
	return false
}

// carriedOver reads the pattern again across a carrier's lines when its
// expression fails (carrier.go).
func (p flagPattern) carriedOver() flagPattern { p.carried = true; return p }

func (p flagPattern) inWords() flagPattern          { p.inWord = true; return p }
func (p flagPattern) atLineStart() flagPattern      { p.lineStart = true; return p }
func (p flagPattern) withPreviousLine() flagPattern { p.prevLine = true; return p }
func (p flagPattern) checked(c func(string, string, []int) bool) flagPattern {
	p.check = c
	return p
}
