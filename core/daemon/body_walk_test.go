package daemon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// benchToolCall is a request line as loopd sends a write_file of 8 MiB,
// the largest content a call may carry.
func benchToolCall(b *testing.B) []byte {
	args, _ := json.Marshal(map[string]string{"path": "/home/owner/big.txt", "content": strings.Repeat("line of text\n", 8<<20/13)})
	body, _ := json.Marshal(map[string]any{"session": "20261201-101500-1a2b3c4d", "call_id": "k2Qx", "tool": "write_file", "arguments": json.RawMessage(args)})
	line, _ := json.Marshal(Request{Kind: "tool.call", Body: body})
	b.SetBytes(int64(len(line)))
	return line
}

type benchCall struct {
	Session   string          `json:"session"`
	CallID    string          `json:"call_id"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

// BenchmarkReadRequestUnmarshal is the anchor: the request line and its
// body read with json.Unmarshal, as brokerd read a tool call before
// DecodeBody.
func BenchmarkReadRequestUnmarshal(b *testing.B) {
	line := benchToolCall(b)
	for b.Loop() {
		var req Request
		var c benchCall
		if json.Unmarshal(line, &req) != nil || json.Unmarshal(req.Body, &c) != nil {
			b.Fatal("not read")
		}
	}
}

// BenchmarkReadRequestDecodeBody reads the same with DecodeBody, the line
// and then the body.
func BenchmarkReadRequestDecodeBody(b *testing.B) {
	line := benchToolCall(b)
	for b.Loop() {
		var req Request
		var c benchCall
		if DecodeBody(line, &req) != nil || DecodeBody(req.Body, &c) != nil {
			b.Fatal("not read")
		}
	}
}

// referenceKeys is what keyWalker must find, read with a json.Decoder's
// tokens: the first key twice, or in another case, of the next value
// encoding/json decoded into t.
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

// FuzzKeyWalker: on every body encoding/json decodes into fuzzBody, the
// walker finds what a json.Decoder's tokens find: the same first key twice
// or in another case, or nothing.
func FuzzKeyWalker(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"name":"a","name":"b"}`, `{"NAME":"a"}`, `{"inner":{"id":"a","ID":"b"}}`,
		`{"list":[{"id":"a"},{"id":"b","id":"c"}]}`, `{"map":{"k":1,"k":2}}`, `{"raw":{"k":1,"k":2},"raw":1}`,
		`{"any":[{"a":{"b":1,"b":2}}]}`, `{"when":"2026-12-01T00:00:00Z","From":"x"}`, `{"n\u0061me":"a","name":"b"}`,
		`{"tags":{"a":"\"}","a":"x"}}`, `{"name":"\\\"","raw":"x\\"}`, ` { "name" : "a" , "map" : { } } `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v fuzzBody
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if dec.Decode(&v) != nil || dec.InputOffset() != int64(len(bytes.TrimRight(data, " \t\r\n"))) {
			return
		}
		w := keyWalker{data: data}
		got := w.value(reflect.TypeOf(&v))
		want := referenceKeys(json.NewDecoder(bytes.NewReader(data)), reflect.TypeOf(&v))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%q: the walker says %v, the decoder's tokens %v", data, got, want)
		}
	})
}
