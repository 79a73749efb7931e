package approval

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// applyDiff applies a unified diff made by unifiedDiff to old, the way
// patch would, so that a test checks the diff says exactly what changes.
func applyDiff(t *testing.T, old, diff string) string {
	t.Helper()
	a := splitLines(old)
	var out []string
	at := 0
	lastOp := byte(0)
	lines := strings.SplitAfter(diff, "\n")
	for i := 2; i < len(lines); i++ {
		l := lines[i]
		if l != "" && l[0] != '\\' {
			lastOp = l[0]
		}
		switch {
		case l == "":
		case strings.HasPrefix(l, "@@ -"):
			var start int
			r := strings.Fields(l)[1][1:]
			n, _, _ := strings.Cut(r, ",")
			for _, c := range n {
				start = start*10 + int(c-'0')
			}
			if !strings.HasSuffix(r, ",0") {
				start--
			}
			out = append(out, a[at:start]...)
			at = start
		case strings.HasPrefix(l, `\ No newline`):
			if lastOp != '-' {
				out[len(out)-1] = strings.TrimSuffix(out[len(out)-1], "\n")
			}
			continue
		case l[0] == ' ':
			if a[at] != l[1:] && a[at]+"\n" != l[1:] {
				t.Fatalf("context line %q is not the file's %q", l, a[at])
			}
			out = append(out, l[1:])
			at++
		case l[0] == '-':
			if a[at] != l[1:] && a[at]+"\n" != l[1:] {
				t.Fatalf("removed line %q is not the file's %q", l, a[at])
			}
			at++
		case l[0] == '+':
			out = append(out, l[1:])
		}
	}
	out = append(out, a[at:]...)
	return strings.Join(out, "")
}

func randomText(r *rand.Rand, n int) string {
	words := []string{"a\n", "b\n", "c\n", "d\n", "e\n", "x\n"}
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(words[r.Intn(len(words))])
	}
	s := b.String()
	if r.Intn(4) == 0 {
		s = strings.TrimSuffix(s, "\n")
	}
	return s
}

func TestUnifiedDiffAppliesAndIsAsShortAsDiffU(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	diffU, _ := exec.LookPath("diff")
	dir := t.TempDir()
	for i := 0; i < 300; i++ {
		old, new := randomText(r, r.Intn(30)), randomText(r, r.Intn(30))
		if old == new {
			continue
		}
		d, added, removed, ok := unifiedDiff("/f", old, new)
		if !ok {
			t.Fatalf("no diff for %q -> %q", old, new)
		}
		if got := applyDiff(t, old, d); got != new {
			t.Fatalf("the diff of %q -> %q applies to %q:\n%s", old, new, got, d)
		}
		if diffU == "" {
			continue
		}
		// diff -u finds a shortest edit too: the same number of lines.
		os.WriteFile(filepath.Join(dir, "a"), []byte(old), 0o600)
		os.WriteFile(filepath.Join(dir, "b"), []byte(new), 0o600)
		out, _ := exec.Command(diffU, "-u", filepath.Join(dir, "a"), filepath.Join(dir, "b")).Output()
		var wa, wr int
		for _, l := range strings.Split(string(out), "\n")[2:] {
			switch {
			case strings.HasPrefix(l, "+"):
				wa++
			case strings.HasPrefix(l, "-"):
				wr++
			}
		}
		if added+removed != wa+wr {
			t.Fatalf("%q -> %q: %d added, %d removed; diff -u has %d and %d\n%s\n%s", old, new, added, removed, wa, wr, d, out)
		}
	}
}

func TestUnifiedDiffForm(t *testing.T) {
	old := "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"
	new := "one\ntwo\nthree\nfour\nFIVE\nsix\nseven\neight\nnine\nten\neleven"
	d, added, removed, ok := unifiedDiff("/home/o/src/n.txt", old, new)
	want := "--- /home/o/src/n.txt (now)\n+++ /home/o/src/n.txt (if approved)\n" +
		"@@ -2,9 +2,10 @@\n two\n three\n four\n-five\n+FIVE\n six\n seven\n eight\n nine\n ten\n+eleven\n\\ No newline at end of file\n"
	if !ok || d != want || added != 2 || removed != 1 {
		t.Fatalf("got (%d added, %d removed, %v)\n%s\nwant\n%s", added, removed, ok, d, want)
	}
}

func TestNewChangeSummarises(t *testing.T) {
	for _, c := range []struct {
		name     string
		old      []byte
		size     int64
		content  string
		wantNote string
	}{
		{"a file larger than was read", []byte("abc"), MaxDiffBytes + 1, "x", "the file is over"},
		{"a huge content", []byte("abc\n"), 4, strings.Repeat("x", MaxDiffBytes+1), "the content is over"},
		{"a binary file", []byte("a\x00b"), 3, "x\n", "the file is binary"},
		{"a binary content", []byte("a\n"), 2, "\xff\xfe", "the content is binary"},
		{"the same content", []byte("a\n"), 2, "a\n", "changes nothing"},
		{"texts that differ everywhere", []byte(strings.Repeat("a\n", 2*maxEdits)), int64(4 * maxEdits), strings.Repeat("b\n", 2*maxEdits), "differ in more than"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ch := NewChange("/f", c.old, c.size, "sum", c.content)
			if ch.Diff != "" || !strings.Contains(ch.Note, c.wantNote) {
				t.Fatalf("got note %q and diff %q, want a note with %q", ch.Note, ch.Diff, c.wantNote)
			}
		})
	}
}

// FuzzChange: whatever the file and the content, the diff applies back to
// the content, and the rendering of the call holds no control character.
func FuzzChange(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\nd")
	f.Add("\x1b[2J\n\r\n", "\u202e\n\x9b\n")
	f.Add("", "x")
	f.Add("x\n", "\xff")
	f.Fuzz(func(t *testing.T, old, content string) {
		c := NewChange("/p/\x1b.txt", []byte(old), int64(len(old)), SHA256([]byte(old)), content)
		if c.Diff != "" && !strings.Contains(c.Diff, "[the diff is cut") {
			if got := applyDiff(t, old, c.Diff); got != content {
				t.Fatalf("the diff of %q -> %q applies to %q:\n%s", old, content, got, c.Diff)
			}
		}
		b, _ := json.Marshal(map[string]string{"path": "/p/x.txt", "content": content})
		p := pending("write_file", string(b))
		p.Change = c
		var out bytes.Buffer
		if err := Render(&out, p, Options{Now: t0, ContentLimit: -1}); err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{Summary(p), out.String()} {
			for _, r := range s {
				if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x202e || r == 0x2028 {
					t.Fatalf("output holds %U for %q -> %q: %q", r, old, content, s)
				}
			}
		}
	})
}
