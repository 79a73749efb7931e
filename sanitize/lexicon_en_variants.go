package sanitize

import "strings"

// Issue 28, family 6: overrides the English grammar missed. Three kinds:
//
//   - objects that say what the agent was told, generated from their
//     parts ("overlook all that you've been instructed", "forget whatever
//     you were taught"): a quantifier, a subject with its tense, a verb of
//     telling;
//   - misspellings of the words an override cannot do without ("ignroe
//     all previus instrucitons"): every adjacent transposition and every
//     single deletion of the key verbs, qualifiers and nouns, generated,
//     never typed (a typo keeps the word's length or loses a letter; a
//     reader still reads it, and so does a model);
//   - "ignore the above and say ...": "the above" counts only when an act
//     follows it at once, since a README says "if you use Docker, ignore
//     the above".
//
// The tables are classes; the sources are those of lexicon_en.go.

// toldObjects are what the agent was told, as a whole: quantifier ×
// subject × verb.
var toldObjects = func() words {
	var out words
	for _, q := range []string{"all that", "all", "everything", "everything that", "whatever", "anything", "what", "all of what"} {
		for _, s := range []string{"you've been", "you have been", "you were", "you are being", "you got", "they"} {
			for _, v := range []string{"told", "instructed", "taught", "asked", "given", "programmed", "trained", "ordered", "commanded"} {
				if s == "you got" && v != "told" {
					continue
				}
				if s == "they" {
					out = append(out, q+" they "+v+" you")
					continue
				}
				out = append(out, q+" "+s+" "+v)
			}
		}
	}
	return out
}()

// misspelt are the words whose misspellings count, by class.
var (
	misspeltVerbs = []string{"ignore", "disregard", "forget", "overlook", "override", "bypass", "discard"}
	misspeltQuals = []string{"previous", "prior", "earlier", "preceding", "original", "initial"}
	misspeltNouns = []string{"instructions", "instruction", "directions", "guidelines", "prompt", "prompts", "programming"}
)

// misspellings are w's adjacent transpositions and single deletions, each
// at least four letters long and not w.
func misspellings(w string) []string {
	seen := map[string]bool{w: true}
	var out []string
	add := func(s string) {
		if len(s) >= 4 && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for i := 0; i+1 < len(w); i++ {
		b := []byte(w)
		b[i], b[i+1] = b[i+1], b[i]
		add(string(b))
	}
	if len(w) >= 6 {
		for i := range len(w) {
			add(w[:i] + w[i+1:])
		}
	}
	return out
}

// withMisspellings is t with the misspellings of those of its entries that
// are in keys.
func withMisspellings(t words, keys []string) words {
	out := append(words{}, t...)
	for _, k := range keys {
		for _, m := range misspellings(k) {
			if !realWords[m] {
				out = append(out, m)
			}
		}
	}
	return out
}

// realWords are misspellings that are words of their own ("prompts"
// without its s is "prompt", "forget" loses nothing useful): never added.
var realWords = map[string]bool{"instruction": true, "prompt": true, "direction": true, "guideline": true, "prior": true, "pirot": true}

// englishVariantPatterns are the patterns of the three kinds.
func englishVariantPatterns() []flagPattern {
	verbs := withMisspellings(englishOverride.verbs, misspeltVerbs)
	typos := lexicon{lang: "en", verbs: verbs,
		quals: withMisspellings(englishOverride.quals, misspeltQuals),
		nouns: withMisspellings(englishOverride.nouns, misspeltNouns)}
	// Without voids and verb-last, the verb-first grammar only.
	out := typos.patterns(RuleFlagIgnoreInstructions)
	out = append(out, byStarts(fp(RuleFlagIgnoreInstructions, firstWords(verbs), 300,
		alt(verbs)+sepExpr+gapExpr(1)+alt(toldObjects)+`\b`).needing("told", "instructed", "taught", "asked", "given", "programmed", "trained", "ordered", "commanded").
		checked(notAboutATopic), verbs)...)
	out = append(out, fp(RuleFlagIgnoreInstructions, firstWords(verbs), 200,
		alt(verbs)+`\s(?:all\s(?:of\s)?)?(?:the|that|everything|anything)\s(?:above|previous|preceding|foregoing|prior|before)`+
			`(?:\s(?:text|content|message|messages|prompt|input|context|conversation|stuff|part|lines?))?\s?(?:,|;|\.|:|and|then|-)\s`+
			`(?:(?:and|then|just|simply|now|instead)\s){0,2}(?:say|respond|reply|answer|output|print|write|tell|translate|repeat|return|follow|act|pretend|reveal|only)\b`).
		needing("above", "previous", "preceding", "foregoing", "prior", "before"))
	return out
}

// notAboutATopic lets "forget what you were taught about manual memory
// management" pass: told about a topic is the idiom, not the agent's
// instructions.
func notAboutATopic(_, window string, m []int) bool {
	rest := strings.TrimLeft(window[m[1]:], " ")
	for _, w := range []string{"about", "regarding", "concerning", "in school", "at school", "in class", "at university"} {
		if strings.HasPrefix(rest, w) {
			return false
		}
	}
	return true
}
