// Package gate is `boxmaker gate`: it checks the runbook against the code
// (every entry the runbook package declares has its heading, every heading
// is used, no file writes the runbook link by hand, every quoted message
// still stands). It parses Go source, so it lives apart from the runbook
// package, which every daemon links: only the gate command imports it.
package gate

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"boxmaker/runbook"
)

// Problem is one finding of the gate.
type Problem = runbook.Problem

// procedureMarker marks an entry that no code refers to because it is a
// procedure for people (such as sanitizer-rules), not a state of the code.
const procedureMarker = "<!-- procedure -->"

var (
	headingRE = regexp.MustCompile(`^## ([a-z0-9-]+)\s*$`)
	quoteRE   = regexp.MustCompile(`^<!-- quote: (\S+) -->\s*$`)
)

// Check checks the tree at root: every entry constant has a heading, every
// heading is used by production code or marked a procedure, no file outside
// runbook/ writes the runbook link by hand, and every quoted message still
// stands in the file it quotes. It returns every problem, not the first.
func Check(root string) ([]Problem, error) {
	consts, err := entryConstants(filepath.Join(root, "runbook"))
	if err != nil {
		return nil, err
	}
	headings, quotes, err := readRunbook(root)
	if err != nil {
		return nil, err
	}
	used, linkWriters, err := scanCode(root)
	if err != nil {
		return nil, err
	}

	problems := matchEntries(consts, headings, used, runbook.RunbookPath)
	problems = append(problems, linkWriters...)
	yaag, err := yaagPage(root, quotes)
	if err != nil {
		return nil, err
	}
	problems = append(problems, yaag...)
	for _, q := range quotes {
		data, err := os.ReadFile(filepath.Join(root, q.path))
		switch {
		case err != nil:
			problems = append(problems, Problem{File: q.file, Line: q.line, Text: fmt.Sprintf("quoted file %s cannot be read: %v", q.path, err)})
		case !bytes.Contains(data, []byte(q.text)):
			problems = append(problems, Problem{File: q.file, Line: q.line, Text: fmt.Sprintf("quoted text %q no longer appears in %s", q.text, q.path)})
		}
	}
	sort.SliceStable(problems, func(i, j int) bool {
		if problems[i].File != problems[j].File {
			return problems[i].File < problems[j].File
		}
		return problems[i].Line < problems[j].Line
	})
	return problems, nil
}

// matchEntries checks a page's headings against its entry constants:
// every constant has a heading, and every heading that is not a procedure
// has a constant that production code refers to.
func matchEntries(consts []entryConst, headings map[string]heading, used map[string]bool, page string) []Problem {
	var problems []Problem
	byEntry := map[string]entryConst{}
	for _, c := range consts {
		byEntry[c.entry] = c
		if _, ok := headings[c.entry]; !ok {
			problems = append(problems, Problem{File: c.file, Line: c.line,
				Text: fmt.Sprintf("entry %q (%s) has no heading \"## %s\" in %s", c.entry, c.name, c.entry, page)})
		}
	}
	for entry, h := range headings {
		if h.procedure {
			continue
		}
		c, ok := byEntry[entry]
		switch {
		case !ok:
			problems = append(problems, Problem{File: page, Line: h.line,
				Text: fmt.Sprintf("entry %q has no constant in runbook/ and no code uses it (mark a procedure with %s)", entry, procedureMarker)})
		case !used[c.name]:
			problems = append(problems, Problem{File: page, Line: h.line,
				Text: fmt.Sprintf("entry %q is used by no code (runbook.%s is never referred to)", entry, c.name)})
		}
	}
	return problems
}

type entryConst struct {
	name  string
	entry string
	file  string
	line  int
}

// entryConstants reads the runbook's entries declared in dir.
func entryConstants(dir string) ([]entryConst, error) { return typedConstants(dir, "newEntry") }

// entryLiteral is the name an entry's declaration gives it, a var made by
// constructor("name") (newEntry for the runbook, newYaagEntry for yaag's
// page); nil for any other declaration.
func entryLiteral(v ast.Expr, constructor string) *ast.BasicLit {
	call, ok := v.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	if fn, ok := call.Fun.(*ast.Ident); !ok || fn.Name != constructor {
		return nil
	}
	if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
		return lit
	}
	return nil
}

// typedConstants reads the entries declared in dir that constructor makes.
func typedConstants(dir, constructor string) ([]entryConst, error) {
	fset := token.NewFileSet()
	matches, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var out []entryConst
	for _, path := range matches {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return nil, err
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || (gd.Tok != token.CONST && gd.Tok != token.VAR) {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					lit := entryLiteral(vs.Values[i], constructor)
					if lit == nil {
						continue
					}
					s, _ := strconv.Unquote(lit.Value)
					pos := fset.Position(name.Pos())
					out = append(out, entryConst{name.Name, s, filepath.Join("runbook", filepath.Base(path)), pos.Line})
				}
			}
		}
	}
	return out, nil
}

type heading struct {
	line      int
	procedure bool
}

type quote struct {
	file, path, text string
	line             int
}

// readRunbook reads the headings of the runbook, and the quote markers of
// every Markdown file under docs/.
func readRunbook(root string) (map[string]heading, []quote, error) {
	headings := map[string]heading{}
	var quotes []quote
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".md") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		lines := strings.Split(string(data), "\n")
		var current string
		for i, l := range lines {
			if rel == runbook.RunbookPath {
				if m := headingRE.FindStringSubmatch(l); m != nil {
					current = m[1]
					headings[current] = heading{line: i + 1}
				} else if strings.HasPrefix(l, "## ") {
					current = ""
				} else if current != "" && strings.TrimSpace(l) == procedureMarker {
					h := headings[current]
					h.procedure = true
					headings[current] = h
				}
			}
			if m := quoteRE.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
				q := quote{file: rel, path: m[1], line: i + 1}
				for _, next := range lines[i+1:] {
					t := strings.TrimSpace(next)
					if t == "" {
						continue
					}
					if strings.HasPrefix(t, ">") {
						q.text = strings.TrimSpace(strings.TrimPrefix(t, ">"))
					}
					break
				}
				if q.text == "" {
					return fmt.Errorf("%s:%d: a quote marker must be followed by a line starting with >", rel, i+1)
				}
				quotes = append(quotes, q)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return headings, quotes, nil
}

// linkText is the runbook link's prefix, spelt in two pieces so that this
// file does not trip its own check.
var linkText = []byte("docs/runbook" + ".md#")

// scanCode finds the entry constants that production code refers to, and
// every file outside runbook/ that writes the link by hand. Scripts under
// testdata/ show what an operator sees and may quote the link.
// entryFromString is the problem of code outside runbook/ that makes an
// entry from a string written in code. runbook.Lookup and an Entry's
// UnmarshalText are for a name that crossed a socket or a process, never
// for one the code spells (an entry in code is its value, runbook.X,
// which a misspelling does not compile to): an argument that holds a
// string literal or a constant of the package (consts) is refused. rb is
// the file's name for the runbook package ("" when it does not import it,
// "." for a dot import). Entry itself cannot be made outside runbook/: its
// field is unexported (runbook.Entry{} is the zero Entry, no entry).
func entryFromString(fset *token.FileSet, rel string, n ast.Node, rb string, consts map[string]bool) *Problem {
	if rb == "" {
		return nil
	}
	problem := func(what string) *Problem {
		return &Problem{File: rel, Line: fset.Position(n.Pos()).Line, Text: "names a runbook entry by a string (" + what + "): use its value, runbook.<Entry>"}
	}
	call, ok := n.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !writtenInCode(call.Args[0], consts) {
		return nil
	}
	sel, isSel := call.Fun.(*ast.SelectorExpr)
	switch {
	case isRunbookName(call.Fun, rb, "Lookup"):
		return problem("runbook.Lookup(" + types.ExprString(call.Args[0]) + ")")
	case isSel && sel.Sel.Name == "UnmarshalText":
		return problem(types.ExprString(call))
	}
	return nil
}

// isRunbookName reports whether e is the runbook package's name (rb.name,
// or name alone after a dot import).
func isRunbookName(e ast.Expr, rb, name string) bool {
	if id, ok := e.(*ast.Ident); ok {
		return rb == "." && id.Name == name
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == rb
}

// writtenInCode reports whether e holds a string literal or names one of
// consts (not as a field or method: x.Name is not the constant Name).
func writtenInCode(e ast.Expr, consts map[string]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			found = found || n.Kind == token.STRING
		case *ast.Ident:
			found = found || consts[n.Name]
		case *ast.SelectorExpr:
			found = found || writtenInCode(n.X, consts)
			return false
		}
		return !found
	})
	return found
}

// runbookImport is f's name for the runbook package: "" when f does not
// import it.
func runbookImport(f *ast.File) string {
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil || path.Base(p) != "runbook" {
			continue
		}
		if imp.Name != nil {
			return imp.Name.Name
		}
		return "runbook"
	}
	return ""
}

// packageConsts are the names of the constants declared in the Go files
// of dir, tests left out.
func packageConsts(fset *token.FileSet, dir string) (map[string]bool, error) {
	consts := map[string]bool{}
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if d, ok := n.(*ast.GenDecl); ok && d.Tok == token.CONST {
				for _, spec := range d.Specs {
					for _, name := range spec.(*ast.ValueSpec).Names {
						consts[name.Name] = true
					}
				}
			}
			return true
		})
	}
	return consts, nil
}

// walkSources calls visit for every file of the tree below root but
// those of hidden directories, testdata, node_modules, vendor and docs
// (and runbook/ itself, when skipRunbook).
func walkSources(root string, skipRunbook bool, visit func(path, rel string, d fs.DirEntry) error) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch {
			case rel != "." && strings.HasPrefix(d.Name(), "."),
				d.Name() == "testdata", d.Name() == "node_modules", d.Name() == "vendor",
				rel == "docs", skipRunbook && rel == "runbook":
				return filepath.SkipDir
			}
			return nil
		}
		return visit(path, rel, d)
	})
}

func scanCode(root string) (map[string]bool, []Problem, error) {
	used := map[string]bool{}
	var problems []Problem
	fset := token.NewFileSet()
	constsOf := map[string]map[string]bool{} // by directory
	err := walkSources(root, true, func(path, rel string, d fs.DirEntry) error {
		switch filepath.Ext(path) {
		case ".go", ".sh", ".ts", ".js", ".toml", ".txtar":
		default:
			if d.Name() != "justfile" {
				return nil
			}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for n := 1; sc.Scan(); n++ {
			if bytes.Contains(sc.Bytes(), linkText) {
				problems = append(problems, Problem{File: rel, Line: n, Text: "writes the runbook link by hand; use runbook.Link or a runbook.Refusal"})
			}
		}
		if filepath.Ext(path) != ".go" || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, data, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		rb := runbookImport(f)
		dir := filepath.Dir(path)
		if _, ok := constsOf[dir]; !ok && rb != "" {
			if constsOf[dir], err = packageConsts(fset, dir); err != nil {
				return fmt.Errorf("%s: %w", rel, err)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == rb {
					used[sel.Sel.Name] = true
				}
			}
			if p := entryFromString(fset, rel, n, rb, constsOf[dir]); p != nil {
				problems = append(problems, *p)
			}
			return true
		})
		return nil
	})
	return used, problems, err
}
