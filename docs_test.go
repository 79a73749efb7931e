package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
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
// which must be in number order, each once, and of the paragraphs moved
// there whole.
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
	// A paragraph moved whole from decisions.md keeps its heading
	// ("### D1, D2: what") in the archive, after the rows: it is where
	// its numbers lead.
	for _, h := range archivedHeadings(text) {
		ids = append(ids, h.id)
	}
	return ids, problems
}

// archivedHeading is one D number of a paragraph moved whole to the
// archive, with the line of its heading.
type archivedHeading struct {
	id   string
	line int
}

// archivedHeadings reads the "### D1, D2: what" headings of the archive.
func archivedHeadings(text string) []archivedHeading {
	heading := regexp.MustCompile(`^### (D[0-9]+(?:, D[0-9]+)*): `)
	var found []archivedHeading
	for n, line := range strings.Split(text, "\n") {
		if m := heading.FindStringSubmatch(line); m != nil {
			for _, id := range strings.Split(m[1], ", ") {
				found = append(found, archivedHeading{id, n + 1})
			}
		}
	}
	return found
}

// headedTwice says which D numbers the archive heads more than once (a
// rebase that kept both sides of a move leaves two). A number may be headed
// both here and in docs/decisions.md: the archive keeps the whole paragraph
// of the day, decisions.md its shortened form; when the short form leaves
// decisions.md too, the whole one already says it.
func headedTwice(archive string) []string {
	var problems []string
	first := map[string]int{}
	for _, h := range archivedHeadings(archive) {
		if line, ok := first[h.id]; ok {
			problems = append(problems, fmt.Sprintf("%s:%d: %s is headed again (first on line %d): keep one", archiveFile, h.line, h.id, line))
			continue
		}
		first[h.id] = h.line
	}
	return problems
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
	problems = append(problems, headedTwice(string(archive))...)
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
	twice := headedTwice("### D3: a\n### D4, D5: b\n### D3: a again\n")
	if len(twice) != 1 || !strings.Contains(twice[0], ":3: D3 is headed again (first on line 1)") {
		t.Errorf("headedTwice: %q", twice)
	}
	got := unresolved([]citation{{"D2", "a.go:1"}, {"D9", "b.go:4"}, {"D7", "c.md:2"}}, []string{"D2"}, []string{"D7"})
	if len(got) != 1 || !strings.HasPrefix(got[0], "b.go:4: cites D9") {
		t.Errorf("unresolved: %q", got)
	}
}

// maxPerformanceLines is issue 26's bar for docs/performance.md: the
// current figures only, the dated rounds in docs/bench/.
const maxPerformanceLines = 450

// performanceProblems says what is wrong with docs/performance.md: over
// its length, or a measure's section (## ...) without a command that gives
// its figures.
func performanceProblems(text string) []string {
	var problems []string
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > maxPerformanceLines {
		problems = append(problems, fmt.Sprintf("docs/performance.md has %d lines, over %d: keep the current figure of each measure and move the rounds it replaces to docs/bench/<measure>.md", len(lines), maxPerformanceLines))
	}
	sections := 0
	for _, section := range strings.Split(text, "\n## ")[1:] {
		sections++
		title, body, _ := strings.Cut(section, "\n")
		if !strings.Contains(body, "go test ") {
			problems = append(problems, fmt.Sprintf("docs/performance.md: the section %q gives no command (go test ...) for its figures", title))
		}
	}
	if sections < 8 {
		problems = append(problems, fmt.Sprintf("docs/performance.md has %d sections: one for each measure is the form", sections))
	}
	return problems
}

// benchPath finds a path into docs/bench/ named in a text (a raw output, a
// history, a folder); a * in it is a glob.
var benchPath = regexp.MustCompile(`docs/bench/[A-Za-z0-9._*/-]*[A-Za-z0-9_*/]`)

// TestPerformanceStaysShort holds docs/performance.md to issue 26's bar,
// and every path into docs/bench/ that the repository names to a file or
// folder that is there.
func TestPerformanceStaysShort(t *testing.T) {
	text, err := os.ReadFile("docs/performance.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range performanceProblems(string(text)) {
		t.Error(p)
	}
	named := 0
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && slices.Contains(skipDirs, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".md") && !strings.HasSuffix(path, ".go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for n, line := range strings.Split(string(data), "\n") {
			for _, p := range benchPath.FindAllString(line, -1) {
				named++
				if m, _ := filepath.Glob(strings.TrimSuffix(p, "/")); len(m) == 0 {
					t.Errorf("%s:%d: names %s, which is not there", path, n+1, p)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if named < 10 {
		t.Errorf("found %d paths into docs/bench/: the pattern no longer finds them", named)
	}
}

// TestPerformanceRulesFail shows the checks finding a long page and a
// section without its command.
func TestPerformanceRulesFail(t *testing.T) {
	long := "# Performance\n\n## Decisions\n\n    go test ./core/policy\n\n## Recall\n\nfigures, no command\n" + strings.Repeat("a line\n", maxPerformanceLines)
	got := performanceProblems(long)
	if len(got) != 3 || !strings.Contains(got[0], "lines, over 450") || !strings.Contains(got[1], `"Recall" gives no command`) || !strings.Contains(got[2], "2 sections") {
		t.Errorf("problems: %q", got)
	}
}

// markdownLink finds a Markdown link's target.
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocsIndexListsEveryDocument holds docs/README.md, the index, to a
// link to every Markdown document under docs/, and every relative link of
// the documents under docs/ (the index's included) to a file that is there.
func TestDocsIndexListsEveryDocument(t *testing.T) {
	index, err := os.ReadFile("docs/README.md")
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	var docs []string
	err = filepath.WalkDir("docs", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		docs = append(docs, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for n, line := range strings.Split(string(data), "\n") {
			for _, m := range markdownLink.FindAllStringSubmatch(line, -1) {
				target, _, _ := strings.Cut(m[1], "#")
				if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				resolved := filepath.Join(filepath.Dir(path), target)
				if _, err := os.Stat(resolved); err != nil {
					t.Errorf("%s:%d: links to %s, which is not there", path, n+1, m[1])
				}
				if path == "docs/README.md" {
					linked[filepath.ToSlash(resolved)] = true
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 20 || len(index) == 0 {
		t.Fatalf("found %d documents under docs/", len(docs))
	}
	for _, d := range docs {
		if d != "docs/README.md" && !linked[filepath.ToSlash(d)] {
			t.Errorf("docs/README.md does not list %s: add a row saying which question it answers", d)
		}
	}
}

// corePackages are the directories under core/ that hold a package of the
// module (a non-test .go file), nested modules left out.
func corePackages() ([]string, error) {
	var pkgs []string
	err := filepath.WalkDir("core", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if slices.Contains(skipDirs, d.Name()) || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a module of its own
			}
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") && !slices.Contains(pkgs, dir) {
			pkgs = append(pkgs, dir)
		}
		return nil
	})
	return pkgs, err
}

// coreKinds reads core/README.md: each listed package ("- `core/x`: ...")
// and the kind (## heading) it is listed under.
func coreKinds(text string) map[string][]string {
	kinds := map[string][]string{}
	kind := ""
	item := regexp.MustCompile("^- `(core/[a-z0-9/]+)`")
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "## ") {
			kind = strings.TrimPrefix(line, "## ")
		} else if m := item.FindStringSubmatch(line); m != nil && kind != "" {
			kinds[m[1]] = append(kinds[m[1]], kind)
		}
	}
	return kinds
}

// kindProblems says what breaks core/README.md's rules: a package listed
// under no kind or several, a listed one that is not there, a leaf that
// imports what is not a leaf, an engine imported by what is not a role.
// imports maps each package of the module (as core/x, roles/x, ...) to the
// module's packages it imports.
func kindProblems(pkgs []string, kinds map[string][]string, imports map[string][]string) []string {
	var problems []string
	for _, p := range pkgs {
		switch k := kinds[p]; len(k) {
		case 0:
			problems = append(problems, "core/README.md does not list "+p+": add it under its kind (Engines, Parts, Wires, Leaves, Test support)")
		case 1:
		default:
			problems = append(problems, fmt.Sprintf("core/README.md lists %s %d times (%s)", p, len(k), strings.Join(k, ", ")))
		}
	}
	var listed []string
	for p := range kinds {
		listed = append(listed, p)
	}
	slices.Sort(listed)
	for _, p := range listed {
		if !slices.Contains(pkgs, p) {
			problems = append(problems, "core/README.md lists "+p+", which is no package of the module")
		}
	}
	isKind := func(p, kind string) bool { return slices.Contains(kinds[p], kind) }
	var importers []string
	for p := range imports {
		importers = append(importers, p)
	}
	slices.Sort(importers)
	for _, p := range importers {
		for _, q := range imports[p] {
			if isKind(p, "Leaves") && strings.HasPrefix(q, "core/") && !isKind(q, "Leaves") {
				problems = append(problems, fmt.Sprintf("%s is a leaf and imports %s, which is not one", p, q))
			}
			if isKind(q, "Engines") && !strings.HasPrefix(p, "roles/") && !isKind(p, "Test support") {
				problems = append(problems, fmt.Sprintf("%s imports the engine %s: only a role (or test support) may", p, q))
			}
		}
	}
	return problems
}

// TestCoreREADMEListsEveryPackage holds core/README.md to the packages of
// core/, each under one kind, and the leaves and engines to their rules.
func TestCoreREADMEListsEveryPackage(t *testing.T) {
	text, err := os.ReadFile("core/README.md")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := corePackages()
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 40 {
		t.Fatalf("found %d packages under core/", len(pkgs))
	}
	out, err := exec.Command("go", "list", "-tags", os.Getenv("BOXMAKER_TAGS"), "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		var mine []string
		for _, q := range fields[1:] {
			if rest, ok := strings.CutPrefix(q, "boxmaker/"); ok {
				mine = append(mine, rest)
			}
		}
		imports[strings.TrimPrefix(fields[0], "boxmaker/")] = mine
	}
	for _, p := range kindProblems(pkgs, coreKinds(string(text)), imports) {
		t.Error(p)
	}
}

// TestKindRulesFail shows each of core/README.md's rules finding what it
// is for.
func TestKindRulesFail(t *testing.T) {
	readme := "# core/\n\n## Engines\n\n- `core/e`: x\n\n## Parts\n\n- `core/d`: x\n\n## Leaves\n\n- `core/l`: x\n- `core/d`: again\n- `core/gone`: x\n"
	imports := map[string][]string{"core/l": {"core/p", "runbook"}, "core/p": {"core/e"}, "roles/r": {"core/e"}}
	got := kindProblems([]string{"core/e", "core/l", "core/d", "core/p"}, coreKinds(readme), imports)
	want := []string{
		"core/README.md lists core/d 2 times (Parts, Leaves)",
		"core/README.md does not list core/p: add it under its kind (Engines, Parts, Wires, Leaves, Test support)",
		"core/README.md lists core/gone, which is no package of the module",
		"core/l is a leaf and imports core/p, which is not one",
		"core/p imports the engine core/e: only a role (or test support) may",
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// conflictMarker is the start of a line git writes around the two sides of
// a conflict; one landed once in docs/performance.md (3d2c4fe) and passed
// vet, gofmt and the gate, which read no Markdown.
var conflictMarker = regexp.MustCompile(`(?m)^(<<<<<<<|>>>>>>>)( |$)`)

// TestNoConflictMarkers fails on a tracked file holding a line that begins
// as git's conflict markers do.
func TestNoConflictMarkers(t *testing.T) {
	out, err := exec.Command("git", "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		data, err := os.ReadFile(name)
		if err != nil || bytes.IndexByte(data, 0) >= 0 {
			continue // deleted in the work tree, or not text
		}
		if loc := conflictMarker.FindIndex(data); loc != nil {
			t.Errorf("%s:%d: a conflict marker (%q): resolve the merge", name, 1+bytes.Count(data[:loc[0]], []byte("\n")), data[loc[0]:loc[1]])
		}
	}
}

func TestConflictMarkerIsFound(t *testing.T) {
	for text, want := range map[string]bool{
		"a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> 3d2c4fe\n": true,
		"x\n>>>>>>>\n":           true,
		"a <<<<<<< b\n":          false,
		"<<<<<<<<\n>>>>>>>>>x\n": false,
	} {
		if got := conflictMarker.MatchString(text); got != want {
			t.Errorf("%q: found %v, want %v", text, got, want)
		}
	}
}
