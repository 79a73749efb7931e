package sanitize

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Decode and recheck (docs/specs/sanitizer.md 6.3): spans of a line that
// look like base64, hex, URL-encoding or Morse, and lines that read as
// ROT13 or backwards, are decoded and the flag rules read them again. A hit
// in decoded text is flag-encoded-instruction, its reason naming the
// encoding; string literals of one line joined that make an instruction
// none of them makes alone are flag-split-payload. Decoding is bounded:
// depth one (decoded text is not decoded again), spans of at most
// maxDecoded bytes, at most maxSpansPerLine spans a line, one line at a
// time (so that text cut at line starts is decoded as the whole is).

const (
	RuleFlagEncoded      = "flag-encoded-instruction"
	RuleFlagSplitPayload = "flag-split-payload"
)

const (
	// minEncoded is the shortest run decoded: shorter runs are words and
	// hashes' prefixes, and hold no instruction worth the name.
	minEncoded      = 20
	maxDecoded      = 4096
	maxSpansPerLine = 8
)

// decodeSignals are words that ROT13 or reversed text of an instruction
// holds: when the text holds one, each of its lines is read decoded too.
var decodeSignals = func() []string {
	var out []string
	for _, w := range []string{"ignore", "disregard", "instructions", "previous", "forget", "everything", "prompt", "reveal", "password", "pretend"} {
		out = append(out, rot13(w), reverse(w))
	}
	return out
}()

// decoded applies the decoders to the lines of text that start in
// [from, to). rotated says whether the text holds a decode signal.
func (f *findings) decoded(text string, from, to int, rotated bool) {
	for ls := from; ls < to; {
		le := strings.IndexByte(text[ls:], '\n')
		if le < 0 {
			le = len(text)
		} else {
			le += ls
		}
		f.decodeLine(text[ls:le], ls, rotated)
		ls = le + 1
	}
}

// markOf gives the bytes that call for a decoder a bit each.
var markOf = func() (t [256]uint8) {
	for i, c := range []byte{'%', '\\', '.', '-', '"', '\'', '`'} {
		t[c] = 1 << i
	}
	return t
}()

// Byte classes of the run scanner.
const (
	runNone  = 0
	runB64   = 1 << iota // base64 (either alphabet), and hex
	runHex               // 0-9 a-f A-F
	runDigit             // 0-9
	runUpper             // A-Z
	runLower             // a-z
	runSym               // + / - _
)

var runClass = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c >= '0' && c <= '9':
			t[c] = runB64 | runHex | runDigit
		case c >= 'a' && c <= 'f':
			t[c] = runB64 | runHex | runLower
		case c >= 'A' && c <= 'F':
			t[c] = runB64 | runHex | runUpper
		case c >= 'g' && c <= 'z':
			t[c] = runB64 | runLower
		case c >= 'G' && c <= 'Z':
			t[c] = runB64 | runUpper
		case c == '+' || c == '/' || c == '-' || c == '_':
			t[c] = runB64 | runSym
		}
	}
	return t
}()

func (f *findings) decodeLine(line string, at int, rotated bool) {
	// One pass says which decoders the line needs: a long run of base64
	// or hex characters, escapes, dots and dashes, quotes.
	var seen uint8
	longRun, run := false, 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		if runClass[c]&runB64 != 0 {
			run++
			longRun = longRun || run >= minEncoded
			if c != '-' {
				continue
			}
		} else {
			run = 0
		}
		seen |= markOf[c]
	}
	if !longRun && seen == 0 && !rotated {
		return
	}
	marks := func(c byte) bool { return seen&markOf[c] != 0 }
	spans := 0
	hit := func(offset int, how, decodedText string) {
		spans++
		if decodedText != "" && instructionIn(decodedText) {
			f.addDetail(RuleFlagEncoded, at+offset, "an instruction hidden in "+how+" text")
		}
	}
	// Runs of base64 or hex.
	for i := 0; longRun && i < len(line) && spans < maxSpansPerLine; {
		if runClass[line[i]]&runB64 == 0 {
			i++
			continue
		}
		j, all := i, byte(0xff)
		var seen byte
		digits, uppers := 0, 0
		for j < len(line) && runClass[line[j]]&runB64 != 0 {
			c := runClass[line[j]]
			all &= c
			seen |= c
			if c&runDigit != 0 {
				digits++
			}
			if c&runUpper != 0 {
				uppers++
			}
			j++
		}
		end := j
		for end < len(line) && end-j < 2 && line[end] == '=' {
			end++
		}
		if n := j - i; n >= minEncoded {
			run := line[i:min(j, i+maxDecoded)]
			switch {
			case all&runHex != 0 && n%2 == 0:
				if b, err := hex.DecodeString(run); err == nil {
					hit(i, "hex-encoded", text(b))
				}
			case uppers >= 3 && seen&runLower != 0 && digits >= 1 && (n%4 == 0 || end > j || n >= 2*minEncoded):
				if b, ok := unbase64(line[i:min(end, i+maxDecoded)]); ok {
					hit(i, "base64-encoded", text(b))
				}
			}
		}
		i = end
		if i == j {
			i++
		}
	}
	// \x69\x67... escapes, and URL-encoding (%69%67 or ignore%20all).
	if marks('\\') && spans < maxSpansPerLine && strings.Count(line, `\x`) >= 8 {
		if i := strings.Index(line, `\x`); i >= 0 {
			j := i
			var b []byte
			for j+4 <= len(line) && line[j] == '\\' && line[j+1] == 'x' && len(b) < maxDecoded {
				v, err := hex.DecodeString(line[j+2 : j+4])
				if err != nil {
					break
				}
				b = append(b, v...)
				j += 4
			}
			hit(i, "hex-escaped", text(b))
		}
	}
	if marks('%') && spans < maxSpansPerLine && strings.Count(line, "%") >= 3 {
		if i, j := urlSpan(line); j-i >= minEncoded {
			if s, err := url.PathUnescape(strings.ReplaceAll(line[i:min(j, i+maxDecoded)], "+", " ")); err == nil && s != line[i:j] {
				hit(i, "URL-encoded", s)
			}
		}
	}
	// Morse: dots and dashes, letters apart by spaces, words by slashes.
	if marks('.') && marks('-') && spans < maxSpansPerLine && (strings.Contains(line, ".-") || strings.Contains(line, "-.")) {
		if i, s := morse(line); s != "" {
			hit(i, "Morse-coded", s)
		}
	}
	// The text holds a signal; the line must hold one itself, so that
	// what is decoded depends on the line alone.
	if rotated && len(line) >= minEncoded && holdsSignal(line) {
		if s := rot13(line); instructionIn(s) {
			f.addDetail(RuleFlagEncoded, at, "an instruction hidden in ROT13 text")
		}
		if s := reverse(line); instructionIn(s) {
			f.addDetail(RuleFlagEncoded, at, "an instruction hidden in text written backwards")
		}
	}
	if marks('"') || marks('\'') || marks('`') {
		f.splitPayload(line, at)
	}
}

// holdsSignal reports whether the line holds a decode signal as a word of
// its normalised text, as flagMatches finds them (so that rotated, which
// says the text holds one, is true whenever this is).
func holdsSignal(line string) bool {
	n := Normalise(line)
	for i := 0; i < len(n); {
		if !isWordByte(n[i]) {
			i++
			continue
		}
		j := i
		for j < len(n) && (isWordByte(n[j]) || (n[j] == '-' || n[j] == '\'') && j+1 < len(n) && isWordByte(n[j+1])) {
			j++
		}
		if signalWords[n[i:j]] {
			return true
		}
		i = j
	}
	return false
}

var signalWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range decodeSignals {
		m[w] = true
	}
	return m
}()

// instructionIn reports whether a flag rule that reads instructions fires
// on decoded text (the rules read it once, without decoding it again).
func instructionIn(s string) bool {
	n := Normalise(s)
	first, _ := flagMatches(n, 0, len(n))
	for rule := range first {
		if rule != RuleFlagHardcodedSecret {
			return true
		}
	}
	return false
}

// text is b when it is text: valid UTF-8, nearly all of it printable.
func text(b []byte) string {
	if len(b) < 8 || !utf8.Valid(b) {
		return ""
	}
	bad := 0
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\t' && c != '\r' || c == 0x7f {
			bad++
		}
	}
	if bad*20 > len(b) {
		return ""
	}
	return string(b)
}

func unbase64(s string) ([]byte, bool) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, true
		}
	}
	// A run cut at maxDecoded, or with a character too many: decode what
	// makes whole groups.
	if n := len(strings.TrimRight(s, "=")) / 4 * 4; n >= minEncoded {
		if b, err := base64.StdEncoding.DecodeString(s[:n]); err == nil {
			return b, true
		}
		if b, err := base64.URLEncoding.DecodeString(s[:n]); err == nil {
			return b, true
		}
	}
	return nil, false
}

// urlSpan is the longest stretch of the line made of URL characters that
// holds a %XX escape.
func urlSpan(line string) (from, to int) {
	best, bestTo := 0, 0
	for i := 0; i < len(line); {
		j, escapes := i, 0
		for j < len(line) && isURLByte(line[j]) {
			if line[j] == '%' && j+2 < len(line) && isHexByte(line[j+1]) && isHexByte(line[j+2]) {
				escapes++
			}
			j++
		}
		if escapes >= 3 && j-i > bestTo-best {
			best, bestTo = i, j
		}
		i = j + 1
	}
	return best, bestTo
}

func isURLByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("%._~+-!*'()", c) >= 0
}

func isHexByte(c byte) bool { return runClass[c]&runHex != 0 }

// morseCode is International Morse Code (ITU-R M.1677-1), letters and
// digits.
var morseCode = map[string]byte{
	".-": 'a', "-...": 'b', "-.-.": 'c', "-..": 'd', ".": 'e', "..-.": 'f', "--.": 'g', "....": 'h', "..": 'i',
	".---": 'j', "-.-": 'k', ".-..": 'l', "--": 'm', "-.": 'n', "---": 'o', ".--.": 'p', "--.-": 'q', ".-.": 'r',
	"...": 's', "-": 't', "..-": 'u', "...-": 'v', ".--": 'w', "-..-": 'x', "-.--": 'y', "--..": 'z',
	"-----": '0', ".----": '1', "..---": '2', "...--": '3', "....-": '4', ".....": '5', "-....": '6',
	"--...": '7', "---..": '8', "----.": '9',
}

// morse decodes the longest run of Morse code in the line (at least twelve
// letters), or returns "".
func morse(line string) (int, string) {
	start := -1
	for i := 0; i < len(line); i++ {
		if c := line[i]; c == '.' || c == '-' {
			start = i
			break
		}
	}
	if start < 0 {
		return 0, ""
	}
	var b strings.Builder
	letters := 0
	for _, word := range strings.Split(line[start:], "/") {
		for _, code := range strings.Fields(word) {
			c, ok := morseCode[code]
			if !ok {
				if letters >= 12 {
					return start, b.String()
				}
				return 0, ""
			}
			b.WriteByte(c)
			letters++
			if b.Len() > maxDecoded {
				return start, b.String()
			}
		}
		b.WriteByte(' ')
	}
	if letters < 12 {
		return 0, ""
	}
	return start, b.String()
}

func rot13(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	return string(b)
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// splitPayload joins the string literals of a line ("ign" + "ore all
// previous instructions") and reports flag-split-payload when the joined
// text makes an instruction that the line itself does not.
func (f *findings) splitPayload(line string, at int) {
	if strings.Count(line, `"`)+strings.Count(line, `'`)+strings.Count(line, "`") < 4 {
		return
	}
	var b strings.Builder
	first, n, joins := -1, 0, 0
	for i := 0; i < len(line); i++ {
		q := line[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		j := i + 1
		for j < len(line) && line[j] != q {
			if line[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(line) {
			break
		}
		if first < 0 {
			first = i
		}
		if lit := line[i+1 : j]; lit != "" {
			if b.Len() > 0 && isLetterByte(lowerASCII[b.String()[b.Len()-1]]) && isLetterByte(lowerASCII[lit[0]]) {
				joins++
			}
			b.WriteString(lit)
		}
		n++
		i = j
	}
	// Only literals that cut a word in two are pieces: "ign" + "ore".
	if n < 2 || joins == 0 || b.Len() < 8 {
		return
	}
	joined := Normalise(b.String())
	got, _ := flagMatches(joined, 0, len(joined))
	if len(got) == 0 {
		return
	}
	whole := Normalise(line)
	had, _ := flagMatches(whole, 0, len(whole))
	for rule := range got {
		if _, ok := had[rule]; !ok && rule != RuleFlagHardcodedSecret {
			f.add(RuleFlagSplitPayload, at+first)
			return
		}
	}
}

// FlagsAcross applies the flag rules to several texts read as one (the
// entries of one memory write): it returns flag-split-payload, at the
// offset of the texts joined by line feeds, when the texts together make
// an instruction that no text alone does, and nil otherwise. Each text's
// own findings are Flags(text).
func FlagsAcross(texts []string) []Finding {
	if len(texts) < 2 {
		return nil
	}
	alone := map[string]bool{}
	for _, t := range texts {
		for _, f := range Flags(t) {
			alone[f.Rule] = true
		}
	}
	for _, f := range Flags(strings.Join(texts, "\n")) {
		if !alone[f.Rule] && f.Rule != RuleFlagHardcodedSecret {
			return []Finding{{Rule: RuleFlagSplitPayload, Reason: reason(RuleFlagSplitPayload), Offset: f.Offset}}
		}
	}
	return nil
}
