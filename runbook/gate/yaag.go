package gate

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"boxmaker/runbook"
)

// yaagPage checks docs/yaag/troubleshooting.md as Check checks the
// runbook: every entry newYaagEntry makes has a heading "## <entry>", every
// heading is used by code, and, the other way round from the quote check
// every page gets, every constant of type Quoted in production code is
// quoted, exactly, by a marker that names its file.
func yaagPage(root string, quotes []quote) ([]Problem, error) {
	consts, err := typedConstants(filepath.Join(root, "runbook"), "newYaagEntry")
	if err != nil {
		return nil, err
	}
	headings := map[string]heading{}
	var problems []Problem
	data, err := os.ReadFile(filepath.Join(root, runbook.YaagPagePath))
	switch {
	case errors.Is(err, fs.ErrNotExist) && len(consts) == 0:
	case err != nil:
		return nil, err
	default:
		var current string
		body := 0
		end := func() {
			if current != "" && body > maxEntryLines {
				problems = append(problems, Problem{File: runbook.YaagPagePath, Line: headings[current].line,
					Text: fmt.Sprintf("entry %q has %d lines; an entry of this page has at most %d (markers and blank lines not counted)", current, body, maxEntryLines)})
			}
		}
		for i, l := range strings.Split(string(data), "\n") {
			t := strings.TrimSpace(l)
			switch m := headingRE.FindStringSubmatch(l); {
			case m != nil:
				end()
				current, body = m[1], 0
				headings[current] = heading{line: i + 1}
			case strings.HasPrefix(l, "## "):
				end()
				current = ""
			case current != "" && t == procedureMarker:
				h := headings[current]
				h.procedure = true
				headings[current] = h
			case current != "" && t != "" && !strings.HasPrefix(t, "<!--"):
				body++
			}
		}
		end()
	}
	used, texts, err := scanYaagCode(root)
	if err != nil {
		return nil, err
	}
	problems = append(problems, matchEntries(consts, headings, used, runbook.YaagPagePath)...)
	quoted := map[[2]string]bool{}
	for _, q := range quotes {
		quoted[[2]string{q.path, q.text}] = true
	}
	for _, t := range texts {
		if !quoted[[2]string{t.file, t.text}] {
			problems = append(problems, Problem{File: t.file, Line: t.line,
				Text: fmt.Sprintf("message %q (%s) is quoted by no page: add it under a \"<!-- quote: %s -->\" marker", t.text, t.name, t.file)})
		}
	}
	return problems, nil
}

// maxEntryLines is the most lines an entry of the yaag page has.
const maxEntryLines = 10

type quotedText struct {
	name, text, file string
	line             int
}

// scanYaagCode finds the yaag entries production code refers to
// (any runbook.X selector counts, as for the runbook), and the constants
// of type runbook.Quoted with their files.
func scanYaagCode(root string) (map[string]bool, []quotedText, error) {
	used := map[string]bool{}
	var texts []quotedText
	fset := token.NewFileSet()
	err := walkSources(root, false, func(path, rel string, d fs.DirEntry) error {
		if filepath.Ext(path) != ".go" || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		inRunbook := filepath.Dir(rel) == "runbook"
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if !isQuotedType(vs.Type, inRunbook) {
					continue
				}
				for i, name := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					s, _ := strconv.Unquote(lit.Value)
					texts = append(texts, quotedText{name.Name, s, rel, fset.Position(name.Pos()).Line})
				}
			}
		}
		if inRunbook {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "runbook" {
					used[sel.Sel.Name] = true
				}
			}
			return true
		})
		return nil
	})
	return used, texts, err
}

func isQuotedType(t ast.Expr, inRunbook bool) bool {
	switch t := t.(type) {
	case *ast.SelectorExpr:
		x, ok := t.X.(*ast.Ident)
		return ok && x.Name == "runbook" && t.Sel.Name == "Quoted"
	case *ast.Ident:
		return inRunbook && t.Name == "Quoted"
	}
	return false
}
