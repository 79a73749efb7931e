package daemon

import (
	"bytes"
	"context"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"boxmaker/runbook"
)

// DecodeBody reads body, the body of a request, into v, a pointer to its
// kind's wire struct. Every socket reads its requests with this one
// strictness, because the peer may be hostile (a program the model wrote)
// and a field read loosely is a field two readers can disagree on:
//
//   - the body is one JSON object; absent or null is the empty object
//     (what Call sends for a nil body: the kind's own checks then refuse
//     what is missing), anything else (an array, a string, a number) is
//     refused;
//   - nothing follows the object;
//   - every key is a field of its struct, spelt exactly as the struct
//     spells it (encoding/json alone would take "SESSION" for "session"),
//     and comes at most once in its object (encoding/json alone keeps the
//     last of two);
//   - every value fits its field (a number too large for an int, or for a
//     float64, is refused);
//   - the body is valid UTF-8 (encoding/json alone would put U+FFFD in
//     place of bad bytes, silently).
//
// The inside of a json.RawMessage field (a tool call's arguments) or of a
// type that reads itself (UnmarshalJSON, UnmarshalText) is that reader's
// to check, not this one's: brokerd decides a call with bad arguments, and
// records it, rather than refusing the request.
//
// Its error is a *BodyError. A handler returns it as it is: the socket
// answers it with socket-forbidden's refusal, naming the kind, the socket
// and the peer, and prints that line (Socket.handle).
func DecodeBody(body json.RawMessage, v any) error {
	if problem := decodeObject(body, v); problem != "" {
		return &BodyError{Problem: problem}
	}
	return nil
}

// BodyError is a request body that DecodeBody refused; Problem says why.
type BodyError struct{ Problem string }

func (e *BodyError) Error() string {
	return "the request's body is not what its kind takes: " + e.Problem
}

// decodeObject is DecodeBody's check and decode; "" when body is read.
func decodeObject(body []byte, v any) string {
	if !utf8.Valid(body) {
		return "it is not valid UTF-8"
	}
	trimmed := bytes.Trim(body, " \t\r\n") // JSON's white space, no other
	if len(trimmed) == 0 || string(trimmed) == "null" {
		trimmed = []byte("{}")
	}
	if kind := jsonKind(trimmed[0]); kind != "" {
		return "it is " + kind + ", not an object"
	}
	// Decoded first: encoding/json refuses what is not one JSON value,
	// values that do not fit and nesting deeper than 10,000, so the walk
	// below (unknown fields, keys twice or in another case) only meets a
	// bounded, well-formed object. json.Unmarshal, not a json.Decoder: a
	// decoder copies the whole body into a buffer of its own, and the
	// largest bodies are 16 MiB.
	if err := json.Unmarshal(trimmed, v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) && se.Offset > 0 && json.Valid(trimmed[:se.Offset-1]) {
			return "something follows its object"
		}
		return err.Error()
	}
	w := keyWalker{data: trimmed}
	if err := w.value(reflect.TypeOf(v)); err != nil {
		return err.Error()
	}
	return ""
}

// jsonKind names the JSON value other than an object that begins with c;
// "" for an object, or for what is not JSON (the decoder says why).
func jsonKind(c byte) string {
	switch {
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't', c == 'f':
		return "a boolean"
	case c == '-', '0' <= c && c <= '9':
		return "a number"
	}
	return ""
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

// elemOf is the type of the value under key in an object encoding/json
// decoded into t (nil: a value of any shape), or the error of a key that
// is no field of t, or one of its fields in another case (which
// encoding/json would take for it).
func elemOf(t reflect.Type, key string) (reflect.Type, error) {
	switch {
	case t == nil:
		return nil, nil
	case t.Kind() == reflect.Struct:
		fields := fieldsOf(t)
		if f, ok := fields[key]; ok {
			return f, nil
		}
		for name := range fields {
			if strings.EqualFold(key, name) {
				return nil, fmt.Errorf("the key %q is %q in another case", key, name)
			}
		}
		return nil, fmt.Errorf("json: unknown field %q", key) // encoding/json's words
	case t.Kind() == reflect.Map:
		return t.Elem(), nil
	}
	return nil, nil
}

// keyWalker reads a body encoding/json has decoded already (so it is one
// valid JSON value, nested at most 10,000 deep) for what json.Unmarshal
// lets pass: a key that is no field of its struct, a key twice in one
// object, a field's key in another case.
// It steps over strings and the values of types that read themselves
// without decoding them, so that a tool call's 8 MiB of content costs a
// scan, not a decode (FuzzKeyWalker holds it to a json.Decoder's tokens).
type keyWalker struct {
	data []byte
	i    int
}

var errCut = errors.New("the body ends inside a value")

func (w *keyWalker) space() {
	for w.i < len(w.data) && (w.data[w.i] == ' ' || w.data[w.i] == '\t' || w.data[w.i] == '\r' || w.data[w.i] == '\n') {
		w.i++
	}
}

// peek is the next byte after white space; 0 at the end.
func (w *keyWalker) peek() byte {
	w.space()
	if w.i >= len(w.data) {
		return 0
	}
	return w.data[w.i]
}

// value walks the next value, which encoding/json decoded into t.
func (w *keyWalker) value(t reflect.Type) error {
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
		elem, err := elemOf(t, key)
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

// key reads an object's key, its escapes undone as encoding/json undoes
// them ("\u0073ession" is "session").
func (w *keyWalker) key() (string, error) {
	start := w.i
	if err := w.skipString(); err != nil {
		return "", err
	}
	raw := w.data[start:w.i]
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), nil
	}
	var key string
	err := json.Unmarshal(raw, &key)
	return key, err
}

// skipString steps over the string that begins at w.i.
func (w *keyWalker) skipString() error {
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
func (w *keyWalker) skip() error {
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

// fieldNames holds each struct type's JSON field names and their types.
var fieldNames sync.Map // reflect.Type -> map[string]reflect.Type

// fieldsOf is the JSON names of t's fields, as encoding/json names them:
// the tag's name, else the field's; a field tagged "-" or unexported is
// none; an embedded struct without a name of its own gives its fields.
func fieldsOf(t reflect.Type) map[string]reflect.Type {
	if f, ok := fieldNames.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	fields := map[string]reflect.Type{}
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
			for n, f := range fieldsOf(ft) {
				if _, shadowed := fields[n]; !shadowed {
					fields[n] = f
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
		fields[name] = sf.Type
	}
	fieldNames.Store(t, fields)
	return fields
}

// refuseBody is the refusal of a request of kind whose body DecodeBody
// refused, printed on the socket's log as every refusal of the framing is.
func (s *Socket) refuseBody(kind string, peer Peer, be *BodyError) error {
	r := runbook.Refuse(runbook.SocketForbidden, "a %q request arrived on the %s socket %s with a body it does not take (from pid %d, uid %d): %s",
		kind, s.Name, s.Path, peer.PID, peer.UID, be.Problem)
	fmt.Fprintf(s.Log, "%s: %s\n", s.Role, r)
	return r
}

// NoBody is h for a kind that takes no body: its body is read as an
// empty struct's (none, null or {}), so that a field sent to it is
// refused as any body's unknown field is, not silently passed over.
func NoBody(h Handler) Handler {
	return func(ctx context.Context, peer Peer, body json.RawMessage, s *Stream) (any, error) {
		if err := DecodeBody(body, &struct{}{}); err != nil {
			return nil, err
		}
		return h(ctx, peer, body, s)
	}
}
