package sanitize

import "sync"

// flagTables are the flag rules' tables, derived from the rules in
// flagrules*.go and the lexicons: built once, at their first use
// (flagRules), never changed after.
type flagTables struct {
	// patterns are every flag rule's patterns; a pattern's index here is
	// the one candidates, starts and needWords use.
	patterns []flagPattern
	starts   startIndex
	// after is how many bytes of normalised text the flag rules read after
	// a match starts: the longest window, and a word that runs past its
	// end.
	after int
	// splitVocab are the words a cut between two literals may make: the
	// ASCII words of the lexicons, every ASCII start word and needed word
	// of the flag patterns, and the split keys, of four letters or more;
	// splitShapes is a quick test before its map.
	splitVocab  map[string]bool
	splitShapes *wordShapes
}

// flagRules builds the tables the first time a text is checked, not at
// package init: every role links sanitize, and building them (the
// lexicons' expressions, their entries normalised, the index) cost each
// process about 5 ms of CPU and 2.6 MB at start, most of a short command's
// run (yaag's start goal is 20 ms for the whole process), whether or not it
// ever checks a text. TestFlagTablesWaitForTheirFirstUse holds it.
var flagRules = sync.OnceValue(func() *flagTables {
	t := &flagTables{patterns: join(basePatterns, englishOverridePatterns(), englishVariantPatterns(), lexiconPatterns(), claimPatterns, modePatterns, structurePatterns, exfilPatterns, answerPatterns, answerPayloadPatterns, standingPatterns, headerPatterns, hijackPatterns(), passedPatterns(), refPatterns())}
	t.starts = indexStarts(t.patterns)
	span := 0
	for _, p := range t.patterns {
		span = max(span, p.span)
	}
	t.after = span + 128
	t.splitVocab = splitVocabOf(t.patterns)
	t.splitShapes = newWordShapes(t.splitVocab)
	return t
})

func splitVocabOf(patterns []flagPattern) map[string]bool {
	m := map[string]bool{}
	add := func(w string) {
		if len(w) >= 4 && isASCII(w) && allWords([]string{w}) {
			m[w] = true
		}
	}
	for w := range lexiconWords {
		add(w)
	}
	for _, p := range patterns {
		for _, w := range p.starts {
			add(w)
		}
		for _, w := range p.needs {
			add(w)
		}
	}
	for _, w := range splitKeys {
		add(w)
	}
	// The decoders' marker words are every family's (signalWords): a cut
	// inside one of them ("vis" + "it") is read as one too.
	for _, w := range signalWords {
		add(w)
	}
	for _, w := range []string{"conversation", "history", "memory", "secrets", "password", "passwords", "cookies", "environment", "everything"} {
		add(w)
	}
	return m
}
