package audit

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/policy"
)

var testTime = time.Date(2026, 9, 18, 12, 30, 45, 123456789, time.UTC)

func fullRecord() Record {
	return Record{
		Seq: 42, Prev: strings.Repeat("ab", 32), Time: testTime, Type: TypeDecision,
		Call: "c-1", Approval: "a7", Tool: "read_file", Target: "/home/owner/src/\"quoted\"\n\tétoile",
		Effect: "allow", Grant: "src", Session: "s-1", Taint: "private", CallSHA256: strings.Repeat("cd", 32),
		ArgumentsSHA256: strings.Repeat("12", 32), ContentSHA256: strings.Repeat("34", 32),
		Outcome: "ran", TaintAfter: "secret", Untrusted: true, Answer: AnswerApproved, By: "owner",
		Why: "fine \x01 \\ ok", TornLength: 17, TornSHA256: strings.Repeat("ef", 32),
		BreakFile: "000001.jsonl", BreakLine: 3, BreakWhat: "seq 5 should be 4", Note: "<&>",
	}
}

// The effect words Verify reads are the log format's own (audit imports
// no policy: a log must stay readable as written), and brokerd writes
// policy's: the two must be the same words.
func TestTheEffectWordsArePolicys(t *testing.T) {
	if EffectAllow != string(policy.Allow) || effectAsk != string(policy.Ask) {
		t.Errorf("audit reads %q and %q, policy decides %q and %q", EffectAllow, effectAsk, policy.Allow, policy.Ask)
	}
}

func TestEncodeThenParseGivesTheSameRecord(t *testing.T) {
	for _, r := range []Record{
		fullRecord(),
		{Seq: 1, Prev: zeroPrev, Time: testTime, Type: TypeStart},
		{Seq: 2, Prev: zeroPrev, Time: testTime, Type: TypeResult, Call: "c", Target: "\xff\xfe bad utf-8"},
	} {
		line := appendLine(nil, &r)
		got, err := ParseLine(line)
		if err != nil {
			t.Fatalf("ParseLine(%s): %v", line, err)
		}
		want := r
		// Each byte that is not UTF-8 becomes U+FFFD, as encoding/json does.
		want.Target = strings.ReplaceAll(want.Target, "\xff\xfe", "\ufffd\ufffd")
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("round trip of %s (-want +got):\n%s", line, diff)
		}
		// encoding/json reads the same line the same way.
		var std Record
		if err := json.Unmarshal(line, &std); err != nil {
			t.Fatalf("encoding/json cannot read %s: %v", line, err)
		}
		if diff := cmp.Diff(want, std); diff != "" {
			t.Errorf("encoding/json reads %s differently (-want +got):\n%s", line, diff)
		}
	}
}

func TestEncodingIsCanonical(t *testing.T) {
	r := Record{Seq: 1, Prev: zeroPrev, Time: testTime, Type: TypeDecision, Call: "c-1", Tool: "read_file",
		Target: "/src/a", Effect: "allow", Grant: "src", Session: "s", Taint: "public"}
	want := `{"seq":1,"prev":"` + zeroPrev + `","time":"2026-09-18T12:30:45.123456789Z","type":"decision",` +
		`"call":"c-1","tool":"read_file","target":"/src/a","effect":"allow","grant":"src","session":"s","taint":"public"}`
	if got := string(appendLine(nil, &r)); got != want {
		t.Errorf("encoding:\n got %s\nwant %s", got, want)
	}
}

func TestParseLineRefuses(t *testing.T) {
	ok := `"prev":"` + zeroPrev + `","time":"2026-09-18T12:30:45Z","type":"start"`
	for _, tc := range []struct{ name, line, want string }{
		{"empty line", ``, "not a JSON object"},
		{"array", `[1]`, "not a JSON object"},
		{"unknown field", `{"seq":1,` + ok + `,"extra":"x"}`, `unknown field "extra"`},
		{"field spelt in another case", `{"Seq":1,` + ok + `}`, `unknown field "Seq"`},
		{"field twice", `{"seq":1,"seq":2,` + ok + `}`, `field "seq" appears twice`},
		{"negative seq", `{"seq":-1,` + ok + `}`, `field "seq" is not a whole number`},
		{"fractional seq", `{"seq":1.0,` + ok + `}`, `field "seq" is not a whole number`},
		{"seq as a string", `{"seq":"1",` + ok + `}`, `field "seq" is not a whole number`},
		{"seq zero", `{"seq":0,` + ok + `}`, "no seq"},
		{"seq with a leading zero", `{"seq":01,` + ok + `}`, `field "seq" is not a whole number`},
		{"seq past 64 bits", `{"seq":18446744073709551616,` + ok + `}`, `field "seq" is out of range`},
		{"a 61st second", `{"seq":1,"prev":"` + zeroPrev + `","time":"2026-09-18T12:30:60Z","type":"start"}`, `field "time" is not an RFC 3339 time`},
		{"nested object", `{"seq":1,` + ok + `,"note":{}}`, `field "note": byte`},
		{"null", `{"seq":1,` + ok + `,"note":null}`, `field "note": byte`},
		{"unknown type", `{"seq":1,"prev":"` + zeroPrev + `","time":"2026-09-18T12:30:45Z","type":"reboot"}`, `unknown type "reboot"`},
		{"upper-case prev", `{"seq":1,"prev":"` + strings.ToUpper(strings.Repeat("ab", 32)) + `","time":"2026-09-18T12:30:45Z","type":"start"}`, "prev is not 64 lower-case hex digits"},
		{"no time", `{"seq":1,"prev":"` + zeroPrev + `","type":"start"}`, "no time"},
		{"bad time", `{"seq":1,"prev":"` + zeroPrev + `","time":"yesterday","type":"start"}`, `field "time" is not an RFC 3339 time`},
		{"text after the object", `{"seq":1,` + ok + `} `, "text after the end of the object"},
		{"torn", `{"seq":1,` + ok[:20], "unterminated string"},
		{"recovery without its fields", `{"seq":1,"prev":"` + zeroPrev + `","time":"2026-09-18T12:30:45Z","type":"recovery"}`, "a recovery record needs torn_length and torn_sha256"},
		{"break without its fields", `{"seq":1,"prev":"` + zeroPrev + `","time":"2026-09-18T12:30:45Z","type":"accepted_break","break_file":"x"}`, "an accepted_break record needs break_file and break_line"},
		{"control character", "{\"seq\":1," + ok + ",\"note\":\"a\x01\"}", "control character in a string"},
		{"untrusted not a bool", `{"seq":1,` + ok + `,"untrusted":1}`, `field "untrusted" is not true or false`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseLine([]byte(tc.line))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseLine(%q) = %v, want an error containing %q", tc.line, err, tc.want)
			}
		})
	}
}

// FuzzParseLine: the line parser never panics; what it accepts,
// encoding/json reads as the same record; and what it returns encodes to a
// line that parses back to itself.
func FuzzParseLine(f *testing.F) {
	full := fullRecord()
	f.Add(appendLine(nil, &full))
	f.Add(appendLine(nil, &Record{Seq: 1, Prev: zeroPrev, Time: testTime, Type: TypeStart}))
	f.Add([]byte(`{"seq":3,"prev":"` + zeroPrev + `","time":"2026-09-18T12:30:45Z","type":"recovery","torn_length":5,"torn_sha256":"` + zeroPrev + `"}`))
	f.Add([]byte(`{"seq":1, "prev" : "` + zeroPrev + `","time":"2026-09-18T12:30:45+02:00","type":"stop","note":"\u00e9\ud83d\ude00"}`))
	f.Add([]byte(`{"seq":1`))
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := ParseLine(line)
		// The canonical fast path and the general decoder agree.
		var g Record
		d := flatDecoder{s: string(line), plain: asciiPlain(line)}
		gerr := d.general(&g)
		if gerr == nil {
			gerr = g.check()
		}
		if (err == nil) != (gerr == nil) {
			t.Fatalf("ParseLine(%q) = %v, the general decoder %v", line, err, gerr)
		}
		var scratch [32]byte
		if verr := decodeLineSum(line, string(line), new(Record), &scratch, nil); (verr == nil) != (err == nil) {
			t.Fatalf("ParseLine(%q) = %v, decodeLineSum %v", line, err, verr)
		}
		if err != nil {
			return
		}
		if diff := cmp.Diff(g, r); diff != "" {
			t.Fatalf("the fast path and the general decoder disagree on %q:\n%s", line, diff)
		}
		// Verify's decoder, which decodes prev as it goes, reads the same
		// record and the bytes prev spells, with the minute of its time
		// read anew and remembered.
		var minutes minuteCache
		for range 2 {
			var v Record
			var sum [32]byte
			if err := decodeLineSum(line, string(line), &v, &sum, &minutes); err != nil {
				t.Fatalf("ParseLine accepts %q, decodeLineSum does not: %v", line, err)
			}
			if diff := cmp.Diff(r, v); diff != "" {
				t.Fatalf("ParseLine and decodeLineSum disagree on %q (-ParseLine +decodeLineSum):\n%s", line, diff)
			}
			if hex.EncodeToString(sum[:]) != r.Prev {
				t.Fatalf("decodeLineSum(%q) decodes prev as %x", line, sum)
			}
		}
		var std Record
		if err := json.Unmarshal(line, &std); err != nil {
			t.Fatalf("ParseLine accepts %q, encoding/json does not: %v", line, err)
		}
		if diff := cmp.Diff(std, r); diff != "" {
			t.Fatalf("ParseLine and encoding/json disagree on %q (-json +ParseLine):\n%s", line, diff)
		}
		again := appendLine(nil, &r)
		if bytes.IndexByte(again, '\n') >= 0 {
			t.Fatalf("the encoding of %q holds a newline: %q", line, again)
		}
		r2, err := ParseLine(again)
		if err != nil {
			t.Fatalf("the encoding of an accepted record does not parse: %q: %v", again, err)
		}
		if diff := cmp.Diff(r, r2); diff != "" {
			t.Fatalf("re-encoding changes the record (-first +second):\n%s", diff)
		}
	})
}

// parseUTC, the fast path for the encoder's own times, reads exactly what
// time.Parse reads for every text it accepts.
func FuzzParseUTC(f *testing.F) {
	for _, s := range []string{"2026-09-18T12:30:45.123456789Z", "2026-09-18T12:30:45Z", "2024-02-29T00:00:00.5Z",
		"2023-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-09-18T24:00:00Z", "2026-09-18T12:30:45.Z", "0000-01-01T00:00:00Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseUTC(s)
		want, err := time.Parse(time.RFC3339Nano, s)
		if !ok {
			return
		}
		if err != nil || !got.Equal(want) || got.Location() != want.Location() {
			t.Fatalf("parseUTC(%q) = %v; time.Parse = %v, %v", s, got, want, err)
		}
	})
}

// asciiPlain, eight and thirty-two bytes at a time, says what a byte loop
// says.
func FuzzASCIIPlain(f *testing.F) {
	f.Add([]byte(`{"seq":1,"prev":"` + zeroPrev + `"}`))
	f.Add([]byte("0123456789abcdef0123456789abcdef\x1f0123456789"))
	f.Add([]byte("0123456789abcdef0123456789abcdef0123456789\\"))
	f.Fuzz(func(t *testing.T, b []byte) {
		want := true
		for _, c := range b {
			if c < 0x20 || c >= 0x80 || c == '\\' {
				want = false
			}
		}
		if got := asciiPlain(b); got != want {
			t.Fatalf("asciiPlain(%q) = %v", b, got)
		}
	})
}

// minuteCache reads a time as parseUTC does, whatever time it read
// before: the same minute, another, or a text that is not a time.
func FuzzMinuteCache(f *testing.F) {
	for _, s := range [][2]string{
		{"2026-09-18T12:30:45.123456789Z", "2026-09-18T12:30:59Z"},
		{"2026-09-18T12:30:45Z", "2026-09-18T12:31:00.5Z"},
		{"2026-09-18T12:30:45Z", "2026-09-18T12:30:60Z"},
		{"2026-09-18T12:30:45Z", "2026-09-18T12:30:45.Z"},
		{"2026-09-18T12:30:45Z", "2026-09-18T12:30:45+00:00"},
		{"2026-13-18T12:30:45Z", "2026-13-18T12:30:45Z"},
		{"2024-02-29T00:00:00Z", "2024-02-29T00:00:01.000000001Z"},
		{"", "2026-09-18T12:30"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, before, s string) {
		var m minuteCache
		m.parseUTC(before)
		got, ok := m.parseUTC(s)
		want, wok := parseUTC(s)
		if ok != wok || got != want {
			t.Fatalf("after %q, minuteCache.parseUTC(%q) = %v, %v; parseUTC gives %v, %v", before, s, got, ok, want, wok)
		}
	})
}

// plainEnd, eight bytes at a time, finds what a byte loop finds: the first
// quote from where the string begins, or -1 when a byte before it is not
// printable ASCII or is a backslash (or there is no quote).
func FuzzPlainEnd(f *testing.F) {
	f.Add("abc\"def", 0)
	f.Add("/home/owner/src/boxmaker/core/policy/decide.go\",\"effect\"", 0)
	f.Add("0123456\x1f\"abcdef\"", 1)
	f.Add("01234567\\\"", 0)
	f.Add("\"\x01\x80abcdefgh", 0)
	f.Add("abcdefg\xc3\xa9\"", 2)
	f.Fuzz(func(t *testing.T, s string, i int) {
		if i < 0 || i > len(s) {
			return
		}
		want := -1
		for j := i; j < len(s); j++ {
			if c := s[j]; c == '"' {
				want = j
				break
			} else if c < 0x20 || c >= 0x80 || c == '\\' {
				break
			}
		}
		if got := plainEnd(s, i); got != want {
			t.Fatalf("plainEnd(%q, %d) = %d, want %d", s, i, got, want)
		}
	})
}

// parseUTC's own arithmetic gives what time.Date gives, to the nanosecond
// and the location, on every day of years 0 to 9999 at every hour.
func TestParseUTCIsTimeDate(t *testing.T) {
	var cache minuteCache
	for y := 0; y <= 9999; y += 1 + y%7 {
		for m := time.January; m <= time.December; m++ {
			for d := 1; d <= daysIn(m, y); d++ {
				h, mi, s, ns := d%24, (d*7)%60, (d*13)%60, d*12345
				text := fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02d.%09dZ", y, m, d, h, mi, s, ns)
				got, ok := parseUTC(text)
				want := time.Date(y, m, d, h, mi, s, ns, time.UTC)
				if !ok || got != want {
					t.Fatalf("parseUTC(%q) = %v, %v; time.Date gives %v", text, got, ok, want)
				}
				// The cache, told a new minute and then a time in it.
				for _, sec := range []int{s, 59 - s} {
					text := fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02dZ", y, m, d, h, mi, sec)
					got, ok := cache.parseUTC(text)
					if want := time.Date(y, m, d, h, mi, sec, 0, time.UTC); !ok || got != want {
						t.Fatalf("minuteCache.parseUTC(%q) = %v, %v; time.Date gives %v", text, got, ok, want)
					}
				}
			}
		}
	}
}

// decodeHash says what isHash says of every text, and when it accepts one,
// gives what encoding/hex gives.
func FuzzDecodeHash(f *testing.F) {
	f.Add(zeroPrev)
	f.Add(hashHex(lineHash([]byte("x"))))
	f.Add(strings.ToUpper(hashHex(lineHash([]byte("x")))))
	f.Add(zeroPrev[:63] + "g")
	f.Add(zeroPrev[:63] + "\xb0")
	f.Fuzz(func(t *testing.T, s string) {
		checkDecodeHash(t, s)
	})
}

// checkDecodeHash: decodeHash accepts s exactly when isHash does, and
// decodes what it accepts as encoding/hex does.
func checkDecodeHash(t *testing.T, s string) {
	t.Helper()
	var sum [32]byte
	ok := decodeHash(&sum, s)
	if ok != isHash(s) {
		t.Fatalf("decodeHash(%q) = %v, isHash %v", s, ok, isHash(s))
	}
	if want, err := hex.DecodeString(s); ok && (err != nil || !bytes.Equal(sum[:], want)) {
		t.Fatalf("decodeHash(%q) = %x, encoding/hex %x, %v", s, sum, want, err)
	}
}

// decodeHash, eight digits at a time, judges every byte at every place of
// a hash as isHash does, and decodes what it accepts as encoding/hex does.
func TestDecodeHashEveryByteAtEveryPlace(t *testing.T) {
	h := []byte(hashHex(lineHash([]byte("x"))))
	for i := range h {
		for c := range 256 {
			s := string(h[:i]) + string([]byte{byte(c)}) + string(h[i+1:])
			checkDecodeHash(t, s)
		}
	}
}

// plainEnd judges every byte at every place of a word and its tail, before
// and after a quote, as a byte loop does.
func TestPlainEndEveryByteAtEveryPlace(t *testing.T) {
	for n := 1; n <= 20; n++ {
		for p := range n {
			for q := range n + 1 {
				for c := range 256 {
					b := bytes.Repeat([]byte("a"), n)
					if q < n {
						b[q] = '"'
					}
					b[p] = byte(c)
					s := string(b)
					want := -1
					for j := range len(s) {
						if s[j] == '"' {
							want = j
							break
						} else if s[j] < 0x20 || s[j] >= 0x80 || s[j] == '\\' {
							break
						}
					}
					if got := plainEnd(s, 0); got != want {
						t.Fatalf("plainEnd(%q, 0) = %d, want %d", s, got, want)
					}
				}
			}
		}
	}
}

// The encoder's own lines, every field set and plain, and every time it
// writes (whole seconds, and one to nine digits of fraction), are read by
// the canonical decoder, not handed to the general one.
func TestTheEncodersLinesAreCanonical(t *testing.T) {
	r := fullRecord()
	r.Target, r.Why = "/home/owner/src/plain", "fine"
	for _, ns := range []int{0, 100_000_000, 120_000_000, 123_456_789, 1} {
		r.Time = time.Date(2026, 9, 18, 12, 30, 45, ns, time.UTC)
		line := appendLine(nil, &r)
		var got Record
		var sum [32]byte
		d := flatDecoder{s: string(line)}
		if !d.canonical(&got, &sum) {
			t.Fatalf("the canonical decoder leaves %s to the general one", line)
		}
		if diff := cmp.Diff(r, got); diff != "" {
			t.Fatalf("canonical(%s) (-want +got):\n%s", line, diff)
		}
	}
}
