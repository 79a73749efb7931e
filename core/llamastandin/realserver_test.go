package llamastandin

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The behaviours of the real llama-server (build 9928, measured in
// docs/inference-contract.md) that loopd depends on, one test each.

// A history whose tool call arguments are not JSON is refused with 500,
// as common/chat.cpp refuses to render it: the request that wedged a
// session for good.
func TestAHistoryWithBrokenArgumentsIsRefused(t *testing.T) {
	s := start(t, Options{Script: Script{Turns: []Turn{{Content: "never"}}}})
	body := chatBody(false, msg("user", "hi"),
		map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{
			"id": "c1", "type": "function", "function": map[string]any{"name": "read_file", "arguments": `{"path":"/o`}}}},
		map[string]any{"role": "tool", "tool_call_id": "c1", "content": "not run"})
	for _, path := range []string{"/v1/chat/completions", "/apply-template"} {
		code, data := do(t, "POST", s.URL()+path, body)
		if code != 500 || !strings.Contains(string(data), `"message":"Failed to parse tool call arguments as JSON: `) ||
			!strings.Contains(string(data), `"type":"server_error"`) {
			t.Fatalf("%s: %d %s", path, code, data)
		}
	}
	if s.Remaining() != 1 {
		t.Error("the refused request used a turn of the script")
	}
	// The same history with the arguments replaced by {} is taken.
	body["messages"].([]map[string]any)[1]["tool_calls"].([]any)[0].(map[string]any)["function"].(map[string]any)["arguments"] = "{}"
	if code, data := do(t, "POST", s.URL()+"/v1/chat/completions", body); code != 200 {
		t.Fatalf("{}: %d %s", code, data)
	}
}

// Generation cut by max_tokens inside a tool call streams the call as
// far as it got, its arguments not yet JSON, with finish_reason length.
func TestACutToolCallIsStreamedPartly(t *testing.T) {
	turn := Turn{ToolCalls: []ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path":"/src/a-long-name.go"}`)}}}
	s := start(t, Options{Script: Script{Turns: []Turn{turn, turn}}})
	// "<tool_call>" is one token, then "\n<function=read_file>\n" and
	// "<parameter=path>\n" are one a byte: 50 tokens end inside the path.
	body := chatBody(true, msg("user", "read it"))
	body["max_tokens"] = 50
	m := merge(t, stream(t, s, body))
	if !m.Done || m.Finish != "length" || len(m.ToolCalls) != 1 {
		t.Fatalf("%+v", m)
	}
	args := m.ToolCalls[0].Function.Arguments
	if m.ToolCalls[0].Function.Name != "read_file" || !strings.HasPrefix(args, `{"path":"/src`) || json.Valid([]byte(args)) {
		t.Fatalf("the cut call %+v", m.ToolCalls[0])
	}
	// Unstreamed, the same.
	body["stream"] = false
	c := chat(t, s, body)
	if c.Choices[0].FinishReason != "length" || len(c.Choices[0].Message.ToolCalls) != 1 || json.Valid([]byte(c.Choices[0].Message.ToolCalls[0].Function.Arguments)) {
		t.Fatalf("%+v", c.Choices[0])
	}
}

// Output that opens a tool call and breaks the format fails: 500
// unstreamed; streamed, the content that came before, then
// data: {"error":...} and no [DONE]. The content switch keeps the old
// reading (the text as content).
func TestUnparsableOutputFailsAsTheRealServerDoes(t *testing.T) {
	broken := Turn{Raw: "I will read it.\n<tool_call>\n<function=read_file>\n<path>/a</path>\n</tool_call>"}
	s := start(t, Options{Script: Script{Turns: []Turn{broken, broken, broken, broken}}})
	code, data := do(t, "POST", s.URL()+"/v1/chat/completions", chatBody(false, msg("user", "read /a")))
	if code != 500 || string(data) != `{"error":{"code":500,"message":"The model produced output that does not match the expected peg-native format","type":"server_error"}}` {
		t.Fatalf("unstreamed: %d %s", code, data)
	}
	events := stream(t, s, chatBody(true, msg("user", "read /a")))
	m := merge(t, events)
	if m.Done || m.Content != "I will read it." || m.Error == nil || m.Error["message"] != errUnparsable.Error() {
		t.Fatalf("streamed: %q", events)
	}
	// The server holds the error back for the silence the switch gives.
	ms := 300
	s.Set(Switch{ErrorSilenceMS: &ms})
	began := time.Now()
	stream(t, s, chatBody(true, msg("user", "read /a")))
	if time.Since(began) < 300*time.Millisecond {
		t.Fatal("the error came before the silence")
	}
	mode := UnparsableContent
	s.Set(Switch{Unparsable: &mode})
	c := chat(t, s, chatBody(false, msg("user", "read /a")))
	if c.Choices[0].FinishReason != "stop" || *c.Choices[0].Message.Content != broken.Raw {
		t.Fatalf("content mode: %+v", c.Choices[0])
	}
}

// A call written without the trigger's newline is not a call for the
// server's parser: it comes back as content, finish_reason stop.
func TestACallWithoutTheTriggerIsContent(t *testing.T) {
	raw := "<tool_call><function=read_file><parameter=path>/a</parameter></function></tool_call>"
	s := start(t, Options{Script: Script{Turns: []Turn{{Raw: raw}}}})
	c := chat(t, s, chatBody(false, msg("user", "read /a")))
	if c.Choices[0].FinishReason != "stop" || *c.Choices[0].Message.Content != raw || len(c.Choices[0].Message.ToolCalls) != 0 {
		t.Fatalf("%+v", c.Choices[0])
	}
}

// tool_choice "required" does not force a call: the grammar lets any
// text come first, and a reply without a call comes back as text.
func TestToolChoiceRequiredDoesNotForceACall(t *testing.T) {
	s := start(t, Options{Script: Script{Turns: []Turn{{Content: "Just text."}}}})
	body := chatBody(false, msg("user", "call something"))
	body["tool_choice"] = "required"
	c := chat(t, s, body)
	if c.Choices[0].FinishReason != "stop" || *c.Choices[0].Message.Content != "Just text." {
		t.Fatalf("%+v", c.Choices[0])
	}
}

func TestTokenizeWithoutContentIsNoTokens(t *testing.T) {
	s := start(t, Options{})
	if code, body := do(t, "POST", s.URL()+"/tokenize", map[string]any{}); code != 200 || string(body) != `{"tokens":[]}` {
		t.Fatalf("%d %s", code, body)
	}
}

func TestABodyThatIsNotJSONIs500(t *testing.T) {
	s := start(t, Options{})
	for _, path := range []string{"/v1/chat/completions", "/tokenize"} {
		resp, err := http.Post(s.URL()+path, "application/json", strings.NewReader(`{"messages":`))
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 500 || !strings.Contains(string(data), `"type":"server_error"`) || !strings.Contains(string(data), "parse error") {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, data)
		}
	}
}

// An empty content is "", not null; a request's model is ignored.
func TestEmptyContentIsAnEmptyString(t *testing.T) {
	s := start(t, Options{Script: Script{Turns: []Turn{{ToolCalls: []ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path":"/a"}`)}}}}}})
	body := chatBody(false, msg("user", "read"))
	body["model"] = "no-such-model"
	code, data := do(t, "POST", s.URL()+"/v1/chat/completions", body)
	if code != 200 || !strings.Contains(string(data), `"content":""`) {
		t.Fatalf("%d %s", code, data)
	}
}

// /slots is minimal before a slot has run a task, and then has the
// task's fields, next_token an array.
func TestSlotsBeforeAndAfterATask(t *testing.T) {
	s := start(t, Options{Slots: 1, Script: Script{Turns: []Turn{{Content: "x"}}}})
	if _, body := do(t, "GET", s.URL()+"/slots", nil); string(body) != `[{"id":0,"is_processing":false,"n_ctx":262144,"speculative":false}]` {
		t.Fatalf("before: %s", body)
	}
	chat(t, s, chatBody(false, msg("user", "go")))
	_, body := do(t, "GET", s.URL()+"/slots", nil)
	if !strings.Contains(string(body), `"next_token":[{`) || !strings.Contains(string(body), `"id_task":`) || !strings.Contains(string(body), `"params":{`) {
		t.Fatalf("after: %s", body)
	}
}

// The server closes a connection idle for its idle timeout, and says
// so in Keep-Alive; the close_reused switch closes the next reused
// connection without an answer.
func TestIdleConnectionsAreClosed(t *testing.T) {
	s := start(t, Options{IdleTimeout: 200 * time.Millisecond})
	c, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	var all bytes.Buffer
	_, err = io.Copy(&all, c) // returns when the server closes the connection
	if err != nil || !strings.Contains(all.String(), "200 OK") || !strings.Contains(all.String(), "Keep-Alive: timeout=") {
		t.Fatalf("the idle connection was not closed: %v %q", err, all.String())
	}

	s.Set(Switch{CloseReused: true})
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	cl := &http.Client{Transport: tr}
	get := func() error {
		resp, err := cl.Get(s.URL() + "/health")
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	}
	if err := get(); err != nil {
		t.Fatal(err)
	}
	// GET is retried by the transport on a new connection.
	if err := get(); err != nil {
		t.Fatalf("a reused connection closed under a GET: %v", err)
	}
	if n := len(s.Calls()); n != 4 {
		t.Fatalf("%d calls, want 4 (one, one, the dropped one and its retry)", n)
	}
}

// Arguments that are JSON but not an object cannot be rendered by the
// template (|items): 400, as the real server answers.
func TestAHistoryWithArgumentsNotAnObjectIs400(t *testing.T) {
	s := start(t, Options{Script: Script{Turns: []Turn{{Content: "never"}}}})
	for _, args := range []string{`[1]`, `"x"`} {
		body := chatBody(false, msg("user", "hi"),
			map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{
				"id": "c1", "type": "function", "function": map[string]any{"name": "read_file", "arguments": args}}}},
			map[string]any{"role": "tool", "tool_call_id": "c1", "content": "not run"})
		if code, data := do(t, "POST", s.URL()+"/v1/chat/completions", body); code != 400 || !strings.Contains(string(data), `"type":"invalid_request_error"`) {
			t.Fatalf("%s: %d %s", args, code, data)
		}
	}
}
