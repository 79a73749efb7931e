// Package workspace writes a Program Directory's editor support: the
// declarations of @yaag/runtime and typebox under .yaag/types/ and a
// tsconfig that maps the two modules to them (yaag setup-workspace, and
// the yaag_setup_workspace tool).
package workspace

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"boxmaker/core/yaag/program"
	"boxmaker/core/yaag/typebox"
	"boxmaker/runbook"
)

// TextWritten is what a finished setup says.
const TextWritten runbook.Quoted = ".yaag/types/: written"

// tsconfig maps the two modules the binary provides to their
// declarations, for an editor; a project's own tsconfig.json extends it.
const tsconfig = `{
  "compilerOptions": {
    "target": "es2022",
    "module": "es2022",
    "moduleResolution": "bundler",
    "strict": true,
    "noEmit": true,
    "baseUrl": "..",
    "paths": {
      "@yaag/runtime": [".yaag/types/@yaag/runtime/index.d.ts"],
      "typebox": [".yaag/types/typebox/build/index.d.mts"]
    }
  }
}
`

const projectTsconfig = `{
  "extends": "./.yaag/tsconfig.json",
  "include": ["**/*.ts"]
}
`

// Write makes dir a Program Directory: it writes .yaag/types/ (the
// declarations of the @yaag/runtime and typebox this binary provides) into
// a new directory beside it and then puts it in place, so a failure leaves
// the old declarations whole; then .yaag/tsconfig.json, and a tsconfig.json
// extending it when dir has none. The yaag CLI runs it on the owner's
// directory; the yaag_setup_workspace tool runs it inside the tools
// container, on the decided directory mounted at its own path.
func Write(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("cannot set up %s: %v", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("cannot set up %s: it is not a directory", dir)
	}
	decls, err := typebox.Declarations()
	if err != nil {
		return err
	}
	yaagDir := filepath.Join(dir, ".yaag")
	if err := os.MkdirAll(yaagDir, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(yaagDir, ".types-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	files := map[string]string{
		"@yaag/runtime/index.d.ts":   program.RuntimeDeclarations,
		"@yaag/runtime/package.json": `{"name":"@yaag/runtime","types":"./index.d.ts"}` + "\n",
	}
	for name, body := range files {
		if err := writeFile(filepath.Join(tmp, name), []byte(body)); err != nil {
			return err
		}
	}
	err = fs.WalkDir(decls, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(decls, path)
		if err != nil {
			return err
		}
		return writeFile(filepath.Join(tmp, "typebox", path), data)
	})
	if err != nil {
		return err
	}
	types := filepath.Join(yaagDir, "types")
	old := types + ".old"
	os.RemoveAll(old)
	if err := os.Rename(types, old); err != nil && !os.IsNotExist(err) {
		return err
	}
	if err := os.Rename(tmp, types); err != nil {
		os.Rename(old, types)
		return err
	}
	os.RemoveAll(old)
	if err := os.WriteFile(filepath.Join(yaagDir, "tsconfig.json"), []byte(tsconfig), 0o644); err != nil {
		return err
	}
	project := filepath.Join(dir, "tsconfig.json")
	if _, err := os.Stat(project); os.IsNotExist(err) {
		return os.WriteFile(project, []byte(projectTsconfig), 0o644)
	}
	return nil
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
