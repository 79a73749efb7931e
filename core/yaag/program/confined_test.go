package program

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"boxmaker/core/testsupport"
	"boxmaker/core/yaag/snapshot"
	"boxmaker/runbook"
)

func tree(t *testing.T, root string) *snapshot.Tree {
	t.Helper()
	tr, err := snapshot.Open(root, snapshot.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tr.Seal)
	return tr
}

func TestFileInResolvesRelativeImportsFromTheTree(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"p.ts":           "import { a } from './lib';\nimport { b } from './b.js';\nimport data from './d.json';\nimport note from './n.txt';\nimport { Type } from 'typebox';\nexport const out: string = a + b + data.x + note;\nexport const s = Type.String();\n",
		"lib/index.ts":   "export const a: string = 'A';\n",
		"b.ts":           "export const b = 'B';\n",
		"d.json":         `{"x": "X"}`,
		"n.txt":          "NOTE",
		"tsconfig.json":  `{"compilerOptions": {"paths": {"./lib": ["./evil"]}}}`,
		"package.json":   `{"name": "p", "main": "evil.js"}`,
		"node_modules/x": "",
	})
	tr := tree(t, dir)
	b, err := FileIn(tr, filepath.Join(dir, "p.ts"))
	if err != nil {
		t.Fatal(err)
	}
	testsupport.ContainsAll(t, "the bundle", b.Code, `"A"`, `"B"`, `"X"`, `"NOTE"`, "__yaagTypebox", "globalThis.__yaagExports = ")
	var got []string
	for _, f := range tr.Manifest().Files {
		got = append(got, f.Path)
	}
	// What was read is the program and its imports: no tsconfig.json, no
	// package.json (esbuild was given contents and opened nothing).
	if want := "b.ts d.json lib/index.ts n.txt p.ts"; strings.Join(got, " ") != want {
		t.Errorf("read %v, want %s", got, want)
	}
}

func TestFileInRefusesWhatIsNotTheDirectorysOwnFile(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "progs")
	secret := filepath.Join(base, "shadow")
	write(t, base, map[string]string{"outside.ts": "export const s = 'outside';\n"})
	if err := os.WriteFile(secret, []byte("root:$6$secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{"ok.ts": "export const ok = 1;\n"})
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(secret, filepath.Join(dir, "shadow.txt")))
	must(os.Symlink(filepath.Join(dir, "ok.ts"), filepath.Join(dir, "entry-link.ts")))
	must(syscall.Mkfifo(filepath.Join(dir, "fifo.ts"), 0o600))
	must(os.Link(filepath.Join(base, "outside.ts"), filepath.Join(dir, "hard.ts")))
	sparse, err := os.Create(filepath.Join(dir, "big.ts"))
	must(err)
	must(sparse.Truncate(3 << 30)) // 3 GiB, no block written
	sparse.Close()
	for _, c := range []struct{ name, program, want string }{
		{"a link named as a text module", "import s from './shadow.txt';\nexport const x = s;\n", "shadow.txt is not a file this Run may read: a symbolic link is on the way"},
		{"an import out of the directory", "import { s } from '../outside';\nexport const x = s;\n", "is outside " + dir},
		{"an absolute import outside", "import { s } from '" + filepath.Join(base, "outside.ts") + "';\nexport const x = s;\n", "is outside " + dir},
		{"a FIFO", "import { f } from './fifo.ts';\nexport const x = f;\n", "fifo.ts is not a file this Run may read: it is not a regular file (a FIFO)"},
		{"a hard link", "import { s } from './hard';\nexport const x = s;\n", "hard.ts is not a file this Run may read: it has 2 hard links"},
		{"a 3 GiB sparse file", "import { s } from './big';\nexport const x = s;\n", "big.ts has 3221225472 bytes, over a confined Run's limit of 4194304 bytes for one file"},
		{"a package", "import x from 'leftpad';\nexport default x;\n", string(textConfinedImport)},
		{"a Node built-in", "import { readFileSync } from 'fs';\nexport default readFileSync;\n", string(textConfinedImport)},
	} {
		t.Run(c.name, func(t *testing.T) {
			write(t, dir, map[string]string{"p.ts": c.program})
			_, err := FileIn(tree(t, dir), filepath.Join(dir, "p.ts"))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			var r *runbook.Refusal
			if c.want != string(textConfinedImport) && !errors.As(err, &r) {
				t.Errorf("%v is no refusal with an entry", err)
			}
		})
	}
	// The entry itself as a link.
	if _, err := FileIn(tree(t, dir), filepath.Join(dir, "entry-link.ts")); err == nil || !strings.Contains(err.Error(), "a symbolic link is on the way") {
		t.Errorf("the entry as a link: %v", err)
	}
}

func TestModuleInReadsOnlyWhatTheTreeHeldWhenSealed(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"agents/a.ts": "import { h } from './h';\nexport default h;\n", "agents/h.ts": "export const h = 1;\n"})
	tr := tree(t, dir)
	if _, err := ModuleIn(tr, filepath.Join(dir, "agents/a.ts"), "m1"); err != nil {
		t.Fatal(err)
	}
	tr.Seal()
	// Rewritten after the seal: the Run bundles what it read.
	write(t, dir, map[string]string{"agents/h.ts": "export const h = 'rewritten';\n"})
	code, err := ModuleIn(tr, filepath.Join(dir, "agents/a.ts"), "m2")
	if err != nil || strings.Contains(code, "rewritten") || !strings.Contains(code, `__yaagModules["m2"]`) {
		t.Fatalf("after the seal: %v\n%s", err, code)
	}
	if _, err := ModuleIn(tr, filepath.Join(dir, "agents/h.ts"), "m3"); err != nil {
		t.Errorf("a file read before: %v", err)
	}
	write(t, dir, map[string]string{"agents/new.ts": "export default 1;\n"})
	if _, err := ModuleIn(tr, filepath.Join(dir, "agents/new.ts"), "m4"); err == nil || !strings.Contains(err.Error(), "was not read when the Run began") {
		t.Errorf("a file not read before the seal: %v", err)
	}
}

// TestEsbuildOpensNoFileOfAConfinedRun: esbuild, when it reads a
// directory itself, reads package.json and tsconfig.json on the way (a
// malformed one fails the owner's bundle); a confined bundle is given
// contents and reads neither, not even a FIFO under those names, which
// would block an open.
func TestEsbuildOpensNoFileOfAConfinedRun(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"p.ts": "import { a } from './a';\nexport const x = a;\n", "a.ts": "export const a = 1;\n",
		"tsconfig.json": "{ not json", "package.json": "{ not json"})
	if _, err := File(filepath.Join(dir, "p.ts")); err == nil || !strings.Contains(err.Error(), "package.json") {
		t.Fatalf("the owner's bundle (esbuild reads the files) did not read package.json: %v", err)
	}
	if _, err := FileIn(tree(t, dir), filepath.Join(dir, "p.ts")); err != nil {
		t.Fatalf("the confined bundle: %v", err)
	}
	fifos := t.TempDir()
	prog := filepath.Join(fifos, "progs")
	write(t, prog, map[string]string{"p.ts": "import { a } from './a';\nexport const x = a;\n", "a.ts": "export const a = 1;\n"})
	for _, d := range []string{fifos, prog} {
		for _, name := range []string{"tsconfig.json", "jsconfig.json", "package.json"} {
			if err := syscall.Mkfifo(filepath.Join(d, name), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	done := make(chan error, 1)
	go func() {
		_, err := FileIn(tree(t, prog), filepath.Join(prog, "p.ts"))
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the confined bundle blocked: something opened a FIFO")
	}
}
