package sanitize

import (
	"sort"
	"strings"
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
