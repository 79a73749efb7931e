// Package program loads yaag programs: it strips the types and bundles a
// program file (or an inline program) with its imports into one script
// with esbuild's Go API, and serves the modules the binary provides,
// @yaag/runtime (runtime.js here) and typebox (the prelude of
// core/yaag/typebox).
//
// A bundle is the program's module evaluated inside an async function, so
// that a top-level await (a Catalog Resolve) works in goja, which has no
// ES modules: the virtual entry imports the program and stores its
// namespace in globalThis.__yaagExports, and the script's value is the
// Promise of that evaluation. The bundle carries an inline source map, so
// positions in errors are the program's own.
package program

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"boxmaker/core/yaag/typebox"
	"boxmaker/core/yaagwire"
	"boxmaker/runbook"
)

//go:embed runtime.js
var runtimeJS string

//go:embed runtime.d.ts
var RuntimeDeclarations string

// MaxInline is the largest inline program (--eval, --eval-fd, yaag_run's
// script), in bytes.
const MaxInline = yaagwire.MaxInline

// Texts the troubleshooting page quotes.
const (
	textInlineImport runbook.Quoted = "an inline program may import @yaag/runtime and typebox only"
)

// Bundle is a program ready to run.
type Bundle struct {
	Name string // the program file, or "inline" for an inline program
	Dir  string // the Program Directory: the file's directory, or the working directory
	Code string // the script: its value is the Promise of the module's evaluation
}

// Error is a program that cannot be bundled; Text names the file and line
// of each problem.
type Error struct{ Text string }

func (e *Error) Error() string { return e.Text }

// CheckInline refuses an inline program over MaxInline bytes. It is the
// first check an inline program gets.
func CheckInline(src []byte) error { return yaagwire.CheckInline(src) }

// File bundles the program at path, the owner's (yaag run without
// --root); it may import any module that resolves from its directory
// (relative files, node_modules), but no Node built-in. esbuild reads the
// files. A confined Run bundles with FileIn instead.
func File(path string) (*Bundle, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("cannot read the program: %v", err)
	} else if fi.IsDir() {
		return nil, fmt.Errorf("cannot read the program: %s is a directory", path)
	}
	dir := filepath.Dir(abs)
	code, err := build(entry("yaag:program", "__yaagExports"), dir, plugin(abs, "", false), "")
	if err != nil {
		return nil, err
	}
	return &Bundle{Name: path, Dir: dir, Code: code}, nil
}

// Inline bundles an inline program; dir is its Program Directory. It may
// import @yaag/runtime and typebox only.
func Inline(src []byte, dir string) (*Bundle, error) {
	if err := CheckInline(src); err != nil {
		return nil, err
	}
	code, err := build(entry("yaag:program", "__yaagExports"), dir, plugin("", string(src), true), "")
	if err != nil {
		return nil, err
	}
	return &Bundle{Name: "inline", Dir: dir, Code: code}, nil
}

// Module bundles a module a Catalog entry names, for the VM a program
// already runs in: its namespace goes to globalThis.__yaagModules[key].
// A confined Run bundles with ModuleIn instead.
func Module(path, key string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", err
	}
	return build(entry("yaag:program", fmt.Sprintf("__yaagModules[%q]", key)), filepath.Dir(abs), plugin(abs, "", false), "")
}

func entry(module, target string) string {
	return fmt.Sprintf("import * as m from %q;\nglobalThis.%s = m;\n", module, target)
}

// build bundles entry with the plugin p. A non-empty tsconfig is the
// tsconfig.json every file is compiled with, and no tsconfig.json file is
// looked for (a confined Run's esbuild opens no file).
func build(entry, dir string, p api.Plugin, tsconfig string) (string, error) {
	res := api.Build(api.BuildOptions{
		TsconfigRaw:   tsconfig,
		AbsWorkingDir: dir,
		Stdin:         &api.StdinOptions{Contents: entry, ResolveDir: dir, Sourcefile: "yaag-entry.js", Loader: api.LoaderJS},
		Bundle:        true,
		Write:         false,
		Format:        api.FormatESModule,
		Platform:      api.PlatformNeutral,
		Conditions:    []string{"import"},
		MainFields:    []string{"module", "main"},
		Sourcemap:     api.SourceMapInline,
		Supported:     map[string]bool{"async-generator": false, "for-await": false},
		Plugins:       []api.Plugin{p},
		LogLevel:      api.LogLevelSilent,
		Charset:       api.CharsetUTF8,
	})
	if len(res.Errors) > 0 {
		return "", &Error{Text: describe(res.Errors)}
	}
	if len(res.OutputFiles) != 1 {
		return "", fmt.Errorf("esbuild wrote %d files, not one", len(res.OutputFiles))
	}
	return wrap(string(res.OutputFiles[0].Contents)), nil
}

// wrap puts the module's code inside an async function, keeping the
// source map comment last and the lines where they were.
func wrap(code string) string {
	code = strings.TrimRight(code, "\n")
	var sm string
	if i := strings.LastIndex(code, "\n//# sourceMappingURL="); i >= 0 {
		code, sm = code[:i], code[i+1:]
	}
	return "(async () => {" + code + "\n})()\n" + sm + "\n"
}

func describe(msgs []api.Message) string {
	var b strings.Builder
	for i, m := range msgs {
		if i > 0 {
			b.WriteString("\n")
		}
		if m.Location != nil && m.Location.File != "" && m.Location.File != "yaag-entry.js" {
			file := strings.TrimPrefix(strings.TrimPrefix(m.Location.File, nsInline+":"), nsRoot+":")
			fmt.Fprintf(&b, "%s:%d:%d: ", file, m.Location.Line, m.Location.Column+1)
		}
		b.WriteString(m.Text)
		for _, n := range m.Notes {
			switch {
			case strings.Contains(n.Text, "built into node"):
				b.WriteString(" (a Node built-in: a yaag program has no file system or network of its own; its Agents' tools do the work)")
			case n.Text != "" && !strings.Contains(n.Text, "Platform"):
				b.WriteString(" (" + n.Text + ")")
			}
		}
	}
	return b.String()
}

const (
	nsYaag   = "yaag"
	nsInline = "yaag-inline"
)

// plugin resolves the virtual modules: the program itself (a file, or the
// inline source), @yaag/runtime and typebox; for an inline program every
// other import is refused with its name.
func plugin(file, inline string, isInline bool) api.Plugin {
	return api.Plugin{Name: "yaag", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `^(@yaag/runtime|typebox)$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: a.Path, Namespace: nsYaag}, nil
		})
		b.OnResolve(api.OnResolveOptions{Filter: `^yaag:program$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if isInline {
				return api.OnResolveResult{Path: "inline.ts", Namespace: nsInline}, nil
			}
			return api.OnResolveResult{Path: file}, nil
		})
		if isInline {
			b.OnResolve(api.OnResolveOptions{Filter: `.*`, Namespace: nsInline}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
				return api.OnResolveResult{}, fmt.Errorf("%s; it imports %q", textInlineImport, a.Path)
			})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nsInline}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
				return api.OnLoadResult{Contents: &inline, Loader: api.LoaderTS}, nil
			})
		}
		b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nsYaag}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			return api.OnLoadResult{Contents: virtualModule(a.Path), Loader: api.LoaderJS}, nil
		})
	}}
}

// virtualModule is the source of a module the binary provides.
func virtualModule(name string) *string {
	var src string
	switch name {
	case "@yaag/runtime":
		src = runtimeJS
	case "typebox":
		src = "module.exports = globalThis." + typebox.Global + ";\n"
	}
	return &src
}
