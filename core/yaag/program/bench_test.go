package program

import (
	"fmt"
	"path/filepath"
	"testing"

	"boxmaker/core/yaag/snapshot"
)

// BenchmarkBundle bundles a program of five relative imports as the owner's
// yaag run does (esbuild reads the files) and as a confined Run does (the
// files read once beneath the directory, D800, and handed to esbuild; the
// manifest made as the Run makes it).
func BenchmarkBundle(b *testing.B) {
	dir := b.TempDir()
	files := map[string]string{}
	src := "import { defineProgram } from '@yaag/runtime';\n"
	for i := range 5 {
		src += fmt.Sprintf("import { f%d } from './lib/m%d';\n", i, i)
		files[fmt.Sprintf("lib/m%d.ts", i)] = fmt.Sprintf("export function f%d(x: number): number { return x * %d; }\n", i, i)
	}
	files["p.ts"] = src + "export default defineProgram({ name: 'p', async run() { return f0(1) + f1(2) + f2(3) + f3(4) + f4(5); } });\n"
	write(b, dir, files)
	p := filepath.Join(dir, "p.ts")
	b.Run("owner", func(b *testing.B) {
		for b.Loop() {
			if _, err := File(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("confined", func(b *testing.B) {
		for b.Loop() {
			t, err := snapshot.Open(dir, snapshot.DefaultLimits)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := FileIn(t, p); err != nil {
				b.Fatal(err)
			}
			t.Seal()
			t.Manifest()
		}
	})
}
