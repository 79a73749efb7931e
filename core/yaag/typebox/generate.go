//go:build ignore

// Command generate writes the TypeBox prelude (gen/typebox.js) and
// TypeBox's declarations (gen/types/typebox/) from node_modules, which
// `npm ci` installs from the committed package-lock.json. It is run by
// `go generate ./core/yaag/typebox`, which scripts/build.sh does.
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

func main() {
	if err := generate(); err != nil {
		fmt.Fprintf(os.Stderr, "typebox: %v\n", err)
		os.Exit(1)
	}
}

func generate() error {
	pkg := filepath.Join("node_modules", "typebox")
	if _, err := os.Stat(filepath.Join(pkg, "package.json")); err != nil {
		return fmt.Errorf("%s is not installed: run `npm ci` in core/yaag/typebox (scripts/build.sh does)", pkg)
	}
	res := api.Build(api.BuildOptions{
		Stdin: &api.StdinOptions{
			Contents:   `import * as T from "typebox"; globalThis.__yaagTypebox = T;`,
			ResolveDir: ".",
			Sourcefile: "typebox-prelude.js",
		},
		Bundle:           true,
		Write:            false,
		Format:           api.FormatIIFE,
		Platform:         api.PlatformNeutral,
		Conditions:       []string{"import"},
		MinifyWhitespace: true,
		MinifySyntax:     true,
		LegalComments:    api.LegalCommentsNone,
		Supported:        map[string]bool{"async-generator": false, "for-await": false},
		LogLevel:         api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return fmt.Errorf("bundling TypeBox failed:\n%s", strings.Join(msgs, ""))
	}
	if err := os.WriteFile(filepath.Join("gen", "typebox.js"), res.OutputFiles[0].Contents, 0o644); err != nil {
		return err
	}
	out := filepath.Join("gen", "types", "typebox")
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	build := filepath.Join(pkg, "build")
	err := filepath.WalkDir(build, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".d.mts") {
			return err
		}
		rel, _ := filepath.Rel(pkg, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(out, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		return err
	}
	manifest := `{"name":"typebox","type":"module","types":"./build/index.d.mts"}` + "\n"
	return os.WriteFile(filepath.Join(out, "package.json"), []byte(manifest), 0o644)
}
