package sanitize

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"html"
	"net/url"
	"sort"
	"strconv"
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

// signalWords are words that an instruction of one family or another
// holds (an override, a request for the prompt or a password, a claim of
// authority, a fake turn, an answer to change, a standing approval). A
// line holding one of them shifted (ROT13, or any Caesar shift) or
// written backwards is read decoded too: decoded text is checked against
// every family, so the words that mark it must come from every family.
// None of their shifts or reversals is a word of 40 MB of the Go
// distribution (the test of D1006).
var signalWords = []string{
	"ignore", "disregard", "instructions", "previous", "forget", "everything", "prompt", "reveal", "password", "pretend",
	"secret", "granted", "developer", "administrator", "override", "maintenance", "system", "assistant", "following",
	"approve", "approved", "requests", "conversation", "credentials", "unrestricted", "summary", "answer", "reply",
	"visit", "include", "reader", "history", "verbatim", "owner", "pre-approved",
}

// signalReversed is the bit of signalShifts for a word written backwards;
// bit k (1 to 25) is for a word shifted k letters on.
const signalReversed = 0

// signalShifts maps each signal word shifted or reversed to the ways it
// was: the decoders try only those.
var signalShifts = func() map[string]uint32 {
	out := map[string]uint32{}
	for _, w := range signalWords {
		for k := 1; k < 26; k++ {
			out[caesar(w, k)] |= 1 << k
		}
		out[reverse(w)] |= 1 << signalReversed
	}
	return out
}()

// decodeSignals are the words that mark a line for the shift and
// backwards decoders.
var decodeSignals = func() []string {
	var out []string
	for w := range signalShifts {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}()

// decoded applies the decoders to the lines of text that start in
// [from, to) and that the scan marked (marks, by their index in the
// normalised text; lines says where in text each came from), and reads
// the split-payload windows of the marked lines that start before
// to+splitReach (a window reaches back splitReach bytes, into this range).
func (f *findings) decoded(text string, from, to int, lines []int, marks []lineMark) {
	for _, m := range marks {
		if m.line >= len(lines) {
			break
		}
		start := lines[m.line]
		if start < from {
			continue
		}
		if start >= to+splitReach {
			return
		}
		end := lineEnd(text, start)
		if start < to {
			f.decodeLine(text[start:end], start, m.bits)
			if m.bits&markRun != 0 {
				f.decodeWrapped(text, start, end)
			}
		}
		if m.bits&markLiteral != 0 && m.bits&(markCut|markKey) != 0 {
			f.splitWindow(text, start, end)
		}
	}
}

// wrapReach is the most text a wrapped run is read over, from the start of
// its first line: less than the flag rules' context after a chunk (their
// longest span), so that a chunk decodes a run that starts in it as the
// whole text does.
const wrapReach = 2048

// decodeWrapped decodes a run of base64 or hex wrapped over lines, as
// e-mail and PEM wrap them (76 or 64 characters a line): the line of doc
// that starts at start ends with a run of minEncoded or more characters, the
// lines after it are runs and nothing else, and together they are read as
// one (each line alone is decodeLine's, and cuts the text inside words).
// A line that is itself wrapped from the one before is not a start.
func (f *findings) decodeWrapped(doc string, start, end int) {
	first := trailingRun(doc[start:end])
	if first < minEncoded || end >= len(doc) {
		return
	}
	if start > 0 {
		prevStart := strings.LastIndexByte(doc[:start-1], '\n') + 1
		if prev := strings.TrimRight(doc[prevStart:start-1], " \r"); len(prev) >= minEncoded && trailingRun(prev) == len(prev) {
			return
		}
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(doc[end-first:end], "\r "))
	lines := 1
	for ls := end + 1; ls < len(doc) && ls-start < wrapReach; {
		le := lineEnd(doc, ls)
		line := strings.TrimRight(doc[ls:le], " \r")
		if n := trailingRun(line); n < 4 || n != len(line) || ls+len(line)-start > wrapReach {
			break
		}
		b.WriteString(line)
		lines++
		ls = le + 1
	}
	if lines < 2 {
		return
	}
	run := b.String()
	var decoded []byte
	switch {
	case binaryWord(run) && len(run)%8 == 0:
		decoded = packedBinary(run)
	case isHexRun(run) && len(run)%2 == 0:
		decoded, _ = hex.DecodeString(run)
	default:
		decoded, _ = unbase64(run)
	}
	if t := text(decoded); t != "" && instructionIn(t) {
		f.addDetail(RuleFlagEncoded, end-first, "an instruction hidden in base64, hex or binary wrapped over lines")
	}
}

// trailingRun is the length of the run of base64 or hex characters (and
// its = padding) that ends line.
func trailingRun(line string) int {
	i := len(line)
	for i > 0 && line[i-1] == '=' && len(line)-i < 3 {
		i--
	}
	for i > 0 && runClass[line[i-1]]&runB64 != 0 {
		i--
	}
	return len(line) - i
}

func isHexRun(s string) bool {
	for i := 0; i < len(s); i++ {
		if runClass[s[i]]&runHex == 0 {
			return false
		}
	}
	return true
}

// decodeEveryLine is decoded without the scan's marks: every line is read
// with every mark its own text gives it.
func (f *findings) decodeEveryLine(text string, from, to int) {
	for ls := from; ls < len(text) && ls < to+splitReach; {
		le := lineEnd(text, ls)
		line := text[ls:le]
		n := Normalise(line)
		s := getScanner()
		s.read(n, true)
		var bits uint16
		for _, m := range s.marks {
			bits |= m.bits
		}
		putScanner(s)
		if ls < to {
			f.decodeLine(line, ls, bits)
		}
		if bits&markLiteral != 0 && bits&(markCut|markKey) != 0 {
			f.splitWindow(text, ls, le)
		}
		ls = le + 1
	}
}

// Byte classes of the run scanner.
const (
	runNone  = 0
	runB64   = 1 << iota // base64 (either alphabet), and hex
	runHex               // 0-9 a-f A-F
	runDigit             // 0-9
	runUpper             // A-Z
	runLower             // a-z
	runSym               // + / - _
	runB32               // A-Z a-z 2-7: base32 (RFC 4648), either case
)

var runClass = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c >= '2' && c <= '7':
			t[c] = runB64 | runHex | runDigit | runB32
		case c >= '0' && c <= '9':
			t[c] = runB64 | runHex | runDigit
		case c >= 'a' && c <= 'f':
			t[c] = runB64 | runHex | runLower | runB32
		case c >= 'A' && c <= 'F':
			t[c] = runB64 | runHex | runUpper | runB32
		case c >= 'g' && c <= 'z':
			t[c] = runB64 | runLower | runB32
		case c >= 'G' && c <= 'Z':
			t[c] = runB64 | runUpper | runB32
		case c == '+' || c == '/' || c == '-' || c == '_':
			t[c] = runB64 | runSym
		}
	}
	return t
}()

// decodeLine applies to one line the decoders its marks call for.
func (f *findings) decodeLine(line string, at int, bits uint16) {
	spans := 0
	hit := func(offset int, how, decodedText string) {
		spans++
		if decodedText != "" && instructionIn(decodedText) {
			f.addDetail(RuleFlagEncoded, at+offset, "an instruction hidden in "+how+" text")
		}
	}
	// Runs of base64, base32 or hex.
	for i := 0; bits&markRun != 0 && i < len(line) && spans < maxSpansPerLine; {
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
		for end < len(line) && end-j < 6 && line[end] == '=' {
			end++
		}
		if n := j - i; n >= minEncoded {
			run := line[i:min(j, i+maxDecoded)]
			switch {
			case all&runDigit != 0 && (n%8 == 0 || n%7 == 0) && binaryWord(run):
				// Binary, the bytes written together: 0110100101100111...
				hit(i, "binary", text(packedBinary(run)))
			case all&runHex != 0 && n%2 == 0:
				if b, err := hex.DecodeString(run); err == nil {
					hit(i, "hex-encoded", text(b))
				}
			case all&runB32 != 0 && n >= minBase32 && (seen&runUpper == 0 || seen&runLower == 0):
				if b, ok := unbase32(line[i:min(end, i+maxDecoded)]); ok {
					hit(i, "base32-encoded", text(b))
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
	// Hex written as bytes apart: 69 67 6e, 69:67:6e, 0x69, 0x67.
	if bits&markHexWords != 0 && spans < maxSpansPerLine {
		if i, b := spacedHex(line); len(b) >= minHexWords {
			hit(i, "hex-encoded", text(b))
		}
	}
	// \x69\x67... escapes, and URL-encoding (%69%67 or ignore%20all).
	if bits&markEscapes != 0 && spans < maxSpansPerLine && strings.Count(line, `\x`) >= 8 {
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
	if bits&markPercent != 0 && spans < maxSpansPerLine && strings.Count(line, "%") >= 3 {
		if i, j := urlSpan(line); j-i >= minEncoded {
			if s, err := url.PathUnescape(strings.ReplaceAll(line[i:min(j, i+maxDecoded)], "+", " ")); err == nil && s != line[i:j] {
				hit(i, "URL-encoded", s)
			}
		}
	}
	// Morse: dots and dashes, letters apart by spaces, words by slashes.
	if bits&markMorse != 0 && spans < maxSpansPerLine && (strings.Contains(line, ".-") || strings.Contains(line, "-.")) {
		if i, s := morse(line); s != "" {
			hit(i, "Morse-coded", s)
		}
	}
	// HTML character references and \u escapes, as an HTML e-mail, a web
	// page or JSON writes text: &#73;&#103; ... or \u0049\u0067 ...; the
	// tags between words go too (Ignore<br>all ...).
	if bits&(markEntities|markUEscapes) != 0 && spans < maxSpansPerLine {
		s := line[:min(len(line), maxDecoded)]
		how := "HTML-escaped or tag-split"
		if bits&markUEscapes != 0 {
			s, how = unescapeU(s), `\u-escaped`
		}
		if bits&markEntities != 0 {
			s = htmlTags.get().ReplaceAllString(html.UnescapeString(s), " ")
		}
		if s != line {
			hit(0, how, s)
		}
	}
	// Binary written as words apart: 01101001 01100111 ...
	if bits&markBinWords != 0 && spans < maxSpansPerLine {
		if i, b := spacedBinary(line); len(b) >= minBinWords {
			hit(i, "binary", text(b))
		}
	}
	// Character codes in decimal: 105 103 110 ... or 105, 103, 110.
	if bits&markDecWords != 0 && spans < maxSpansPerLine {
		if i, b := decimalCodes(line); len(b) >= minDecWords {
			hit(i, "decimal character-code", text(b))
		}
	}
	// The line holds a word of an instruction shifted (ROT13 or another
	// Caesar shift) or written backwards: each way its signal words were
	// written is undone, and only those.
	if bits&markSignal != 0 && len(line) >= minEncoded {
		ways := lineSignals(line)
		for k := 1; k < 26; k++ {
			if ways&(1<<k) == 0 {
				continue
			}
			if s := caesar(line, 26-k); instructionIn(s) {
				how := "an instruction hidden in text shifted " + strconv.Itoa(k) + " letters on (a Caesar cipher)"
				if k == 13 {
					how = "an instruction hidden in ROT13 text"
				}
				f.addDetail(RuleFlagEncoded, at, how)
			}
		}
		if ways&(1<<signalReversed) != 0 {
			if s := reverse(line); instructionIn(s) {
				f.addDetail(RuleFlagEncoded, at, "an instruction hidden in text written backwards")
			}
		}
	}
}

// lineSignals is the union of signalShifts of the line's words, read in
// lower case.
func lineSignals(line string) uint32 {
	var ways uint32
	for i := 0; i < len(line); {
		if lowerASCII[line[i]] < 'a' || lowerASCII[line[i]] > 'z' {
			i++
			continue
		}
		j := i
		var buf [16]byte
		for j < len(line) && lowerASCII[line[j]] >= 'a' && lowerASCII[line[j]] <= 'z' {
			if j-i < len(buf) {
				buf[j-i] = lowerASCII[line[j]]
			}
			j++
		}
		if n := j - i; n <= len(buf) {
			ways |= signalShifts[string(buf[:n])]
		}
		i = j
	}
	return ways
}

// instructionIn reports whether a flag rule that reads instructions fires
// on decoded text (the rules read it once, without decoding it again).
func instructionIn(s string) bool {
	n := Normalise(s)
	first := flagMatches(n, 0, len(n))
	return first.anyBut(hits{})
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

func rot13(s string) string { return caesar(s, 13) }

// caesar shifts each ASCII letter of s k places on (0 < k < 26).
func caesar(s string, k int) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + byte((int(c-'a')+k)%26)
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + byte((int(c-'A')+k)%26)
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

// minBase32 is the shortest run read as base32: 15 bytes of text.
const minBase32 = 24

// unbase32 decodes base32 (RFC 4648), in either case, with or without its
// padding.
func unbase32(s string) ([]byte, bool) {
	u := strings.ToUpper(strings.TrimRight(s, "="))
	for _, enc := range []*base32.Encoding{base32.StdEncoding.WithPadding(base32.NoPadding)} {
		if b, err := enc.DecodeString(u); err == nil {
			return b, true
		}
		// A run cut short: decode what makes whole groups of eight.
		if n := len(u) / 8 * 8; n >= minBase32 {
			if b, err := enc.DecodeString(u[:n]); err == nil {
				return b, true
			}
		}
	}
	return nil, false
}

// spacedHex decodes the longest run of hex bytes written apart in the
// line: two hex digits each, or 0x and two, one space, colon, comma or
// comma and space between them. It returns where the run starts and its
// bytes (at most maxDecoded).
func spacedHex(line string) (int, []byte) {
	bestAt, best := 0, []byte(nil)
	var cur []byte
	curAt := 0
	for i := 0; i < len(line); {
		j := i
		if j+1 < len(line) && line[j] == '0' && (line[j+1] == 'x' || line[j+1] == 'X') {
			j += 2
		}
		if j+2 <= len(line) && isHexByte(line[j]) && isHexByte(line[j+1]) && (j+2 == len(line) || !isWordByte(lowerASCII[line[j+2]])) &&
			(i == 0 || !isWordByte(lowerASCII[line[i-1]])) {
			v, _ := hex.DecodeString(line[j : j+2])
			if len(cur) == 0 {
				curAt = i
			}
			if len(cur) < maxDecoded {
				cur = append(cur, v[0])
			}
			k := j + 2
			switch {
			case k+1 < len(line) && line[k] == ',' && line[k+1] == ' ':
				k += 2
			case k < len(line) && (line[k] == ' ' || line[k] == ':' || line[k] == ','):
				k++
			default:
				if len(cur) > len(best) {
					bestAt, best = curAt, cur
				}
				cur = nil
				i = k
				continue
			}
			i = k
			continue
		}
		if len(cur) > len(best) {
			bestAt, best = curAt, cur
		}
		cur = nil
		i++
	}
	if len(cur) > len(best) {
		bestAt, best = curAt, cur
	}
	return bestAt, best
}

// minBinWords is the fewest binary words (seven or eight digits each) in a
// line that the spaced binary decoder reads: eight letters.
const minBinWords = 8

// minDecWords is the fewest decimal codes (two or three digits each) in a
// line that the character-code decoder reads.
const minDecWords = 12

// binaryWord reports whether w is made of 0 and 1 only.
func binaryWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] != '0' && w[i] != '1' {
			return false
		}
	}
	return true
}

// spacedBinary decodes the longest run of binary bytes written apart in
// the line (seven or eight digits each, a space, comma or comma and space
// between them), as spacedHex does hex.
func spacedBinary(line string) (int, []byte) {
	return longestRun(line, func(w string) (byte, bool) {
		if (len(w) != 7 && len(w) != 8) || !binaryWord(w) {
			return 0, false
		}
		v, err := strconv.ParseUint(w, 2, 8)
		return byte(v), err == nil
	})
}

// decimalCodes decodes the longest run of character codes in decimal
// (printable ASCII, tab and line feed), written apart as spacedBinary's.
func decimalCodes(line string) (int, []byte) {
	return longestRun(line, func(w string) (byte, bool) {
		if len(w) < 1 || len(w) > 3 {
			return 0, false
		}
		v, err := strconv.Atoi(w)
		if err != nil || (v < 32 || v > 126) && v != 9 && v != 10 {
			return 0, false
		}
		return byte(v), true
	})
}

// longestRun is the longest run of the line's words that byteOf reads,
// each apart from the next by a space, a comma or a comma and a space: where
// it starts, and its bytes (at most maxDecoded).
func longestRun(line string, byteOf func(string) (byte, bool)) (int, []byte) {
	bestAt, best := 0, []byte(nil)
	var cur []byte
	curAt := 0
	flush := func() {
		if len(cur) > len(best) {
			bestAt, best = curAt, cur
		}
		cur = nil
	}
	for i := 0; i < len(line); {
		j := i
		for j < len(line) && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j == i || i > 0 && isWordByte(lowerASCII[line[i-1]]) || j < len(line) && isWordByte(lowerASCII[line[j]]) {
			flush()
			i = max(j, i+1)
			continue
		}
		b, ok := byteOf(line[i:j])
		if !ok {
			flush()
			i = j
			continue
		}
		if len(cur) == 0 {
			curAt = i
		}
		if len(cur) < maxDecoded {
			cur = append(cur, b)
		}
		switch {
		case j+1 < len(line) && line[j] == ',' && line[j+1] == ' ':
			i = j + 2
		case j < len(line) && (line[j] == ' ' || line[j] == ','):
			i = j + 1
		default:
			flush()
			i = j
		}
	}
	flush()
	return bestAt, best
}

// packedBinary decodes binary digits written together, eight to a byte
// (or seven, when eight do not divide them).
func packedBinary(run string) []byte {
	size := 8
	if len(run)%8 != 0 {
		size = 7
	}
	b := make([]byte, 0, len(run)/size)
	for i := 0; i+size <= len(run); i += size {
		v, _ := strconv.ParseUint(run[i:i+size], 2, 8)
		b = append(b, byte(v))
	}
	return b
}

// isEntity reports whether s starts with an HTML character reference:
// &#105; &#x69; or a name and a semicolon (&nbsp;).
func isEntity(s string) bool {
	if len(s) < 4 || s[0] != '&' {
		return false
	}
	i := 1
	if s[1] == '#' {
		i = 2
		if s[2] == 'x' || s[2] == 'X' {
			i = 3
		}
	}
	j := i
	for j < len(s) && j-i < 8 && (isWordByte(lowerASCII[s[j]])) {
		j++
	}
	return j > i && j < len(s) && s[j] == ';'
}

// htmlTags are the tags between words of a line: <br>, <span class=x>.
var htmlTags = compileAtFirstUse(`</?[a-zA-Z][^<>\n]{0,64}>`)

// unescapeU replaces each \uXXXX escape of s (and \UXXXXXXXX) by its
// character; surrogates and invalid escapes stay as they are.
func unescapeU(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == 'u' || s[i+1] == 'U') {
			n := 4
			if s[i+1] == 'U' {
				n = 8
			}
			if i+2+n <= len(s) {
				if v, err := strconv.ParseUint(s[i+2:i+2+n], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
					b.WriteRune(rune(v))
					i += 2 + n
					continue
				}
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// tagBetweenLetters reports whether the < at i of normalised text (lower
// case) opens an HTML tag (or up to four tags in a row: <span></span>)
// that has a letter right before it and right after the last >.
func tagBetweenLetters(s string, i int) bool {
	if i == 0 || !isLetterByte(s[i-1]) {
		return false
	}
	for tags := 0; tags < 4; tags++ {
		if i+2 >= len(s) || s[i] != '<' || !(isLetterByte(s[i+1]) || s[i+1] == '/') {
			return false
		}
		j := i + 1
		for j < len(s) && j-i <= 64 && s[j] != '>' && s[j] != '<' && s[j] != '\n' {
			j++
		}
		if j >= len(s) || s[j] != '>' || j+1 >= len(s) {
			return false
		}
		if isLetterByte(s[j+1]) {
			return true
		}
		i = j + 1
	}
	return false
}
