package sanitize_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"

	"boxmaker/sanitize"
)

// TestHeldOutRecall reports, per family (a case's name up to its first
// hyphen), the share of the held-out attack cases
// (sanitize/testdata/heldout/attack.txt) that one of the rules the case
// names catches, and the number of held-out benign cases
// (heldout/codework.txt) that any rule fires on. It fails on nothing: the
// cases were kept out of the rules' development, a miss stays a miss, and
// the figures go to docs/performance.md. Run with -v to see them:
//
//	go test -run TestHeldOutRecall -v ./sanitize/
func TestHeldOutRecall(t *testing.T) {
	read := func(name string) []sanitize.Case {
		data, err := os.ReadFile(filepath.Join("testdata", "heldout", name))
		if err != nil {
			t.Fatal(err)
		}
		cases, problems := sanitize.ParseCorpus("heldout/"+name, string(data), false)
		if len(problems) > 0 {
			t.Fatal(problems)
		}
		return cases
	}
	fired := func(text string) map[string]bool {
		out := map[string]bool{}
		for _, f := range append(sanitize.Refusals(text), sanitize.Flags(text)...) {
			out[f.Rule] = true
		}
		return out
	}
	family := func(name string) string { f, _, _ := strings.Cut(name, "-"); return f }
	caught, byAny, total := map[string]int{}, map[string]int{}, map[string]int{}
	for _, c := range read(sanitize.AttackCorpus) {
		f := family(c.Name)
		total[f]++
		got := fired(c.Text)
		named := false
		for _, r := range c.Rules {
			named = named || got[r]
		}
		switch {
		case named:
			caught[f]++
			byAny[f]++
		case len(got) > 0:
			byAny[f]++
			t.Logf("missed: %s (caught only by another rule: %v)", c.Name, keys(got))
		default:
			t.Logf("missed: %s", c.Name)
		}
	}
	benign, fp := map[string]int{}, map[string]int{}
	for _, c := range read(sanitize.CodeWorkCorpus) {
		f := family(c.Name)
		benign[f]++
		if got := fired(c.Text); len(got) > 0 {
			fp[f]++
			t.Logf("benign case fired on: %s (%v)", c.Name, keys(got))
		}
	}
	var families []string
	for f := range total {
		families = append(families, f)
	}
	sort.Strings(families)
	for _, f := range families {
		t.Logf("recall %-6s %2d/%2d = %3.0f%% (by any rule %2d/%2d); benign fired on %d/%d",
			f, caught[f], total[f], 100*float64(caught[f])/float64(total[f]), byAny[f], total[f], fp[f], benign[f])
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestCodeWorkFalsePositives holds the flag rules to at most 0.1 % of the
// paragraphs of code work, and the secret and tag rules to none (each is
// an error): the code-work
// corpus and the Go distribution's own source and documents (Go, Markdown,
// HTML, JavaScript, shell), split at blank lines. CI reads the first 2 MB of
// the distribution; BOXMAKER_SANITIZE_FP_BYTES raises it (the figures in
// docs/performance.md are for 40 MB), and BOXMAKER_SANITIZE_FP_DIRS (a
// list of directories, as PATH) adds more code work: Python, TypeScript,
// reStructuredText, JSON, YAML, TOML and CSS files too. Each rule's count
// is logged (-v).
func TestCodeWorkFalsePositives(t *testing.T) {
	limit := 2 << 20
	if v := os.Getenv("BOXMAKER_SANITIZE_FP_BYTES"); v != "" {
		fmt.Sscan(v, &limit)
	}
	var paras []string
	data, err := os.ReadFile(filepath.Join("testdata", sanitize.CodeWorkCorpus))
	if err != nil {
		t.Fatal(err)
	}
	cases, _ := sanitize.ParseCorpus("codework.txt", string(data), false)
	for _, c := range cases {
		paras = append(paras, strings.Split(c.Text, "\n\n")...)
	}
	roots := []string{filepath.Join(runtime.GOROOT(), "src")}
	if v := os.Getenv("BOXMAKER_SANITIZE_FP_DIRS"); v != "" {
		// More code work, at full size only: each directory is read
		// after the Go distribution, up to the same byte limit each.
		roots = append(roots, filepath.SplitList(v)...)
	}
	read, total := 0, 0
	for _, root := range roots {
		read = 0
		for _, p := range treeFiles(root, ".go", ".md", ".html", ".js", ".sh", ".py", ".rst", ".txt", ".json", ".yml", ".yaml", ".toml", ".ts", ".css") {
			if read >= limit {
				break
			}
			b, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			read += len(b)
			total += len(b)
			paras = append(paras, strings.Split(string(b), "\n\n")...)
		}
	}
	n, flagged, refused, byRule := 0, 0, 0, map[string]int{}
	for _, p := range paras {
		if strings.TrimSpace(p) == "" {
			continue
		}
		n++
		for _, r := range sanitize.Refusals(p) {
			// The character rules fire on the character itself: three
			// paragraphs of the Go distribution hold a raw zero-width
			// space or private-use character, which memory refuses by
			// design (docs/specs/sanitizer.md 6.1). A secret or a tag
			// found in code work is a false positive.
			if r.Rule == "tag" || strings.HasPrefix(r.Rule, "secret-") {
				t.Errorf("refuse rule %s fires on code work: %.120q", r.Rule, p[r.Offset:])
			} else {
				t.Logf("refused for the character itself (%s): %.80q", r.Rule, p[r.Offset:])
			}
			refused++
		}
		fs := sanitize.Flags(p)
		if len(fs) > 0 {
			flagged++
		}
		for _, f := range fs {
			byRule[f.Rule]++
			t.Logf("%s on %.120q", f.Rule, p[f.Offset:])
		}
	}
	for _, r := range sanitize.Rules() {
		if r.Kind == "flag" {
			t.Logf("false positives %-28s %d of %d paragraphs (%.3f%%)", r.Name, byRule[r.Name], n, 100*float64(byRule[r.Name])/float64(n))
		}
	}
	t.Logf("flagged %d of %d paragraphs (%.3f%%), refused %d, %d bytes of the Go distribution and %v", flagged, n, 100*float64(flagged)/float64(n), refused, total, roots[1:])
	if flagged*1000 > n {
		t.Errorf("flag rules fire on %d of %d code-work paragraphs, over 0.1%% (issue 28's bar)", flagged, n)
	}
}

// The corpora hold, for each family of attack, at least 40 attack cases
// and as many benign look-alikes, a third of each held out; and, for the
// family of other languages, attack and benign cases in each of the twelve
// languages of the lexicons, developed and held out; and for issue 28's
// family intl (the lexicon files' new sections), attack and benign cases
// in each of its twelve languages, developed or held out.
func TestCorporaFamilies(t *testing.T) {
	count := func(file string) map[string][]string {
		data, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		cases, problems := sanitize.ParseCorpus(file, string(data), false)
		if len(problems) > 0 {
			t.Fatal(problems)
		}
		out := map[string][]string{}
		for _, c := range cases {
			family, _, _ := strings.Cut(c.Name, "-")
			out[family] = append(out[family], c.Name)
		}
		return out
	}
	attack, heldAttack := count(sanitize.AttackCorpus), count(filepath.Join("heldout", sanitize.AttackCorpus))
	benign, heldBenign := count(sanitize.CodeWorkCorpus), count(filepath.Join("heldout", sanitize.CodeWorkCorpus))
	for _, family := range []string{"para", "lang", "data", "auth", "enc", "split", "exfil", "many", "intl", "insert", "leak", "secret", "override", "delim", "standing", "cipher", "carrier", "gpass", "hijack", "roleplay", "gextract"} {
		for _, kind := range []struct {
			what      string
			dev, held []string
		}{{"attack", attack[family], heldAttack[family]}, {"benign", benign[family], heldBenign[family]}} {
			total := len(kind.dev) + len(kind.held)
			t.Logf("%-5s %s: %d developed, %d held out", family, kind.what, len(kind.dev), len(kind.held))
			if total < 40 {
				t.Errorf("family %s has %d %s cases, fewer than 40", family, total, kind.what)
			}
			if 3*len(kind.held) < total {
				t.Errorf("family %s holds out %d of its %d %s cases, less than a third", family, len(kind.held), total, kind.what)
			}
		}
	}
	// lang-<code>-..., lang-ok-<code>-..., lang-h<n>-<code>, lang-b<n>-<code>.
	numbered := regexp.MustCompile(`^(?:h|b|hb)[0-9]+$`)
	language := func(name string) string {
		parts := strings.Split(name, "-")
		if len(parts) > 2 && (parts[1] == "ok" || numbered.MatchString(parts[1])) {
			return parts[2]
		}
		return parts[1]
	}
	for _, set := range []struct {
		what  string
		names []string
	}{{"attack", attack["lang"]}, {"held-out attack", heldAttack["lang"]}, {"benign", benign["lang"]}, {"held-out benign", heldBenign["lang"]}} {
		seen := map[string]bool{}
		for _, n := range set.names {
			seen[language(n)] = true
		}
		for _, code := range []string{"ru", "zh", "es", "de", "fr", "pt", "ja", "ko", "ar", "hi", "it", "tr"} {
			if !seen[code] {
				t.Errorf("no %s case in %s (lang-...-%s)", set.what, code, code)
			}
		}
	}
	for _, set := range []struct {
		what  string
		names []string
	}{{"intl attack", append(attack["intl"], heldAttack["intl"]...)}, {"intl benign", append(benign["intl"], heldBenign["intl"]...)}} {
		seen := map[string]bool{}
		for _, n := range set.names {
			seen[language(n)] = true
		}
		for _, code := range []string{"es", "fr", "de", "it", "pt", "ru", "el", "hi", "ja", "zh", "ar", "id"} {
			if !seen[code] {
				t.Errorf("no %s case in %s (intl-...-%s)", set.what, code, code)
			}
		}
	}
}
