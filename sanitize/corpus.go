package sanitize

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"boxmaker/runbook"
)

// The corpora are the sanitizer's tests, kept as text files so that a case
// seen in the field is added without code (docs/runbook.md, the
// sanitizer-rules entry):
//
//	sanitize/testdata/attack.txt      each case must be caught by the rules it names
//	sanitize/testdata/codework.txt    each case must pass every rule
//	sanitize/testdata/neutralise.txt  each case's input neutralises to its wanted output
//
// and, held out from the rules' development (TestHeldOutRecall reports on
// them; the gate only parses them and checks that they hold no whole key
// or tag):
//
//	sanitize/testdata/heldout/attack.txt    attack cases, a third of each family
//	sanitize/testdata/heldout/codework.txt  benign look-alikes, a third of each family
//
// A file is a list of cases. A case starts with a header line
//
//	=== NAME [RULE ...]
//
// (the rules only in the attack corpus) and its text is every line up to
// the next header, without trailing blank lines. Lines starting with "#|"
// are comments (say where the case was seen), and so is everything before
// the first header. In the neutralise corpus a line "--- want" splits a
// case's input from the output wanted.
//
// A key or a tag is never written whole in these files (a secret scanner
// would rightly complain, and the files would themselves be refused), so a
// case builds them from pieces with directives, which never occur in code:
//
//	{{@join gh p_}}    the pieces, joined: ghp_
//	{{@alnum 36}}      36 letters and digits (also @upper, @b32, @digits, @hex, @b64, @url)
//	{{@tag im_end}}    a bar tag; {{@open think}} and {{@close think}} the others
//	{{@U+200D}}        the code point, so invisible characters stay visible here
//	{{@repeat 3 ab}}   the text, repeated
//
// The random pieces are drawn from a generator seeded by the case's name, so
// a case is the same text every time.

// CorpusDir is where the corpora are, relative to the repository root.
const CorpusDir = "sanitize/testdata"

// HeldOutDir is where the held-out corpora are, within CorpusDir.
const HeldOutDir = "heldout"

// Corpus files.
const (
	AttackCorpus     = "attack.txt"
	CodeWorkCorpus   = "codework.txt"
	NeutraliseCorpus = "neutralise.txt"
)

// Case is one case of a corpus.
type Case struct {
	Name  string
	Rules []string // attack corpus: the rules that must fire
	Text  string   // with its directives expanded
	Want  string   // neutralise corpus: the output wanted
	File  string
	Line  int
}

// CheckCorpora runs the three corpora under root/sanitize/testdata and
// returns a problem for each case that fails, for `boxmaker gate`. A file
// that cannot be read is an error; one that cannot be parsed, problems.
func CheckCorpora(root string) ([]runbook.Problem, error) {
	var problems []runbook.Problem
	add := func(file string, line int, format string, args ...any) {
		problems = append(problems, runbook.Problem{File: file, Line: line, Text: fmt.Sprintf(format, args...)})
	}
	for _, name := range []string{AttackCorpus, CodeWorkCorpus, NeutraliseCorpus, HeldOutDir + "/" + AttackCorpus, HeldOutDir + "/" + CodeWorkCorpus} {
		rel := filepath.ToSlash(filepath.Join(CorpusDir, name))
		data, err := os.ReadFile(filepath.Join(root, CorpusDir, name))
		if err != nil {
			return nil, err
		}
		// The file itself must hold nothing a scanner would take for a
		// real key or tag.
		for _, f := range Refusals(string(data)) {
			if f.Rule == RuleTag || strings.HasPrefix(f.Rule, "secret-") {
				add(rel, lineAt(string(data), f.Offset), "the file holds %s whole (%s): build it from pieces with {{@join ...}}", f.Reason, f.Rule)
			}
		}
		cases, errs := ParseCorpus(rel, string(data), name == NeutraliseCorpus)
		for _, e := range errs {
			add(rel, e.Line, "%s", e.Text)
		}
		if strings.HasPrefix(name, HeldOutDir+"/") {
			// Held out: a miss stays a miss (TestHeldOutRecall).
			continue
		}
		for _, c := range cases {
			switch name {
			case AttackCorpus:
				if len(c.Rules) == 0 {
					add(c.File, c.Line, "attack case %q names no rule that must catch it", c.Name)
					continue
				}
				fired := map[string]bool{}
				var names []string
				for _, f := range append(Refusals(c.Text), Flags(c.Text)...) {
					fired[f.Rule] = true
					names = append(names, f.Rule)
				}
				for _, r := range c.Rules {
					if _, known := refuseReasons[r]; !known {
						if _, known := flagReasons[r]; !known {
							add(c.File, c.Line, "attack case %q names %q, which is no rule", c.Name, r)
							continue
						}
					}
					if !fired[r] {
						add(c.File, c.Line, "attack case %q is not caught by %s (fired: %s)", c.Name, r, orNone(names))
					}
				}
			case CodeWorkCorpus:
				for _, f := range append(Refusals(c.Text), Flags(c.Text)...) {
					add(c.File, c.Line+1+lineAt(c.Text, f.Offset)-1, "code-work case %q must pass, but %s fired (%s)", c.Name, f.Rule, f.Reason)
				}
			case NeutraliseCorpus:
				got := Neutralise(c.Text)
				if got != c.Want {
					add(c.File, c.Line, "neutralise case %q: got %q, want %q", c.Name, got, c.Want)
				}
				if again := Neutralise(c.Want); again != c.Want {
					add(c.File, c.Line, "neutralise case %q: the wanted output changes when neutralised again: %q", c.Name, again)
				}
				for _, f := range Refusals(got) {
					if f.Rule == RuleTag {
						add(c.File, c.Line, "neutralise case %q: a tag is left after neutralising", c.Name)
					}
				}
			}
		}
	}
	return problems, nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// lineAt is the 1-based line of a byte offset.
func lineAt(text string, off int) int {
	return strings.Count(text[:min(off, len(text))], "\n") + 1
}

// ParseCorpus reads a corpus file's cases (see CheckCorpora for the
// format); file names it in the cases and problems. With want, each case is
// an input and, after a line "--- want", its wanted output.
func ParseCorpus(file, data string, want bool) ([]Case, []runbook.Problem) {
	var (
		cases    []Case
		problems []runbook.Problem
		cur      *Case
		lines    []string
		wantAt   = -1
	)
	finish := func() {
		if cur == nil {
			return
		}
		body := lines
		var wantLines []string
		if want {
			if wantAt < 0 {
				problems = append(problems, runbook.Problem{File: file, Line: cur.Line, Text: fmt.Sprintf("case %q has no \"--- want\" line", cur.Name)})
				return
			}
			body, wantLines = lines[:wantAt], lines[wantAt:]
		}
		var err error
		if cur.Text, err = expand(joinTrimmed(body), cur.Name); err != nil {
			problems = append(problems, runbook.Problem{File: file, Line: cur.Line, Text: fmt.Sprintf("case %q: %v", cur.Name, err)})
			return
		}
		if want {
			if cur.Want, err = expand(joinTrimmed(wantLines), cur.Name); err != nil {
				problems = append(problems, runbook.Problem{File: file, Line: cur.Line, Text: fmt.Sprintf("case %q: %v", cur.Name, err)})
				return
			}
		}
		cases = append(cases, *cur)
	}
	seen := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "=== "); ok {
			finish()
			fields := strings.Fields(rest)
			if len(fields) == 0 {
				problems = append(problems, runbook.Problem{File: file, Line: n, Text: "a case header without a name"})
				cur = nil
				continue
			}
			if prev, dup := seen[fields[0]]; dup {
				problems = append(problems, runbook.Problem{File: file, Line: n, Text: fmt.Sprintf("case %q is also at line %d", fields[0], prev)})
			}
			seen[fields[0]] = n
			cur = &Case{Name: fields[0], Rules: fields[1:], File: file, Line: n}
			lines, wantAt = nil, -1
			continue
		}
		if cur == nil || strings.HasPrefix(line, "#|") {
			continue
		}
		if want && line == "--- want" && wantAt < 0 {
			wantAt = len(lines)
			continue
		}
		lines = append(lines, line)
	}
	finish()
	return cases, problems
}

func joinTrimmed(lines []string) string {
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// Alphabets of the random directives.
var alphabets = map[string]string{
	"alnum":  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
	"upper":  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
	"b32":    "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
	"digits": "0123456789",
	"hex":    "0123456789abcdef",
	"b64":    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
	"url":    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-",
	"lower":  "abcdefghijklmnopqrstuvwxyz0123456789",
}

// expand replaces the directives in s.
func expand(s, seed string) (string, error) {
	if !strings.Contains(s, "{{@") {
		return s, nil
	}
	h := fnv.New64a()
	h.Write([]byte(seed))
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x5a171)) // deterministic per case
	var b strings.Builder
	for {
		i := strings.Index(s, "{{@")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return "", fmt.Errorf("a directive {{@ without its }}")
		}
		b.WriteString(s[:i])
		out, err := directive(s[i+3:i+j], rng)
		if err != nil {
			return "", err
		}
		b.WriteString(out)
		s = s[i+j+2:]
	}
}

func directive(d string, rng *rand.Rand) (string, error) {
	fields := strings.Fields(d)
	if len(fields) == 0 {
		return "", fmt.Errorf("an empty directive")
	}
	name, args := fields[0], fields[1:]
	if hex, ok := strings.CutPrefix(name, "U+"); ok {
		n, err := strconv.ParseUint(hex, 16, 32)
		if err != nil || n > 0x10ffff || len(args) > 0 {
			return "", fmt.Errorf("directive {{@%s}}: want {{@U+XXXX}}", d)
		}
		return string(rune(n)), nil
	}
	switch name {
	case "join":
		return strings.Join(args, ""), nil
	case "tag", "open", "close":
		if len(args) != 1 {
			return "", fmt.Errorf("directive {{@%s}}: want one tag name", d)
		}
		kind := map[string]TagKind{"tag": Bar, "open": Open, "close": Close}[name]
		return Tag{Name: args[0], Kind: kind}.Text(), nil
	case "repeat":
		if len(args) != 2 {
			return "", fmt.Errorf("directive {{@%s}}: want {{@repeat N TEXT}}", d)
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 0 || n > 1<<16 {
			return "", fmt.Errorf("directive {{@%s}}: bad count", d)
		}
		return strings.Repeat(args[1], n), nil
	}
	if alphabet, ok := alphabets[name]; ok {
		if len(args) != 1 {
			return "", fmt.Errorf("directive {{@%s}}: want {{@%s N}}", d, name)
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 0 || n > 1<<16 {
			return "", fmt.Errorf("directive {{@%s}}: bad count", d)
		}
		out := make([]byte, n)
		for i := range out {
			out[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(out), nil
	}
	return "", fmt.Errorf("unknown directive {{@%s}}", d)
}
