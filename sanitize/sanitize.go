// Package sanitize decides what text from outside may become part of what
// the model reads as its own: memory entries, notes, tool results. It has
// three kinds of rule, each named so logs and answers can say which fired
// without repeating the text:
//
//   - refuse rules (Refusals): text that must never be stored or shown as
//     it is: control, invisible, private-use and noncharacter code points,
//     secrets by their shape, and the model's chat-template tags;
//   - flag rules (Flags): text that reads like an instruction to the agent
//     (ignore earlier instructions, send data to a URL, read credential
//     files, ...), matched after normalising so spacing, case, compatibility
//     forms and invisible characters cannot hide it;
//   - the neutraliser (Neutralise): writes the angle brackets of each
//     chat-template tag as &lt; and &gt; so a tag in outside text reads as
//     text, not as a turn boundary.
//
// docs/specs/sanitizer.md is the specification; the corpora under
// sanitize/testdata are its tests, and `boxmaker gate` runs them.
package sanitize

import "sort"

// Finding is one rule that fired.
type Finding struct {
	// Rule names the rule, such as "secret-github", "invisible",
	// "control", "tag" or "flag-ignore-instructions".
	Rule string
	// Reason is what the text contains, in words fit to tell the model:
	// "what looks like a GitHub token".
	Reason string
	// Offset is the byte offset in the text given where the rule fired
	// (for Flags, the offset in the original text of the start of the
	// normalised match, to the nearest rune).
	Offset int
}

// Rule describes one rule, for documentation and for tools that list them.
type Rule struct {
	Name   string
	Kind   string // "refuse" or "flag"
	Reason string
}

// Rules lists every refuse and flag rule, refuse rules first, each kind in
// name order.
func Rules() []Rule {
	var out []Rule
	for _, set := range []struct {
		kind    string
		reasons map[string]string
	}{{"refuse", refuseReasons}, {"flag", flagReasons}} {
		start := len(out)
		for name, reason := range set.reasons {
			out = append(out, Rule{Name: name, Kind: set.kind, Reason: reason})
		}
		sort.Slice(out[start:], func(i, j int) bool { return out[start+i].Name < out[start+j].Name })
	}
	return out
}
