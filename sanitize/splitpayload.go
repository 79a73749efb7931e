package sanitize

import (
	"strings"
	"unicode/utf8"
)

// Split payloads. The string literals of a window of lines are joined,
// as code that assembles an instruction from pieces would join them
// (a="ign"; b="ore all ..."; run(a+b)), once end to end and once with a
// space between them (" ".join(parts)); an instruction that a rule finds
// in either, and not in the window's own text, is flag-split-payload, at
// the window's first literal.
//
// The window of a line is the line and up to splitLines lines before and
// after it, each at most splitReach bytes long and starting or ending
// within splitReach bytes of it (a longer line is a window of its own). So
// it depends on the text around it alone, and a chunk's contexts (at least
// refuseContext bytes each side) hold every window that reaches into the
// chunk. A line is read only when it holds a literal and either a literal
// of it starts with a word that, after the last word of the literal
// before, makes a word of the vocabulary (splitVocab: "ign" + "ore"), or
// a literal of it and one more literal of the window hold a key word
// (splitKeys, or a word above ASCII: the languages of the lexicons).
const (
	splitLines = 3
	splitReach = 300
)

// splitKeys are words a split instruction's pieces hold: the override
// verbs and the objects of the flag rules that code seldom puts in a
// string.
var splitKeys = []string{
	"ignore", "disregard", "forget", "overlook", "bypass", "override", "disobey", "circumvent", "pretend",
	"reveal", "jailbreak", "jailbroken", "unrestricted", "unfiltered", "uncensored", "instructions",
	"instruction", "prompt", "guidelines", "directives", "guardrails", "conversation", "credentials",
	"webhook", "exfiltrate",
}

// mayMakeWord is the quick test of cutMakesWord: false only when the two
// words, both in ASCII, cannot make a word of splitVocab.
func mayMakeWord(tail, head string) bool {
	n := len(tail) + len(head)
	if tail[0] >= utf8.RuneSelf || head[len(head)-1] >= utf8.RuneSelf || !isASCII(tail) || !isASCII(head) {
		return true
	}
	return flagRules().splitShapes.may(n, tail[0], head[len(head)-1])
}

var splitKeySet = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range splitKeys {
		m[w] = true
	}
	return m
}()

// cutMakesWord reports whether the last word of one literal and the first
// of the next (both normalised) make a word of the vocabulary, or may
// (a word above ASCII: the lexicons of other languages are not cut into
// words here).
func cutMakesWord(tail, head string) bool {
	if !isASCII(tail) || !isASCII(head) {
		return true
	}
	var buf [40]byte
	if len(tail)+len(head) > len(buf) {
		return false
	}
	n := copy(buf[:], tail)
	n += copy(buf[n:], head)
	return flagRules().splitVocab[string(buf[:n])]
}

// literal is a string literal of a line: where its opening quote is, and
// what it holds.
type literal struct {
	at   int
	text string
	line int // the index of its line in the window
}

// isKey reports whether the literal that ends at line[j] (its closing
// quote) is the key of a map or an object: a colon follows it.
func isKey(line string, j int) bool {
	k := j + 1
	for k < len(line) && line[k] == ' ' {
		k++
	}
	return k < len(line) && line[k] == ':'
}

// lineLiterals appends the string literals of a line: text between two
// equal quote characters, a backslash escaping the next character.
func lineLiterals(out []literal, line string, at, index int) []literal {
	for i := 0; i < len(line); i++ {
		q := line[i]
		if !isQuote(q) {
			continue
		}
		j := i + 1
		for j < len(line) && line[j] != q {
			if line[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(line) {
			break
		}
		if !isKey(line, j) {
			// The keys of a map are not pieces of its values.
			out = append(out, literal{at + i, line[i+1 : j], index})
		}
		i = j
	}
	return out
}

// splitWindow reads the window of the line text[ts:te] (see splitLines).
func (f *findings) splitWindow(text string, ts, te int) {
	lo, hi := ts, te
	if te-ts <= splitReach {
		for n := 0; n < splitLines && lo > 0; n++ {
			ps := strings.LastIndexByte(text[:lo-1], '\n') + 1
			if lo-1-ps > splitReach || ts-ps > splitReach {
				break
			}
			lo = ps
		}
		for n := 0; n < splitLines && hi < len(text); n++ {
			ne := lineEnd(text, hi+1)
			if ne-(hi+1) > splitReach || ne-te > splitReach {
				break
			}
			hi = ne
		}
	}
	var lits []literal
	own := -1 // the index of text[ts:te] among the window's lines
	for ls, index := lo, 0; ls <= hi && ls < len(text); index++ {
		le := lineEnd(text[:hi], ls)
		if ls == ts {
			own = index
		}
		lits = lineLiterals(lits, text[ls:le], ls, index)
		ls = le + 1
	}
	if len(lits) < 2 || !splitTriggered(lits, own) {
		return
	}
	// Glued: end to end where a literal cuts a word the next ends ("ign"
	// + "ore"), with a space where two words would otherwise run into
	// each other ("parts" "send ..."); spaced: a space between every two.
	var glued, spaced strings.Builder
	for i, l := range lits {
		if i > 0 {
			prev := lits[i-1].text
			if tail, head := lastWord(prev), firstWord(l.text); tail != "" && head != "" && !cutMakesWord(tail, head) {
				glued.WriteByte(' ')
			}
			spaced.WriteByte(' ')
		}
		glued.WriteString(l.text)
		spaced.WriteString(l.text)
	}
	// What the window's own lines fire is read only when the joined text
	// fires a rule that could be new: most joined literals fire none.
	var had hits
	read := false
	for k, joined := range []string{glued.String(), spaced.String()} {
		if k == 1 && joined == glued.String() {
			// A space between every two: glued read it already.
			break
		}
		n := Normalise(joined)
		got := flagMatches(n, 0, len(n))
		if !got.anyBut(hits{}) {
			continue
		}
		if !read {
			whole := Normalise(text[lo:hi])
			had, read = flagMatches(whole, 0, len(whole)), true
		}
		if got.anyBut(had) {
			f.add(RuleFlagSplitPayload, lits[0].at)
			return
		}
	}
}

// splitTriggered reports whether the window's literals call for reading
// them joined: a literal of line own starts a word the literal before it
// ends (the two making a word of the vocabulary), or a literal of line own
// and another literal hold a key word.
func splitTriggered(lits []literal, own int) bool {
	keys, ownKey := 0, false
	for i, l := range lits {
		if l.line == own && i > 0 {
			if tail, head := lastWord(lits[i-1].text), firstWord(l.text); tail != "" && head != "" && cutMakesWord(tail, head) {
				return true
			}
		}
		if holdsKey(l.text) {
			keys++
			ownKey = ownKey || l.line == own
		}
	}
	return ownKey && keys >= 2
}

// lastWord and firstWord are the word a literal ends or starts with, in
// lower case, when it ends or starts with one.
func lastWord(s string) string {
	j := len(s)
	for j > 0 && literalWordByte(s[j-1]) {
		j--
	}
	return strings.ToLower(s[j:])
}

func firstWord(s string) string {
	j := 0
	for j < len(s) && literalWordByte(s[j]) {
		j++
	}
	return strings.ToLower(s[:j])
}

func literalWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= utf8.RuneSelf
}

// holdsKey reports whether a literal holds a key word, or a character
// above ASCII.
func holdsKey(s string) bool {
	for i := 0; i < len(s); {
		if !literalWordByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && literalWordByte(s[j]) {
			if s[j] >= utf8.RuneSelf {
				return true
			}
			j++
		}
		if j-i >= 6 && splitKeySet[strings.ToLower(s[i:j])] {
			return true
		}
		i = j
	}
	return false
}

// FlagsAcross applies the flag rules to several texts read as one (the
// entries of one memory write): it returns flag-split-payload, at the
// offset of the texts joined by line feeds, when the texts together make
// an instruction that no text alone does, and nil otherwise. Each text's
// own findings are Flags(text).
func FlagsAcross(texts []string) []Finding {
	if len(texts) < 2 {
		return nil
	}
	alone := map[string]bool{}
	for _, t := range texts {
		for _, f := range Flags(t) {
			alone[f.Rule] = true
		}
	}
	for _, f := range Flags(strings.Join(texts, "\n")) {
		if !alone[f.Rule] && f.Rule != RuleFlagHardcodedSecret {
			return []Finding{{Rule: RuleFlagSplitPayload, Reason: reason(RuleFlagSplitPayload), Offset: f.Offset}}
		}
	}
	return nil
}
