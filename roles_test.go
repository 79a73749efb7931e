package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/conf"
)

// A role is wiring (issue 26; STYLE.md, "Three rooms per daemon"): its
// flags, its config and its sockets, and calls into core/. These tests
// hold the shape the dependency test cannot see in go list: what a role
// declares, and how much of it there is.

// maxDaemonRoleLines is the most lines of non-test Go a daemon's role
// package may hold: flags, config and sockets take 100 to 250, and a role
// past 300 has grown an engine that belongs in core/.
const maxDaemonRoleLines = 300

// cliAdapters are the types of roles/ that have methods, each with what it
// adapts for the command line: a terminal, a printer, a child process, an
// error main renders. What a daemon does is an engine, and lives in core/
// (core/broker, core/memoryd, core/gateway, core/loop, core/inferproxy);
// a daemon's own role declares no type with methods at all.
var cliAdapters = map[string]string{
	"roles/boxmaker.auditCall":   "boxmaker demo: one call as the demo reads it back from the audit log to show it",
	"roles/boxmaker.child":       "boxmaker up: one daemon process it runs in the foreground, and its last line",
	"roles/boxmaker.demoFiles":   "boxmaker demo: the files its conversation is about, written beside the demo home",
	"roles/boxmaker.demoRun":     "boxmaker demo: the steps an operator would take, run against the real daemons and shown on the terminal",
	"roles/boxmaker.demoStack":   "boxmaker demo: the daemons it started, and their output shown when one fails",
	"roles/boxmaker.hostTools":   "boxmaker install: deploy.Host on the real host (podman, systemctl, useradd)",
	"roles/boxmaker.modelServer": "boxmaker init --model-url: what the model server answered, for the config init writes",
	"roles/boxmaker.tailWriter":  "boxmaker demo: the last lines of a daemon's output",
	"roles/bxctl.chatHistory":    "bxctl chat: the line editor's history",
	"roles/bxctl.chatter":        "bxctl chat: one terminal conversation with loopd",
	"roles/bxctl.crlfWriter":     "bxctl chat: output on a terminal in raw mode",
	"roles/bxctl.daemonConfig":   "bxctl: which daemon's config a command reads, by its global flag",
	"roles/bxctl.doctor":         "bxctl doctor: the findings it prints",
	"roles/bxctl.keyInput":       "bxctl chat: the terminal's keys",
	"roles/bxctl.keyScanner":     "bxctl chat: the terminal's keys, split into keys",
	"roles/bxctl.lineEditor":     "bxctl chat: the line editor",
	"roles/bxctl.pastes":         "bxctl chat: pasted text, shown folded in the line editor",
	"roles/bxctl.peer":           "bxctl: a daemon's socket, and what bxctl says when it cannot be reached",
	"roles/bxctl.turnView":       "bxctl chat: one turn drawn on the terminal as it happens",
	"roles/rolecli.Daemon":       "every daemon's lock and sockets as its role prepares them: the wiring the roles share",
	"roles/rolecli.HintedError":  "an error main renders with its hint lines",
	"roles/rolecli.Role":         "a role as the command line knows it: its config, its daemon, its config-valid line",
	"roles/rolecli.StatusError":  "an error main turns into its exit status",
	"roles/rolecli.UsageError":   "an error main renders as usage, exit status 2",
	"roles/rolecli.prefixWriter": "a role's output, each line beginning with its name",
	"roles/yaag.lineWriter":      "yaag: output lines",
	"roles/yaag.printer":         "yaag run: the Run's events, printed as lines or JSON",
	"roles/yaag.source":          "yaag run: the program as the command line gives it (a file or --eval)",
}

// TestRolesDeclareOnlyCLIAdapters holds roles/ to wiring: a type with
// methods in a role is an engine unless cliAdapters says what it adapts
// for the command line, and a daemon's role has none.
func TestRolesDeclareOnlyCLIAdapters(t *testing.T) {
	methods, err := roleMethods("roles")
	if err != nil {
		t.Fatal(err)
	}
	if len(methods) < 10 {
		t.Fatalf("found only %d types with methods in roles/: %v", len(methods), methods)
	}
	for _, problem := range roleTypeProblems(methods, cliAdapters, daemonRoleDirs()) {
		t.Error(problem)
	}
}

// TestDaemonRolesAreSmall holds each daemon's role package to
// maxDaemonRoleLines lines of non-test Go.
func TestDaemonRolesAreSmall(t *testing.T) {
	lines := map[string]int{}
	for _, dir := range daemonRoleDirs() {
		n, err := goLines(dir)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatalf("%s holds no Go", dir)
		}
		lines[dir] = n
	}
	for _, problem := range roleSizeProblems(lines, maxDaemonRoleLines) {
		t.Error(problem)
	}
}

// daemonRoleDirs are the daemons' role packages, roles/<daemon>.
func daemonRoleDirs() []string {
	var dirs []string
	for _, r := range conf.Daemons() {
		dirs = append(dirs, "roles/"+r.String())
	}
	return dirs
}

// roleMethods maps each type of the packages beneath root that has
// methods, as "<dir>.<type>", to its methods' names. Tests are left out.
func roleMethods(root string) (map[string][]string, error) {
	out := map[string][]string{}
	files, err := filepath.Glob(filepath.Join(root, "*", "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) == 0 {
				continue
			}
			key := filepath.ToSlash(filepath.Dir(path)) + "." + receiverType(fn.Recv.List[0].Type)
			out[key] = append(out[key], fn.Name.Name)
		}
	}
	return out, nil
}

// receiverType is the name of a method's receiver's type: T for T, *T,
// T[P] and *T[P].
func receiverType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return fmt.Sprintf("%T", e)
		}
	}
}

// roleTypeProblems are the types of methods that break the rule: one in
// a daemon's role (daemons), one cliAdapters does not list, and an
// adapter listed that no longer has methods.
func roleTypeProblems(methods map[string][]string, adapters map[string]string, daemons []string) []string {
	var problems []string
	for _, key := range sortedKeys(methods) {
		i := strings.LastIndex(key, ".")
		dir, typ := key[:i], key[i+1:]
		switch _, listed := adapters[key]; {
		case slices.Contains(daemons, dir):
			problems = append(problems, fmt.Sprintf("%s declares the type %s with methods (%s): a daemon's role is flags, config and sockets; its engine belongs in core/",
				dir, typ, strings.Join(methods[key], ", ")))
		case !listed:
			problems = append(problems, fmt.Sprintf("%s declares the type %s with methods (%s): a role is wiring; move it to core/, or, if it adapts something for the command line, list it in cliAdapters saying what",
				dir, typ, strings.Join(methods[key], ", ")))
		}
	}
	for _, key := range sortedKeys(adapters) {
		if _, ok := methods[key]; !ok {
			problems = append(problems, fmt.Sprintf("cliAdapters lists %s, which has no methods in roles/ now: take it off the list", key))
		}
	}
	return problems
}

// roleSizeProblems are the role packages with more than max lines.
func roleSizeProblems(lines map[string]int, max int) []string {
	var problems []string
	for _, dir := range sortedKeys(lines) {
		if n := lines[dir]; n > max {
			problems = append(problems, fmt.Sprintf("%s holds %d lines of Go, more than %d: a daemon's role is flags, config and sockets; move what the daemon does to its engine in core/",
				dir, n, max))
		}
	}
	return problems
}

// goLines counts the lines of the non-test Go files of dir.
func goLines(dir string) (int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return 0, err
		}
		n += bytes.Count(src, []byte("\n"))
		if len(src) > 0 && src[len(src)-1] != '\n' {
			n++
		}
	}
	return n, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// The role rules fail where they should: an engine's type in a daemon's
// role, an unlisted type elsewhere, a stale adapter, a role too long; and
// a listed adapter outside the daemons, and a role of max lines, pass.
func TestRoleRulesFail(t *testing.T) {
	methods := map[string][]string{
		"roles/memoryd.server":  {"open", "recallCall"},
		"roles/bxctl.chatter":   {"run"},
		"roles/bxctl.cache":     {"get", "put"},
		"roles/brokerd.printer": {"Write"},
	}
	adapters := map[string]string{
		"roles/bxctl.chatter":   "why",
		"roles/brokerd.printer": "why",
		"roles/yaag.gone":       "why",
	}
	want := []string{
		"roles/brokerd declares the type printer with methods (Write): a daemon's role is flags, config and sockets; its engine belongs in core/",
		"roles/bxctl declares the type cache with methods (get, put): a role is wiring; move it to core/, or, if it adapts something for the command line, list it in cliAdapters saying what",
		"roles/memoryd declares the type server with methods (open, recallCall): a daemon's role is flags, config and sockets; its engine belongs in core/",
		"cliAdapters lists roles/yaag.gone, which has no methods in roles/ now: take it off the list",
	}
	if diff := cmp.Diff(want, roleTypeProblems(methods, adapters, []string{"roles/brokerd", "roles/memoryd"})); diff != "" {
		t.Errorf("role type problems (-want +got):\n%s", diff)
	}

	want = []string{
		"roles/memoryd holds 647 lines of Go, more than 300: a daemon's role is flags, config and sockets; move what the daemon does to its engine in core/",
	}
	if diff := cmp.Diff(want, roleSizeProblems(map[string]int{"roles/memoryd": 647, "roles/brokerd": 300}, 300)); diff != "" {
		t.Errorf("role size problems (-want +got):\n%s", diff)
	}
}

// roleMethods finds methods on T, *T and generic receivers, and leaves
// out tests and plain functions.
func TestRoleMethodsAreFound(t *testing.T) {
	root := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/a.go", "package a\n\ntype s struct{}\n\nfunc (s) A() {}\nfunc (x *s) B() {}\nfunc f() {}\n\ntype g[T any] struct{}\n\nfunc (g[T]) C() {}\nfunc (*g[T]) D() {}\n")
	write("a/a_test.go", "package a\n\ntype fake struct{}\n\nfunc (fake) E() {}\n")
	write("b/b.go", "package b\n\ntype w int\n\nfunc (w) Write([]byte) (int, error) { return 0, nil }\n")
	got, err := roleMethods(root)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		filepath.ToSlash(root) + "/a.s": {"A", "B"},
		filepath.ToSlash(root) + "/a.g": {"C", "D"},
		filepath.ToSlash(root) + "/b.w": {"Write"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("roleMethods (-want +got):\n%s", diff)
	}
}
