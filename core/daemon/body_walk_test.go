package daemon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// benchLines are request lines as loopd sends them: a read_file, and a
// write_file of 8 MiB, the largest content a call may carry.
func benchLines() map[string][]byte {
	lines := map[string][]byte{}
	for name, args := range map[string]map[string]string{
		"read_file":       {"path": "/home/owner/src/notes.md"},
		"write_file_8MiB": {"path": "/home/owner/big.txt", "content": strings.Repeat("line of text\n", 8<<20/13)},
	} {
		raw, _ := json.Marshal(args)
		body, _ := json.Marshal(map[string]any{"session": "20261201-101500-1a2b3c4d", "call_id": "k2Qx", "tool": name, "arguments": json.RawMessage(raw)})
		lines[name], _ = json.Marshal(Request{Kind: "tool.call", Body: body})
	}
	return lines
}

type benchCall struct {
	Session   string          `json:"session"`
	CallID    string          `json:"call_id"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

// BenchmarkReadRequest reads a tool call's request line and then its
// body, as brokerd does: with DecodeBody, and (the anchor) with
// json.Unmarshal, as the framing and brokerd read them before.
func BenchmarkReadRequest(b *testing.B) {
	for name, line := range benchLines() {
		for _, read := range []struct {
			how  string
			read func([]byte, any) error
		}{
			{"Unmarshal", func(data []byte, v any) error { return json.Unmarshal(data, v) }},
			{"DecodeBody", func(data []byte, v any) error { return DecodeBody(data, v) }},
		} {
			b.Run("call="+name+"/read="+read.how, func(b *testing.B) {
				b.SetBytes(int64(len(line)))
				b.ReportAllocs()
				for b.Loop() {
					var req Request
					var c benchCall
					if read.read(line, &req) != nil || read.read(req.Body, &c) != nil {
						b.Fatal("not read")
					}
				}
			})
		}
	}
}

// referenceKeys is what keyWalker must find, read with a json.Decoder's
// tokens: the first key that is no field, twice, or in another case, of
// the next value encoding/json decoded into t.
func referenceKeys(dec *json.Decoder, t reflect.Type) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && readsItself(t) {
		var skip json.RawMessage
		return dec.Decode(&skip)
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			key := k.(string)
			if seen[key] {
				return fmt.Errorf("the key %q appears twice", key)
			}
			seen[key] = true
			elem, err := elemOf(t, key)
			if err != nil {
				return err
			}
			if err := referenceKeys(dec, elem); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	case json.Delim('['):
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for dec.More() {
			if err := referenceKeys(dec, elem); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	}
	return nil
}

// fuzzBody has a field of every shape the wire structs have.
type fuzzBody struct {
	Name  string            `json:"name"`
	N     int               `json:"n,omitempty"`
	Inner *fuzzInner        `json:"inner"`
	List  []fuzzInner       `json:"list"`
	Map   map[string]any    `json:"map"`
	Raw   json.RawMessage   `json:"raw"`
	Any   any               `json:"any"`
	When  time.Time         `json:"when"`
	Tags  map[string]string `json:"tags"`
	fuzzEmbedded
}

type fuzzInner struct {
	ID   string `json:"id"`
	Text string `json:"text,omitempty"`
}

type fuzzEmbedded struct {
	From string `json:"from"`
}

// FuzzKeyWalker: on every body json.Unmarshal decodes into fuzzBody, the
// walker finds what a json.Decoder's tokens find: the same first unknown
// field, key twice or key in another case, or nothing; and where it finds
// nothing, a json.Decoder that refuses unknown fields finds none either.
func FuzzKeyWalker(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"name":"a","name":"b"}`, `{"NAME":"a"}`, `{"inner":{"id":"a","ID":"b"}}`,
		`{"list":[{"id":"a"},{"id":"b","id":"c"}]}`, `{"map":{"k":1,"k":2}}`, `{"raw":{"k":1,"k":2},"raw":1}`,
		`{"any":[{"a":{"b":1,"b":2}}]}`, `{"when":"2026-12-01T00:00:00Z","From":"x"}`, `{"n\u0061me":"a","name":"b"}`,
		`{"tags":{"a":"\"}","a":"x"}}`, `{"name":"\\\"","raw":"x\\"}`, ` { "name" : "a" , "map" : { } } `,
		`{"bogus":1}`, `{"inner":{"id":"a","bogus":[1]}}`, `{"list":[{"bogus":{}}]}`, `{"from":"x","From":"y"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v fuzzBody
		if !utf8.Valid(data) || json.Unmarshal(data, &v) != nil {
			return // DecodeBody walks only valid UTF-8 that json.Unmarshal took
		}
		w := keyWalker{data: data}
		got := w.value(reflect.TypeOf(&v))
		want := referenceKeys(json.NewDecoder(bytes.NewReader(data)), reflect.TypeOf(&v))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%q: the walker says %v, the decoder's tokens %v", data, got, want)
		}
		strict := json.NewDecoder(bytes.NewReader(data))
		strict.DisallowUnknownFields()
		if err := strict.Decode(new(fuzzBody)); got == nil && err != nil {
			t.Fatalf("%q: the walker took it, a strict json.Decoder says %v", data, err)
		}
	})
}
