package sanitize_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"boxmaker/sanitize"
)

// The third held-out collection (sanitize/testdata/heldout3/, README.md
// there says who wrote it and how): an independent red team's attacks in
// four groups and the hard negatives beside them. A case's name carries
// its labels, hyphen-separated, as each group's pattern below says.
// Each group's floor is the cases written (issue 28 asked for at least 120,
// 150, 100, 80, 150).
var heldOut3Groups = []heldOutGroup{
	{"en.txt", 140, `^(override|authority|delim|leak|secret|insert|enc|standing)-[0-9]+$`, []string{"family"},
		[]string{"family:override", "family:authority", "family:delim", "family:leak", "family:secret", "family:insert", "family:enc", "family:standing"}},
	{"tr.txt", 236, `^(override|authority|delim|leak|secret|insert|enc|standing)-(` + heldOut3Langs + `)-[0-9]+$`, []string{"family", "lang"},
		[]string{"family:override", "family:authority", "family:delim", "family:leak", "family:secret", "family:insert", "family:enc", "family:standing",
			"lang:es", "lang:fr", "lang:de", "lang:it", "lang:pt", "lang:ru", "lang:el", "lang:hi", "lang:ja", "lang:zh", "lang:ar", "lang:id"}},
	{"game.txt", 134, `^(hijack|extract|password|roleplay)-[0-9]+$`, []string{"family"},
		[]string{"family:hijack", "family:extract", "family:password", "family:roleplay"}},
	{"indirect.txt", 110, `^(email|table|code)-(payload|link|claim|override|leak|exfil)-[0-9]+$`, []string{"carrier", "family"},
		[]string{"carrier:email", "carrier:table", "carrier:code", "family:payload", "family:link", "family:claim"}},
	{"benign.txt", 210, `^(email|table|code|doc|article|i18n|chat|note)-(` + heldOut3Langs + `)-[0-9]+$`, []string{"carrier", "lang"},
		[]string{"carrier:email", "carrier:table", "carrier:code", "carrier:doc", "carrier:article", "carrier:i18n",
			"lang:en", "lang:es", "lang:fr", "lang:de", "lang:it", "lang:pt", "lang:ru", "lang:el", "lang:hi", "lang:ja", "lang:zh", "lang:ar", "lang:id"}},
}

const heldOut3Langs = `en|es|fr|de|it|pt|ru|el|hi|ja|zh|ar|id|ko|tr|nl|pl|vi|uk|sv|fa|he|th`

// TestHeldOutRound3 measures every rule (flag and refuse) against the third
// held-out collection: per group, per family, per language and per carrier,
// the attacks any rule catches and the benign cases any rule fires on. It
// fails on nothing about recall, which it only measures (measureHeldOut
// says what it fails on). Under -v it logs the aggregates only; the misses
// and the benign cases fired on are listed one by one only when
// BOXMAKER_SANITIZE_HELDOUT_CASES=1, so that a rule builder reading the
// aggregates never sees a held case:
//
//	go test -tags "$BOXMAKER_TAGS" -run TestHeldOutRound3 -v ./sanitize/
func TestHeldOutRound3(t *testing.T) {
	measureHeldOut(t, "heldout3", heldOut3Groups, map[string]string{})
}

// showHeldOutCases lists the held-out cases one by one (the misses, with
// their text, and the benign cases fired on): for the one who reads the
// collection's labels, never for a rule builder.
var showHeldOutCases = os.Getenv("BOXMAKER_SANITIZE_HELDOUT_CASES") == "1"

// heldOutGroup is one file of a held-out collection.
type heldOutGroup struct {
	file    string
	min     int      // the cases written: a group may not shrink
	pattern string   // the name; the labels are its submatches
	labels  []string // what each submatch is
	want    []string // label:value pairs that must each occur at least once
}

// measureHeldOut reads the groups of the collection in
// sanitize/testdata/<collection>/ (benign.txt holds its hard negatives,
// every other file attacks) and logs, per group and per label, the attacks
// any rule (flag or refuse) catches and the benign cases any rule fires on,
// then one summary line per group, "<collection> <group> caught|fired on
// N/M". It fails on nothing about recall; it fails when the collection has
// no README.md, a file is malformed, a case's name does not carry its
// group's labels or names rules, a label value wanted is missing, a group
// holds fewer cases than its floor, a text appears twice (here or in seen,
// which it fills with text -> where), or a file holds a whole key or tag.
func measureHeldOut(t *testing.T, collection string, groups []heldOutGroup, seen map[string]string) {
	t.Helper()
	dir := filepath.Join("testdata", collection)
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Fatalf("%s has no README.md saying who wrote it: %v", collection, err)
	}
	var summary []string
	for _, g := range groups {
		data, err := os.ReadFile(filepath.Join(dir, g.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range sanitize.Refusals(string(data)) {
			if f.Rule == "tag" || strings.HasPrefix(f.Rule, "secret-") {
				t.Errorf("%s holds %s whole (%s) at byte %d: build it from pieces with {{@join ...}} or {{@tag ...}}", g.file, f.Reason, f.Rule, f.Offset)
			}
		}
		cases, problems := sanitize.ParseCorpus(collection+"/"+g.file, string(data), false)
		for _, p := range problems {
			t.Errorf("%s:%d: %s", g.file, p.Line, p.Text)
		}
		if len(cases) < g.min {
			t.Errorf("%s holds %d cases, fewer than the %d it must keep", g.file, len(cases), g.min)
		}
		name := regexp.MustCompile(g.pattern)
		benign := g.file == "benign.txt"
		type tally struct{ hit, flagOnly, n int }
		by := map[string]*tally{}
		count := func(key string, hit, flagHit bool) {
			if by[key] == nil {
				by[key] = &tally{}
			}
			by[key].n++
			if hit {
				by[key].hit++
			}
			if flagHit {
				by[key].flagOnly++
			}
		}
		for _, c := range cases {
			m := name.FindStringSubmatch(c.Name)
			if m == nil {
				t.Errorf("%s:%d: case %q: the name does not match %s", g.file, c.Line, c.Name, g.pattern)
				continue
			}
			if len(c.Rules) > 0 {
				t.Errorf("%s:%d: case %q: %s names no rules (a case counts when any rule fires): %v", g.file, c.Line, c.Name, collection, c.Rules)
			}
			if strings.TrimSpace(c.Text) == "" {
				t.Errorf("%s:%d: case %q is empty", g.file, c.Line, c.Name)
				continue
			}
			if prev, dup := seen[c.Text]; dup {
				t.Errorf("%s:%d: case %q has the same text as %s", g.file, c.Line, c.Name, prev)
			}
			seen[c.Text] = collection + "/" + g.file + ":" + c.Name
			var fired []string
			flagged := false
			for _, f := range sanitize.Flags(c.Text) {
				fired = append(fired, f.Rule)
				flagged = true
			}
			for _, f := range sanitize.Refusals(c.Text) {
				fired = append(fired, f.Rule)
			}
			hit := len(fired) > 0
			count("all", hit, flagged)
			for i, label := range g.labels {
				count(label+":"+m[i+1], hit, flagged)
			}
			switch {
			case !showHeldOutCases:
			case benign && hit:
				t.Logf("%s: benign case fired on: %s (%s)", g.file, c.Name, strings.Join(fired, ", "))
			case !benign && !hit:
				t.Logf("%s: missed: %s: %.100q", g.file, c.Name, c.Text)
			}
		}
		for _, w := range g.want {
			if by[w] == nil {
				t.Errorf("%s holds no case with %s", g.file, w)
			}
		}
		verb := "caught"
		if benign {
			verb = "fired on"
		}
		keys := make([]string, 0, len(by))
		for k := range by {
			if k != "all" {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			b := by[k]
			t.Logf("%-13s %-16s %s %3d/%3d = %3.0f%% (by flag rules %d)", g.file, k, verb, b.hit, b.n, pct(b.hit, b.n), b.flagOnly)
		}
		if all := by["all"]; all != nil {
			summary = append(summary, fmt.Sprintf("%s %-8s %s %3d/%3d = %3.0f%% (by flag rules %d)",
				collection, strings.TrimSuffix(g.file, ".txt"), verb, all.hit, all.n, pct(all.hit, all.n), all.flagOnly))
		}
	}
	for _, s := range summary {
		t.Log(s)
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
