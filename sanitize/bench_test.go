package sanitize_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"boxmaker/sanitize"
)

// goSource reads Go source files from the Go distribution until about n
// bytes: real code, the text the agent works on most.
func goSource(b *testing.B, n int) []string {
	b.Helper()
	root := filepath.Join(runtime.GOROOT(), "src")
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.Contains(p, "testdata") {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
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
	b.SetBytes(int64(total))
	b.ResetTimer()
	for b.Loop() {
		for _, f := range files {
			sanitize.Refusals(f)
			sanitize.Flags(f)
		}
	}
}

// BenchmarkRefusalsGoSource and BenchmarkFlagsGoSource split the two.
func BenchmarkRefusalsGoSource(b *testing.B) {
	text := strings.Join(goSource(b, 4<<20), "\n")
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		sanitize.Refusals(text)
	}
}

func BenchmarkFlagsGoSource(b *testing.B) {
	text := strings.Join(goSource(b, 4<<20), "\n")
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		sanitize.Flags(text)
	}
}

func BenchmarkNeutraliseGoSource(b *testing.B) {
	text := strings.Join(goSource(b, 4<<20), "\n")
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		sanitize.Neutralise(text)
	}
}
