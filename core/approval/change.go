package approval

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"boxmaker/core/brokerwire"
)

// Limits of a diff: a file or a content above MaxDiffBytes, or a pair
// whose diff needs more than maxEdits changed lines, is summarised; a
// diff longer than MaxDiffText is cut with a note. They bound what a
// hostile model can make brokerd compute and carry (a huge file, two
// texts that differ everywhere).
const (
	MaxDiffBytes = 1 << 20
	MaxDiffText  = 256 << 10
	maxEdits     = 1000
	maxLines     = 50000
	diffContext  = 3
)

// Identical is Change.Note for content that is the file's already.
const Identical = "the content is the file's as it is now: the call changes nothing in it"

// NewChange is the change from the file's text now (old, of size and
// hash as read) to the content written, for a file at path.
func NewChange(path string, old []byte, oldSize int64, sum, content string) *brokerwire.Change {
	c := &brokerwire.Change{Size: oldSize, SHA256: sum}
	switch {
	case int64(len(old)) != oldSize:
		c.Note = fmt.Sprintf("the file is over %s: compare with its size and sha256", size(MaxDiffBytes))
	case len(content) > MaxDiffBytes:
		c.Note = fmt.Sprintf("the content is over %s: compare with its size and sha256", size(MaxDiffBytes))
	case binary(old):
		c.Note = "the file is binary (not UTF-8 text): compare with its size and sha256"
	case binary([]byte(content)):
		c.Note = "the content is binary (not UTF-8 text): compare with its size and sha256"
	case string(old) == content:
		c.Note = Identical
	default:
		d, added, removed, ok := unifiedDiff(path, string(old), content)
		if !ok {
			c.Note = fmt.Sprintf("the file and the content differ in more than %d lines, or have more than %d: compare with its size and sha256", maxEdits, maxLines)
			break
		}
		if len(d) > MaxDiffText {
			n := MaxDiffText
			for n > 0 && !utf8.RuneStart(d[n]) {
				n--
			}
			d = d[:n] + fmt.Sprintf("\n[the diff is cut after %s]\n", size(MaxDiffText))
		}
		c.Diff, c.Added, c.Removed = d, added, removed
	}
	return c
}

// binary is text a person cannot read as lines: not UTF-8, or with a NUL.
func binary(b []byte) bool {
	return !utf8.Valid(b) || strings.IndexByte(string(b), 0) >= 0
}

// splitLines cuts s into lines, each with its line feed (the last
// without one when s does not end in one).
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	ls := strings.SplitAfter(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// edit is one line of a diff: ' ', '-' or '+'.
type edit struct {
	op   byte
	line string
}

// lineEdits is the shortest edit script from a to b (Myers' O(ND)
// algorithm, "An O(ND) Difference Algorithm and Its Variations", 1986,
// after the common first and last lines), or ok false when it needs more
// than maxEdits edits or the texts have more than maxLines lines: the
// time is O((N+M)·D) and the steps kept O(D²).
func lineEdits(a, b []string) (es []edit, ok bool) {
	if len(a)+len(b) > maxLines {
		return nil, false
	}
	// The lines both begin and end with are kept out of the search.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	for _, l := range a[:pre] {
		es = append(es, edit{' ', l})
	}
	mid, ok := myers(a[pre:len(a)-suf], b[pre:len(b)-suf])
	if !ok {
		return nil, false
	}
	es = append(es, mid...)
	for _, l := range a[len(a)-suf:] {
		es = append(es, edit{' ', l})
	}
	return es, true
}

func myers(a, b []string) ([]edit, bool) {
	n, m := len(a), len(b)
	// The diagonals kept are bounded by maxEdits, not by the lines.
	limit := min(n+m, maxEdits)
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int
	found := -1
	for d := 0; d <= limit && found < 0; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
				break
			}
		}
		// Only the diagonals -d..d are read back at step d.
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
	}
	if found < 0 {
		return nil, false
	}
	// Walk back from (n, m) through the kept steps.
	x, y := n, m
	var rev []edit
	for d := found; d > 0; d-- {
		prev := trace[d-1] // v after step d-1: index k+d (k in -(d-1)..d-1, shifted by one)
		at := func(k int) int { return prev[k+d] }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x, y = x-1, y-1
			rev = append(rev, edit{' ', a[x]})
		}
		if x == px {
			y--
			rev = append(rev, edit{'+', b[y]})
		} else {
			x--
			rev = append(rev, edit{'-', a[x]})
		}
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, edit{' ', a[x]})
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev, true
}

// unifiedDiff is the unified diff (diff -u's form, three lines of
// context) from old to new for the file at path.
func unifiedDiff(path, old, new string) (text string, added, removed int, ok bool) {
	es, ok := lineEdits(splitLines(old), splitLines(new))
	if !ok {
		return "", 0, 0, false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s (now)\n+++ %s (if approved)\n", path, path)
	// Hunks: runs of edits with up to 2*context unchanged lines between.
	ai, bi := 0, 0 // line numbers (0-based) at es[i]
	for i := 0; i < len(es); {
		if es[i].op == ' ' {
			ai, bi, i = ai+1, bi+1, i+1
			continue
		}
		start := max(0, i-diffContext)
		end := i
		for {
			for end < len(es) && es[end].op != ' ' {
				end++
			}
			same := 0
			for end+same < len(es) && es[end+same].op == ' ' {
				same++
			}
			if end+same < len(es) && same <= 2*diffContext {
				end += same
				continue
			}
			end += min(same, diffContext)
			break
		}
		lead := i - start
		a0, b0 := ai-lead, bi-lead
		var na, nb int
		for _, e := range es[start:end] {
			if e.op != '+' {
				na++
			}
			if e.op != '-' {
				nb++
			}
		}
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(a0, na), hunkRange(b0, nb))
		for _, e := range es[start:end] {
			b.WriteByte(e.op)
			b.WriteString(e.line)
			if !strings.HasSuffix(e.line, "\n") {
				b.WriteString("\n\\ No newline at end of file\n")
			}
			switch e.op {
			case '+':
				added++
			case '-':
				removed++
			}
		}
		ai, bi = a0+na, b0+nb
		i = end
	}
	return b.String(), added, removed, true
}

// hunkRange is a hunk's range in diff -u's form: "start,count" with
// lines counted from 1 (an empty range names the line before it).
func hunkRange(start, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if count == 1 {
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}
