package sanitize

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// matchReference is what scanner.match decides, written as plainly as it
// can be: every candidate in turn, its follower words compared one by one,
// its needed words looked for in every position the scan noted, its needed
// substrings with strings.Contains, its expression run for the submatches
// whether or not a check wants them. The engine's shortcuts (cursors over
// the positions, an index of where each substring occurs next, a cheap
// first byte test of the followers, the expression run without submatches
// first) must decide exactly as this does: TestFlagEngineIsTheReference
// (flagengine_test.go) compares the two on every corpus, whatever rules
// exist when it runs.
func matchReference(s *scanner, text string, from, to int) hits {
	idx, patterns := &s.rules.starts, s.rules.patterns
	var first hits
	for _, cd := range s.cands {
		p := &patterns[cd.pattern]
		if first.has(p.ruleID) || cd.at < from || cd.at >= to {
			continue
		}
		k := cd.at
		end := min(len(text), k+p.span)
		window := text[k:end]
		if p.follows != nil && !referenceFollows(p, window) {
			continue
		}
		if ids := idx.needWords[cd.pattern]; ids != nil || p.needSubs != nil {
			if !referenceNeedsMet(p, ids, s.needPos, k, window) {
				continue
			}
		}
		m := p.re.get().FindStringSubmatchIndex(window)
		ok := m != nil && (p.check == nil || p.check(text[checkFrom(text, k, p):k], window, m))
		if !ok && !matchCarried(p, text, k, window) {
			continue
		}
		first.add(p.ruleID, k)
	}
	return first
}

// referenceFollows is followMet without its index of first bytes.
func referenceFollows(p *flagPattern, window string) bool {
	i := 0
	for i < len(window) && (isWordByte(window[i]) || (window[i] == '-' || window[i] == '\'') && i > 0 && i+1 < len(window) && isWordByte(window[i+1])) {
		i++
	}
	if i >= len(window) || window[i] != ' ' && window[i] != '\n' {
		return false
	}
	rest := window[i+1:]
	for _, w := range p.follows {
		if strings.HasPrefix(rest, w) && (len(rest) == len(w) || !isWordByte(rest[len(w)])) {
			return true
		}
	}
	return false
}

// engineDiffers reads text as flagNormalised does (normalised, read with
// the marks, folded where the scan says so) and returns how scanner.match
// and matchReference differ on it, or "" when they agree: the rules that
// fire and the offset of each one's first match.
func engineDiffers(text string) string {
	form, _ := normaliseLines(text)
	s := getScanner()
	defer putScanner(s)
	s.read(form, true)
	norm := form
	if len(s.foldAt) > 0 {
		norm, _ = s.fold(form)
	}
	got := s.match(norm, 0, len(norm))
	// The reference reads every candidate the start words give, those
	// whose followers the scan already found missing too.
	r, refNorm, release := readAllCandidates(form)
	defer release()
	if refNorm != norm {
		return "the reference's reading folded the text otherwise"
	}
	want := matchReference(r, norm, 0, len(norm))
	if got.set == want.set {
		same := true
		for id := range flagRuleNames {
			same = same && (!got.has(id) || got.at[id] == want.at[id])
		}
		if same {
			return ""
		}
	}
	return fmt.Sprintf("engine %s, reference %s", describeHits(got), describeHits(want))
}

func describeHits(h hits) string {
	var b strings.Builder
	for id, name := range flagRuleNames {
		if h.has(id) {
			fmt.Fprintf(&b, " %s@%d", name, h.at[id])
		}
	}
	if b.Len() == 0 {
		return "none"
	}
	return b.String()[1:]
}

// EngineDiffers is engineDiffers for the package's external tests, which
// read the corpora.
var EngineDiffers = engineDiffers

// TestWithinFromAnswersOutOfOrder asks withinFrom of offsets out of order
// (a candidate inside a word before one the word's end started): the
// cursor must not skip a position it passed.
func TestWithinFromAnswersOutOfOrder(t *testing.T) {
	ps := []int{3, 10, 20}
	next := 0
	for _, q := range []struct {
		from, to int
		want     bool
	}{{15, 25, true}, {2, 5, true}, {11, 19, false}, {4, 11, true}, {21, 40, false}, {0, 3, false}, {0, 4, true}} {
		if got := withinFrom(ps, &next, q.from, q.to); got != q.want {
			t.Errorf("withinFrom(%v, [%d, %d)) = %v, want %v", ps, q.from, q.to, got, q.want)
		}
	}
}

// FuzzFlagEngineIsTheReference looks for a text on which the engine and
// the plain reading differ, from the attack corpus's cases.
func FuzzFlagEngineIsTheReference(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", AttackCorpus))
	if err != nil {
		f.Fatal(err)
	}
	cases, _ := ParseCorpus(AttackCorpus, string(data), false)
	for i, c := range cases {
		if i%8 == 0 {
			f.Add(c.Text)
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		if d := engineDiffers(text); d != "" {
			t.Errorf("%q: %s", text, d)
		}
	})
}

// indexAt must find what strings.Index finds, by whichever byte.
func FuzzIndexAtIsIndex(f *testing.F) {
	for _, c := range [][2]string{{"the passw0rd, the password", "passw"}, {"approve approved", "approved"}, {"aaab", "aab"}, {"", "x"}, {"ab", "abc"}, {"xyz", "z"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, s, sub string) {
		if sub == "" {
			return
		}
		for rare := range len(sub) {
			if got, want := indexAt(s, sub, rare), strings.Index(s, sub); got != want {
				t.Fatalf("indexAt(%q, %q, %d) = %d, strings.Index %d", s, sub, rare, got, want)
			}
		}
	})
}

// referenceNeedsMet is the plain reading of a pattern's needed words and
// substrings: one of the words ids at a position noted in needPos, or
// one of the substrings, lies in the window at k, cut at needsWithin and
// at the first needsUntil.
func referenceNeedsMet(p *flagPattern, ids []int, needPos [][]int, k int, window string) bool {
	region := window
	if p.needsWithin > 0 && len(region) > p.needsWithin {
		region = region[:p.needsWithin]
	}
	if p.needsUntil != 0 {
		if j := strings.IndexByte(region, p.needsUntil); j >= 0 {
			region = region[:j]
		}
	}
	met := false
	for _, id := range ids {
		for _, at := range needPos[id] {
			met = met || at >= k && at < k+len(region)
		}
	}
	for _, sub := range p.needSubs {
		met = met || strings.Contains(region, sub)
	}
	return met
}

// readAllCandidates reads form as the reference does: with a scanner
// that keeps every candidate the start words give, those whose
// followers the scan finds missing too, and the text folded as
// flagNormalised folds it. release gives the scanner back.
func readAllCandidates(form string) (r *scanner, norm string, release func()) {
	r = getScanner()
	r.allCands = true
	r.read(form, true)
	norm = form
	if len(r.foldAt) > 0 {
		norm, _ = r.fold(form)
	}
	return r, norm, func() {
		r.allCands = false
		putScanner(r)
	}
}
