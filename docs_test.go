package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The documents these tests hold to their shape.
const (
	decisionsFile = "docs/decisions.md"
	archiveFile   = "docs/decisions-archive.md"
)

// decisionAreas are the headings docs/decisions.md groups its decisions
// under; a test fails when one goes missing, so the file cannot slide back
// into a list in number order.
var decisionAreas = []string{"The house", "Sockets", "The decision path", "Containment", "Evidence", "Taint", "Memory", "Loop", "Gateway", "yaag", "MCP", "Deployment", "Testing", "Recent"}

// maxDecisionWords is the bar of issue 26: a newcomer reads the file whole.
const maxDecisionWords = 10000

// decisionID finds a cited decision: D and one to four digits, a word of
// its own.
var decisionID = regexp.MustCompile(`\bD[0-9]{1,4}\b`)

// decision is one entry of docs/decisions.md: the D numbers its heading
// names, the area it sits under, and its text (heading and paragraph).
type decision struct {
	ids  []string
	area string
	text string
	line int
}

// parseDecisions reads docs/decisions.md's entries ("### D1, D2: what",
// then a paragraph) and reports what breaks the form: an entry outside an
// area, a heading that does not begin with its D numbers, a table row (the
// old form), or a D number headed twice.
func parseDecisions(text string) (entries []decision, problems []string) {
	area := ""
	headed := map[string]int{}
	for n, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			area = strings.TrimPrefix(line, "## ")
		case strings.HasPrefix(line, "### "):
			head, _, ok := strings.Cut(strings.TrimPrefix(line, "### "), ":")
			ids := decisionID.FindAllString(head, -1)
			if !ok || len(ids) == 0 || strings.Trim(decisionID.ReplaceAllString(head, ""), ", ") != "" {
				problems = append(problems, fmt.Sprintf("%s:%d: a decision's heading is \"### D1, D2: what\": %q", decisionsFile, n+1, line))
				continue
			}
			if area == "" {
				problems = append(problems, fmt.Sprintf("%s:%d: %s is under no area heading (## ...)", decisionsFile, n+1, ids[0]))
			}
			for _, id := range ids {
				if first, twice := headed[id]; twice {
					problems = append(problems, fmt.Sprintf("%s:%d: %s is headed again (first on line %d)", decisionsFile, n+1, id, first))
				}
				headed[id] = n + 1
			}
			entries = append(entries, decision{ids: ids, area: area, text: line, line: n + 1})
		case strings.HasPrefix(line, "| D"):
			problems = append(problems, fmt.Sprintf("%s:%d: a table row: write the decision as \"### Dn: what\" and a paragraph under its area (or under Recent)", decisionsFile, n+1))
		case len(entries) > 0 && area == entries[len(entries)-1].area:
			entries[len(entries)-1].text += "\n" + line
		}
	}
	return entries, problems
}

// archivedDecisions are the D numbers of docs/decisions-archive.md's rows,
// which must be in number order, each once.
func archivedDecisions(text string) (ids []string, problems []string) {
	row := regexp.MustCompile(`^\| D([0-9]+) \|`)
	last := 0
	for n, line := range strings.Split(text, "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		num, _ := strconv.Atoi(m[1])
		if num <= last {
			problems = append(problems, fmt.Sprintf("%s:%d: D%d after D%d: the archive is in number order, each row once", archiveFile, n+1, num, last))
		}
		last = num
		ids = append(ids, "D"+m[1])
	}
	return ids, problems
}

// decisionShapeProblems says what is wrong with docs/decisions.md's shape:
// its length, its areas, its entries' form.
func decisionShapeProblems(text string) []string {
	entries, problems := parseDecisions(text)
	if words := len(strings.Fields(text)); words > maxDecisionWords {
		problems = append(problems, fmt.Sprintf("%s has %d words, over %d: say the decisions shorter, or move the ones that do not shape the system to %s", decisionsFile, words, maxDecisionWords, archiveFile))
	}
	for _, area := range decisionAreas {
		if !strings.Contains(text, "\n## "+area+"\n") {
			problems = append(problems, fmt.Sprintf("%s has lost its area heading %q", decisionsFile, "## "+area))
		}
	}
	if len(entries) < 50 {
		problems = append(problems, fmt.Sprintf("%s has %d decisions: the \"### Dn: what\" headings are gone", decisionsFile, len(entries)))
	}
	return problems
}

// TestDecisionsStayShort holds docs/decisions.md to issue 26's bar: at
// most 10,000 words, every decision a "### Dn: what" entry under an area.
func TestDecisionsStayShort(t *testing.T) {
	text, err := os.ReadFile(decisionsFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range decisionShapeProblems(string(text)) {
		t.Error(p)
	}
}

// citation is one D number found in a file.
type citation struct {
	id, where string
}

// skipDirs are folders no citation is looked for in: what the build, the
// tests and npm write, which the repository does not hold.
var skipDirs = []string{".git", ".state", "bin", "node_modules", "gen"}

// findCitations walks the tree under root for D numbers in text files.
func findCitations(root string) ([]citation, error) {
	var found []citation
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && slices.Contains(skipDirs, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil || !info.Mode().IsRegular() || info.Size() > 4<<20 {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.IndexByte(data, 0) >= 0 {
			return nil // not text
		}
		for n, line := range strings.Split(string(data), "\n") {
			for _, id := range decisionID.FindAllString(line, -1) {
				found = append(found, citation{id, fmt.Sprintf("%s:%d", filepath.ToSlash(path), n+1)})
			}
		}
		return nil
	})
	return found, err
}

// unresolved says which citations name a D number that is neither headed
// in docs/decisions.md nor a row of the archive.
func unresolved(cites []citation, headed, archived []string) []string {
	var problems []string
	for _, c := range cites {
		if !slices.Contains(headed, c.id) && !slices.Contains(archived, c.id) {
			problems = append(problems, fmt.Sprintf("%s: cites %s, which is neither a heading of %s nor a row of %s", c.where, c.id, decisionsFile, archiveFile))
		}
	}
	return problems
}

// TestCitedDecisionsResolve fails when a D number cited anywhere in the
// repository (code comments, docs, tests, scripts) leads nowhere.
func TestCitedDecisionsResolve(t *testing.T) {
	decisions, err := os.ReadFile(decisionsFile)
	if err != nil {
		t.Fatal(err)
	}
	archive, err := os.ReadFile(archiveFile)
	if err != nil {
		t.Fatal(err)
	}
	entries, problems := parseDecisions(string(decisions))
	var headed []string
	for _, e := range entries {
		headed = append(headed, e.ids...)
	}
	archived, more := archivedDecisions(string(archive))
	problems = append(problems, more...)
	if len(archived) < 300 {
		t.Fatalf("%s has %d rows: the pattern no longer finds them", archiveFile, len(archived))
	}
	cites, err := findCitations(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(cites) < 200 {
		t.Fatalf("found %d citations: the walk no longer finds them", len(cites))
	}
	problems = append(problems, unresolved(cites, headed, archived)...)
	for _, p := range problems {
		t.Error(p)
	}
}

// TestDecisionRulesFail shows each rule finding what it is for.
func TestDecisionRulesFail(t *testing.T) {
	text := "# Decisions\n\n### D1: before any area\n\n## Loop\n\n### D2, D3: ok\nwhy.\n\n### Not a decision\n\n### D2: twice\n| D4 | a row | why |\n"
	entries, problems := parseDecisions(text)
	if len(entries) != 3 {
		t.Errorf("parsed %d entries, want 3: %+v", len(entries), entries)
	}
	want := []string{
		"docs/decisions.md:3: D1 is under no area heading (## ...)",
		`docs/decisions.md:10: a decision's heading is "### D1, D2: what": "### Not a decision"`,
		"docs/decisions.md:12: D2 is headed again (first on line 7)",
		`docs/decisions.md:13: a table row: write the decision as "### Dn: what" and a paragraph under its area (or under Recent)`,
	}
	if !slices.Equal(problems, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
	long := strings.Repeat("word ", maxDecisionWords+1)
	if p := decisionShapeProblems(long); len(p) != len(decisionAreas)+2 || !strings.Contains(p[0], "words, over") {
		t.Errorf("a long file without areas or entries: %q", p)
	}
	if _, p := archivedDecisions("| D2 | a | b |\n| D1 | a | b |\n"); len(p) != 1 {
		t.Errorf("an archive out of order: %q", p)
	}
	got := unresolved([]citation{{"D2", "a.go:1"}, {"D9", "b.go:4"}, {"D7", "c.md:2"}}, []string{"D2"}, []string{"D7"})
	if len(got) != 1 || !strings.HasPrefix(got[0], "b.go:4: cites D9") {
		t.Errorf("unresolved: %q", got)
	}
}
