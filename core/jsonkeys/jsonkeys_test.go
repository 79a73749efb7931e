package jsonkeys

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"
	"unicode/utf8"
)

// referenceKeys is what the walker w must find, read with a json.Decoder's
// tokens: the first key that is no field, twice, or in another case, of
// the next value encoding/json decoded into t.
func referenceKeys(dec *json.Decoder, w *walker, t reflect.Type) error {
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
			elem, err := w.elemOf(t, key)
			if err != nil {
				return err
			}
			if err := referenceKeys(dec, w, elem); err != nil {
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
			if err := referenceKeys(dec, w, elem); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	}
	return nil
}

// tokens is a decoder of data's tokens that keeps numbers as they are
// written (a number too large for a float64 is still a token).
func tokens(data []byte) *json.Decoder {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec
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

// FuzzCheck: on every body json.Unmarshal decodes into fuzzBody, Check
// finds what a json.Decoder's tokens find: the same first unknown field,
// key twice or key in another case, or nothing; where it finds nothing, a
// json.Decoder that refuses unknown fields finds none either; and
// CheckNames, with fuzzBody's names, finds what the tokens find.
func FuzzCheck(f *testing.F) {
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
			return // what DecodeBody checks: valid UTF-8 that json.Unmarshal took
		}
		got := Check(data, reflect.TypeOf(&v))
		want := referenceKeys(tokens(data), &walker{}, reflect.TypeOf(&v))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%q: Check says %v, the decoder's tokens %v", data, got, want)
		}
		names := []string{"name", "n", "inner", "id", "text", "from"}
		got = CheckNames(data, names)
		want = referenceKeys(tokens(data), &walker{names: names}, nil)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%q: CheckNames says %v, the decoder's tokens %v", data, got, want)
		}
		strict := json.NewDecoder(bytes.NewReader(data))
		strict.DisallowUnknownFields()
		if err := strict.Decode(new(fuzzBody)); Check(data, reflect.TypeOf(&v)) == nil && err != nil {
			t.Fatalf("%q: Check took it, a strict json.Decoder says %v", data, err)
		}
	})
}
