package sanitize

import (
	"bytes"
	"strings"
	"sync"
)

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
// every other pair of bytes among the keywords' first three: a keyword
// (three bytes or more) that starts at i has its first two at an even i
// or its second and third at i+1, even (or its second and the first byte
// of a break, keywordWithBreaks). Half the look-ups of reading
// every pair, which was most of the refuse rules' time (D1227); the
// keywords are tried at the same offsets in the same order
// (FuzzSecretsReadEveryOtherPair).
func (f *findings) secrets(text string, at func(int) int) {
	keys := secretKeys()
	j := 0
	for ; j+1 < len(text); j += 2 {
		if !keys.near[pair(text, j)] {
			continue
		}
		if j > 0 && keys.pairs[pair(text, j-1)] {
			f.secretAt(text, j-1, keys, at)
		}
		if keys.pairs[pair(text, j)] {
			f.secretAt(text, j, keys, at)
		}
	}
	// The last pair, when it starts at an odd offset.
	if i := len(text) - 2; i == j-1 && i > 0 && keys.pairs[pair(text, i)] {
		f.secretAt(text, i, keys, at)
	}
}

// pair is the two bytes at text[i:].
func pair(text string, i int) uint16 { return uint16(text[i])<<8 | uint16(text[i+1]) }

// secretAt tries the keywords whose first two bytes are text[i:i+2].
func (f *findings) secretAt(text string, i int, keys *secretIndex, at func(int) int) {
	p := pair(text, i)
	for _, ks := range keys.keywords {
		if ks.pair != p {
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

// secretIndex is the keywords of secretRules with their first two bytes;
// pairs marks those pairs. It is built at the first check (secretKeys),
// not at package init: its table is 64 KB, which every role's start paid
// for (D362).
type secretIndex struct {
	keywords []secretKeyword
	pairs    *[1 << 16]bool
	// near marks the keywords' first two bytes, their second and third,
	// and their second and a break's first (secrets).
	near *[1 << 16]bool
}

type secretKeyword struct {
	keyword string
	pair    uint16
	rule    int
}

var secretKeys = sync.OnceValue(func() *secretIndex {
	x := &secretIndex{pairs: new([1 << 16]bool), near: new([1 << 16]bool)}
	for ri, sr := range secretRules {
		for _, kw := range sr.keywords {
			if len(kw) < 3 {
				panic("sanitize: a secret keyword shorter than three bytes: " + kw)
			}
			p := pair(kw, 0)
			x.pairs[p] = true
			x.near[p], x.near[pair(kw, 1)] = true, true
			// keywordWithBreaks lets a break follow the first two bytes.
			for _, c := range []byte(" \t\r\n") {
				x.near[uint16(kw[1])<<8|uint16(c)] = true
			}
			x.keywords = append(x.keywords, secretKeyword{kw, p, ri})
		}
	}
	return x
})
