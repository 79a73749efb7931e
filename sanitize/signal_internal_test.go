package sanitize

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestSignalWordsAreNoWordsOfCode holds the shifted and reversed signal
// words (signalShifts) apart from the words of code: a line of the Go
// distribution that held one would be shifted and read again for nothing.
// It reads the first 8 MB of the distribution's Go and Markdown files
// (BOXMAKER_SANITIZE_FP_BYTES raises it, as for the false positives).
func TestSignalWordsAreNoWordsOfCode(t *testing.T) {
	limit := 8 << 20
	if v := os.Getenv("BOXMAKER_SANITIZE_FP_BYTES"); v != "" {
		if n, err := parseSize(v); err == nil {
			limit = n
		}
	}
	read, found := 0, map[string]int{}
	filepath.WalkDir(filepath.Join(runtime.GOROOT(), "src"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || read >= limit {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, ".md") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		read += len(b)
		for _, w := range strings.FieldsFunc(strings.ToLower(string(b)), func(r rune) bool { return r < 'a' || r > 'z' }) {
			if signalShifts[w] != 0 {
				found[w]++
			}
		}
		return nil
	})
	if read < 1<<20 {
		t.Fatalf("read only %d bytes of the Go distribution", read)
	}
	for w, n := range found {
		t.Errorf("the signal word %q (ways %b) is a word of code %d times", w, signalShifts[w], n)
	}
	t.Logf("%d bytes of the Go distribution, %d signal words and their %d shifts and reversals", read, len(signalWords), len(signalShifts))
}

func parseSize(s string) (int, error) {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, os.ErrInvalid
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}
