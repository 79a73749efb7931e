package program

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boxmaker/core/testsupport"
	"boxmaker/runbook"
)

func write(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFileResolvesRelativeImportsAndNodeModules(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"program.ts":                            "import { helper } from './lib/helper';\nimport pad from 'leftpad-ish';\nimport { Type } from 'typebox';\nexport const out: string = pad(helper(), 3);\nexport const s = Type.String();\n",
		"lib/helper.ts":                         "export function helper(): string { return 'x'; }\n",
		"node_modules/leftpad-ish/package.json": `{"name":"leftpad-ish","main":"index.js"}`,
		"node_modules/leftpad-ish/index.js":     "module.exports = function (s, n) { return s.padStart(n, '-'); };\n",
	})
	b, err := File(filepath.Join(dir, "program.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if b.Dir != dir {
		t.Errorf("Dir = %s, want %s", b.Dir, dir)
	}
	testsupport.ContainsAll(t, "the bundle", b.Code, "(async () => {", "globalThis.__yaagExports = ", "padStart", "__yaagTypebox", "//# sourceMappingURL=data:application/json")
	if strings.Contains(b.Code, ": string") {
		t.Error("the types were not stripped")
	}
}

func TestNodeBuiltinsDoNotResolve(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"program.ts": "import { readFileSync } from 'fs';\nexport const x = readFileSync;\n"})
	_, err := File(filepath.Join(dir, "program.ts"))
	if err == nil || !strings.Contains(err.Error(), `program.ts:1:30: Could not resolve "fs"`) {
		t.Fatalf("got %v", err)
	}
}

func TestInlineImportsOnlyTheRuntimeAndTypeBox(t *testing.T) {
	ok := "import { defineProgram } from '@yaag/runtime';\nimport { Type } from 'typebox';\nexport const t = Type.Object({});\nexport default defineProgram({ name: 'x', async run() {} });\n"
	if _, err := Inline([]byte(ok), t.TempDir()); err != nil {
		t.Fatalf("the allowed imports: %v", err)
	}
	for _, imp := range []string{"./local", "fs", "node:child_process", "typebox/value", "lodash"} {
		src := "import * as m from '" + imp + "';\nexport const x = m;\n"
		_, err := Inline([]byte(src), t.TempDir())
		if err == nil || !strings.Contains(err.Error(), string(textInlineImport)) || !strings.Contains(err.Error(), `"`+imp+`"`) {
			t.Errorf("import %q: got %v", imp, err)
		}
	}
}

func TestInlineSizeIsCheckedFirst(t *testing.T) {
	// Over the limit and not even TypeScript: the size is what is reported.
	src := []byte(strings.Repeat("@", MaxInline+1))
	_, err := Inline(src, t.TempDir())
	r, ok := err.(*runbook.Refusal)
	if !ok || r.Entry != runbook.YaagInlineLimits || !strings.HasPrefix(err.Error(), "yaag_run: script is too large") {
		t.Fatalf("got %v", err)
	}
	if err := CheckInline(make([]byte, MaxInline)); err != nil {
		t.Fatalf("exactly the limit: %v", err)
	}
}

func TestTopLevelAwaitIsAllowed(t *testing.T) {
	src := "const x = await Promise.resolve(1);\nexport default x;\n"
	b, err := Inline([]byte(src), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Code, "await Promise.resolve(1)") {
		t.Fatalf("the await was lost:\n%s", b.Code)
	}
}
