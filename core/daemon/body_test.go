package daemon_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/brokerwire"
	"boxmaker/core/daemon"
	"boxmaker/core/gatewaywire"
	"boxmaker/core/loopwire"
	"boxmaker/core/memorywire"
	"boxmaker/core/testsupport"
	"boxmaker/core/testsupport/daemontest"
	"boxmaker/core/yaag/control"
	"boxmaker/runbook"
)

// bodies are the request bodies of every socket's kinds that take one
// (docs/protocols.md): each is read by daemon.DecodeBody.
var bodies = map[string]func() any{
	"broker tool.call":       func() any { return new(brokerwire.ToolCall) },
	"broker session.start":   func() any { return new(brokerwire.SessionStart) },
	"admin approvals.show":   func() any { return new(brokerwire.ApprovalShow) },
	"admin approvals.answer": func() any { return new(brokerwire.ApprovalAnswer) },
	"state session.state":    func() any { return new(brokerwire.SessionStateRequest) },
	"block memory.block":     func() any { return new(memorywire.BlockRequest) },
	"broker memory.call":     func() any { return new(memorywire.ToolRequest) },
	"admin memory.accept":    func() any { return new(memorywire.EditRequest) },
	"admin memory.sync":      func() any { return new(memorywire.SyncRequest) },
	"loop turn":              func() any { return new(loopwire.TurnRequest) },
	"loop agent.spawn":       func() any { return new(loopwire.SpawnRequest) },
	"loop agent.ask":         func() any { return new(loopwire.AskRequest) },
	"loop agent.fork":        func() any { return new(loopwire.ForkRequest) },
	"loop agent.compact":     func() any { return new(loopwire.CompactRequest) },
	"loop agent.answer":      func() any { return new(loopwire.AnswerRequest) },
	"gateway approval.post":  func() any { return new(gatewaywire.Post) },
	"gateway approval.wait":  func() any { return new(gatewaywire.Wait) },
	"gateway approval.settle": func() any {
		return new(gatewaywire.Settle)
	},
	"control pause": func() any { return new(control.Request) },
	// The request line itself is read by the same rules.
	"the request line": func() any { return new(daemon.Request) },
}

// firstKey is the first key of v's JSON, every field filled, and its
// value.
func firstKey(t *testing.T, v any) (string, string) {
	t.Helper()
	fill(reflect.ValueOf(v).Elem())
	raw, _ := json.Marshal(v)
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.Token()
	k, err := dec.Token()
	if err != nil {
		t.Fatalf("%s has no key", raw)
	}
	var val json.RawMessage
	dec.Decode(&val)
	return k.(string), string(val)
}

// TestDecodeBodyRefusesWhatAHostilePeerSends: every socket's bodies refuse
// what a hostile peer could send to be read one way by one reader and
// another way by the next, or to be read at all when it is not the kind's:
// a field the kind does not have, a second value after the first, a body
// that is not an object, a key twice, a key in another case, bad UTF-8,
// nesting too deep.
func TestDecodeBodyRefusesWhatAHostilePeerSends(t *testing.T) {
	deep := `{"x":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`
	for kind, make := range bodies {
		k, val := firstKey(t, make())
		for _, c := range []struct{ name, body, want string }{
			{"an unknown field", `{"bogus":1}`, `json: unknown field "bogus"`},
			{"an unknown field beside a known one", `{` + `"` + k + `":` + val + `,"bogus":1}`, `json: unknown field "bogus"`},
			{"a second value after the first", `{} {"bogus":1}`, "something follows its object"},
			{"a second object glued on", `{}{}`, "something follows its object"},
			{"an array", `[{}]`, "it is an array, not an object"},
			{"a string", `"{}"`, "it is a string, not an object"},
			{"a number", `1`, "it is a number, not an object"},
			{"a boolean", `true`, "it is a boolean, not an object"},
			{"a key twice", `{"` + k + `":` + val + `,"` + k + `":` + val + `}`, `the key "` + k + `" appears twice`},
			{"a key in another case", `{"` + strings.ToUpper(k) + `":` + val + `}`, `the key "` + strings.ToUpper(k) + `" is "` + k + `" in another case`},
			{"bad UTF-8", "{\"" + k + "\":\"\xff\"}", "it is not valid UTF-8"},
			{"nesting too deep", deep, "exceeded max depth"},
		} {
			v := make()
			err := daemon.DecodeBody(json.RawMessage(c.body), v)
			var be *daemon.BodyError
			if !errors.As(err, &be) || !strings.Contains(be.Problem, c.want) {
				t.Errorf("%s, %s: %v, want a BodyError saying %q", kind, c.name, err, c.want)
			}
		}
	}
}

// TestDecodeBodyRefusesInsideTheBody: the same rules hold in a kind's
// nested objects and lists, and a number that does not fit its field is
// refused rather than cut.
func TestDecodeBodyRefusesInsideTheBody(t *testing.T) {
	for _, c := range []struct{ kind, name, body, want string }{
		{"broker memory.call", "a key twice in a nested object", `{"arguments":{"query":"a","query":"b"}}`, `the key "query" appears twice`},
		{"gateway approval.post", "a key in another case in a nested object", `{"approval":{"ID":"a"}}`, `the key "ID" is "id" in another case`},
		{"broker memory.call", "a key twice in a list's object", `{"arguments":{"actions":[{"action":"add","action":"remove"}]}}`, `the key "action" appears twice`},
		{"loop agent.answer", "an unknown field in a list's object", `{"answers":[{"call_id":"c","text":"t","grant":"all"}]}`, `json: unknown field "grant"`},
		{"gateway approval.wait", "a number over a float64", `{"wait_ms":1e400}`, "cannot unmarshal number 1e400"},
		{"control pause", "a number over an int64", `{"wait_ms":99999999999999999999}`, "cannot unmarshal number 99999999999999999999"},
		{"broker memory.call", "a fraction for an int", `{"arguments":{"limit":1.5}}`, "cannot unmarshal number 1.5"},
		{"loop agent.fork", "a huge number nested", `{"from":{"epoch":1e400}}`, "cannot unmarshal number 1e400"},
		{"gateway approval.wait", "a string for a number", `{"wait_ms":"5"}`, "cannot unmarshal string"},
		{"the request line", "a second request line glued on", `{"kind":"ping"}{"kind":"tool.call"}`, "something follows its object"},
		{"the request line", "the body twice", `{"kind":"tool.call","body":{},"body":{"session":"x"}}`, `the key "body" appears twice`},
		{"the request line", "an unknown field", `{"kind":"ping","as":"root"}`, `json: unknown field "as"`},
	} {
		err := daemon.DecodeBody(json.RawMessage(c.body), bodies[c.kind]())
		var be *daemon.BodyError
		if !errors.As(err, &be) || !strings.Contains(be.Problem, c.want) {
			t.Errorf("%s, %s: %v, want a BodyError saying %q", c.kind, c.name, err, c.want)
		}
	}
}

// TestARefusalQuotesLittleOfTheBody: a key of a megabyte is told by its
// first bytes; the refusal is a line of the daemon's log.
func TestARefusalQuotesLittleOfTheBody(t *testing.T) {
	key := strings.Repeat("é", 1<<19)
	err := daemon.DecodeBody(json.RawMessage(`{"`+key+`":1}`), new(brokerwire.ToolCall))
	var be *daemon.BodyError
	if !errors.As(err, &be) || len(be.Problem) > 303 || !strings.HasPrefix(be.Problem, `json: unknown field "éé`) || !strings.HasSuffix(be.Problem, "é...") {
		t.Errorf("%d bytes: %.80q", len(be.Problem), be.Problem)
	}
}

// TestDecodeBodyTakesWhatTheClientsSend: no body, null (what daemon.Call
// sends for nil) and {} are the empty request; every field of every body,
// as the clients' json.Marshal writes it, comes back as it was; and the
// inside of a json.RawMessage (a tool call's arguments, which brokerd
// decides and records itself) is not this decoder's.
func TestDecodeBodyTakesWhatTheClientsSend(t *testing.T) {
	for kind, make := range bodies {
		for _, empty := range []string{"", "null", "{}", " \n{ }\t", " null "} {
			v := make()
			if err := daemon.DecodeBody(json.RawMessage(empty), v); err != nil {
				t.Errorf("%s, %q: %v", kind, empty, err)
			}
			if !reflect.ValueOf(v).Elem().IsZero() {
				t.Errorf("%s, %q: %+v, want the zero request", kind, empty, v)
			}
		}
		sent := make()
		fill(reflect.ValueOf(sent).Elem())
		raw, err := json.Marshal(sent)
		if err != nil {
			t.Fatal(err)
		}
		got := make()
		if err := daemon.DecodeBody(raw, got); err != nil {
			t.Errorf("%s: %s: %v", kind, raw, err)
			continue
		}
		if d := cmp.Diff(sent, got); d != "" {
			t.Errorf("%s: %s came back otherwise (-sent +got):\n%s", kind, raw, d)
		}
	}
	var tc brokerwire.ToolCall
	args := `{"path":"/a","path":"/b","PATH":1,"n":1e400}`
	if err := daemon.DecodeBody(json.RawMessage(`{"tool":"read_file","arguments":`+args+`}`), &tc); err != nil || string(tc.Arguments) != args {
		t.Errorf("a tool call's arguments: %v, %s", err, tc.Arguments)
	}
}

// fill sets every field v has to a value other than its zero.
func fill(v reflect.Value) {
	switch {
	case v.Type() == reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(time.Date(2026, 12, 1, 17, 20, 0, 5, time.UTC)))
		return
	case v.Type() == reflect.TypeFor[json.RawMessage]():
		v.Set(reflect.ValueOf(json.RawMessage(`{"k":[1,"two"]}`)))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k)
		fill(e)
		v.SetMapIndex(k, e)
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(7)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(0.5)
	}
}

// TestASocketRefusesABodyAsSocketForbidden: over a real socket, a body the
// kind does not take and a request line that is not one {"kind","body"}
// object are each answered with socket-forbidden's refusal naming the
// socket, the kind and the peer, printed on the daemon's log, and the
// handler never runs on what it refused.
func TestASocketRefusesABodyAsSocketForbidden(t *testing.T) {
	log := &testsupport.Buffer{}
	ran := 0
	path := daemontest.Serve(t, &daemon.Socket{
		Role: "brokerd", Name: "state", Path: filepath.Join(testsupport.ShortDir(t), "state", "state.sock"),
		Log: log, ListenerLost: runbook.BrokerdListenerLost,
		Kinds: map[string]daemon.Handler{
			brokerwire.KindSessionState: daemon.Takes(func(_ context.Context, _ daemon.Peer, q brokerwire.SessionStateRequest, _ *daemon.Stream) (any, error) {
				ran++
				return q, nil
			}),
		},
	})
	var got brokerwire.SessionStateRequest
	if err := daemon.Call(context.Background(), path, brokerwire.KindSessionState, brokerwire.SessionStateRequest{Session: "s1"}, &got, nil); err != nil || got.Session != "s1" {
		t.Fatalf("a good request: %+v, %v", got, err)
	}
	pid := os.Getpid()
	err := daemon.Call(context.Background(), path, brokerwire.KindSessionState, map[string]any{"session": "s1", "as_owner": true}, nil, nil)
	want := fmt.Sprintf(`a "session.state" request arrived on the state socket %s with a body it does not take (from pid %d, uid %d): json: unknown field "as_owner"; %s`,
		path, pid, os.Geteuid(), runbook.Link(runbook.SocketForbidden))
	if err == nil || err.Error() != want {
		t.Errorf("an unknown field: %v\nwant %s", err, want)
	}
	if e, ok := runbook.EntryOf(err); !ok || e != runbook.SocketForbidden {
		t.Errorf("an unknown field's entry: %v %v", e, ok)
	}
	if !strings.Contains(log.String(), "brokerd: "+want+"\n") {
		t.Errorf("the log %q lacks the refusal", log.String())
	}

	for _, c := range []struct{ name, line, want string }{
		{"a second request after the first", `{"kind":"session.state","body":{"session":"a"}} {"kind":"session.state","body":{"session":"b"}}`, "something follows its object"},
		{"the body twice", `{"kind":"session.state","body":{"session":"a"},"body":{"session":"b"}}`, `the key "body" appears twice`},
		{"the kind in another case", `{"KIND":"session.state","body":{"session":"a"}}`, `the key "KIND" is "kind" in another case`},
		{"a field the line does not have", `{"kind":"session.state","body":{"session":"a"},"uid":0}`, `json: unknown field "uid"`},
		{"an array", `[{"kind":"session.state"}]`, "it is an array, not an object"},
		{"not JSON", `kind=session.state`, "invalid character 'k'"},
	} {
		a := rawRequest(t, path, c.line)
		prefix := fmt.Sprintf(`a request arrived on the state socket %s that is not one {"kind","body"} object (from pid %d, uid %d): `, path, pid, os.Geteuid())
		if !a.Done || a.Entry != runbook.SocketForbidden.String() || !strings.HasPrefix(a.Error, prefix) || !strings.Contains(a.Error, c.want) ||
			!strings.HasSuffix(a.Error, "; "+runbook.Link(runbook.SocketForbidden)) {
			t.Errorf("%s: %+v, want socket-forbidden saying %q", c.name, a, c.want)
		}
	}
	if a := rawRequest(t, path, `{"kind":"session.state","body":{"session":"a","session":"b"}}`); a.Entry != runbook.SocketForbidden.String() ||
		!strings.Contains(a.Error, `with a body it does not take (from pid `) || !strings.Contains(a.Error, `the key "session" appears twice`) {
		t.Errorf("a key twice in the body: %+v", a)
	}
	if ran != 1 {
		t.Errorf("the handler ran %d times, want once (the good request)", ran)
	}
}

// rawRequest writes line as it is on a new connection to path and reads
// the final answer.
func rawRequest(t *testing.T, path, line string) daemon.Answer {
	t.Helper()
	c := testsupport.Dial(t, path)
	if _, err := c.Write([]byte(line + "\n")); err != nil {
		t.Fatal(err)
	}
	var a daemon.Answer
	if err := json.NewDecoder(c).Decode(&a); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return a
}

// TestNoBodyRefusesAField: a kind that takes no body (approvals.list,
// memory.log, a Run's status ...) answers none, null and {}, and refuses
// a field as any body's unknown field, before its handler runs.
func TestNoBodyRefusesAField(t *testing.T) {
	ran := 0
	h := daemon.NoBody(func(context.Context, daemon.Peer, json.RawMessage, *daemon.Stream) (any, error) {
		ran++
		return "listed", nil
	})
	for _, body := range []string{"", "null", "{}", " { } "} {
		if got, err := h(context.Background(), daemon.Peer{}, json.RawMessage(body), nil); err != nil || got != "listed" {
			t.Errorf("%q: %v, %v", body, got, err)
		}
	}
	for body, want := range map[string]string{
		`{"all":true}`:  `json: unknown field "all"`,
		`[]`:            "it is an array, not an object",
		`{} {"all":1}`:  "something follows its object",
		`{"id":"a1"}  `: `json: unknown field "id"`,
	} {
		_, err := h(context.Background(), daemon.Peer{}, json.RawMessage(body), nil)
		var be *daemon.BodyError
		if !errors.As(err, &be) || be.Problem != want {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
	if ran != 4 {
		t.Errorf("the handler ran %d times, want 4", ran)
	}
}

// FuzzDecodeBody: whatever a peer sends, DecodeBody does not panic; a body
// it takes is one a json.Decoder refusing unknown fields takes whole, and,
// encoded again as the clients encode it, it takes again as the same
// request. (That its keys are each once is jsonkeys' FuzzCheck.)
func FuzzDecodeBody(f *testing.F) {
	for _, s := range []string{`{}`, `null`, ``, `{"session":"s","call_id":"c","arguments":{"actions":[{"action":"add","file":"memory","text":"x"}],"query":"q","limit":3}}`,
		`{"session":"a","session":"b"}`, `{"Session":"a"}`, `{"arguments":{"limit":1e400}}`, `{} {}`, `[]`, "{\"session\":\"\xff\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got memorywire.ToolRequest
		if daemon.DecodeBody(data, &got) != nil {
			return
		}
		if trimmed := strings.Trim(string(data), " \t\r\n"); trimmed != "" && trimmed != "null" {
			strict := json.NewDecoder(strings.NewReader(trimmed))
			strict.DisallowUnknownFields()
			var v memorywire.ToolRequest
			if err := strict.Decode(&v); err != nil || strict.More() {
				t.Fatalf("%q: DecodeBody took it, a strict json.Decoder says %v (more: %v)", data, err, strict.More())
			}
		}
		again, _ := json.Marshal(got)
		var back memorywire.ToolRequest
		if err := daemon.DecodeBody(again, &back); err != nil {
			t.Fatalf("%s (from %q): %v", again, data, err)
		}
		if d := cmp.Diff(got, back); d != "" {
			t.Fatalf("%s came back otherwise:\n%s", again, d)
		}
	})
}
