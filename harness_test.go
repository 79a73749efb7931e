package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The script harness's own description: which role a script belongs to,
// and testdata/script/README.md, which must name every command,
// condition and variable the harness registers (as cmd/go's does).

// scriptsRole is -role: TestScripts and TestCrashSuites run only the
// scripts of that role (`just scripts ROLE`).
var scriptsRole = flag.String("role", "", "run only the scripts of this role (testdata/script/README.md, \"Roles\")")

// scriptPrefixRoles attributes a script to a role by the first word of
// its name (up to the first "-"): a role's name, or a word of that
// role's commands. A script whose first word is none of these is
// boxmaker's (the binary's own commands: init, up, doctor, ...).
var scriptPrefixRoles = map[string]string{
	"brokerd":    "brokerd",
	"call":       "brokerd", // call-id-reused
	"loopd":      "loopd",
	"memoryd":    "memoryd",
	"memory":     "memoryd",
	"recall":     "memoryd",
	"honcho":     "memoryd",
	"gatewayd":   "gatewayd",
	"inferproxy": "inferproxy",
	"bxctl":      "bxctl",
	"audit":      "bxctl", // bxctl audit
	"approvals":  "bxctl", // bxctl approvals
	"grants":     "bxctl", // bxctl grants
	"chat":       "bxctl", // bxctl chat
	"mcp":        "bxctl", // bxctl mcp
	"yaag":       "yaag",
}

// scriptRole is the role the script name (its file's name without
// .txtar) belongs to.
func scriptRole(name string) string {
	first, _, _ := strings.Cut(name, "-")
	if r, ok := scriptPrefixRoles[first]; ok {
		return r
	}
	return "boxmaker"
}

// scriptRoleNames are the roles a script can belong to, sorted.
func scriptRoleNames() []string {
	names := []string{"boxmaker"}
	for _, r := range scriptPrefixRoles {
		if !slices.Contains(names, r) {
			names = append(names, r)
		}
	}
	sort.Strings(names)
	return names
}

// roleScripts are the scripts of dir that belong to role. An unknown
// role fails the test: a misspelt one must not pass by running nothing.
func roleScripts(t *testing.T, dir, role string) []string {
	if !slices.Contains(scriptRoleNames(), role) {
		t.Fatalf("-role %s: no such role; the roles are %s", role, strings.Join(scriptRoleNames(), ", "))
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, p := range paths {
		if scriptRole(strings.TrimSuffix(filepath.Base(p), ".txtar")) == role {
			files = append(files, p)
		}
	}
	if len(files) == 0 {
		t.Skipf("%s holds no script of %s", dir, role)
	}
	return files
}

func TestScriptRole(t *testing.T) {
	for name, want := range map[string]string{
		"brokerd-crash":      "brokerd",
		"call-id-reused":     "brokerd",
		"honcho-trust":       "memoryd",
		"recall-taint":       "memoryd",
		"audit-verify":       "bxctl",
		"grants":             "bxctl",
		"yaag-run-confined":  "yaag",
		"init":               "boxmaker",
		"first-hour":         "boxmaker",
		"brokerdx-something": "boxmaker",
	} {
		if got := scriptRole(name); got != want {
			t.Errorf("scriptRole(%q) = %q, want %q", name, got, want)
		}
	}
}

const harnessReadme = "testdata/script/README.md"

// readmeEntries are the entries of each "## " section of the README: the
// first word of each line "- `WORD ...`" (a command's usage, a
// condition's [NAME], a variable's $NAME).
func readmeEntries(t *testing.T) map[string][]string {
	data, err := os.ReadFile(harnessReadme)
	if err != nil {
		t.Fatal(err)
	}
	entryRE := regexp.MustCompile("^- `([^` ]+)")
	sections := map[string][]string{}
	section := ""
	for _, line := range strings.Split(string(data), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			section = h
			continue
		}
		if m := entryRE.FindStringSubmatch(line); m != nil {
			sections[section] = append(sections[section], m[1])
		}
	}
	return sections
}

// TestHarnessReadme: testdata/script/README.md names every command and
// condition the harness registers and nothing else, every variable the
// harness sets or reads by a name written in its code, and each role's
// name prefixes.
func TestHarnessReadme(t *testing.T) {
	sections := readmeEntries(t)
	compare := func(section string, registered []string) {
		t.Helper()
		listed := sections[section]
		for _, name := range registered {
			if !slices.Contains(listed, name) {
				t.Errorf("%s, section %q, does not name %s, which the harness registers", harnessReadme, section, name)
			}
		}
		for _, name := range listed {
			if !slices.Contains(registered, name) {
				t.Errorf("%s, section %q, names %s, which the harness does not register", harnessReadme, section, name)
			}
		}
	}
	var cmds []string
	for _, m := range scriptCmds() {
		for name := range m {
			cmds = append(cmds, name)
		}
	}
	compare("Commands", cmds)
	var crash []string
	for name := range crashCmds {
		crash = append(crash, name)
	}
	compare("Commands of the crash and race suites", crash)
	var conds []string
	for name, c := range scriptConds {
		if c.arg {
			name += ":ARG"
		}
		conds = append(conds, "["+name+"]")
	}
	compare("Conditions", conds)

	vars, err := harnessVariables(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(vars) < 10 {
		t.Fatalf("found only %d variables in the harness's code: the search no longer finds them", len(vars))
	}
	for _, v := range vars {
		if !slices.Contains(sections["Variables"], "$"+v) {
			t.Errorf("%s, section \"Variables\", does not name $%s, which the harness sets or reads", harnessReadme, v)
		}
	}

	skips, err := shortSkippers("testdata/script")
	if err != nil {
		t.Fatal(err)
	}
	compare("Skipped under -short", skips)

	data, err := os.ReadFile(harnessReadme)
	if err != nil {
		t.Fatal(err)
	}
	for _, role := range scriptRoleNames() {
		var prefixes []string
		for p, r := range scriptPrefixRoles {
			if r == role {
				prefixes = append(prefixes, "`"+p+"-`")
			}
		}
		sort.Strings(prefixes)
		line := fmt.Sprintf("- %s: %s", role, strings.Join(prefixes, ", "))
		if role == "boxmaker" {
			line = "- boxmaker: every other script"
		}
		if !strings.Contains(string(data), "\n"+line+"\n") {
			t.Errorf("%s, section \"Roles\", has no line %q", harnessReadme, line)
		}
	}
}

// harnessVariables are the environment variables the root package's
// tests set or read by a name written in the code: the first argument of
// every Setenv and Getenv call, and fullSize's variable, when it is a
// string literal or a constant of the package; sorted, each once.
func harnessVariables(dir string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	consts := map[string]string{}
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					for i, v := range vs.Values {
						if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
							consts[vs.Names[i].Name], _ = strconv.Unquote(lit.Value)
						}
					}
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			arg := -1
			switch fun := call.Fun.(type) {
			case *ast.SelectorExpr:
				if fun.Sel.Name == "Setenv" || fun.Sel.Name == "Getenv" {
					arg = 0
				}
			case *ast.Ident:
				if fun.Name == "fullSize" {
					arg = 1
				}
			}
			if arg < 0 || len(call.Args) <= arg {
				return true
			}
			switch a := call.Args[arg].(type) {
			case *ast.BasicLit:
				if v, err := strconv.Unquote(a.Value); err == nil {
					seen[v] = true
				}
			case *ast.Ident:
				if v, ok := consts[a.Name]; ok {
					seen[v] = true
				}
			}
			return true
		})
	}
	var names []string
	for v := range seen {
		names = append(names, v)
	}
	sort.Strings(names)
	return names, nil
}

// TestCrashSuitesAreTheirOwn: the crash and race suites run in
// TestCrashSuites alone (so that the full run runs each once and -short
// skips them by name): no command of theirs is a command of every script,
// every script of testdata/crash runs one of them, and no script of
// testdata/script does.
func TestCrashSuitesAreTheirOwn(t *testing.T) {
	for _, m := range scriptCmds() {
		for name := range m {
			if _, ok := crashCmds[name]; ok {
				t.Errorf("%s is a crash suite's command and a command of every script", name)
			}
		}
	}
	for _, dir := range []string{"testdata/crash", "testdata/script"} {
		paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) == 0 {
			t.Fatalf("no scripts in %s", dir)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if runs := crashCommandsOf(scriptPart(string(data))); (len(runs) > 0) != (dir == "testdata/crash") {
				t.Errorf("%s runs the crash suite commands %v: the crash and race suites, and only they, belong in testdata/crash", p, runs)
			}
		}
	}
}

// shortSkippers are the scripts of dir whose first command is
// "[short] skip": those go test -short skips.
func shortSkippers(dir string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if firstCommand(scriptPart(string(data))) == "[short] skip" {
			names = append(names, strings.TrimSuffix(filepath.Base(p), ".txtar"))
		}
	}
	return names, nil
}

// firstCommand is a script's first command line, its conditions and
// command name only ("[short] skip"), or "".
func firstCommand(script string) string {
	for _, line := range strings.Split(script, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		var words []string
		for _, w := range f {
			words = append(words, w)
			if !strings.HasPrefix(w, "[") {
				break
			}
		}
		return strings.Join(words, " ")
	}
	return ""
}

// scriptPart is a txtar's script: what comes before its first file.
func scriptPart(txtar string) string {
	if strings.HasPrefix(txtar, "-- ") {
		return ""
	}
	script, _, _ := strings.Cut(txtar, "\n-- ")
	return script
}

// crashCommandsOf are the crashCmds a script's lines run.
func crashCommandsOf(script string) []string {
	var runs []string
	for _, line := range strings.Split(script, "\n") {
		f := strings.Fields(line)
		for len(f) > 0 && strings.HasPrefix(f[0], "[") && strings.HasSuffix(f[0], "]") {
			f = f[1:]
		}
		if len(f) > 0 && (f[0] == "!" || f[0] == "?") {
			f = f[1:]
		}
		if len(f) > 0 {
			if _, ok := crashCmds[f[0]]; ok && !slices.Contains(runs, f[0]) {
				runs = append(runs, f[0])
			}
		}
	}
	return runs
}
