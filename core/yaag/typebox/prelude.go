// Package typebox delivers the real TypeBox (the npm package typebox,
// pinned by package-lock.json in this directory) to yaag programs: a
// prelude script, bundled at build time from node_modules by
// generate.go, embedded in the binary and compiled once per process, and
// TypeBox's declarations for `yaag setup-workspace`.
//
// Neither the bundle nor node_modules is committed. scripts/build.sh and
// scripts/test.sh run `npm ci` here and `go generate ./core/yaag/typebox`;
// a build without that step still compiles, and every use of the prelude
// fails with NotBuiltError, which names the command.
package typebox

//go:generate go run generate.go

import (
	"embed"
	"errors"
	"io/fs"
	"sync"

	"github.com/dop251/goja"
)

//go:embed all:gen
var gen embed.FS

// Global is the name of the global the prelude sets to TypeBox's module
// namespace; the program's `typebox` import resolves to it.
const Global = "__yaagTypebox"

// NotBuiltError is the error of a binary or test built without the
// generate step.
var NotBuiltError = errors.New("the TypeBox prelude is not built (core/yaag/typebox/gen/typebox.js is missing): " +
	"run scripts/build.sh, or `npm ci` in core/yaag/typebox then `go generate ./core/yaag/typebox`")

var compiled struct {
	once sync.Once
	prog *goja.Program
	err  error
}

// Source is the prelude's JavaScript.
func Source() (string, error) {
	data, err := gen.ReadFile("gen/typebox.js")
	if err != nil {
		return "", NotBuiltError
	}
	return string(data), nil
}

// Program is the prelude compiled, once per process. Running it in a VM
// that has a TextEncoder sets the global Global.
func Program() (*goja.Program, error) {
	compiled.once.Do(func() {
		src, err := Source()
		if err != nil {
			compiled.err = err
			return
		}
		compiled.prog, compiled.err = goja.Compile("typebox-prelude.js", src, true)
	})
	return compiled.prog, compiled.err
}

// Declarations is TypeBox's declarations, rooted at the package directory
// (package.json, build/**/*.d.mts).
func Declarations() (fs.FS, error) {
	if _, err := fs.Stat(gen, "gen/types/typebox/package.json"); err != nil {
		return nil, NotBuiltError
	}
	return fs.Sub(gen, "gen/types/typebox")
}
