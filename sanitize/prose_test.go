package sanitize_test

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"boxmaker/sanitize"
)

// proseSources are, for each language the lexicons have rules for, where
// its ordinary prose is on a Debian machine: the translated manual pages
// (manpages-es, manpages-fr, ... which scripts/setup.sh installs) and the
// programs' translated messages (/usr/share/locale/<code>/LC_MESSAGES/
// *.mo), which are the prose there is for Hindi and Arabic, which have no
// manual pages in Debian. Real, technical text in the language, written by
// translators who never thought of these rules.
var proseSources = []struct {
	lang string
	man  []string // directories under /usr/share/man
	mo   string   // the directory under /usr/share/locale
}{
	{"es", []string{"es"}, "es"},
	{"fr", []string{"fr"}, "fr"},
	{"de", []string{"de"}, "de"},
	{"it", []string{"it"}, "it"},
	{"pt", []string{"pt_BR", "pt"}, "pt_BR"},
	{"ru", []string{"ru"}, "ru"},
	{"el", []string{"el"}, "el"},
	{"hi", nil, "hi"},
	{"ja", []string{"ja"}, "ja"},
	{"zh", []string{"zh_CN", "zh_TW"}, "zh_CN"},
	{"ar", nil, "ar"},
	{"id", []string{"id"}, "id"},
	{"ko", []string{"ko"}, "ko"},
	{"tr", []string{"tr"}, "tr"},
	{"nl", []string{"nl"}, "nl"},
	{"pl", []string{"pl"}, "pl"},
	// Vietnamese has no manual pages in Debian: its programs' messages.
	{"vi", nil, "vi"},
	{"uk", []string{"uk"}, "uk"},
	// Issue 28, session 8 (D1240): the languages players use that had no
	// lexicon. Swedish, Norwegian (bokmål), Czech, Hungarian and Romanian
	// have Debian's manual pages (manpages-sv, -nb, -cs, -hu, -ro);
	// Persian, Hebrew and Thai have none, and are read from the programs'
	// messages. Swahili has neither (Debian ships about 8 KB of its
	// messages, under the 1,000 paragraphs a figure needs): not read.
	{"sv", []string{"sv"}, "sv"},
	{"no", []string{"nb"}, "nb"},
	{"cs", []string{"cs"}, "cs"},
	{"hu", []string{"hu"}, "hu"},
	{"ro", []string{"ro"}, "ro"},
	{"fa", nil, "fa"},
	{"he", nil, "he"},
	{"th", nil, "th"},
}

// minProseParagraphs is the fewest paragraphs a language's figure is read
// on: under it, 0.1 % is less than one paragraph.
const minProseParagraphs = 1000

// TestLanguageProseFalsePositives holds the flag rules to at most 0.1 % of
// the paragraphs of ordinary prose in each language the lexicons have
// rules for, and logs each rule's count per language (-v). It reads up to
// 1 MB of text a language (BOXMAKER_SANITIZE_PROSE_BYTES raises it; the
// figures in docs/performance.md are for all of it), the manual pages
// first, extracted from the installed packages when the test runs.
func TestLanguageProseFalsePositives(t *testing.T) {
	limit := 1 << 20
	if v := os.Getenv("BOXMAKER_SANITIZE_PROSE_BYTES"); v != "" {
		fmt.Sscan(v, &limit)
	}
	total := map[string]int{}
	for _, src := range proseSources {
		paras, read := proseParagraphs(src.man, src.mo, limit)
		if len(paras) < minProseParagraphs {
			t.Errorf("%s: only %d paragraphs of prose (manual pages %v, messages %s): scripts/setup.sh installs them", src.lang, len(paras), src.man, src.mo)
			continue
		}
		flagged, byRule := 0, map[string]int{}
		for _, p := range paras {
			fs := sanitize.Flags(p)
			if len(fs) > 0 {
				flagged++
			}
			for _, f := range fs {
				byRule[f.Rule]++
				t.Logf("%s: %s on %.160q", src.lang, f.Rule, p[f.Offset:])
			}
		}
		var rules []string
		for r, n := range byRule {
			rules = append(rules, fmt.Sprintf("%s %d", r, n))
			total[r] += n
		}
		sort.Strings(rules)
		t.Logf("prose %s: flagged %d of %d paragraphs (%.3f%%), %d bytes; by rule: %s",
			src.lang, flagged, len(paras), 100*float64(flagged)/float64(len(paras)), read, strings.Join(rules, ", "))
		if flagged*1000 > len(paras) {
			t.Errorf("%s: the flag rules fire on %d of %d paragraphs of prose, over 0.1%%", src.lang, flagged, len(paras))
		}
	}
	for _, r := range sanitize.Rules() {
		if r.Kind == "flag" {
			t.Logf("prose, all languages: %-28s %d", r.Name, total[r.Name])
		}
	}
}

// proseParagraphs reads up to limit bytes of text from the manual pages in
// the directories man (under /usr/share/man) and then the messages in
// /usr/share/locale/mo/LC_MESSAGES, as paragraphs.
func proseParagraphs(man []string, mo string, limit int) ([]string, int) {
	var paras []string
	read := 0
	for _, dir := range man {
		for _, p := range treeFiles(filepath.Join("/usr/share/man", dir), ".gz") {
			if read >= limit {
				return paras, read
			}
			text, err := gunzip(p)
			if err != nil || !utf8.ValidString(text) {
				continue
			}
			for _, para := range troffParagraphs(text) {
				read += len(para)
				paras = append(paras, para)
			}
		}
	}
	if mo == "" {
		return paras, read
	}
	for _, p := range treeFiles(filepath.Join("/usr/share/locale", mo, "LC_MESSAGES"), ".mo") {
		if read >= limit {
			break
		}
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		for _, m := range moMessages(data) {
			for _, para := range strings.Split(m, "\n\n") {
				if strings.TrimSpace(para) != "" && utf8.ValidString(para) {
					read += len(para)
					paras = append(paras, para)
				}
			}
		}
	}
	return paras, read
}

func gunzip(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return "", err
	}
	b, err := io.ReadAll(io.LimitReader(z, 4<<20))
	return string(b), err
}

var (
	// troffBreaks are the requests that end a paragraph.
	troffBreaks = map[string]bool{"PP": true, "P": true, "LP": true, "SH": true, "SS": true, "TP": true, "IP": true, "sp": true, "br": true, "HP": true, "RS": true, "RE": true, "TH": true, "nf": true, "fi": true, "EX": true, "EE": true}
	// troffEscapes are the escapes that mark text up: fonts, sizes,
	// special characters, strings, zero-width marks.
	troffEscapes = regexp.MustCompile(`\\f(?:\[[^\]]*\]|\(..|.)|\\s[-+]?\d+|\\\(..|\\\[[^\]]*\]|\\\*(?:\(..|\[[^\]]*\]|.)|\\[&,/|^%:c]`)
)

// troffParagraphs is a manual page's text, paragraph by paragraph: the
// requests dropped (those that break a paragraph end one), the escapes
// that mark text up taken out, \- and \e written as what they print.
func troffParagraphs(src string) []string {
	var out []string
	var cur []string
	flush := func() {
		if p := strings.TrimSpace(strings.Join(cur, "\n")); p != "" {
			out = append(out, p)
		}
		cur = cur[:0]
	}
	for _, line := range strings.Split(src, "\n") {
		if line == "" {
			flush()
			continue
		}
		if line[0] == '.' || line[0] == '\'' {
			req := strings.Fields(line[1:])
			if len(req) == 0 || troffBreaks[req[0]] {
				flush()
				continue
			}
			if req[0] == "B" || req[0] == "I" || req[0] == "BR" || req[0] == "IR" || req[0] == "BI" || req[0] == "RB" || req[0] == "RI" || req[0] == "IB" {
				// A font request holds the line's text.
				line = strings.Join(req[1:], " ")
			} else {
				continue
			}
		}
		line = troffEscapes.ReplaceAllString(line, "")
		line = strings.NewReplacer(`\-`, "-", `\e`, `\`, `\ `, " ", `\~`, " ").Replace(line)
		cur = append(cur, line)
	}
	flush()
	return out
}

// moMessages are the translations in a GNU gettext .mo file (each form of
// a plural one).
func moMessages(data []byte) []string {
	if len(data) < 28 {
		return nil
	}
	var order binary.ByteOrder = binary.LittleEndian
	switch binary.LittleEndian.Uint32(data) {
	case 0x950412de:
	case 0xde120495:
		order = binary.BigEndian
	default:
		return nil
	}
	n, table := int(order.Uint32(data[8:])), int(order.Uint32(data[16:]))
	var out []string
	for i := 1; i < n; i++ { // entry 0 is the header
		at := table + 8*i
		if at+8 > len(data) {
			break
		}
		size, off := int(order.Uint32(data[at:])), int(order.Uint32(data[at+4:]))
		if off+size > len(data) {
			continue
		}
		for _, form := range bytes.Split(data[off:off+size], []byte{0}) {
			if len(form) > 0 {
				out = append(out, string(form))
			}
		}
	}
	return out
}
