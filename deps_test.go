package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/role"
)

// testOnly are the packages for tests alone: test peers (the fakes of
// what cannot run here) and test support. Production code imports none.
var testOnly = []string{"boxmaker/core/testpeer/", "boxmaker/core/testsupport"}

// reviewedModules are the module's direct dependencies, each with the
// decision that says why it is one (docs/decisions.md). A new direct
// dependency fails TestDirectDependenciesAreReviewed until it is listed
// here and a decision of docs/decisions.md names it. testOnly modules are for
// tests (and code generators) only: production code imports none.
var reviewedModules = []reviewedModule{
	{"github.com/coder/websocket", false},
	{"github.com/dop251/goja", false},
	{"github.com/evanw/esbuild", false},
	{"github.com/google/go-cmp", true},
	{"github.com/mattn/go-sqlite3", false},
	{"github.com/modelcontextprotocol/go-sdk", false},
	{"github.com/mtibben/confusables", true},
	{"github.com/pelletier/go-toml/v2", false},
	{"github.com/rogpeppe/go-internal", true},
	{"github.com/santhosh-tekuri/jsonschema/v6", false},
	{"github.com/urfave/cli/v2", false},
	{"golang.org/x/sys", false},
	{"golang.org/x/term", false},
	{"golang.org/x/text", false},
}

type reviewedModule struct {
	path     string
	testOnly bool
}

// generators are production-tree packages that only write code (go
// generate): they may use a test-only module.
var generators = []string{"boxmaker/sanitize/internal/lookalikegen"}

// TestDependencies holds the layering: core/ and the libraries import no
// role; a role imports no other role (only roles/rolecli, what they share);
// one package alone imports go-sqlite3; production code imports no testing,
// no test peer or test support (testOnly), and no test-only module.
func TestDependencies(t *testing.T) {
	cmd := exec.Command("go", "list", "-json", "-tags", os.Getenv("BOXMAKER_TAGS"), "./...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 5 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	for _, problem := range importProblems(pkgs) {
		t.Error(problem)
	}
}

// listedPackage is what go list -json says of a package: its imports
// outside its tests.
type listedPackage struct {
	ImportPath string
	Imports    []string
}

// importProblems are the imports of pkgs that break TestDependencies'
// rules.
func importProblems(pkgs []listedPackage) []string {
	var problems, sqliteUsers []string
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			switch {
			case (imp == "testing" || strings.HasPrefix(imp, "testing/")) && !isTestOnly(p.ImportPath):
				problems = append(problems, fmt.Sprintf("%s imports %s outside its tests", p.ImportPath, imp))
			case isTestOnly(imp) && !isTestOnly(p.ImportPath):
				problems = append(problems, fmt.Sprintf("%s imports %s: test peers and test support are for tests only", p.ImportPath, imp))
			case testOnlyModule(imp) != "" && !slices.Contains(generators, p.ImportPath):
				problems = append(problems, fmt.Sprintf("%s imports %s: the module %s is for tests only (reviewedModules)", p.ImportPath, imp, testOnlyModule(imp)))
			case imp == "github.com/mattn/go-sqlite3":
				sqliteUsers = append(sqliteUsers, p.ImportPath)
			case strings.HasPrefix(imp, "boxmaker/roles/"):
				if problem := roleImport(p.ImportPath, imp); problem != "" {
					problems = append(problems, fmt.Sprintf("%s imports %s: %s", p.ImportPath, imp, problem))
				}
			}
		}
	}
	if len(sqliteUsers) > 1 {
		problems = append(problems, fmt.Sprintf("more than one package imports go-sqlite3: %v", sqliteUsers))
	}
	return problems
}

func isTestOnly(pkg string) bool {
	for _, prefix := range testOnly {
		if strings.HasPrefix(pkg, prefix) {
			return true
		}
	}
	return false
}

// testOnlyModule is the test-only module pkg belongs to, or "".
func testOnlyModule(pkg string) string {
	for _, m := range reviewedModules {
		if m.testOnly && (pkg == m.path || strings.HasPrefix(pkg, m.path+"/")) {
			return m.path
		}
	}
	return ""
}

// TestDirectDependenciesAreReviewed holds go.mod's direct requirements to
// the reviewed list, and each to a decision that names it, in
// docs/decisions.md or moved whole to docs/decisions-archive.md.
func TestDirectDependenciesAreReviewed(t *testing.T) {
	out, err := exec.Command("go", "mod", "edit", "-json").Output()
	if err != nil {
		t.Fatalf("go mod edit -json: %v", err)
	}
	var mod struct {
		Require []struct {
			Path     string
			Indirect bool
		}
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatal(err)
	}
	// A decision moved whole to the archive (its "### Dn:" paragraph
	// kept) still names what it named.
	var decisions []byte
	for _, f := range []string{"docs/decisions.md", "docs/decisions-archive.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		decisions = append(append(decisions, b...), '\n')
	}
	var direct []string
	for _, r := range mod.Require {
		if !r.Indirect {
			direct = append(direct, r.Path)
		}
	}
	if len(direct) < 5 {
		t.Fatalf("go.mod has only %d direct requirements: %v", len(direct), direct)
	}
	for _, problem := range dependencyProblems(direct, reviewedModules, string(decisions)) {
		t.Error(problem)
	}
}

// dependencyProblems are what is wrong with the direct requirements
// against the reviewed list and the decision rows.
func dependencyProblems(direct []string, reviewed []reviewedModule, decisions string) []string {
	var problems []string
	for _, path := range direct {
		if !slices.ContainsFunc(reviewed, func(m reviewedModule) bool { return m.path == path }) {
			problems = append(problems, path+" is a direct dependency that is not reviewed: add it to reviewedModules with a decision in docs/decisions.md that says why a library does this better than our code")
		}
	}
	for _, m := range reviewed {
		if !slices.Contains(direct, m.path) {
			problems = append(problems, "reviewedModules lists "+m.path+", which go.mod no longer requires directly: take it off the list")
		}
		if !decisionNames(decisions, m.path) {
			problems = append(problems, "no decision of docs/decisions.md names "+m.path+": say why it is a dependency")
		}
	}
	return problems
}

// decisionNames reports whether a decision of docs/decisions.md (a
// "### Dn: what" entry and its paragraph, docs_test.go) names the module.
func decisionNames(decisions, module string) bool {
	entries, _ := parseDecisions(decisions)
	for _, e := range entries {
		if strings.Contains(e.text, module) {
			return true
		}
	}
	return false
}

// roleImport says what is wrong with importer importing a roles/ package,
// or "" when it is allowed.
func roleImport(importer, imported string) string {
	switch {
	case importer == "boxmaker":
		return "" // main dispatches to every role
	case !strings.HasPrefix(importer, "boxmaker/roles/"):
		return "only main and the roles may import a role package"
	case imported == "boxmaker/roles/rolecli":
		return ""
	default:
		return "a role never imports another role"
	}
}

func TestRoleImportRule(t *testing.T) {
	for _, tt := range []struct {
		importer, imported string
		ok                 bool
	}{
		{"boxmaker", "boxmaker/roles/brokerd", true},
		{"boxmaker/roles/brokerd", "boxmaker/roles/rolecli", true},
		{"boxmaker/roles/brokerd", "boxmaker/roles/loopd", false},
		{"boxmaker/core/daemon", "boxmaker/roles/rolecli", false},
		{"boxmaker/sanitize", "boxmaker/roles/bxctl", false},
	} {
		if got := roleImport(tt.importer, tt.imported) == ""; got != tt.ok {
			t.Errorf("%s -> %s: allowed=%v, want %v", tt.importer, tt.imported, got, tt.ok)
		}
	}
}

// The rules fail where they should: each kind of import and requirement
// they forbid, given as go list and go.mod would give it, is a problem,
// and the allowed ones are none.
func TestDependencyRulesFail(t *testing.T) {
	imports := []listedPackage{
		{"boxmaker/core/broker", []string{"boxmaker/core/testsupport", "boxmaker/audit"}},
		{"boxmaker/core/gateway", []string{"boxmaker/core/testpeer/fakemattermost"}},
		{"boxmaker/core/loop", []string{"testing"}},
		{"boxmaker/roles/bxctl", []string{"github.com/google/go-cmp/cmp", "boxmaker/roles/rolecli"}},
		{"boxmaker/core/recall", []string{"github.com/mattn/go-sqlite3"}},
		{"boxmaker/core/memory", []string{"github.com/mattn/go-sqlite3"}},
		{"boxmaker/roles/loopd", []string{"boxmaker/roles/brokerd"}},
		// Allowed: test support may use testing and test peers, a
		// generator a test-only module.
		{"boxmaker/core/testsupport", []string{"testing"}},
		{"boxmaker/core/testpeer/fakehoncho", []string{"boxmaker/core/testsupport", "testing"}},
		{"boxmaker/sanitize/internal/lookalikegen", []string{"github.com/mtibben/confusables"}},
	}
	want := []string{
		"boxmaker/core/broker imports boxmaker/core/testsupport: test peers and test support are for tests only",
		"boxmaker/core/gateway imports boxmaker/core/testpeer/fakemattermost: test peers and test support are for tests only",
		"boxmaker/core/loop imports testing outside its tests",
		"boxmaker/roles/bxctl imports github.com/google/go-cmp/cmp: the module github.com/google/go-cmp is for tests only (reviewedModules)",
		"boxmaker/roles/loopd imports boxmaker/roles/brokerd: a role never imports another role",
		"more than one package imports go-sqlite3: [boxmaker/core/recall boxmaker/core/memory]",
	}
	if diff := cmp.Diff(want, importProblems(imports)); diff != "" {
		t.Errorf("import problems (-want +got):\n%s", diff)
	}

	reviewed := []reviewedModule{{"github.com/urfave/cli/v2", false}, {"github.com/gone/away", false}, {"github.com/undecided/lib", false}}
	decisions := "# Decisions\n\nprose naming github.com/undecided/lib is no decision\n\n## The house\n\n### D1: urfave\ngithub.com/urfave/cli/v2 for flags.\n\n### D2: gone\ngithub.com/gone/away\n"
	want = []string{
		"example.com/new is a direct dependency that is not reviewed: add it to reviewedModules with a decision in docs/decisions.md that says why a library does this better than our code",
		"reviewedModules lists github.com/gone/away, which go.mod no longer requires directly: take it off the list",
		"no decision of docs/decisions.md names github.com/undecided/lib: say why it is a dependency",
	}
	got := dependencyProblems([]string{"github.com/urfave/cli/v2", "example.com/new", "github.com/undecided/lib"}, reviewed, decisions)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dependency problems (-want +got):\n%s", diff)
	}
}

// linkRules are packages that must not link certain others (their
// dependencies, transitive, outside tests), each with why.
var linkRules = []linkRule{
	{"boxmaker/runbook", []string{"go/parser", "go/types"},
		"every daemon links runbook; the gate, which parses Go source, lives in runbook/gate, which only `boxmaker gate` imports"},
	{"boxmaker/core/broker", yaagEngine, noYaagEngine},
	{"boxmaker/roles/brokerd", yaagEngine, noYaagEngine},
	{"boxmaker/core/approval", yaagEngine, noYaagEngine},
	{"boxmaker/core/yaagwire", yaagEngine, "the wire is a leaf: it imports no yaag package, no goja, no esbuild"},
	{"boxmaker/core/broker", mcpProtocol, noMCPProtocol},
	{"boxmaker/core/approval", mcpProtocol, noMCPProtocol},
	{"boxmaker/core/brokerwire", mcpProtocol, noMCPProtocol},
	{"boxmaker/core/loop", mcpProtocol, "loopd offers the MCP tools brokerd lists on its tool socket (mcp.tools); it speaks no MCP"},
}

// mcpProtocol is the MCP SDK and the package that speaks through it.
var mcpProtocol = []string{"github.com/modelcontextprotocol/", "boxmaker/core/mcp", "boxmaker/core/mcpserve"}

// noMCPProtocol is why the decision path links none of mcpProtocol.
const noMCPProtocol = "brokerd decides an MCP call on the grants and runs it through core/broker's MCP interface (core/mcpserve implements it); only core/mcp speaks the protocol"

// yaagEngine are yaag's own packages and the JavaScript runtime and
// bundler they link.
var yaagEngine = []string{"boxmaker/core/yaag/", "github.com/dop251/", "github.com/evanw/esbuild/"}

// noYaagEngine is why brokerd links none of yaagEngine.
const noYaagEngine = "brokerd decides on a Run and starts it in a container (yaag run --manifest gives it the files); what it needs of a Run is core/yaagwire's, and only yaag's own packages link goja and esbuild"

// linkRule forbids pkg to link any package of forbidden (a package path,
// or a prefix of paths ending in "/").
type linkRule struct {
	pkg       string
	forbidden []string
	why       string
}

// TestPackagesLinkOnlyWhatTheyNeed holds linkRules against go list -deps.
func TestPackagesLinkOnlyWhatTheyNeed(t *testing.T) {
	for _, r := range linkRules {
		out, err := exec.Command("go", "list", "-deps", "-tags", os.Getenv("BOXMAKER_TAGS"), r.pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", r.pkg, err)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, r.pkg) {
			t.Fatalf("go list -deps %s does not list %s itself: %q", r.pkg, r.pkg, out)
		}
		for _, problem := range linkProblems(r, deps) {
			t.Error(problem)
		}
	}
}

// linkProblems are the dependencies of r.pkg (deps) that r forbids.
func linkProblems(r linkRule, deps []string) []string {
	var problems []string
	for _, dep := range deps {
		for _, f := range r.forbidden {
			if dep == f || strings.HasSuffix(f, "/") && strings.HasPrefix(dep, f) {
				problems = append(problems, fmt.Sprintf("%s links %s: %s", r.pkg, dep, r.why))
			}
		}
	}
	return problems
}

func TestLinkRulesFail(t *testing.T) {
	r := linkRule{"boxmaker/runbook", []string{"go/types", "github.com/dop251/"}, "why"}
	deps := []string{"fmt", "go/types", "go/typesx", "github.com/dop251/goja", "github.com/dop251", "boxmaker/runbook"}
	want := []string{
		"boxmaker/runbook links go/types: why",
		"boxmaker/runbook links github.com/dop251/goja: why",
	}
	if diff := cmp.Diff(want, linkProblems(r, deps)); diff != "" {
		t.Errorf("link problems (-want +got):\n%s", diff)
	}
}

// isWire reports whether pkg is a socket's contract: core/<name>wire.
func isWire(pkg string) bool {
	name, ok := strings.CutPrefix(pkg, "boxmaker/core/")
	return ok && !strings.Contains(name, "/") && strings.HasSuffix(name, "wire")
}

// TestWiresAreLeaves holds every socket's contract (core/*wire) to the
// leaves: a client links the wire of the daemon it talks to, never that
// daemon's engine (its memory store, its grants, its approvals, its
// Mattermost client), and nothing an engine changes inside changes a
// wire's bytes. A leaf, here, is precisely: runbook, or a package
// core/README.md lists under Leaves (one small job each, no daemon's
// state, no decision: core/daemon's framing, core/role, core/sessionid,
// core/jsonkeys, ...). Everything a wire links in the module, however
// deep (go list's Deps), is a leaf or another wire, so a leaf that came
// to link the sanitizer or an engine would fail it here too.
func TestWiresAreLeaves(t *testing.T) {
	out, err := exec.Command("go", "list", "-tags", os.Getenv("BOXMAKER_TAGS"), "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		deps[f[0]] = f[1:]
	}
	readme, err := os.ReadFile("core/README.md")
	if err != nil {
		t.Fatal(err)
	}
	leaves := []string{"boxmaker/runbook"}
	for p, kinds := range coreKinds(string(readme)) {
		if slices.Contains(kinds, "Leaves") {
			leaves = append(leaves, "boxmaker/"+p)
		}
	}
	var wires []string
	for pkg := range deps {
		if isWire(pkg) {
			wires = append(wires, pkg)
		}
	}
	if len(wires) < 5 || len(leaves) < 8 {
		t.Fatalf("found wires %v and leaves %v: want at least brokerwire, gatewaywire, loopwire, memorywire, yaagwire, and core/README.md's Leaves", wires, leaves)
	}
	for _, problem := range leafProblems(deps, leaves) {
		t.Error(problem)
	}
}

// leafProblems are the in-module dependencies of the wires in deps that
// are neither a leaf nor a wire. deps maps each package to all it links.
func leafProblems(deps map[string][]string, leaves []string) []string {
	var problems []string
	var wires []string
	for pkg := range deps {
		if isWire(pkg) {
			wires = append(wires, pkg)
		}
	}
	slices.Sort(wires)
	for _, wire := range wires {
		var others []string
		for _, dep := range deps[wire] {
			if (dep == "boxmaker" || strings.HasPrefix(dep, "boxmaker/")) && !isWire(dep) && !slices.Contains(leaves, dep) {
				others = append(others, dep)
			}
		}
		if len(others) > 0 {
			problems = append(problems, fmt.Sprintf("the wire %s links %s: a wire declares its own bodies and links only leaves (runbook, core/README.md's Leaves) and other wires; the engine converts at the socket",
				wire, strings.Join(others, ", ")))
		}
	}
	return problems
}

func TestLeafRulesFail(t *testing.T) {
	deps := map[string][]string{
		"boxmaker/core/brokerwire":  {"encoding/json", "boxmaker/core/approval", "boxmaker/core/memory", "boxmaker/runbook"},
		"boxmaker/core/memorywire":  {"boxmaker/runbook", "boxmaker/core/daemon", "boxmaker/sanitize"},
		"boxmaker/core/yaagwire":    {"boxmaker/core/daemon", "boxmaker/core/role"},
		"boxmaker/core/gatewaywire": {"boxmaker/core/brokerwire", "boxmaker/runbook"},
		"boxmaker/core/loopwire":    {"fmt"},
		// Not wires: they may link what they need.
		"boxmaker/core/approval":  {"boxmaker/core/memory"},
		"boxmaker/core/yaag/wire": {"boxmaker/core/yaag/engine"},
		"boxmaker":                {"boxmaker/core/memory"},
	}
	leaves := []string{"boxmaker/runbook", "boxmaker/core/daemon"}
	want := []string{
		"the wire boxmaker/core/brokerwire links boxmaker/core/approval, boxmaker/core/memory: a wire declares its own bodies and links only leaves (runbook, core/README.md's Leaves) and other wires; the engine converts at the socket",
		"the wire boxmaker/core/memorywire links boxmaker/sanitize: a wire declares its own bodies and links only leaves (runbook, core/README.md's Leaves) and other wires; the engine converts at the socket",
		"the wire boxmaker/core/yaagwire links boxmaker/core/role: a wire declares its own bodies and links only leaves (runbook, core/README.md's Leaves) and other wires; the engine converts at the socket",
	}
	if diff := cmp.Diff(want, leafProblems(deps, leaves)); diff != "" {
		t.Errorf("leaf problems (-want +got):\n%s", diff)
	}
}

// notRoles are the production files whose string literals may spell a
// role's name, each with what the word means there instead.
var notRoles = map[string]string{
	"core/role/role.go":                "the roles themselves",
	"core/yaag/program/bundle.go":      "yaag: the module a program imports (import ... from \"yaag\") and the esbuild plugin that serves it",
	"core/yaag/sysprompt/sysprompt.go": "yaag: a part of an Agent's system prompt, by name",
	"core/yaag/engine/host.go":         "yaag: a part of an Agent's system prompt, by name (sysprompt.Names)",
}

// TestRolesAreNamedByCoreRole holds the role list to its one home: a
// production file names a role by core/role's value, never by a string
// literal that is the role's name (which a misspelling would not stop).
// Text that mentions a role ("brokerd: serving ...") is not a name.
func TestRolesAreNamedByCoreRole(t *testing.T) {
	var problems []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != ".":
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		found, err := roleLiterals(path, src)
		if err != nil {
			return err
		}
		if _, ok := notRoles[path]; !ok {
			problems = append(problems, found...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// roleLiterals are the string literals of a Go file that are a role's
// name, each as "file:line: ...".
func roleLiterals(path string, src []byte) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		if _, isRole := role.Lookup(s); isRole {
			found = append(found, fmt.Sprintf("%s: the role %s is named by the literal %s: use core/role's role.%s (a misspelt literal compiles)",
				fset.Position(lit.Pos()), s, lit.Value, strings.ToUpper(s[:1])+s[1:]))
		}
		return true
	})
	return found, nil
}

func TestRoleLiteralsAreFound(t *testing.T) {
	src := "package p\n\nvar a = peer{\"brokerd\", sock}\nvar b = `loopd`\n\nfunc f(r string) bool { return r == \"yaag\" }\n\n" +
		"var c = \"brokerd: serving\"\nvar d = \"boxmaker\"\n\ntype T struct{ X int `toml:\"loopd\"` }\n"
	got, err := roleLiterals("p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"p.go:3:14: the role brokerd is named by the literal \"brokerd\": use core/role's role.Brokerd (a misspelt literal compiles)",
		"p.go:4:9: the role loopd is named by the literal `loopd`: use core/role's role.Loopd (a misspelt literal compiles)",
		"p.go:6:37: the role yaag is named by the literal \"yaag\": use core/role's role.Yaag (a misspelt literal compiles)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("roleLiterals (-want +got):\n%s", diff)
	}
}
