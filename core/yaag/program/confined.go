package program

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"boxmaker/core/yaag/snapshot"
	"boxmaker/runbook"
)

// A confined Run (brokerd's yaag_run, `yaag run --root DIR`) bundles from a
// snapshot.Tree: this file's plugin resolves every import itself and hands
// esbuild each module's contents, so esbuild opens no file. Its modules
// live in the namespace nsRoot under their absolute paths; no
// tsconfig.json is looked for (tsconfigNone) and no package.json is read,
// because node_modules do not resolve here: a confined program imports
// relative files beneath its directory, @yaag/runtime and typebox.

const nsRoot = "yaag-root"

// tsconfigNone is the tsconfig.json of a confined Run's every file: given
// to esbuild, it stops esbuild from looking for one on the disk.
const tsconfigNone = "{}"

// Texts the troubleshooting page quotes.
const textConfinedImport runbook.Quoted = "a program run by yaag_run imports relative files beneath its directory"

// extensions are the names an import without its extension is tried with,
// in esbuild's order, and their loaders.
var extensions = []string{".tsx", ".ts", ".jsx", ".js", ".mjs", ".cjs", ".mts", ".cts", ".json"}

var loaders = map[string]api.Loader{
	".ts": api.LoaderTS, ".mts": api.LoaderTS, ".cts": api.LoaderTS, ".tsx": api.LoaderTSX,
	".js": api.LoaderJS, ".mjs": api.LoaderJS, ".cjs": api.LoaderJS, ".jsx": api.LoaderJSX,
	".json": api.LoaderJSON, ".txt": api.LoaderText,
}

// FileIn bundles the program at path (absolute, beneath t's directory)
// from the Tree: the program and every module it imports are read from t.
func FileIn(t *snapshot.Tree, path string) (*Bundle, error) {
	if err := isProgram(t, path); err != nil {
		return nil, err
	}
	code, err := buildIn(t, path, "__yaagExports")
	if err != nil {
		return nil, err
	}
	return &Bundle{Name: path, Dir: filepath.Dir(path), Code: code}, nil
}

// ModuleIn is Module for a confined Run: the module at path and its
// imports are read from t.
func ModuleIn(t *snapshot.Tree, path, key string) (string, error) {
	if err := isProgram(t, path); err != nil {
		return "", err
	}
	return buildIn(t, path, fmt.Sprintf("__yaagModules[%q]", key))
}

func isProgram(t *snapshot.Tree, path string) error {
	switch k, err := t.Kind(path); {
	case err != nil:
		return err
	case k == snapshot.Absent:
		return fmt.Errorf("cannot read the program: %s does not exist", path)
	case k == snapshot.Dir:
		return fmt.Errorf("cannot read the program: %s is a directory", path)
	}
	return nil
}

// buildIn bundles; a file the Tree refused is the error whatever esbuild
// made of it.
func buildIn(t *snapshot.Tree, path, target string) (string, error) {
	// esbuild's working directory is /, which it only looks at: the files
	// are the Tree's.
	code, err := build(entry("yaag:program", target), "/", confinedPlugin(t, path), tsconfigNone)
	if terr := t.Err(); terr != nil {
		return "", terr
	}
	return code, err
}

func confinedPlugin(t *snapshot.Tree, file string) api.Plugin {
	return api.Plugin{Name: "yaag-confined", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `^(@yaag/runtime|typebox)$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: a.Path, Namespace: nsYaag}, nil
		})
		b.OnResolve(api.OnResolveOptions{Filter: `^yaag:program$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: file, Namespace: nsRoot}, nil
		})
		// Every other import, from the entry or from a module: resolved
		// here, never by esbuild (which would open the disk).
		b.OnResolve(api.OnResolveOptions{Filter: `.*`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			p, err := resolveIn(t, a.Importer, a.Path)
			if err != nil {
				return api.OnResolveResult{}, err
			}
			return api.OnResolveResult{Path: p, Namespace: nsRoot}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nsRoot}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			loader, ok := loaders[filepath.Ext(a.Path)]
			if !ok {
				return api.OnLoadResult{}, fmt.Errorf("%s: no loader for %q files (a program imports .ts, .js, .json and .txt files and their kin)", a.Path, filepath.Ext(a.Path))
			}
			data, err := t.ReadFile(a.Path)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			src := string(data)
			return api.OnLoadResult{Contents: &src, Loader: loader}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nsYaag}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			return api.OnLoadResult{Contents: virtualModule(a.Path), Loader: api.LoaderJS}, nil
		})
	}}
}

// resolveIn is the file an import spec of the module importer names: a
// relative or absolute path beneath the Tree's directory, as written, or
// with an extension of extensions, or its directory's index file; a
// ".js" spec may name its ".ts" file, as TypeScript lets it.
func resolveIn(t *snapshot.Tree, importer, spec string) (string, error) {
	var base string
	switch {
	case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		base = filepath.Join(filepath.Dir(importer), spec)
	case filepath.IsAbs(spec):
		base = filepath.Clean(spec)
	default:
		return "", fmt.Errorf("%s, @yaag/runtime and typebox (no node_modules, no Node built-in); it imports %q; %s",
			textConfinedImport, spec, runbook.Link(runbook.YaagProgramFileRefused))
	}
	var candidates []string
	candidates = append(candidates, base)
	for _, ext := range extensions {
		candidates = append(candidates, base+ext)
	}
	if ext := filepath.Ext(base); ext == ".js" || ext == ".jsx" || ext == ".mjs" || ext == ".cjs" {
		stem := strings.TrimSuffix(base, ext)
		swap := map[string][]string{".js": {".ts", ".tsx"}, ".jsx": {".ts", ".tsx"}, ".mjs": {".mts"}, ".cjs": {".cts"}}[ext]
		for _, e := range swap {
			candidates = append(candidates, stem+e)
		}
	}
	for _, ext := range extensions {
		candidates = append(candidates, filepath.Join(base, "index"+ext))
	}
	for _, c := range candidates {
		k, err := t.Kind(c)
		if err != nil {
			return "", err
		}
		if k == snapshot.File {
			return c, nil
		}
	}
	return "", &os.PathError{Op: "resolve", Path: spec, Err: errors.New("no file of that name beneath the program's directory")}
}
