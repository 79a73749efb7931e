package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"boxmaker/core/jsonkeys"
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
// Its error is a *BodyError, which the socket answers with
// socket-forbidden's refusal, naming the kind, the socket and the peer,
// and prints (Socket.handle). A handler reads its body through Takes (or
// NoBody), which return that error as it is.
func DecodeBody(body json.RawMessage, v any) error {
	if problem := decodeObject(body, v); problem != "" {
		return &BodyError{Problem: cutProblem(problem)}
	}
	return nil
}

// maxProblem bounds what a refusal quotes of the body (a key of a
// megabyte is told by its first bytes): the refusal is a line on the
// daemon's log as well as the answer.
const maxProblem = 300

func cutProblem(p string) string {
	if len(p) <= maxProblem {
		return p
	}
	return strings.ToValidUTF8(p[:maxProblem], "") + "..."
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
	// values that do not fit and nesting deeper than 10,000, so the keys'
	// check below (jsonkeys: unknown fields, keys twice or in another
	// case) only meets a bounded, well-formed object. json.Unmarshal, not a json.Decoder: a
	// decoder copies the whole body into a buffer of its own, and the
	// largest bodies are 16 MiB.
	if err := json.Unmarshal(trimmed, v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) && se.Offset > 0 && json.Valid(trimmed[:se.Offset-1]) {
			return "something follows its object"
		}
		return err.Error()
	}
	if err := jsonkeys.Check(trimmed, reflect.TypeOf(v)); err != nil {
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

// refuseBody is the refusal of a request of kind whose body DecodeBody
// refused, printed on the socket's log as every refusal of the framing is.
func (s *Socket) refuseBody(kind string, peer Peer, be *BodyError) error {
	r := runbook.Refuse(runbook.SocketForbidden, "a %q request arrived on the %s socket %s with a body it does not take (from pid %d, uid %d): %s",
		kind, s.Name, s.Path, peer.PID, peer.UID, be.Problem)
	fmt.Fprintf(s.Log, "%s: %s\n", s.Role, r)
	return r
}

// Takes is the handler of a kind whose body is a Q, its wire struct: the
// body is read by DecodeBody, and h answers the request it holds. A body
// DecodeBody refuses never reaches h; the socket answers it as
// socket-forbidden.
func Takes[Q any](h func(ctx context.Context, peer Peer, req Q, s *Stream) (any, error)) Handler {
	return func(ctx context.Context, peer Peer, body json.RawMessage, s *Stream) (any, error) {
		var req Q
		if err := DecodeBody(body, &req); err != nil {
			return nil, err
		}
		return h(ctx, peer, req, s)
	}
}

// NoBody is h for a kind that takes no body: its body is read as an empty
// struct's (none, null or {}), so that a field sent to it is refused as
// any body's unknown field is, not silently passed over; h is given none.
func NoBody(h Handler) Handler {
	return Takes(func(ctx context.Context, peer Peer, _ struct{}, s *Stream) (any, error) {
		return h(ctx, peer, nil, s)
	})
}
