package sanitize

import (
	"bytes"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The refuse rules (docs/specs/sanitizer.md, 6.1). Each has a name, the
// reason the model is told, and a check. The character rules look at each
// code point with its neighbours, because ordinary writing uses several
// invisible characters in exactly one place; the secret rules are the
// shapes of gitleaks' rules (github.com/gitleaks/gitleaks, MIT), found by a
// keyword first so the regular expression runs only on a short window.

// Refuse rule names.
const (
	RuleInvalidUTF8 = "invalid-utf8"
	RuleControl     = "control"
	RuleInvisible   = "invisible"
	RuleBidi        = "bidi"
	RulePrivateUse  = "private-use"
	RuleNonchar     = "noncharacter"
	RuleTag         = "tag"

	RuleSecretGitHub     = "secret-github"
	RuleSecretGitLab     = "secret-gitlab"
	RuleSecretOpenAI     = "secret-openai"
	RuleSecretAnthropic  = "secret-anthropic"
	RuleSecretSlack      = "secret-slack"
	RuleSecretAWS        = "secret-aws"
	RuleSecretPrivateKey = "secret-private-key"
)

var refuseReasons = map[string]string{
	RuleInvalidUTF8:      "bytes that are not valid UTF-8",
	RuleControl:          "a control character",
	RuleInvisible:        "an invisible character",
	RuleBidi:             "a direction-changing character",
	RulePrivateUse:       "a private-use character",
	RuleNonchar:          "a Unicode noncharacter",
	RuleTag:              "one of the model's chat-template tags",
	RuleSecretGitHub:     "what looks like a GitHub token",
	RuleSecretGitLab:     "what looks like a GitLab token",
	RuleSecretOpenAI:     "what looks like an OpenAI API key",
	RuleSecretAnthropic:  "what looks like an Anthropic API key",
	RuleSecretSlack:      "what looks like a Slack token",
	RuleSecretAWS:        "what looks like an AWS access key id",
	RuleSecretPrivateKey: "what looks like a private key",
}

// Refusals applies the refuse rules (docs/specs/sanitizer.md 6.1) to text
// and returns each rule that fires, once, at its first offset, ordered by
// offset. It returns nil when none fires.
func Refusals(text string) []Finding {
	f := wholeOf(text)
	f.refuse(text)
	return f.sorted()
}

// refuse applies every refuse rule to text, keeping the findings in f's
// range.
func (f *findings) refuse(text string) {
	if f.characters(text) {
		// A secret split by an invisible character is still the secret
		// (whether or not the character is allowed where it stands).
		cleaned, at := removeInvisible(text)
		f.secrets(cleaned, at)
	}
	f.secrets(text, nil)
	f.tags(text)
}

// findings collects the first offset of each rule. Only offsets in
// [from, to) are kept: Check reads a chunk with some text on either side
// that other chunks own, and a rule may read that text, but only fires for
// the chunk's own part.
type findings struct {
	first    map[string]int
	from, to int
	// details, for a rule whose reason says more than its name (the
	// encoding of flag-encoded-instruction), the reason's words for its
	// first offset.
	details map[string]string
}

// wholeOf is the range of every offset of text.
func wholeOf(text string) findings { return findings{to: len(text) + 1} }

func (f *findings) add(rule string, offset int) { f.addDetail(rule, offset, "") }

// addDetail is add, with the reason told for this offset.
func (f *findings) addDetail(rule string, offset int, detail string) {
	if offset < f.from || offset >= f.to {
		return
	}
	if f.first == nil {
		f.first = map[string]int{}
	}
	if o, ok := f.first[rule]; !ok || offset < o {
		f.first[rule] = offset
		if detail != "" || f.details[rule] != "" {
			if f.details == nil {
				f.details = map[string]string{}
			}
			f.details[rule] = detail
		}
	}
}

// merge adds g's findings, their offsets moved by shift.
func (f *findings) merge(g *findings, shift int) {
	for rule, off := range g.first {
		f.addDetail(rule, off+shift, g.details[rule])
	}
}

func (f *findings) sorted() []Finding {
	if len(f.first) == 0 {
		return nil
	}
	out := make([]Finding, 0, len(f.first))
	for rule, off := range f.first {
		r := reason(rule)
		if d := f.details[rule]; d != "" {
			r = d
		}
		out = append(out, Finding{Rule: rule, Reason: r, Offset: off})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Offset != out[j].Offset {
			return out[i].Offset < out[j].Offset
		}
		return out[i].Rule < out[j].Rule
	})
	return out
}

func reason(rule string) string {
	if r, ok := refuseReasons[rule]; ok {
		return r
	}
	return flagReasons[rule]
}

// characters applies the character rules and reports whether the text
// holds an invisible character (allowed where it stands or not).
func (f *findings) characters(text string) (anyInvisible bool) {
	for i := 0; i < len(text); {
		// Eight printable ASCII bytes at a time: most of any text.
		if i+8 <= len(text) && textASCII8(load8(text, i)) {
			i += 8
			continue
		}
		c := text[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				// A carriage return before a line feed is a Windows line
				// ending, not a way to overwrite a line on a terminal.
				if !(c == '\r' && i+1 < len(text) && text[i+1] == '\n') {
					f.add(RuleControl, i)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			f.add(RuleInvalidUTF8, i)
			i++
			continue
		}
		switch rule := classify(text, i, r, size); rule {
		case "":
		case allowed:
		default:
			f.add(rule, i)
		}
		if !anyInvisible && isInvisible(r) {
			anyInvisible = true
		}
		i += size
	}
	return anyInvisible
}

// allowed is classify's answer for an invisible character in a place where
// ordinary writing puts it.
const allowed = "allowed"

// classify names the rule the rune r at text[i:i+size] breaks, or "" when
// it is an ordinary visible character, or allowed.
func classify(text string, i int, r rune, size int) string {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return RuleControl
	case r == 0x2028 || r == 0x2029:
		// Line and paragraph separators end a line in JavaScript and some
		// editors but not in others: a line that reads differently in two
		// places.
		return RuleControl
	case isBidiControl(r):
		return RuleBidi
	case isNoncharacter(r):
		return RuleNonchar
	case isPrivateUse(r):
		return RulePrivateUse
	}
	if !isInvisible(r) {
		return ""
	}
	prev, _ := utf8.DecodeLastRuneInString(text[:i])
	next, _ := utf8.DecodeRuneInString(text[i+size:])
	if i == 0 {
		prev = -1
	}
	if i+size == len(text) {
		next = -1
	}
	if invisibleAllowed(text, i, r, prev, next) {
		return allowed
	}
	return RuleInvisible
}

// invisibleAllowed holds the decisions of docs/specs/sanitizer.md 6.1 for
// the invisible characters ordinary text uses.
func invisibleAllowed(text string, i int, r, prev, next rune) bool {
	switch {
	case r == 0xfeff:
		// A byte-order mark at the very start is what some editors write;
		// anywhere else it is a zero-width no-break space.
		return i == 0
	case r == 0x200d:
		// Zero-width joiner: inside an emoji sequence (family, profession,
		// rainbow flag), or after a virama to ask for a half form (Hindi
		// and other Indic scripts).
		return (isEmojiBase(prev) || prev == 0xfe0f || isSkinTone(prev)) && isEmojiBase(next) ||
			isVirama(prev) && isLetterOrMark(next)
	case r == 0x200c:
		// Zero-width non-joiner: between letters of a joining script
		// (Persian writes می‌خواهم with one), or after a virama.
		return (isJoiningScript(prev) || isVirama(prev)) && isLetterOrMark(next)
	case r == 0x200e || r == 0x200f || r == 0x061c:
		// Left-to-right, right-to-left and Arabic letter marks: next to
		// right-to-left letters, where they settle the order of digits and
		// punctuation. They cannot reorder text the way embeddings and
		// overrides can.
		return isRTL(prev) || isRTL(next)
	case r == 0x00ad:
		// Soft hyphen: a hyphenation point inside a word.
		return unicode.IsLetter(prev) && unicode.IsLetter(next)
	case r == 0xfe0e || r == 0xfe0f:
		// Text and emoji presentation selectors, once, after a character
		// that has both presentations (symbols, digits for keycaps).
		return isEmojiBase(prev) || unicode.Is(unicode.So, prev) || unicode.Is(unicode.Sm, prev) ||
			prev == '#' || prev == '*' || (prev >= '0' && prev <= '9') || prev == 0xa9 || prev == 0xae
	case r >= 0xfe00 && r <= 0xfe0d, r >= 0xe0100 && r <= 0xe01ef:
		// Standardised and ideographic variation selectors, once, after
		// an ideograph or a mathematical symbol. Runs of selectors can
		// carry hidden bytes, so a selector after a selector is refused.
		return unicode.Is(unicode.Han, prev) || unicode.Is(unicode.Sm, prev) || unicode.Is(unicode.Mongolian, prev)
	case r >= 0xe0020 && r <= 0xe007f:
		return inFlagTagSequence(text, i)
	case r >= 0x0600 && r <= 0x0605, r == 0x06dd, r == 0x070f, r == 0x0890, r == 0x0891, r == 0x08e2, r == 0x110bd, r == 0x110cd:
		// Prepended concatenation marks (Arabic number signs and the
		// like) are drawn: they are not hidden.
		return true
	}
	return false
}

// inFlagTagSequence reports whether the tag character at text[i:] belongs
// to a subdivision flag: U+1F3F4, one to six tag letters or digits, and
// the cancel tag U+E007F. Tag characters anywhere else spell hidden ASCII.
func inFlagTagSequence(text string, i int) bool {
	start := i
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:start])
		if r < 0xe0020 || r > 0xe007f {
			break
		}
		start -= size
	}
	base, _ := utf8.DecodeLastRuneInString(text[:start])
	if start == 0 || base != 0x1f3f4 {
		return false
	}
	n := 0
	for j := start; j < len(text); {
		r, size := utf8.DecodeRuneInString(text[j:])
		switch {
		case r == 0xe007f:
			return n >= 1 && n <= 6 && j >= i
		case r >= 0xe0030 && r <= 0xe0039, r >= 0xe0061 && r <= 0xe007a:
			n++
		default:
			return false
		}
		j += size
	}
	return false
}

func isBidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

func isNoncharacter(r rune) bool {
	return r >= 0xfdd0 && r <= 0xfdef || r&0xfffe == 0xfffe
}

func isPrivateUse(r rune) bool {
	return r >= 0xe000 && r <= 0xf8ff || r >= 0xf0000 && r <= 0xffffd || r >= 0x100000 && r <= 0x10fffd
}

// isInvisible is the set of characters that draw nothing (or nothing of
// their own): format characters, variation selectors, the combining
// grapheme joiner, Hangul fillers and Mongolian variation selectors.
func isInvisible(r rune) bool {
	if r < 0xad {
		return false
	}
	switch {
	case unicode.Is(unicode.Cf, r):
		return true
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef:
		return true
	case r == 0x034f, r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0, r >= 0x180b && r <= 0x180f:
		return true
	}
	return false
}

// isEmojiBase approximates Extended_Pictographic, which the unicode package
// does not carry: the pictograph and symbol blocks emoji come from.
func isEmojiBase(r rune) bool {
	return r >= 0x1f000 && r <= 0x1faff || r >= 0x2600 && r <= 0x27bf ||
		r >= 0x2300 && r <= 0x23ff || r >= 0x2b00 && r <= 0x2bff ||
		r >= 0x2190 && r <= 0x21ff || r == 0x203c || r == 0x2049 || r == 0x2122 || r == 0x2139 ||
		r == 0x3030 || r == 0x303d || r == 0x3297 || r == 0x3299
}

func isSkinTone(r rune) bool { return r >= 0x1f3fb && r <= 0x1f3ff }

// isVirama reports a combining mark of class 9, the virama of Indic
// scripts, after which a joiner or non-joiner chooses a conjunct's form.
func isVirama(r rune) bool {
	if r < 0x900 {
		return false
	}
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	return norm.NFC.Properties(buf[:n]).CCC() == 9
}

func isLetterOrMark(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }

// isJoiningScript: scripts whose letters join, where a non-joiner between
// two letters is ordinary spelling.
func isJoiningScript(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsMark(r)) &&
		(unicode.Is(unicode.Arabic, r) || unicode.Is(unicode.Syriac, r) || unicode.Is(unicode.Nko, r) ||
			unicode.Is(unicode.Mongolian, r) || unicode.Is(unicode.Mandaic, r))
}

func isRTL(r rune) bool {
	return unicode.Is(unicode.Arabic, r) || unicode.Is(unicode.Hebrew, r) || unicode.Is(unicode.Syriac, r) ||
		unicode.Is(unicode.Thaana, r) || unicode.Is(unicode.Nko, r)
}

// removeInvisible drops every invisible character, and returns with the
// text a map from its offsets back to text: an offset maps to the first
// byte of the run of invisible characters just before it, if there is one,
// else to the character itself.
func removeInvisible(text string) (string, func(int) int) {
	var (
		b       strings.Builder
		runAt   []int // where each run of removed characters was, in the cleaned text
		removed = []int{0}
	)
	b.Grow(len(text))
	inRun := false
	for _, r := range text {
		if !isInvisible(r) {
			b.WriteRune(r)
			inRun = false
			continue
		}
		if !inRun {
			runAt = append(runAt, b.Len())
			removed = append(removed, removed[len(removed)-1])
			inRun = true
		}
		removed[len(removed)-1] += utf8.RuneLen(r)
	}
	return b.String(), func(off int) int {
		// The runs before off, not one at off: that one is where off maps.
		return off + removed[sort.SearchInts(runAt, off)]
	}
}

// secretRule is one secret shape: the keywords one of which every match
// holds, and the expression, run on a window around each keyword.
type secretRule struct {
	rule     string
	keywords []string
	re       *lazyRegexp // compiled at its first use, like the flag rules'
	// skip is gitleaks' allowlist for the rule: a match it accepts is not
	// a secret (AWS's documented example keys end in EXAMPLE).
	skip func(match string) bool
	// broken: the shape starts at its keyword and is made of token
	// characters only, so that a token with a space or a line break in
	// it is read with the breaks taken out (brokenToken).
	broken bool
}

// The shapes, from gitleaks' config/gitleaks.toml (rules github-pat,
// github-oauth, github-app-token, github-refresh-token,
// github-fine-grained-pat, gitlab-pat, openai-api-key, anthropic-api-key,
// anthropic-admin-api-key, slack-*-token, aws-access-token, private-key).
// The private-key rule differs: gitleaks wants the END line; a key cut off
// before its end is still a leak, so 40 base64 characters after the BEGIN
// line are enough.
var secretRules = []secretRule{
	{rule: RuleSecretGitHub, keywords: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"},
		re: compileAtFirstUse(`gh[pousr]_[0-9a-zA-Z]{36}`), broken: true},
	{rule: RuleSecretGitHub, keywords: []string{"github_pat_"},
		re: compileAtFirstUse(`github_pat_\w{82}`), broken: true},
	{rule: RuleSecretGitLab, keywords: []string{"glpat-"},
		re: compileAtFirstUse(`glpat-[\w-]{20}`), broken: true},
	{rule: RuleSecretOpenAI, keywords: []string{"T3BlbkFJ"},
		re: compileAtFirstUse(`\bsk-(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})\b|sk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20}`)},
	{rule: RuleSecretAnthropic, keywords: []string{"sk-ant-"},
		re: compileAtFirstUse(`\bsk-ant-(?:api03|admin01)-[a-zA-Z0-9_\-]{93}AA`), broken: true},
	{rule: RuleSecretSlack, keywords: []string{"xox"},
		re: compileAtFirstUse(`xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*|xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}|xox[os]-\d+-\d+-\d+-[a-fA-F\d]+|xox[ar]-(?:\d-)?[0-9a-zA-Z]{8,48}|(?i:xoxe\.xox[bp]-\d-[A-Z0-9]{163,166}|xoxe-\d-[A-Z0-9]{146})`), broken: true},
	{rule: RuleSecretSlack, keywords: []string{"xapp-", "XAPP-"},
		re: compileAtFirstUse(`(?i)xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+`), broken: true},
	{rule: RuleSecretAWS, keywords: []string{"AKIA", "ASIA", "ABIA", "ACCA", "A3T"},
		re:   compileAtFirstUse(`\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b`),
		skip: func(m string) bool { return strings.HasSuffix(m, "EXAMPLE") }, broken: true},
	{rule: RuleSecretPrivateKey, keywords: []string{"PRIVATE KEY", "private key", "Private Key"},
		re: compileAtFirstUse(`(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,300}?[A-Za-z0-9+/]{40}`)},
}

// The window around a keyword in which its rule's expression runs: wide
// enough for the longest shape (a Slack config token, a private key's
// header lines) on either side of its keyword.
const (
	windowBefore = 240
	windowAfter  = 560
)

// secrets applies the secret rules to text; at maps an offset in text to
// the offset reported (nil: the same). It reads the text once, looking up
// each pair of bytes among the keywords' first two.
func (f *findings) secrets(text string, at func(int) int) {
	for i := 0; i+1 < len(text); i++ {
		pair := uint16(text[i])<<8 | uint16(text[i+1])
		if !secretPairs[pair] {
			continue
		}
		for _, ks := range secretKeywords {
			if ks.pair != pair {
				continue
			}
			whole := strings.HasPrefix(text[i:], ks.keyword)
			if !whole && !keywordWithBreaks(text, i, ks.keyword) {
				continue
			}
			sr := &secretRules[ks.rule]
			lo, hi := max(0, i-windowBefore), min(len(text), i+len(ks.keyword)+windowAfter)
			if off, ok := f.first[sr.rule]; ok && at == nil && off < lo {
				// No match from this window can start before the one
				// found: the rule's first offset is the least of all.
				continue
			}
			found := false
			for _, m := range sr.re.get().FindAllStringIndex(text[lo:hi], -1) {
				// A match that touches a cut of the window may only look
				// like it starts or ends a word; one that is real is
				// found again from its own keyword.
				if m[0] == 0 && lo > 0 || m[1] == hi-lo && hi < len(text) {
					continue
				}
				if sr.skip != nil && sr.skip(text[lo+m[0]:lo+m[1]]) {
					continue
				}
				off := lo + m[0]
				if at != nil {
					off = at(off)
				}
				f.add(sr.rule, off)
				found = true
				break
			}
			if !found && sr.broken {
				if off, ok := brokenToken(text, lo, i, sr); ok {
					if at != nil {
						off = at(off)
					}
					f.add(sr.rule, off)
				}
			}
		}
	}
}

// A token with a space or a line break in it (pasted from a wrapped line,
// or split to get past a filter) is still the token: brokenToken reads the
// token characters from a keyword on with at most maxBreaks breaks taken
// out, each a run of spaces or tabs (at most two without a line feed) or a
// line break with white space around it, between two token characters;
// after a break at least minPiece token characters must follow, so that
// words of prose ("ghp_ followed by 36 characters") are not glued into a
// token. The rule's expression then runs on the window with the breaks
// taken out; a match that starts at the keyword (or before it, in the
// text as it is), reaches past a break, and holds a letter and a digit
// after the keyword is the secret, at its start.
const (
	maxBreaks = 2
	minPiece  = 4
)

func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// tokenBreak is the length of the break at text[i:] (0 if none): spaces or
// tabs, or a line feed (a carriage return before it) with spaces or tabs
// around it, followed by minPiece token characters.
func tokenBreak(text string, i int) int {
	j, blanks, feed := i, 0, false
	for j < len(text) && j-i < 12 {
		switch c := text[j]; {
		case c == ' ' || c == '\t':
			blanks++
		case c == '\r' && j+1 < len(text) && text[j+1] == '\n' && !feed:
		case c == '\n' && !feed:
			feed = true
		default:
			goto end
		}
		j++
	}
end:
	if j == i || !feed && blanks > 2 || j+minPiece > len(text) {
		return 0
	}
	for k := j; k < j+minPiece; k++ {
		if !isTokenByte(text[k]) {
			return 0
		}
	}
	return j - i
}

// keywordWithBreaks reports whether the keyword starts at text[i] with
// breaks inside it after its first two bytes ("gh p_", "AK\nIA").
func keywordWithBreaks(text string, i int, kw string) bool {
	p, broke := i+2, false
	for q := 2; q < len(kw); q++ {
		if p < len(text) && text[p] != kw[q] && !broke {
			n := tokenBreak(text, p)
			if n == 0 {
				return false
			}
			p += n
			broke = true
		}
		if p >= len(text) || text[p] != kw[q] {
			return false
		}
		p++
	}
	return broke
}

// brokenToken reads the token at the keyword text[k:] with its breaks
// taken out, lo being the start of the rule's window, and reports where
// the secret starts.
func brokenToken(text string, lo, k int, sr *secretRule) (int, bool) {
	joined := make([]byte, 0, windowAfter)
	joined = append(joined, text[lo:k]...)
	firstBreak, breaks := -1, 0
	for j := k; j < len(text) && len(joined)-(k-lo) < windowAfter; {
		if isTokenByte(text[j]) {
			joined = append(joined, text[j])
			j++
			continue
		}
		n := 0
		if breaks < maxBreaks && j > k && isTokenByte(text[j-1]) {
			n = tokenBreak(text, j)
		}
		if n == 0 {
			break
		}
		if firstBreak < 0 {
			firstBreak = len(joined)
		}
		breaks++
		j += n
	}
	if firstBreak < 0 {
		return 0, false
	}
	for _, m := range sr.re.get().FindAllIndex(joined, -1) {
		if m[0] > k-lo || m[1] <= firstBreak || m[0] == 0 && lo > 0 {
			continue
		}
		tail := joined[k-lo : m[1]]
		if !bytes.ContainsAny(tail, "0123456789") || !bytes.ContainsFunc(tail, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) {
			continue
		}
		if sr.skip != nil && sr.skip(string(joined[m[0]:m[1]])) {
			continue
		}
		return lo + m[0], true
	}
	return 0, false
}

// secretKeywords are the keywords of secretRules with their first two
// bytes; secretPairs marks those pairs.
var secretKeywords, secretPairs = func() (kws []struct {
	keyword string
	pair    uint16
	rule    int
}, pairs *[1 << 16]bool) {
	pairs = new([1 << 16]bool)
	for ri, sr := range secretRules {
		for _, kw := range sr.keywords {
			p := uint16(kw[0])<<8 | uint16(kw[1])
			pairs[p] = true
			kws = append(kws, struct {
				keyword string
				pair    uint16
				rule    int
			}{kw, p, ri})
		}
	}
	return kws, pairs
}()

// tags applies the tag rule: any chat-template tag, exactly as the
// tokenizer reads it.
func (f *findings) tags(text string) {
	for from := 0; ; {
		k := strings.IndexByte(text[from:], '<')
		if k < 0 {
			return
		}
		k += from
		if _, ok := tagAt(text[k:]); ok {
			f.add(RuleTag, k)
			return
		}
		from = k + 1
	}
}

// load8 reads eight bytes of s from i, little-endian (one load once
// compiled).
func load8(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plainASCII8 reports whether all eight bytes of x are printable ASCII,
// 0x20 to 0x7e (no byte has its high bit, none is below 0x20, none is DEL).
func plainASCII8(x uint64) bool {
	below := (x - ones*0x20) &^ x & highs
	del := x ^ (ones * 0x7f)
	isDel := (del - ones) &^ del & highs
	return x&highs == 0 && below == 0 && isDel == 0
}

// textASCII8 reports whether all eight bytes of x are printable ASCII, tab
// or line feed: what the character rules pass at once. (Source code has a
// line feed or a tab in most eight bytes.)
func textASCII8(x uint64) bool {
	return x&highs == 0 && !between8(x, 0xff, 9) && !between8(x, 10, 0x20) && !hasByte8(x, 0x7f)
}

// between8 reports whether a byte of x, all of whose bytes are below 0x80,
// is above m and below n (m = 0xff: below n). From Sean Anderson's "Bit
// Twiddling Hacks" (hasbetween, haslessthan), exact for such x.
func between8(x uint64, m, n byte) bool {
	if m == 0xff {
		return (x-ones*uint64(n))&^x&highs != 0
	}
	return (ones*(127+uint64(n))-x)&^x&(x+ones*(127-uint64(m)))&highs != 0
}

// hasByte8 reports whether a byte of x is b.
func hasByte8(x uint64, b byte) bool {
	y := x ^ (ones * uint64(b))
	return (y-ones)&^y&highs != 0
}
