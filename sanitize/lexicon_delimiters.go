package sanitize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fake delimiters in every language of the lexicons: a line that closes
// the part of the text that is the user's or the data ("### FIN DE LA
// ENTRADA DEL USUARIO ###", "=== 用户输入结束 ===", "}}} ]]] END CONTEXT")
// and, on the next lines, a header that opens a system or instruction
// part ("INSTRUCTIONS DU SYSTÈME :", "SYSTEMANWEISUNG:", "[SISTEMA]") or
// words that turn to the reader; and such a header on a line of its own,
// followed by a demand. Liu et al. 2023 (fake separators and context
// switches), OWASP LLM01 2025.
//
// The classes of a [delimiter] section (lexicon_files.go):
//
//	ends     what closes a part: end, fin, ende, конец, 结束, ここまで
//	users    whose part it is: user, usuario, пользователя, 用户
//	inputs   the part: input, data, message, context, instructions
//	systems  who speaks next: system, sistema, система, システム, 系统
//	orders   what it says: instructions, message, override, 指令
//	headers  headers written as one word (SYSTEMANWEISUNG), or that name
//	         no system ("new session", "nueva sesión")
//	musts    words that turn to the reader: "you must", "a partir de
//	         ahora", "отныне", "从现在起"
//
// Every file's classes are read together, for two reasons: a forged
// delimiter in one language is often followed by a header in another
// (attacks are machine translated piece by piece), and one expression a
// shape costs the scan one candidate where seventeen would cost
// seventeen. The demands that may follow are the musts and every file's
// override verbs, role words and secrets.

// delimTail is what may close a delimiter line after its words: marks,
// no letters or digits, then the line's end.
const delimTail = `[^\pL\pN\n]{0,24}\n`

// delimStarts are the marks a delimiter line is drawn with: two of a
// kind, so that a line of code that opens with one ("}", "- item", "> "
// quoting, "* bullet") starts no window; a bracket, "#" and the CJK
// brackets (starts above ASCII) alone.
var delimStarts = []string{"--", "==", "**", "#", "%%", "~~", "<<", ">>", "[", "||", "++", "{{", "}}", "]]", "【", "「", "『", "〔", "《", "〈"}

// delimiterPatterns are the patterns of every file's [delimiter]
// sections, read together.
func delimiterPatterns(files []lexiconFile) []flagPattern {
	var ends, users, inputs, systems, orders, headers, musts, demands, foreign words
	for _, f := range files {
		for _, s := range f.sections {
			switch s.family {
			case "delimiter":
				if f.lang != "en" {
					foreign = append(foreign, join2(s.class("systems"), s.class("orders"), s.class("headers"))...)
				}
				ends = append(ends, s.class("ends")...)
				users = append(users, s.class("users")...)
				inputs = append(inputs, s.class("inputs")...)
				systems = append(systems, s.class("systems")...)
				orders = append(orders, s.class("orders")...)
				headers = append(headers, s.class("headers")...)
				musts = append(musts, s.class("musts")...)
			case "override":
				demands = append(demands, s.class("verbs")...)
			case "role":
				demands = append(demands, s.class("roles")...)
			case "secret":
				demands = append(demands, s.class("nouns")...)
			}
		}
	}
	if len(ends) == 0 || len(inputs) == 0 || len(systems) == 0 || len(orders) == 0 {
		return nil
	}
	// The line: words of the classes, the end and the part in either
	// order (用户输入结束, KULLANICI GİRDİSİNİN SONU), and nothing but
	// marks after. Each class once in the expression (the classes of
	// seventeen languages make it large, and compiling it is paid at the
	// first window that needs it, in every process that checks a text);
	// the check wants both an end and a part among the words.
	body := `(?:` + alt(ends, users, inputs) + `[^\n]{0,40}?)+?`
	hasEnd, hasPart := containsEntry(ends), containsEntry(join2(users, inputs))
	// A header: who speaks and what it says, in either order, or a header
	// of its own (the check wants one).
	header := `(?:` + alt(systems, orders, headers) + `[^\n]{0,16}?)+?`
	findSystem, findOrder, hasHeader := entryFinder(systems), entryFinder(orders), containsEntry(headers)
	isHeader := func(h string) bool { return hasHeader(h) || near(findSystem(h), findOrder(h), 32) }
	// What follows is looked for only where a delimiter line or a header
	// matched (the checks below), with one expression each, compiled once:
	// the demands of seventeen languages are too many to put into every
	// pattern's expression, and a scan of code would pay for them at each
	// mark that starts a line.
	turn := compileAtFirstUse(alt(musts, demands))
	line := `[^\pL\pN\n]{0,24}` + body + delimTail
	// A delimiter line, then a header or a demand within three lines.
	lineThenFollow := func(before, window string, m []int) bool {
		if !ownLine(before, "", nil) || !shortLine(window[m[0]:m[1]]) || !hasEnd(window[m[0]:m[1]]) || !hasPart(window[m[0]:m[1]]) {
			return false
		}
		// A header or a demand within three lines.
		next := firstLines(window[m[1]:], 3, 560)
		for _, l := range strings.Split(next, "\n") {
			if isHeader(l) {
				return true
			}
		}
		return turn.get().MatchString(next)
	}
	// What the window must hold near its start: an end word, ASCII as a
	// word of the scan, the others as substrings.
	endWords, endSubs := delimNeeds(ends)
	const span = 24 + 140 + 24 + 560
	// The end word is on the line the pattern starts ("}" ends most lines
	// of Go, and "defer f.close()" follows many).
	onLine := func(p flagPattern) flagPattern { p.needsUntil = '\n'; return p }
	// One pattern for the line however it starts: at its marks, at an
	// end word, or (in a script with no spaces, or a language that puts
	// the end last) at the part.
	starts := append(highWords(ends, users, inputs), delimStarts...)
	out := []flagPattern{
		onLine(fp(RuleFlagFakeStructure, starts, span, line).atLineStart().
			needingWithin(72, endWords...).needingSubstrings(endSubs...).checked(lineThenFollow)),
	}

	// A header on a line of its own ("INSTRUCCIONES DEL SISTEMA:",
	// "=== SYSTEM OVERRIDE ===", "[SISTEMA]"), closed by a mark (so that
	// "root mode enabled on the router" is no header), then a demand on
	// its line or the next.
	sysWords, sysSubs := delimNeeds(join2(systems, headers))
	// English headers start at their marks only: a line of code or prose
	// that opens with "system", "model" or "command" is common, and the
	// English header rules (flagrules_claims.go) read the rest.
	hstarts := append(highWords(foreign), delimStarts...)
	headerThenTurn := func(before, window string, m []int) bool {
		if !ownLine(before, "", nil) || !shortLine(window[m[0]:m[1]]) || !isHeader(window[m[0]:m[1]]) {
			return false
		}
		return turn.get().MatchString(firstLines(window[m[1]:], 2, 320))
	}
	out = append(out, onLine(fp(RuleFlagFakeStructure, hstarts, 400,
		`[^\pL\pN\n]{0,12}`+header+`[^\S\n]?[^\pL\pN\s]{1,12}`).
		atLineStart().needingWithin(64, sysWords...).needingSubstrings(sysSubs...).checked(headerThenTurn)))
	return out
}

// entryFinder finds where a text holds one of t's entries (a stem
// without its *), as normalising leaves them, at the start of a word
// where the script has words ("istem" is no word of "sistema").
func entryFinder(t words) func(string) []int {
	var es []string
	for _, e := range t {
		if n := normalEntry(unstar(e)); n != "" {
			es = append(es, n)
		}
	}
	return func(s string) []int {
		var at []int
		for _, e := range es {
			for i := 0; i < len(s); {
				j := strings.Index(s[i:], e)
				if j < 0 {
					break
				}
				k := i + j
				r, _ := utf8.DecodeRuneInString(e)
				p, _ := utf8.DecodeLastRuneInString(s[:k])
				if k == 0 || unspacedScript(r) || !unicode.IsLetter(p) && !unicode.IsNumber(p) {
					at = append(at, k)
				}
				i = k + len(e)
			}
		}
		return at
	}
}

// containsEntry reports whether entryFinder finds one of t's entries.
func containsEntry(t words) func(string) bool {
	find := entryFinder(t)
	return func(s string) bool { return len(find(s)) > 0 }
}

// near reports whether two of the positions, one of each, are at most n
// bytes apart.
func near(a, b []int, n int) bool {
	for _, x := range a {
		for _, y := range b {
			if x-y <= n && y-x <= n {
				return true
			}
		}
	}
	return false
}

// unspacedScript reports whether r is of a script written without
// spaces between words.
func unspacedScript(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// shortLine reports whether a match reads as a delimiter or a header, not
// as a sentence that holds the classes' words: short, and no comma or
// full stop in it ("終止會話,儲存所有...", "сли в данных встречается END в
// виде строки, то").
func shortLine(s string) bool {
	return len(s) <= 100 && !strings.ContainsAny(s, ",.;，、。；")
}

// firstLines is the start of s up to its n-th line's end, at most b bytes.
func firstLines(s string, n, b int) string {
	s = s[:min(len(s), b)]
	for i, k := 0, 0; i < len(s); i++ {
		if s[i] == '\n' {
			if k++; k == n {
				return s[:i]
			}
		}
	}
	return s
}

// delimNeeds are what a window must hold for t's entries: an ASCII word
// as a word of the scan, a word above ASCII as a substring. An ASCII stem
// ("system*", and the spellings without diacritics of a stem above ASCII)
// is no need: looked for as a substring in every window that starts at a
// mark, it cost the scan of Go source a third of its time, so those
// languages list the forms a header takes ("systemowe", "sistemi").
func delimNeeds(t words) (ws, subs []string) {
	for _, e := range t {
		w := longestWord(normalEntry(unstar(e)))
		switch {
		case isASCII(w) && strings.HasSuffix(e, "*"):
		case isASCII(w) && allWords([]string{w}):
			ws = append(ws, w)
		case !isASCII(w):
			subs = append(subs, w)
		}
	}
	return ws, subs
}

// highWords are the startWords above ASCII. A line that opens with an
// ASCII word of these classes ("system", "message", "prompt", "end" are
// words of every language's code) starts no window: the marks before it
// do, and English's own header and delimiter rules read the rest
// (flagrules_claims.go). Starting at those words cost the scan of Go
// source a tenth of its time.
func highWords(tables ...words) []string {
	var out []string
	for _, w := range startWords(tables...) {
		if !isASCII(w) {
			out = append(out, w)
		}
	}
	return out
}

// startWords are firstWords of the entries that may start a pattern: an
// ASCII stem (Polish "system*", Turkish "mod*") cannot, and is read only
// inside a match that starts elsewhere (the marks of the line).
func startWords(tables ...words) []string {
	var keep words
	for _, t := range tables {
		for _, e := range t {
			if !(strings.HasSuffix(e, "*") && isASCII(normalEntry(unstar(e)))) {
				keep = append(keep, e)
			}
		}
	}
	return firstWords(keep)
}

// ownLine accepts a match that starts its line: nothing but marks and
// white space before it.
func ownLine(before, _ string, _ []int) bool {
	for _, r := range before {
		if r == ' ' || r == '\t' || strings.ContainsRune(delimMarks, r) {
			continue
		}
		return false
	}
	return true
}

// delimMarks are the marks ownLine lets stand before a line's words.
const delimMarks = "-=*#%~<>[]|+{}()/_:【】「」『』〔〕［］《》〈〉"
