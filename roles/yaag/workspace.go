package yaag

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"boxmaker/core/yaag/program"
	"boxmaker/core/yaag/typebox"
	"boxmaker/runbook"
)

// textWritten is what setup-workspace prints.
const textWritten runbook.Quoted = ".yaag/types/: written"

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

func setupWorkspaceCommand() *cli.Command {
	return &cli.Command{
		Name:      "setup-workspace",
		Usage:     "make DIR a Program Directory: write .yaag/types/ with the declarations of @yaag/runtime and typebox",
		ArgsUsage: "DIR",
		Description: "setup-workspace writes .yaag/types/ (the declarations of the @yaag/runtime and\n" +
			"typebox this binary provides) and .yaag/tsconfig.json, which maps the two\n" +
			"modules to them; a tsconfig.json extending it is written only when DIR has none.\n" +
			"Run it again after an upgrade: it replaces .yaag/types/ whole.",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usage(c, "setup-workspace takes one directory")
			}
			dir := c.Args().First()
			if err := setupWorkspace(dir); err != nil {
				return err
			}
			fmt.Fprintln(c.App.Writer, string(textWritten))
			return nil
		},
	}
}

// setupWorkspace writes the declarations into a new directory beside
// .yaag/types and then puts it in place, so a failure leaves the old
// declarations whole.
func setupWorkspace(dir string) error {
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
