package bxctl

import (
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"boxmaker/core/testsupport"
	"boxmaker/sanitize"
)

// goSourceFile writes the Go distribution's .go files (sorted by path,
// testdata left out), joined and repeated, to one file of about n bytes in
// the benchmark's temporary directory, and returns its path and size.
func goSourceFile(b *testing.B, n int) (string, int64) {
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
	path := filepath.Join(b.TempDir(), "go-source.txt")
	out, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer out.Close()
	var total int64
	for total < int64(n) {
		wrote := false
		for _, p := range paths {
			if total >= int64(n) {
				break
			}
			data, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			if _, err := out.Write(data); err != nil {
				b.Fatal(err)
			}
			total += int64(len(data))
			wrote = true
		}
		if !wrote {
			b.Skipf("no Go source under %s", root)
		}
	}
	if err := out.Close(); err != nil {
		b.Fatal(err)
	}
	return path, total
}

// BenchmarkSanitizeCheckCommand is `bxctl sanitize check < FILE` on about
// 40 MB of Go source: bxctl's command line with the file as its standard
// input, as the shell gives it, so it measures reading, chunking, every
// rule and printing (docs/performance.md, "Sanitizer").
func BenchmarkSanitizeCheckCommand(b *testing.B) {
	path, size := goSourceFile(b, 40<<20)
	testsupport.Throughput(b, size, func() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		app := App()
		app.Reader, app.Writer, app.ErrWriter = f, io.Discard, io.Discard
		// The source fires a few flag rules (keys in crypto tests), so the
		// command's answer is an error; it must be the findings' one.
		if err := app.Run([]string{"bxctl", "sanitize", "check"}); err != nil && !strings.HasPrefix(err.Error(), "sanitize check: ") {
			b.Fatal(err)
		}
		f.Close()
	})
}

// BenchmarkSanitizeCheckLibrary is the same file read whole into memory and
// given to sanitize.Refusals and sanitize.Flags, the library without
// chunks, for comparison.
func BenchmarkSanitizeCheckLibrary(b *testing.B) {
	path, size := goSourceFile(b, 40<<20)
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	text := string(data)
	testsupport.Throughput(b, size, func() {
		sanitize.Refusals(text)
		sanitize.Flags(text)
	})
}

// BenchmarkSanitizeCheckCommandPipe is `cat FILE | bxctl sanitize check`:
// standard input a pipe, read a chunk at a time.
func BenchmarkSanitizeCheckCommandPipe(b *testing.B) {
	path, size := goSourceFile(b, 40<<20)
	testsupport.Throughput(b, size, func() {
		// cat is a process of its own, as in the shell's pipeline: its
		// copying does not take this process's cores (its CPU is not
		// counted in cpu-MB/s either).
		cat := exec.Command("cat", path)
		pr, err := cat.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cat.Start(); err != nil {
			b.Fatal(err)
		}
		app := App()
		app.Reader, app.Writer, app.ErrWriter = pr, io.Discard, io.Discard
		if err := app.Run([]string{"bxctl", "sanitize", "check"}); err != nil && !strings.HasPrefix(err.Error(), "sanitize check: ") {
			b.Fatal(err)
		}
		if err := cat.Wait(); err != nil {
			b.Fatal(err)
		}
	})
}
