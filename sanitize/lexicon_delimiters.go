package sanitize

import "strings"

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

// delimStarts are the marks a delimiter line is drawn with (the letters
// of CJK brackets are starts above ASCII).
var delimStarts = []string{"-", "=", "*", "#", "%", "~", "<", ">", "[", "|", "+", "{", "}", "]", "【", "「", "『", "〔", "［", "《", "〈"}

// delimiterPatterns are the patterns of every file's [delimiter]
// sections, read together.
func delimiterPatterns(files []lexiconFile) []flagPattern {
	var ends, users, inputs, systems, orders, headers, musts, demands words
	for _, f := range files {
		for _, s := range f.sections {
			switch s.family {
			case "delimiter":
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
	end, part := alt(ends), alt(users, inputs)
	// The line: the end, then the part (and whose it is), or the part
	// then the end (用户输入结束, KULLANICI GİRDİSİNİN SONU).
	body := `(?:` + end + `[^\n]{0,40}?` + part + `(?:[^\n]{0,24}?` + part + `)?` +
		`|(?:` + part + `[^\n]{0,16}?)?` + part + `[^\n]{0,16}?` + end + `)`
	// A header: who speaks and what it says, in either order, or a header
	// of its own.
	header := `(?:` + alt(systems) + `[^\pL\pN\n]{0,3}(?:[^\n]{0,16}?)` + alt(orders) +
		`|` + alt(orders) + `[^\n]{0,16}?` + alt(systems)
	if len(headers) > 0 {
		header += `|` + alt(headers)
	}
	header += `)`
	turn := alt(musts, demands)
	// What follows on the next lines: a header or a demand.
	follow := `(?:[^\n]{0,200}\n){0,2}?[^\n]{0,160}?(?:` + header + `|` + turn + `)`
	line := `[^\pL\pN\n]{0,24}` + body + delimTail + follow

	// What the window must hold near its start: an end word, ASCII as a
	// word of the scan, the others as substrings.
	var endWords, endSubs []string
	for _, e := range ends {
		w := longestWord(normalEntry(unstar(e)))
		if isASCII(w) && allWords([]string{w}) && !strings.HasSuffix(e, "*") {
			endWords = append(endWords, w)
		} else {
			endSubs = append(endSubs, w)
		}
	}
	const span = 24 + 140 + 24 + 3*200 + 160 + 60
	out := []flagPattern{
		fp(RuleFlagFakeStructure, delimStarts, span, line).atLineStart().
			needingWithin(72, endWords...).needingSubstrings(endSubs...).checked(ownLine),
	}
	// The line may start with its words: an end word, or (in a script
	// with no spaces, or a language that puts the end last) the part.
	starts := startWords(ends)
	for _, w := range startWords(users, inputs) {
		if !isASCII(w) {
			starts = append(starts, w)
		}
	}
	out = append(out, fp(RuleFlagFakeStructure, starts, span, body+delimTail+follow).atLineStart().
		needingWithin(72, endWords...).needingSubstrings(endSubs...).checked(ownLine))

	// A header on a line of its own ("INSTRUCCIONES DEL SISTEMA:",
	// "=== SYSTEM OVERRIDE ===", "[SISTEMA]"), closed by a mark (so that
	// "root mode enabled on the router" is no header), then a demand on
	// its line or the next.
	var sysWords, sysSubs []string
	for _, e := range join2(systems, headers) {
		w := longestWord(normalEntry(unstar(e)))
		if isASCII(w) && allWords([]string{w}) && !strings.HasSuffix(e, "*") {
			sysWords = append(sysWords, w)
		} else {
			sysSubs = append(sysSubs, w)
		}
	}
	hstarts := append(startWords(systems, orders, headers), delimStarts...)
	out = append(out, fp(RuleFlagFakeStructure, hstarts, 400,
		`[^\pL\pN\n]{0,12}`+header+`\s?[^\pL\pN\s]{1,12}\s?(?:\n[^\n]{0,160}?|[^\n]{0,160}?)`+turn).
		atLineStart().needingWithin(64, sysWords...).needingSubstrings(sysSubs...).checked(ownLine))
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
