package sanitize_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"boxmaker/core/testsupport"
	"boxmaker/sanitize"
)

// treeFiles lists the files under root whose names end in one of exts,
// sorted, leaving out testdata directories.
func treeFiles(root string, exts ...string) []string {
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.Contains(p, "testdata") && slices.Contains(exts, filepath.Ext(p)) {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	return paths
}

// goSource reads Go source files from the Go distribution until about n
// bytes: real code, the text the agent works on most.
func goSource(b *testing.B, n int) []string {
	b.Helper()
	root := filepath.Join(runtime.GOROOT(), "src")
	paths := treeFiles(root, ".go")
	var out []string
	total := 0
	for _, p := range paths {
		if total >= n {
			break
		}
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		out = append(out, string(data))
		total += len(data)
	}
	if total < n/2 {
		b.Skipf("only %d bytes of Go source under %s", total, root)
	}
	return out
}

// BenchmarkCheckGoSource is what `bxctl sanitize check` does, file by file,
// over about 4 MB of the Go distribution's source.
func BenchmarkCheckGoSource(b *testing.B) {
	files := goSource(b, 4<<20)
	total := 0
	for _, f := range files {
		total += len(f)
	}
	testsupport.Throughput(b, int64(total), func() {
		for _, f := range files {
			sanitize.Refusals(f)
			sanitize.Flags(f)
		}
	})
}

// BenchmarkRefusalsGoSource, BenchmarkFlagsGoSource and
// BenchmarkNeutraliseGoSource split it, on the files joined.
func BenchmarkRefusalsGoSource(b *testing.B) { benchGoSource(b, sanitize.Refusals) }

func BenchmarkFlagsGoSource(b *testing.B) { benchGoSource(b, sanitize.Flags) }

func BenchmarkNeutraliseGoSource(b *testing.B) { benchGoSource(b, sanitize.Neutralise) }

func benchGoSource[T any](b *testing.B, check func(string) T) {
	text := strings.Join(goSource(b, 4<<20), "\n")
	testsupport.Throughput(b, int64(len(text)), func() { check(text) })
}

// BenchmarkMemoryWriteCheck is what memoryd does for one memory write of a
// 2,200-character entry (memory.md's whole limit): the refuse rules, the
// neutraliser and the flag rules. The target is under a millisecond.
func BenchmarkMemoryWriteCheck(b *testing.B) {
	for _, tt := range []struct{ name, unit string }{
		{"prose", "The project builds with make; tests run with go test -race ./... and the CI config is in .github/workflows/ci.yml. "},
		{"russian", "Проект собирается командой make, тесты запускаются через go test, настройки лежат в каталоге etc. "},
		{"chinese", "项目用 make 构建，测试用 go test 运行，配置文件在 etc 目录下，不要忽略 CI 的警告。"},
		{"arabic", "يُبنى المشروع بالأمر make، وتُشغَّل الاختبارات عبر go test، والإعدادات في المجلد etc. "},
	} {
		text := strings.Repeat(tt.unit, 2200/len([]rune(tt.unit))+1)
		text = string([]rune(text)[:2200])
		b.Run(tt.name, func(b *testing.B) {
			cpu0 := testsupport.CPUTime()
			for b.Loop() {
				sanitize.Refusals(text)
				sanitize.Flags(sanitize.Neutralise(text))
			}
			if d := testsupport.CPUTime() - cpu0; d > 0 {
				b.ReportMetric(float64(d.Microseconds())/float64(b.N), "cpu-µs/op")
			}
		})
	}
}
