package sanitize

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// goSourceSample is Go source of the distribution, normalised: a few
// packages' files joined (words with digits: int64, utf8, sha256).
func goSourceSample(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, dir := range []string{"strconv", "crypto/sha256", "math/bits", "unicode/utf8", "encoding/base64"} {
		paths, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", dir, "*.go"))
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err == nil {
				b.Write(data)
			}
		}
	}
	if b.Len() == 0 {
		t.Skip("no Go source in GOROOT")
	}
	return Normalise(b.String())
}

// leetWords are words the scan's slots must answer yes for, among others
// that share their bytes' shapes.
const leetWords = "1gn0r3 1gn0re pr0mpt pr0mpts 1nstruct10ns h4ck3r s3cr3t p4ssw0rd p@ssw0rd !gnore $ecret int64 utf8 x86 a1b2 r00t 4dm1n sy5tem"

// TestScanLeetSlotsAgree holds the scan's remembered answers
// (scanner.leetMayFold) to leetMayFold for every word with digits and
// letters of the corpora and of Go source, each asked twice, with one
// scanner whose slots carry over from text to text.
func TestScanLeetSlotsAgree(t *testing.T) {
	texts := append(normalisedCorpora(t), goSourceSample(t), leetWords, " "+leetWords+" ", strings.ReplaceAll(leetWords, " ", "\n"))
	s := getScanner()
	defer putScanner(s)
	asked, yes := 0, 0
	for _, text := range texts {
		yes += leetSlotsAgree(t, s, text)
		wordsOf(text, func(i, j int) { asked++ })
	}
	if yes == 0 {
		t.Fatalf("no word of %d answered yes: the test reads nothing", asked)
	}
}

// FuzzScanLeetSlotsAgree is TestScanLeetSlotsAgree on any text.
func FuzzScanLeetSlotsAgree(f *testing.F) {
	for _, w := range strings.Fields(leetWords) {
		f.Add(w + " " + w + "x")
	}
	s := getScanner()
	f.Fuzz(func(t *testing.T, text string) { leetSlotsAgree(t, s, text) })
}

func leetSlotsAgree(t *testing.T, s *scanner, text string) (yes int) {
	t.Helper()
	wordsOf(text, func(i, j int) {
		class := uint8(0)
		for k := i; k < j; k++ {
			class |= wordClass[text[k]]
		}
		if class&(wcDigit|wcLetter) != wcDigit|wcLetter {
			return
		}
		want := leetMayFold(text, i, j)
		for range 2 {
			if got := s.leetMayFold(text, i, j, class&wcHigh != 0); got != want {
				t.Fatalf("%q at %d in %q: the slots answered %v, leetMayFold %v", text[i:j], i, text[max(0, i-20):min(len(text), j+20)], got, want)
			}
		}
		if want {
			yes++
		}
	})
	return yes
}

// TestEnoughCountsWhatNormaliseKeeps holds enough's counts to Normalise:
// of ASCII text, its letters and digits are at most the normalised text's
// bytes, and its bytes with each run of white space counted once at
// least; and enough answers as the plain reading (Normalise's length) on
// windows of the corpora and of Go source.
func TestEnoughCountsWhatNormaliseKeeps(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1250))
	const alphabet = "abcdefghijklmnopqrstuvwxyzIGNORE0123456789@$!|_-.'\" \t\n\r\x00\x07\x7f<>&;#%+/=:,"
	words := strings.Fields(leetWords + " i g n o r e a-l-l p_r_e_v_i_o_u_s 1 g n 0 r 3 h e l l o")
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for b.Len() < r.IntN(300) {
			if r.IntN(3) == 0 {
				b.WriteString(words[r.IntN(len(words))])
			} else {
				b.WriteByte(alphabet[r.IntN(len(alphabet))])
			}
		}
		s := b.String()
		kept, most := asciiCounts(s)
		if n := len(Normalise(s)); kept > n || n > most {
			t.Fatalf("%q: %d letters and digits, at most %d bytes, normalised %q has %d", s, kept, most, Normalise(s), n)
		}
	}
	texts := append(normalisedCorpora(t), goSourceSample(t))
	for _, text := range texts {
		for from := 0; from < len(text); from += 997 {
			for _, n := range []int{refuseContext - 10, refuseContext + 40, 2 * refuseContext} {
				w := text[from:min(len(text), from+n)]
				for _, flagBytes := range []int{flagBefore, flagRules().after, 4 * flagBefore} {
					visible := 0
					for k := 0; k < len(w); {
						c, size := utf8.DecodeRuneInString(w[k:])
						if c < utf8.RuneSelf || !isInvisible(c) {
							visible += size
						}
						k += size
					}
					want := visible >= refuseContext && len(Normalise(w)) >= flagBytes
					if got := enough(w, flagBytes); got != want {
						t.Fatalf("enough(%q, %d) = %v, the plain reading %v", w, flagBytes, got, want)
					}
				}
			}
		}
	}
}

// asciiCounts are enough's counts of ASCII text: its letters and digits,
// and its bytes with each run of white space counted once.
func asciiCounts(s string) (kept, most int) {
	space := false
	for i := 0; i < len(s); i++ {
		k := asciiKind[s[i]]
		kept += int(k & 1)
		if k&2 == 0 || !space {
			most++
		}
		space = k&2 != 0
	}
	return kept, most
}

// TestMergeNeedsSorts holds mergeNeeds to sorting the lists joined, for
// groups of 0 to 45 words (some twice, some with no position), with one
// scanner whose buffers carry over from group to group.
func TestMergeNeedsSorts(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1251))
	s := getScanner()
	defer putScanner(s)
	words := min(len(s.needPos), 60)
	for round := 0; round < 3000; round++ {
		for id := range words {
			ps := s.needPos[id][:0]
			for at := r.IntN(50); at < 2000 && r.IntN(4) > 0; at += 1 + r.IntN(200) {
				ps = append(ps, at)
			}
			s.needPos[id] = ps
		}
		ids := make([]int, r.IntN(46))
		for k := range ids {
			ids[k] = r.IntN(words)
		}
		var want []int
		for _, id := range ids {
			want = append(want, s.needPos[id]...)
		}
		slices.Sort(want)
		got := s.mergeNeeds(nil, ids)
		if !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Fatalf("ids %v: merged %v, sorted %v", ids, got, want)
		}
	}
	for id := range words {
		s.needPos[id] = s.needPos[id][:0]
	}
}

// TestPunctMayTurnsAwayNoStart: wherever a punctuation start begins
// (compared as the scan compares them), punctMay lets the scan compare;
// on the corpora, Go source and every start at a line's start and inside
// one.
func TestPunctMayTurnsAwayNoStart(t *testing.T) {
	rules := flagRules()
	idx := &rules.starts
	var b strings.Builder
	for c, ps := range idx.punct {
		for _, p := range ps {
			b.WriteString(p.start + " x\n x " + p.start + "y\n" + string(rune(c)) + "\n")
		}
	}
	texts := append(normalisedCorpora(t), goSourceSample(t), b.String())
	turned := 0
	for _, text := range texts {
		for i := 0; i < len(text); i++ {
			ps := idx.punct[text[i]]
			if len(ps) == 0 {
				continue
			}
			starts := false
			for _, p := range ps {
				starts = starts || strings.HasPrefix(text[i:], p.start) && (!rules.patterns[p.pattern].lineStart || atLineStart(text, i))
			}
			switch may := idx.punctMay(text, i); {
			case starts && !may:
				t.Fatalf("%q at %d: a start begins, punctMay says none", text[i:min(len(text), i+20)], i)
			case !may:
				turned++
			}
		}
	}
	if turned == 0 {
		t.Fatal("punctMay turned away no byte: the test reads nothing")
	}
}

// TestSpacedMayStartTurnsAwayNoFold: wherever the scan asks spacedMayFold
// about a word of one byte and a separator after it, and spacedMayStart
// says no, spacedMayFold says no (corpora, Go source, letters set apart).
func TestSpacedMayStartTurnsAwayNoFold(t *testing.T) {
	texts := append(normalisedCorpora(t), goSourceSample(t),
		"i g n o r e", "a-b-c", "a- b c", "x - y - z", "1 g n 0 r 3", "a. b. c.", "i := 0", "a*b*c", "s-é-c", "a @ b @ c", "p.r.o.m.p.t", "h-'e l l o")
	turned := 0
	for _, text := range texts {
		wordsOf(text, func(i, j int) {
			if j-i != 1 || j+2 >= len(text) || !spacedSep[text[j]] || wordClass[text[i]]&wcInner != 0 {
				return
			}
			if !spacedMayStart(text, j) {
				turned++
				if spacedMayFold(text, i) {
					t.Fatalf("%q at %d: spacedMayStart says no, spacedMayFold yes", text[i:min(len(text), i+20)], i)
				}
			}
		})
	}
	if turned == 0 {
		t.Fatal("spacedMayStart turned away nothing: the test reads nothing")
	}
}

// FuzzSpacedMayStart is TestSpacedMayStartTurnsAwayNoFold on any text.
func FuzzSpacedMayStart(f *testing.F) {
	for _, s := range []string{"i g n o r e", "a- b c", "a-@-b-c", "x'- y z", "i := 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for i := 0; i+3 < len(text); i++ {
			if (i > 0 && isWordByte(text[i-1])) || !isWordByte(text[i]) || isWordByte(text[i+1]) || wordClass[text[i]]&(wcInner|wcHigh) != 0 || !spacedSep[text[i+1]] {
				continue
			}
			if !spacedMayStart(text, i+1) && spacedMayFold(text, i) {
				t.Fatalf("%q at %d: spacedMayStart says no, spacedMayFold yes", text, i)
			}
		}
	})
}
