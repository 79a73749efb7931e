package cassette

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"boxmaker/sanitize"
)

// Withhold applies the sanitizer's refuse rules to the texts of one
// result (its text, its data, a prompt kept with it) and returns what to
// record instead when a rule fires: the rules, and the SHA-256 of the
// texts joined by NULs. nil means the result may be written.
//
// A result is withheld whole, not redacted: a refuse rule says where it
// first fired, not how far the secret reaches, and a Cassette that held
// part of a key would still hold part of it. A replay cannot give a
// withheld result (it fails there, saying so); a resume runs that Ask
// live.
func Withhold(texts ...string) *Withheld {
	rules := map[string]bool{}
	h := sha256.New()
	for i, t := range texts {
		if i > 0 {
			h.Write([]byte{0})
		}
		h.Write([]byte(t))
		for _, f := range sanitize.Refusals(t) {
			rules[f.Rule] = true
		}
	}
	if len(rules) == 0 {
		return nil
	}
	w := &Withheld{SHA256: hex.EncodeToString(h.Sum(nil))}
	for r := range rules {
		w.Rules = append(w.Rules, r)
	}
	sort.Strings(w.Rules)
	return w
}

// Reasons are the withheld rules in words ("what looks like a GitHub
// token").
func (w *Withheld) Reasons() []string {
	byName := map[string]string{}
	for _, r := range sanitize.Rules() {
		byName[r.Name] = r.Reason
	}
	var out []string
	for _, r := range w.Rules {
		if reason, ok := byName[r]; ok {
			out = append(out, reason)
		} else {
			out = append(out, r)
		}
	}
	return out
}

// WithholdText is text the Cassette keeps in words (an error's message,
// which may quote what a model said): itself, or, when a refuse rule
// fires on it, a line saying it was withheld and why.
func WithholdText(text string) string {
	w := Withhold(text)
	if w == nil {
		return text
	}
	return fmt.Sprintf("(withheld from the Cassette: it held %s; sha256 %s)", strings.Join(w.Reasons(), ", "), w.SHA256)
}

// WithholdEnd applies the refuse rules to a Run's end (its result and its
// error) before the Cassette records it: a result they fire on is
// withheld whole (Withheld says why), an error's text is worded.
func WithholdEnd(e End) End {
	if e.Result != nil {
		if w := Withhold(string(e.Result)); w != nil {
			e.Result, e.Withheld = nil, w
		}
	}
	e.Error = WithholdText(e.Error)
	return e
}
