// Package jsonkeys finds, in JSON that encoding/json has already read,
// what encoding/json lets pass in an object's keys and another reader
// would read otherwise: a key twice in one object (encoding/json keeps the
// last, another reader the first), a key that is a field's in another case
// (encoding/json takes "PATH" for "path"), and a key that is no field at
// all. Two readers use it: every daemon's request bodies
// (daemon.DecodeBody, with the wire struct's type) and brokerd's reading
// of a tool call's arguments (approval.CheckKeys, with the tools' field
// names).
//
// It reads the bytes itself, stepping over strings and the values of
// types that read themselves without decoding them, so that a body of
// 16 MiB costs one scan more than json.Unmarshal, not a second decode;
// FuzzCheck holds it to what a json.Decoder's tokens find.
package jsonkeys

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Check is the first key of data, one JSON value that json.Unmarshal
// decoded into a value of type t, that is no field of its struct, a
// field's in another case, or twice in its object; nil when there is
// none. The inside of a map or an interface is checked for keys twice
// only; the inside of a json.RawMessage or of a type that reads itself
// (UnmarshalJSON, UnmarshalText: time.Time, a taint) is that reader's and
// not looked at.
func Check(data []byte, t reflect.Type) error {
	w := walker{data: data}
	return w.value(t)
}

// CheckNames is the first key of data, one valid JSON value, that is
// twice in its object, or one of names in another case, at any depth;
// nil when there is none. Other keys are not refused.
func CheckNames(data []byte, names []string) error {
	w := walker{data: data, names: names}
	return w.value(nil)
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// readsItself says whether a value of t is read by its own decoder
// (json.RawMessage, time.Time, a taint): what it holds is not checked.
func readsItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(jsonUnmarshaler) || p.Implements(textUnmarshaler)
}

// elemOf is the type of the value under key in an object that
// encoding/json decoded into t (nil: a value of any shape), or the error
// of a key that is no field of t, or one of its fields in another case
// (which encoding/json would take for it). In an object of any shape, the
// key is checked against w.names.
func (w *walker) elemOf(t reflect.Type, key string) (reflect.Type, error) {
	if t != nil && t.Kind() == reflect.Struct {
		f := fieldsOf(t)
		if ft, ok := f.types[key]; ok {
			return ft, nil
		}
		if name, ok := otherCase(key, f.names); ok {
			return nil, fmt.Errorf("the key %q is %q in another case", key, name)
		}
		return nil, fmt.Errorf("json: unknown field %q", key) // encoding/json's words
	}
	if name, ok := otherCase(key, w.names); ok {
		return nil, fmt.Errorf("the key %q is %q in another case", key, name)
	}
	if t != nil && t.Kind() == reflect.Map {
		return t.Elem(), nil
	}
	return nil, nil
}

// otherCase is the first of names that key is in another case.
func otherCase(key string, names []string) (string, bool) {
	for _, n := range names {
		if key != n && strings.EqualFold(key, n) {
			return n, true
		}
	}
	return "", false
}

// walker reads JSON encoding/json has read already (so it is one valid
// value, nested at most 10,000 deep when json.Unmarshal read it): names,
// when set, are checked for another case in every object that is no
// struct's.
type walker struct {
	data  []byte
	i     int
	names []string
}

var errCut = errors.New("the body ends inside a value")

func (w *walker) space() {
	for w.i < len(w.data) && (w.data[w.i] == ' ' || w.data[w.i] == '\t' || w.data[w.i] == '\r' || w.data[w.i] == '\n') {
		w.i++
	}
}

// peek is the next byte after white space; 0 at the end.
func (w *walker) peek() byte {
	w.space()
	if w.i >= len(w.data) {
		return 0
	}
	return w.data[w.i]
}

// value walks the next value, which encoding/json decoded into t.
func (w *walker) value(t reflect.Type) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	c := w.peek()
	if t != nil && readsItself(t) || c != '{' && c != '[' {
		return w.skip()
	}
	w.i++
	if c == '[' {
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for {
			switch w.peek() {
			case ']':
				w.i++
				return nil
			case ',':
				w.i++
			case 0:
				return errCut
			}
			if err := w.value(elem); err != nil {
				return err
			}
		}
	}
	var seen map[string]bool
	for {
		switch w.peek() {
		case '}':
			w.i++
			return nil
		case ',':
			w.i++
			w.peek()
		case 0:
			return errCut
		}
		key, err := w.key()
		if err != nil {
			return err
		}
		if seen[key] {
			return fmt.Errorf("the key %q appears twice", key)
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		seen[key] = true
		elem, err := w.elemOf(t, key)
		if err != nil {
			return err
		}
		if w.peek() != ':' {
			return errCut
		}
		w.i++
		if err := w.value(elem); err != nil {
			return err
		}
	}
}

// key reads an object's key as encoding/json reads it: its escapes undone
// ("\u0073ession" is "session"), a byte that is not UTF-8 U+FFFD.
func (w *walker) key() (string, error) {
	start := w.i
	if err := w.skipString(); err != nil {
		return "", err
	}
	raw := w.data[start:w.i]
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw[1 : len(raw)-1]), nil
	}
	var key string
	err := json.Unmarshal(raw, &key)
	return key, err
}

// skipString steps over the string that begins at w.i.
func (w *walker) skipString() error {
	if w.i >= len(w.data) || w.data[w.i] != '"' {
		return errCut
	}
	for j := w.i + 1; j < len(w.data); j++ {
		switch w.data[j] {
		case '\\':
			j++ // the escaped byte
		case '"':
			w.i = j + 1
			return nil
		}
	}
	return errCut
}

// skip steps over the next value, whatever it holds.
func (w *walker) skip() error {
	depth := 0
	for {
		switch c := w.peek(); c {
		case 0:
			return errCut
		case '"':
			if err := w.skipString(); err != nil {
				return err
			}
		case '{', '[':
			depth++
			w.i++
		case '}', ']':
			depth--
			w.i++
		case ',', ':':
			w.i++
		default: // a number, true, false or null
			for w.i < len(w.data) && !strings.ContainsRune(",:]} \t\r\n", rune(w.data[w.i])) {
				w.i++
			}
		}
		if depth == 0 {
			return nil
		}
	}
}

// structFields are a struct type's JSON field names: their types by name,
// and the names in order (for a deterministic "another case").
type structFields struct {
	types map[string]reflect.Type
	names []string
}

var fieldCache sync.Map // reflect.Type -> structFields

// fieldsOf is the JSON names of t's fields, as encoding/json names them:
// the tag's name, else the field's; a field tagged "-" or unexported is
// none; an embedded struct without a name of its own gives its fields.
func fieldsOf(t reflect.Type) structFields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(structFields)
	}
	f := structFields{types: map[string]reflect.Type{}}
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := sf.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			for n, et := range fieldsOf(ft).types {
				if _, shadowed := f.types[n]; !shadowed {
					f.types[n] = et
				}
			}
			continue
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		f.types[name] = sf.Type
	}
	for n := range f.types {
		f.names = append(f.names, n)
	}
	slices.Sort(f.names)
	fieldCache.Store(t, f)
	return f
}
