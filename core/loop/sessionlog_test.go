package loop

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 11, 30, 4, 0, 0, 123, time.UTC)

// sampleRecords is a session with one record of every type.
func sampleRecords() []Record {
	return []Record{
		{Seq: 1, Time: t0, Type: TypeBaseline, System: "You are Box.", Memory: "soul\n§\nmemory", Tools: ToolDefinitions},
		{Seq: 2, Time: t0, Type: TypeUser, Who: "owner", Text: "read &lt;|im_end|&gt; a.go"},
		{Seq: 3, Time: t0, Type: TypeAssistant, Text: "", Reasoning: "I should read it.",
			ToolCalls: []ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"/src/a.go"}`}},
			Timings:   Timings{PromptN: 100, CacheN: 0, PredictedN: 12, PromptMS: 10, PredictedMS: 120}},
		{Seq: 4, Time: t0, Type: TypeTool, CallID: "c1", Name: "read_file", Outcome: "allowed", Text: "package a\n"},
		{Seq: 5, Time: t0, Type: TypeAssistant, Text: "It is package a.", ToolCalls: nil, Timings: Timings{PromptN: 20, CacheN: 112, PredictedN: 5}},
		{Seq: 6, Time: t0, Type: TypeNote, Text: "cache loss: ..."},
	}
}

func encodeAll(t testing.TB, recs []Record) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, r := range recs {
		line, err := r.Encode()
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
	}
	return b.Bytes()
}

func TestParseLogReadsWhatEncodeWrites(t *testing.T) {
	want := sampleRecords()
	data := encodeAll(t, want)
	got, err := ParseLog("0.jsonl", data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmp.Transformer("raw", func(m json.RawMessage) string { return string(m) })); diff != "" {
		t.Errorf("records differ (-want +got):\n%s", diff)
	}
	// Encoding what was read gives the same bytes: a replay is exact.
	if again := encodeAll(t, got); !bytes.Equal(again, data) {
		t.Errorf("re-encoded log differs:\n%s\n%s", again, data)
	}
}

func TestEncodeWritesTheSharedFormat(t *testing.T) {
	line, err := Record{Seq: 4, Time: t0, Type: TypeTool, CallID: "c1", Name: "read_file", Outcome: "denied", Text: "no <grant>"}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"seq":4,"time":"2026-11-30T04:00:00.000000123Z","type":"tool","call_id":"c1","name":"read_file","outcome":"denied","text":"no <grant>"}` + "\n"
	if string(line) != want {
		t.Errorf("got  %s\nwant %s", line, want)
	}
}

// TestParseLogDamage damages a good log in each way a file can be damaged
// and checks the line and the reason reported.
func TestParseLogDamage(t *testing.T) {
	good := strings.SplitAfter(string(encodeAll(t, sampleRecords())), "\n")
	good = good[:len(good)-1] // the empty string after the last newline
	replace := func(i int, line string) string {
		l := append([]string(nil), good...)
		l[i] = line
		return strings.Join(l, "")
	}
	tests := []struct {
		name       string
		data       string
		line       int
		wantReason string
	}{
		{"cut-off last line", strings.Join(good, "")[:len(strings.Join(good, ""))-10], 6, ReasonCutOff},
		{"last line without its newline", strings.TrimSuffix(strings.Join(good, ""), "\n"), 6, ReasonCutOff},
		{"garbage in the middle", replace(2, "{\"seq\":3,\"ti\x00me\n"), 3, "not a session record: "},
		{"empty middle line", replace(3, "\n"), 4, "an empty line"},
		{"seq out of order", replace(1, strings.Replace(good[1], `"seq":2`, `"seq":7`, 1)), 2, "seq is 7 on line 2"},
		{"unknown type", replace(5, strings.Replace(good[5], `"type":"note"`, `"type":"memo"`, 1)), 6, `unknown record type "memo"`},
		{"unknown field", replace(1, strings.Replace(good[1], `"who"`, `"whom"`, 1)), 2, `not a session record: json: unknown field "whom"`},
		{"field of another type", replace(1, strings.Replace(good[1], `"who":"owner"`, `"who":"owner","outcome":"x"`, 1)), 2, `a user record with "outcome"`},
		{"missing field", replace(3, strings.Replace(good[3], `"outcome":"allowed",`, ``, 1)), 4, `a tool record without "outcome"`},
		{"time not UTC", replace(1, strings.Replace(good[1], `Z"`, `+01:00"`, 1)), 2, `is not RFC 3339 UTC`},
		{"no baseline first", string(encodeAll(t, renumber(sampleRecords()[1:]))), 1, "the first record is a user record, not the baseline"},
		{"tool record for an unknown call", replace(3, strings.Replace(good[3], `"call_id":"c1"`, `"call_id":"c9"`, 1)), 4, `a tool record for call "c9", which no earlier assistant record made`},
		{"two values on a line", replace(5, strings.TrimSuffix(good[5], "\n")+"{}\n"), 6, "more than one JSON value on the line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseLog("sessions/s/0.jsonl", []byte(tt.data))
			var de *DamageError
			if !errors.As(err, &de) {
				t.Fatalf("got %v, want a DamageError", err)
			}
			if de.Line != tt.line || !strings.Contains(de.Reason, tt.wantReason) {
				t.Errorf("got %q, want line %d with %q", err, tt.line, tt.wantReason)
			}
			if !strings.HasPrefix(err.Error(), "sessions/s/0.jsonl:") {
				t.Errorf("error does not name the file: %q", err)
			}
		})
	}
}

func renumber(recs []Record) []Record {
	for i := range recs {
		recs[i].Seq = i + 1
	}
	return recs
}

func TestLogAppendAndOpen(t *testing.T) {
	dir := t.TempDir()
	log, err := CreateLog(dir, "s-1")
	if err != nil {
		t.Fatal(err)
	}
	recs := sampleRecords()
	for i := range recs {
		recs[i].Seq = 0
	}
	if err := log.Append(&recs[0], &recs[1]); err != nil {
		t.Fatal(err)
	}
	if err := log.Append(&recs[2]); err != nil {
		t.Fatal(err)
	}
	if recs[2].Seq != 3 {
		t.Errorf("seq %d, want 3", recs[2].Seq)
	}
	again, got, err := OpenLog(dir, "s-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || again.Next() != 4 || again.Path != filepath.Join(dir, "s-1", "0.jsonl") {
		t.Errorf("reopened: %d records, next %d, path %s", len(got), again.Next(), again.Path)
	}
	fi, err := os.Stat(again.Path)
	if err != nil || fi.Mode().Perm() != 0o600 || again.Size() != fi.Size() {
		t.Errorf("log file %v %v, size %d", fi.Mode(), err, again.Size())
	}
	if _, err := CreateLog(dir, "s-1"); err == nil {
		t.Error("created a session that exists")
	}
	if _, err := CreateLog(dir, "S/1"); err == nil {
		t.Error("created a session with an invalid id")
	}
	if _, _, err := OpenLog(dir, "nobody"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("open of a missing session: %v", err)
	}
}

func TestLatestEpochIgnoresOtherFiles(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "s"), 0o700)
	for _, n := range []string{"0.jsonl", "2.jsonl", "10.jsonl", "010.jsonl", "x.jsonl", "11.jsonl.damaged-1", "-1.jsonl"} {
		os.WriteFile(filepath.Join(dir, "s", n), nil, 0o600)
	}
	e, ok, err := LatestEpoch(dir, "s")
	if err != nil || !ok || e != 10 {
		t.Errorf("got %d %v %v, want 10", e, ok, err)
	}
}

func TestMessagesReplaysRecords(t *testing.T) {
	msgs, tools := Messages(sampleRecords())
	want := []Message{
		{Role: "system", Content: "You are Box.\n\nsoul\n§\nmemory"},
		{Role: "user", Content: "read &lt;|im_end|&gt; a.go"},
		{Role: "assistant", ReasoningContent: "I should read it.", ToolCalls: []WireToolCall{{ID: "c1", Type: "function",
			Function: WireFunction{Name: "read_file", Arguments: `{"path":"/src/a.go"}`}}}},
		{Role: "tool", Content: "package a\n", ToolCallID: "c1"},
		{Role: "assistant", Content: "It is package a."},
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if !bytes.Equal(tools, ToolDefinitions) {
		t.Errorf("tools %s", tools)
	}
}

// FuzzParseLog: whatever the bytes, the reader returns records or a
// DamageError naming a line of the input, never panics, and what it
// accepts encodes back to the same bytes.
func FuzzParseLog(f *testing.F) {
	f.Add(encodeAll(f, sampleRecords()))
	f.Add([]byte("{\"seq\":1}\n"))
	f.Add([]byte(""))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := ParseLog("f", data)
		if err != nil {
			var de *DamageError
			if !errors.As(err, &de) {
				t.Fatalf("not a DamageError: %v", err)
			}
			if de.Line < 1 || de.Line > bytes.Count(data, []byte("\n"))+1 {
				t.Fatalf("line %d out of range", de.Line)
			}
			return
		}
		for i, r := range recs {
			if r.Seq != i+1 {
				t.Fatalf("record %d has seq %d", i, r.Seq)
			}
		}
		// Accepted records must survive a round trip unchanged.
		again, err := ParseLog("f", encodeAll(t, recs))
		if err != nil {
			t.Fatalf("re-encoded log does not parse: %v", err)
		}
		if diff := cmp.Diff(recs, again, cmp.Transformer("raw", func(m json.RawMessage) string { return string(m) })); diff != "" {
			t.Fatalf("round trip changed records:\n%s", diff)
		}
	})
}
