package loop

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/testsupport"
)

// slowLine is what encoding/json makes of a line, as the reader used it
// before fastLine: strict, one value alone on the line.
func slowLine(line []byte) (lineFields, bool) {
	var f lineFields
	f.reset()
	return f, decodeLine(line, len(line), &f) == nil
}

// TestFastLineTakesWhatEncodeWrites: the records of a turn (all but the
// baseline) are decoded without encoding/json, to the same fields.
func TestFastLineTakesWhatEncodeWrites(t *testing.T) {
	recs := sampleRecords()
	recs = append(recs, Record{Seq: 7, Time: t0, Type: TypeUser, Who: "owner", Text: "tab\\t, \"quotes\", é, \u2028, \x01, <b> & ☃"})
	for _, r := range recs {
		line, err := r.Encode()
		if err != nil {
			t.Fatal(err)
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		var fast lineFields
		fast.reset()
		ok := new(lineScanner).fastLine(line, string(line), &fast)
		if r.Type == TypeBaseline {
			if ok {
				t.Errorf("the baseline was taken by fastLine: %s", line)
			}
			continue
		}
		if !ok {
			t.Errorf("fastLine left a %s record to encoding/json: %s", r.Type, line)
			continue
		}
		slow, _ := slowLine(line)
		if diff := cmp.Diff(slow, fast); diff != "" {
			t.Errorf("%s (-encoding/json +fastLine):\n%s", line, diff)
		}
	}
}

func TestFastLineLeavesTheRestToEncodingJSON(t *testing.T) {
	for _, line := range []string{
		`{"seq":1,"seq":2}`,
		`{"seq":1,"timex":"a"}`,
		`{"seq":1,"tim":"a"}`,
		`{"seq":1,"tim\u0065":"a"}`,
		`{"seq":1,"time""a"}`,
		`{"Seq":1}`,
		`{"seq":1.0}`,
		`{"seq":99999999999999999999}`,
		`{"seq":1,"text":null}`,
		`{"seq":1,"text":"\ud83d\ude00"}`,
		"{\"seq\":1,\"text\":\"\xff\"}",
		`{"seq":1,"tool_calls":[{"id":"a","id":"b"}]}`,
		`{"seq":1,"timings":{"cache_n":1,"extra":2}}`,
		`{"seq":1,"timings":{"prompt_ms":1e999}}`,
		`{"seq":1,"system":"x"}`,
		`{"seq":1}{}`,
		`{"seq":1`,
		`[1]`,
	} {
		var f lineFields
		f.reset()
		if new(lineScanner).fastLine([]byte(line), line, &f) {
			t.Errorf("fastLine took %s", line)
		}
	}
}

// FuzzFastLine: whatever fastLine takes, encoding/json takes too and
// decodes to the same fields.
func FuzzFastLine(f *testing.F) {
	for _, r := range sampleRecords() {
		line, _ := r.Encode()
		f.Add(bytes.TrimSuffix(line, []byte("\n")))
	}
	for _, s := range []string{
		`{"seq":-0,"time":"x","text":"a\u00e9\n\/","timings":{}}`,
		`{ "seq" : 3 , "tool_calls" : [ {} , {"id":"1"} ] }`,
		`{"seq":1,"tim\u0065":"a","call_id":"c","\u006eame":"n"}`,
		`{"timings":{"prompt_ms":-1.5e-3,"predicted_ms":0.25E+2,"cache_n":-7}}`,
		`{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.IndexByte(line, '\n') >= 0 {
			line = line[:bytes.IndexByte(line, '\n')]
		}
		var fast lineFields
		fast.reset()
		if !new(lineScanner).fastLine(line, string(line), &fast) {
			return
		}
		slow, ok := slowLine(line)
		if !ok {
			t.Fatalf("fastLine took what encoding/json refuses: %q", line)
		}
		if diff := cmp.Diff(slow, fast, cmp.Transformer("raw", func(m json.RawMessage) string { return string(m) })); diff != "" {
			t.Fatalf("%q (-encoding/json +fastLine):\n%s", line, diff)
		}
	})
}

// BenchmarkFastLine decodes the lines of a session of 10,000 records
// (BenchmarkRebuild10000's log, all but its baseline) with fastLine
// alone: the decoder's own speed, without the check and the replay.
func BenchmarkFastLine(b *testing.B) {
	data, err := os.ReadFile(LogPath(benchSession(b, 2500), "bench", 0))
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))[1:]
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = string(l)
	}
	var f lineFields
	var s lineScanner
	testsupport.Throughput(b, int64(len(data)), func() {
		for i, l := range lines {
			f.reset()
			if !s.fastLine(l, texts[i], &f) {
				b.Fatalf("fastLine left line %d to encoding/json: %s", i+2, l)
			}
		}
	})
}
