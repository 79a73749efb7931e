package llamastandin

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/testsupport"
)

func start(t *testing.T, o Options) *Server {
	t.Helper()
	s, err := Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func do(t *testing.T, method, url string, body any) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	return testsupport.HTTP(t, http.DefaultClient, method, url, r)
}

func decode(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not a JSON object: %v: %s", err, data)
	}
	return v
}

func TestHealthAnswersLoadingThenOK(t *testing.T) {
	s := start(t, Options{Loading: true})
	code, body := do(t, "GET", s.URL()+"/health", nil)
	if code != 503 || string(body) != `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}` {
		t.Fatalf("loading: %d %s", code, body)
	}
	if code, _ := do(t, "GET", s.URL()+"/props", nil); code != 503 {
		t.Fatalf("props while loading: %d, want 503", code)
	}
	s.SetLoading(false)
	code, body = do(t, "GET", s.URL()+"/health", nil)
	if code != 200 || string(body) != `{"status":"ok"}` {
		t.Fatalf("loaded: %d %s", code, body)
	}
}

func TestPropsReportTemplateContextSlotsAndModelPath(t *testing.T) {
	s := start(t, Options{Model: "m1", Slots: 3, NCtx: 4096})
	code, body := do(t, "GET", s.URL()+"/props?model=m1", nil)
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	var props struct {
		DGS struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
		TotalSlots   int    `json:"total_slots"`
		ModelPath    string `json:"model_path"`
		ChatTemplate string `json:"chat_template"`
	}
	json.Unmarshal(body, &props)
	if props.DGS.NCtx != 4096 || props.TotalSlots != 3 || props.ModelPath != DefaultModelPath || props.ChatTemplate != QwenTemplate {
		t.Fatalf("props: %+v", props)
	}
	before := sha256.Sum256([]byte(props.ChatTemplate))
	s.SetTemplate(QwenTemplate + "{# changed #}")
	_, body = do(t, "GET", s.URL()+"/props", nil)
	json.Unmarshal(body, &props)
	if sha256.Sum256([]byte(props.ChatTemplate)) == before {
		t.Fatal("the template switch did not change the template's sha256")
	}
	// A single-model server ignores the name, as the real one does; a
	// router checks it.
	if code, body := do(t, "GET", s.URL()+"/props?model=other", nil); code != 200 {
		t.Fatalf("another model, one server: %d %s", code, body)
	}
	router := true
	s.Set(Switch{Router: &router})
	code, body = do(t, "GET", s.URL()+"/props?model=other", nil)
	if code != 400 || !strings.Contains(string(body), `"message":"model 'other' not found","type":"invalid_request_error"`) {
		t.Fatalf("another model, a router: %d %s", code, body)
	}
	if code, body := do(t, "GET", s.URL()+"/props?model=m1", nil); code != 200 {
		t.Fatalf("its model, a router: %d %s", code, body)
	}
}

// /props has the real server's shape (build 9928): the generation
// settings are only params and n_ctx.
func TestPropsShape(t *testing.T) {
	s := start(t, Options{})
	_, body := do(t, "GET", s.URL()+"/props", nil)
	var props map[string]json.RawMessage
	json.Unmarshal(body, &props)
	var dgs map[string]json.RawMessage
	json.Unmarshal(props["default_generation_settings"], &dgs)
	var keys []string
	for k := range dgs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if diff := cmp.Diff([]string{"n_ctx", "params"}, keys); diff != "" {
		t.Errorf("default_generation_settings keys (-want +got):\n%s", diff)
	}
	for _, k := range []string{"total_slots", "model_alias", "model_path", "modalities", "chat_template", "build_info", "eos_token"} {
		if props[k] == nil {
			t.Errorf("no %s", k)
		}
	}
}

func TestSlotsListEverySlot(t *testing.T) {
	s := start(t, Options{Slots: 2, NCtx: 1000})
	code, body := do(t, "GET", s.URL()+"/slots", nil)
	var slots []struct {
		ID           int  `json:"id"`
		NCtx         int  `json:"n_ctx"`
		IsProcessing bool `json:"is_processing"`
	}
	if err := json.Unmarshal(body, &slots); code != 200 || err != nil {
		t.Fatalf("%d %s %v", code, body, err)
	}
	want := []struct {
		ID           int  `json:"id"`
		NCtx         int  `json:"n_ctx"`
		IsProcessing bool `json:"is_processing"`
	}{{0, 1000, false}, {1, 1000, false}}
	if diff := cmp.Diff(want, slots); diff != "" {
		t.Fatal(diff)
	}
}

func TestTokenize(t *testing.T) {
	s := start(t, Options{})
	tests := []struct {
		name string
		req  map[string]any
		want string
	}{
		{"a tag is its token", map[string]any{"content": "<|im_end|>", "parse_special": true}, `{"tokens":[248046]}`},
		{"parse_special is on by default", map[string]any{"content": "<think>"}, `{"tokens":[248068]}`},
		{"without parse_special a tag is text", map[string]any{"content": "<|im_end|>", "parse_special": false},
			`{"tokens":[60,124,105,109,95,101,110,100,124,62]}`},
		{"a neutralised tag is text", map[string]any{"content": "&lt;|im_end|&gt;"},
			`{"tokens":[38,108,116,59,124,105,109,95,101,110,100,124,38,103,116,59]}`},
		{"tags one per line", map[string]any{"content": "<|im_start|>\n</think>"}, `{"tokens":[248045,10,248069]}`},
		{"add_special adds nothing (no BOS)", map[string]any{"content": "a", "add_special": true}, `{"tokens":[97]}`},
		{"with pieces", map[string]any{"content": "a<tool_call>", "with_pieces": true},
			`{"tokens":[{"id":97,"piece":"a"},{"id":248058,"piece":"<tool_call>"}]}`},
		{"a piece that is not UTF-8 is its bytes", map[string]any{"content": "á", "with_pieces": true},
			`{"tokens":[{"id":195,"piece":[195]},{"id":161,"piece":[161]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := do(t, "POST", s.URL()+"/tokenize", tt.req)
			if code != 200 || string(body) != tt.want {
				t.Fatalf("got %d %s, want %s", code, body, tt.want)
			}
		})
	}
}

var readTool = json.RawMessage(`{"type":"function","function":{"name":"read_file","description":"read a file","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}}`)

func chatBody(stream bool, messages ...map[string]any) map[string]any {
	return map[string]any{
		"model": DefaultModel, "messages": messages, "stream": stream,
		"tools":                []json.RawMessage{readTool},
		"chat_template_kwargs": map[string]any{"enable_thinking": false},
	}
}

func msg(role, content string) map[string]any {
	return map[string]any{"role": role, "content": content}
}

type completion struct {
	Choices []struct {
		FinishReason string `json:"finish_reason"`
		Message      struct {
			Role             string         `json:"role"`
			Content          *string        `json:"content"`
			ReasoningContent string         `json:"reasoning_content"`
			ToolCalls        []ToolCallJSON `json:"tool_calls"`
		} `json:"message"`
	} `json:"choices"`
	Object string `json:"object"`
	Usage  struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
	Timings struct {
		CacheN     int     `json:"cache_n"`
		PromptN    int     `json:"prompt_n"`
		PromptMS   float64 `json:"prompt_ms"`
		PredictedN int     `json:"predicted_n"`
	} `json:"timings"`
}

func chat(t *testing.T, s *Server, body map[string]any) completion {
	t.Helper()
	code, data := do(t, "POST", s.URL()+"/v1/chat/completions", body)
	if code != 200 {
		t.Fatalf("%d %s", code, data)
	}
	var c completion
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestChatReturnsParsedToolCalls(t *testing.T) {
	s := start(t, Options{Script: Script{Turns: []Turn{{
		Content:   "Let me look.",
		ToolCalls: []ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{ "path": "/src/a.go" }`)}},
	}}}})
	c := chat(t, s, chatBody(false, msg("system", "Be brief."), msg("user", "read a.go")))
	m := c.Choices[0].Message
	if c.Object != "chat.completion" || c.Choices[0].FinishReason != "tool_calls" || m.Role != "assistant" {
		t.Fatalf("%+v", c)
	}
	if m.Content == nil || *m.Content != "Let me look." {
		t.Fatalf("content %v", m.Content)
	}
	if len(m.ToolCalls) != 1 || m.ToolCalls[0].Function.Name != "read_file" || m.ToolCalls[0].Function.Arguments != `{"path":"/src/a.go"}` ||
		m.ToolCalls[0].Type != "function" || !regexp.MustCompile(`^[A-Za-z0-9]{32}$`).MatchString(m.ToolCalls[0].ID) {
		t.Fatalf("tool calls %+v", m.ToolCalls)
	}
	chats := s.Chats()
	if len(chats) != 1 || c.Usage.PromptTokens != chats[0].PromptTokens || c.Usage.TotalTokens != c.Usage.PromptTokens+c.Usage.CompletionTokens ||
		c.Timings.PredictedN != c.Usage.CompletionTokens || c.Timings.PromptN+c.Timings.CacheN != c.Usage.PromptTokens {
		t.Fatalf("usage %+v timings %+v", c.Usage, c.Timings)
	}
	// The real template: the tools block, then the system prompt.
	if !strings.HasPrefix(chats[0].Prompt, "<|im_start|>system\n# Tools\n\nYou have access to the following functions:\n\n<tools>\n"+
		`{"type": "function", "function": {"name": "read_file", "description": "read a file",`) ||
		!strings.Contains(chats[0].Prompt, "</IMPORTANT>\n\nBe brief.<|im_end|>\n") ||
		!strings.HasSuffix(chats[0].Prompt, "<|im_start|>user\nread a.go<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n") {
		t.Fatalf("prompt %q", chats[0].Prompt)
	}
	if !bytes.Contains(chats[0].Body, []byte(`"read a.go"`)) {
		t.Fatalf("the recorded body %s", chats[0].Body)
	}
}

func TestToolCallParsingOffReturnsTheTextAsContent(t *testing.T) {
	s := start(t, Options{Script: Script{Turns: []Turn{{ToolCalls: []ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path":"/a"}`)}}}}}})
	s.SetParseToolCalls(false)
	c := chat(t, s, chatBody(false, msg("user", "read /a")))
	m := c.Choices[0].Message
	want := "<tool_call>\n<function=read_file>\n<parameter=path>\n/a\n</parameter>\n</function>\n</tool_call>"
	if c.Choices[0].FinishReason != "stop" || len(m.ToolCalls) != 0 || m.Content == nil || *m.Content != want {
		t.Fatalf("%+v %q", c.Choices[0], *m.Content)
	}
}

func TestThinkingRepliesCarryReasoningContent(t *testing.T) {
	s := start(t, Options{Script: Script{Turns: []Turn{{Content: "Hi.", Reasoning: "A greeting."}, {Content: "Again.", Reasoning: "hidden"}}}})
	body := chatBody(false, msg("user", "hello"))
	delete(body, "chat_template_kwargs")
	c := chat(t, s, body)
	if m := c.Choices[0].Message; m.ReasoningContent != "A greeting." || *m.Content != "Hi." {
		t.Fatalf("%+v", m)
	}
	c = chat(t, s, chatBody(false, msg("user", "hello")))
	if m := c.Choices[0].Message; m.ReasoningContent != "" || *m.Content != "Again." {
		t.Fatalf("thinking off still reasoned: %+v", m)
	}
}

func TestMaxTokensStopsWithLength(t *testing.T) {
	s := start(t, Options{Script: Script{Turns: []Turn{{Content: "one two three"}}}})
	body := chatBody(false, msg("user", "count"))
	body["max_tokens"] = 3
	c := chat(t, s, body)
	if c.Choices[0].FinishReason != "length" || *c.Choices[0].Message.Content != "one" || c.Usage.CompletionTokens != 3 {
		t.Fatalf("%+v", c)
	}
}

// Without max_tokens the real server generates until the slot's context
// is full, and so does the stand-in by default; in its test mode it
// refuses the request, 400, and logs it as refused.
func TestTheTestModeRefusesARequestWithoutMaxTokens(t *testing.T) {
	turns := []Turn{{Content: "one two three"}, {Content: "four"}}
	real := start(t, Options{Script: Script{Turns: turns}})
	if c := chat(t, real, chatBody(false, msg("user", "count"))); c.Choices[0].FinishReason != "stop" || *c.Choices[0].Message.Content != "one two three" {
		t.Fatalf("without the test mode, a request without max_tokens: %+v", c)
	}
	strict := start(t, Options{Script: Script{Turns: turns}, RequireMaxTokens: true})
	for _, mt := range []any{nil, 0, -1} {
		body := chatBody(true, msg("user", "count"))
		if mt != nil {
			body["max_tokens"] = mt
		}
		code, data := do(t, "POST", strict.URL()+"/v1/chat/completions", body)
		want := `{"error":{"code":400,"message":"` + NoMaxTokens + `","type":"invalid_request_error"}}`
		if code != 400 || string(data) != want {
			t.Errorf("max_tokens %v: %d %s", mt, code, data)
		}
	}
	body := chatBody(false, msg("user", "count"))
	body["max_tokens"] = 100
	if c := chat(t, strict, body); *c.Choices[0].Message.Content != "one two three" {
		t.Fatalf("a bounded request in the test mode: %+v", c)
	}
	chats := strict.Chats()
	if len(chats) != 4 || chats[0].Refused != NoMaxTokens || chats[2].Refused != NoMaxTokens || chats[3].Refused != "" || strict.Remaining() != 1 {
		t.Fatalf("the log: %+v; %d turns left", chats, strict.Remaining())
	}
}

// sse reads a streamed answer's data payloads up to and including
// [DONE] or an error.
func sse(t *testing.T, r io.Reader) []string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	blank := true
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			blank = true
			continue
		}
		if !blank || !strings.HasPrefix(line, "data: ") {
			t.Fatalf("not an event line after a blank one: %q", line)
		}
		blank = false
		out = append(out, strings.TrimPrefix(line, "data: "))
	}
	return out
}

// merged rebuilds a message from streamed deltas, merging tool calls by
// index as OpenAI clients do.
type merged struct {
	Content, Reasoning, Finish string
	ToolCalls                  map[int]*ToolCallJSON
	Timings                    map[string]any
	Usage                      map[string]any
	Done                       bool
	UsageChunk                 bool
	Error                      map[string]any
}

func merge(t *testing.T, events []string) merged {
	t.Helper()
	m := merged{ToolCalls: map[int]*ToolCallJSON{}}
	for _, e := range events {
		if e == "[DONE]" {
			m.Done = true
			continue
		}
		var c struct {
			Choices []struct {
				FinishReason *string `json:"finish_reason"`
				Delta        struct {
					Content          *string        `json:"content"`
					ReasoningContent string         `json:"reasoning_content"`
					ToolCalls        []ToolCallJSON `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
			Object  string         `json:"object"`
			Timings map[string]any `json:"timings"`
			Usage   map[string]any `json:"usage"`
			Error   map[string]any `json:"error"`
		}
		if err := json.Unmarshal([]byte(e), &c); err != nil {
			t.Fatalf("%v: %s", err, e)
		}
		if c.Error != nil {
			m.Error = c.Error
			continue
		}
		if c.Object != "chat.completion.chunk" {
			t.Fatalf("object %q", c.Object)
		}
		if m.UsageChunk {
			t.Fatalf("a chunk after the usage chunk: %s", e)
		}
		if len(c.Choices) == 0 {
			m.UsageChunk = true
			m.Timings, m.Usage = c.Timings, c.Usage
			continue
		}
		d := c.Choices[0].Delta
		if d.Content != nil {
			m.Content += *d.Content
		}
		m.Reasoning += d.ReasoningContent
		for _, tc := range d.ToolCalls {
			if tc.Index == nil {
				t.Fatalf("a tool call delta without index: %s", e)
			}
			cur, ok := m.ToolCalls[*tc.Index]
			if !ok {
				cur = &ToolCallJSON{}
				m.ToolCalls[*tc.Index] = cur
			}
			if tc.ID != "" {
				cur.ID = tc.ID
			}
			cur.Function.Name += tc.Function.Name
			cur.Function.Arguments += tc.Function.Arguments
		}
		if f := c.Choices[0].FinishReason; f != nil {
			m.Finish = *f
			m.Timings, m.Usage = c.Timings, c.Usage
		}
	}
	return m
}

func stream(t *testing.T, s *Server, body map[string]any) []string {
	t.Helper()
	data, _ := json.Marshal(body)
	resp, err := http.Post(s.URL()+"/v1/chat/completions", "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return sse(t, resp.Body)
}

func TestStreamedToolCallDeltasMergeByIndex(t *testing.T) {
	turn := Turn{Content: "Two reads.", ToolCalls: []ToolCall{
		{Name: "read_file", Arguments: json.RawMessage(`{"path":"/src/a-rather-long-name.go"}`)},
		{Name: "read_file", Arguments: json.RawMessage(`{"path":"/src/ü.go"}`)},
	}}
	s := start(t, Options{Script: Script{Turns: []Turn{turn}}})
	events := stream(t, s, chatBody(true, msg("user", "read both")))
	m := merge(t, events)
	if !m.Done || m.Finish != "tool_calls" || m.Content != "Two reads." || len(m.ToolCalls) != 2 {
		t.Fatalf("%+v", m)
	}
	if a := m.ToolCalls[0].Function; a.Name != "read_file" || a.Arguments != `{"path":"/src/a-rather-long-name.go"}` {
		t.Fatalf("call 0: %+v", a)
	}
	if a := m.ToolCalls[1].Function; a.Arguments != `{"path":"/src/ü.go"}` {
		t.Fatalf("call 1: %+v", a)
	}
	if len(events) < 8 {
		t.Fatalf("arguments were not split across deltas: %d events", len(events))
	}
	// Without include_usage: timings on the finish chunk, no usage.
	if m.Timings["cache_n"] == nil || m.Timings["prompt_n"] == nil || m.Timings["predicted_n"] == nil || m.Usage != nil || m.UsageChunk {
		t.Fatalf("finish chunk: usage %v timings %v", m.Usage, m.Timings)
	}
	// The first tool delta carries the id, the name and the first piece
	// of the arguments, as the real server's does.
	if !strings.Contains(events[3], `"function":{"arguments":"{","name":"read_file"},"id":"`) {
		t.Fatalf("first tool delta %s", events[3])
	}
	if events[0] == "" || !strings.Contains(events[0], `"delta":{"content":null,"role":"assistant"}`) {
		t.Fatalf("first chunk %s", events[0])
	}
}

func TestStreamFailsMidwayWithAnErrorEvent(t *testing.T) {
	s := start(t, Options{Script: Script{Turns: []Turn{{Content: "a b c d e"}}}})
	s.SetFailAfter(2)
	events := stream(t, s, chatBody(true, msg("user", "go")))
	m := merge(t, events)
	if len(events) != 3 || m.Done || m.Error == nil || m.Error["type"] != "server_error" {
		t.Fatalf("%q", events)
	}
}

func TestCacheNIsTheCommonPrefixWithTheSlotsLastPromptAndReply(t *testing.T) {
	s := start(t, Options{Slots: 1, Script: Script{Turns: []Turn{{Content: "Hello."}, {Content: "Fine."}, {Content: "Again."}, {Content: "Once more."}}}})
	turn1 := []map[string]any{msg("system", "sys"), msg("user", "hi")}
	c1 := chat(t, s, chatBody(false, turn1...))
	if c1.Timings.CacheN != 0 || c1.Timings.PromptN != c1.Usage.PromptTokens {
		t.Fatalf("turn 1 %+v", c1.Timings)
	}
	turn2 := append(turn1, msg("assistant", "Hello."), msg("user", "how are you?"))
	c2 := chat(t, s, chatBody(false, turn2...))
	chats := s.Chats()
	// The slot holds turn 1's prompt and its reply. A new user message
	// makes the template render the reply without its think block (the
	// generation prompt's "<think>\n\n</think>\n\n", six tokens of the
	// stand-in's tokenizer), as the real Qwen3.5 template does: the cache
	// is reused up to "<|im_start|>assistant\n".
	want := chats[0].PromptTokens - len(Tokenize("<think>\n\n</think>\n\n", true))
	if c2.Timings.CacheN != want || c2.Usage.PromptTokens-c2.Timings.PromptN != want {
		t.Fatalf("turn 2 cache_n %d, want %d (%+v)", c2.Timings.CacheN, want, c2.Timings)
	}
	if !strings.HasSuffix(chats[0].Prompt, "<|im_start|>assistant\n<think>\n\n</think>\n\n") ||
		!strings.Contains(chats[1].Prompt, "<|im_start|>assistant\nHello.<|im_end|>\n<|im_start|>user\nhow are you?") {
		t.Fatalf("prompts %q\n%q", chats[0].Prompt, chats[1].Prompt)
	}

	s.ForgetCache()
	if c := chat(t, s, chatBody(false, turn2...)); c.Timings.CacheN != 0 {
		t.Fatalf("after forgetting: cache_n %d", c.Timings.CacheN)
	}
	s.SetCacheDisabled(true)
	if c := chat(t, s, chatBody(false, turn2...)); c.Timings.CacheN != 0 {
		t.Fatalf("disabled: cache_n %d", c.Timings.CacheN)
	}
}

// Within one user turn, a tool round replays the call as the template
// renders it from its parsed arguments, which is the text generated: the
// whole previous prompt and reply come from the cache.
func TestAToolRoundReusesThePromptAndTheCall(t *testing.T) {
	s := start(t, Options{Slots: 1, Script: Script{Turns: []Turn{
		{Content: "Looking.", ToolCalls: []ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path":"/a"}`)}}},
		{Content: "It is empty."},
	}}})
	turn1 := []map[string]any{msg("system", "sys"), msg("user", "read /a")}
	c1 := chat(t, s, chatBody(false, turn1...))
	tc := c1.Choices[0].Message.ToolCalls[0]
	turn2 := append(turn1,
		map[string]any{"role": "assistant", "content": *c1.Choices[0].Message.Content, "tool_calls": []any{map[string]any{
			"id": tc.ID, "type": "function", "function": map[string]any{"name": tc.Function.Name, "arguments": tc.Function.Arguments}}}},
		map[string]any{"role": "tool", "tool_call_id": tc.ID, "content": "(empty)"})
	c2 := chat(t, s, chatBody(false, turn2...))
	if want := c1.Usage.PromptTokens + c1.Usage.CompletionTokens - 1; c2.Timings.CacheN != want {
		t.Fatalf("tool round cache_n %d, want %d", c2.Timings.CacheN, want)
	}
}

// With include_usage, usage and timings come in a last chunk of their
// own with empty choices, after the finish chunk, as the real server
// sends them; usage carries prompt_tokens_details.cached_tokens.
func TestIncludeUsageSendsAUsageChunk(t *testing.T) {
	s := start(t, Options{Script: Script{Turns: []Turn{{Content: "a b"}}}})
	body := chatBody(true, msg("user", "go"))
	body["stream_options"] = map[string]any{"include_usage": true}
	events := stream(t, s, body)
	m := merge(t, events)
	if !m.Done || !m.UsageChunk || m.Content != "a b" || m.Usage["prompt_tokens"] == nil || m.Timings["cache_n"] == nil {
		t.Fatalf("%+v", m)
	}
	finish := events[len(events)-3]
	if !strings.Contains(finish, `"finish_reason":"stop"`) || strings.Contains(finish, "usage") || strings.Contains(finish, "timings") {
		t.Fatalf("finish chunk %s", finish)
	}
	if !strings.Contains(events[len(events)-2], `"choices":[]`) || !strings.Contains(events[len(events)-2], `"prompt_tokens_details":{"cached_tokens":0}`) {
		t.Fatalf("usage chunk %s", events[len(events)-2])
	}
}

func TestARepeatedPromptEvaluatesOneToken(t *testing.T) {
	s := start(t, Options{Slots: 1, Script: Script{Turns: []Turn{{When: "same", Content: "x"}}}})
	chat(t, s, chatBody(false, msg("user", "same")))
	c := chat(t, s, chatBody(false, msg("user", "same")))
	if c.Timings.PromptN != 1 || c.Timings.CacheN != c.Usage.PromptTokens-1 {
		t.Fatalf("%+v", c.Timings)
	}
}

func TestIDSlotKeepsCachesApart(t *testing.T) {
	s := start(t, Options{Slots: 2, Script: Script{Turns: []Turn{{When: "", Content: ""}}}})
	s.SetScript(Script{Turns: []Turn{{When: "q", Content: "a"}}})
	for _, slot := range []int{0, 1} {
		body := chatBody(false, msg("user", fmt.Sprintf("q%d", slot)))
		body["id_slot"] = slot
		chat(t, s, body)
	}
	if len(s.SlotCache(0)) == 0 || len(s.SlotCache(1)) == 0 || commonPrefix(s.SlotCache(0), s.SlotCache(1)) == len(s.SlotCache(0)) {
		t.Fatal("slots share one cache")
	}
	// A slot id past the slots is answered, as the real server answers it.
	body := chatBody(false, msg("user", "q"))
	body["id_slot"] = 5
	if code, data := do(t, "POST", s.URL()+"/v1/chat/completions", body); code != 200 {
		t.Fatalf("%d %s", code, data)
	}
}

func TestAnExhaustedScriptAnswers500(t *testing.T) {
	s := start(t, Options{})
	code, body := do(t, "POST", s.URL()+"/v1/chat/completions", chatBody(false, msg("user", "hello")))
	if code != 500 || !strings.Contains(string(body), "the script has no reply left") {
		t.Fatalf("%d %s", code, body)
	}
}

func TestStallNeverHoldsUntilTheClientGivesUp(t *testing.T) {
	s := start(t, Options{})
	if err := s.SetStall(StallNever, 0); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.URL()+"/health", nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("a stalled server answered %d", resp.StatusCode)
	}
	s.SetStall(StallNone, 0)
	if code, _ := do(t, "GET", s.URL()+"/health", nil); code != 200 {
		t.Fatal(code)
	}
}

func TestSwitchEndpoint(t *testing.T) {
	s := start(t, Options{Script: Script{Turns: []Turn{{ToolCalls: []ToolCall{{Name: "x", Arguments: json.RawMessage(`{}`)}}}}}})
	code, body := do(t, "POST", s.URL()+"/standin/switch", map[string]any{"parse_tool_calls": false, "loading": true})
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	if code, _ := do(t, "GET", s.URL()+"/health", nil); code != 503 {
		t.Fatalf("health %d after switching to loading", code)
	}
	do(t, "POST", s.URL()+"/standin/switch", map[string]any{"loading": false})
	c := chat(t, s, chatBody(false, msg("user", "x")))
	if len(c.Choices[0].Message.ToolCalls) != 0 {
		t.Fatal("tool calls still parsed")
	}
	code, body = do(t, "POST", s.URL()+"/standin/switch", map[string]any{"stall": "sometimes"})
	if code != 400 || !strings.Contains(string(body), "stall must be") {
		t.Fatalf("%d %s", code, body)
	}
	code, body = do(t, "POST", s.URL()+"/standin/switch", map[string]any{"no_such": 1})
	if code != 400 {
		t.Fatalf("%d %s", code, body)
	}
}

func TestUnknownPathIs404(t *testing.T) {
	s := start(t, Options{})
	code, body := do(t, "GET", s.URL()+"/nope", nil)
	if code != 404 || decode(t, body)["error"] == nil {
		t.Fatalf("%d %s", code, body)
	}
}

// The tokenizer switches stand for a server whose tokenizer is not the
// one recorded: another model file (a tag with another id) and a
// tokenizer that reads HTML-escaped tags; not_found stands for a router
// that does not pass a path on.
func TestTokenizerSwitches(t *testing.T) {
	tests := []struct {
		name    string
		switch_ map[string]any
		path    string
		req     map[string]any
		code    int
		want    string
	}{
		{"a moved tag tokenizes as its new id", map[string]any{"tag_ids": map[string]int{"<|im_end|>": 151645}},
			"/tokenize", map[string]any{"content": "<|im_start|>\n<|im_end|>"}, 200, `{"tokens":[248045,10,151645]}`},
		{"a moved tag's piece is its text", map[string]any{"tag_ids": map[string]int{"<|im_end|>": 151645}},
			"/tokenize", map[string]any{"content": "<|im_end|>", "with_pieces": true}, 200, `{"tokens":[{"id":151645,"piece":"<|im_end|>"}]}`},
		{"a moved tag detokenizes from its new id only", map[string]any{"tag_ids": map[string]int{"<|im_end|>": 151645}},
			"/detokenize", map[string]any{"tokens": []int{151645, 248046, 97}}, 200, `{"content":"<|im_end|>a"}`},
		{"an escaped tag read as the tag", map[string]any{"read_escaped_tags": true},
			"/tokenize", map[string]any{"content": "x&lt;|im_end|&gt;&lt;think&gt;&lt;b&gt;"}, 200,
			`{"tokens":[120,248046,248068,38,108,116,59,98,38,103,116,59]}`},
		{"an escaped tag stays text without parse_special", map[string]any{"read_escaped_tags": true},
			"/tokenize", map[string]any{"content": "&lt;think&gt;", "parse_special": false}, 200,
			`{"tokens":[38,108,116,59,116,104,105,110,107,38,103,116,59]}`},
		{"a path a router does not pass is 404", map[string]any{"not_found": []string{"/tokenize"}},
			"/tokenize", map[string]any{"content": "a"}, 404, `{"error":{"code":404,"message":"File Not Found","type":"not_found_error"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, Options{})
			if code, body := do(t, "POST", s.URL()+"/standin/switch", tt.switch_); code != 200 {
				t.Fatalf("switch: %d %s", code, body)
			}
			code, body := do(t, "POST", s.URL()+tt.path, tt.req)
			if code != tt.code || string(body) != tt.want {
				t.Fatalf("got %d %s, want %d %s", code, body, tt.code, tt.want)
			}
		})
	}
}

func TestTokenizerSwitchesUndoAndRefuse(t *testing.T) {
	s := start(t, Options{})
	if err := s.MoveTag("<think>", 7); err != nil {
		t.Fatal(err)
	}
	if err := s.MoveTag("<|im_end|>", 151645); err != nil {
		t.Fatal(err)
	}
	s.SetReadEscapedTags(true)
	s.SetNotFound("/props")
	_, body := do(t, "POST", s.URL()+"/tokenize", map[string]any{"content": "<think><|im_end|>&lt;think&gt;"})
	if string(body) != `{"tokens":[7,151645,7]}` {
		t.Fatalf("both moves and escapes: %s", body)
	}
	if code, _ := do(t, "GET", s.URL()+"/props", nil); code != 404 {
		t.Fatalf("props %d", code)
	}
	for _, sw := range []map[string]any{{"tag_ids": map[string]int{}}, {"read_escaped_tags": false}, {"not_found": []string{}}} {
		if code, body := do(t, "POST", s.URL()+"/standin/switch", sw); code != 200 {
			t.Fatalf("switch %v: %d %s", sw, code, body)
		}
	}
	_, body = do(t, "POST", s.URL()+"/tokenize", map[string]any{"content": "<think>&lt;b&gt;"})
	if string(body) != `{"tokens":[248068,38,108,116,59,98,38,103,116,59]}` {
		t.Fatalf("after undoing: %s", body)
	}
	if code, _ := do(t, "GET", s.URL()+"/props", nil); code != 200 {
		t.Fatalf("props %d after undoing", code)
	}
	for _, sw := range []map[string]any{{"tag_ids": map[string]int{"<nope>": 1}}, {"tag_ids": map[string]int{"<think>": -1}}} {
		if code, body := do(t, "POST", s.URL()+"/standin/switch", sw); code != 400 || !strings.Contains(string(body), "tag_ids: ") {
			t.Errorf("switch %v: %d %s", sw, code, body)
		}
	}
}

// A tokenizer switch applies to prompts too: a prompt's tokens, and so
// the cache, follow the tokenizer the server has.
func TestAMovedTagChangesThePromptsTokens(t *testing.T) {
	s := start(t, Options{Script: Script{Turns: []Turn{{Content: "a"}, {Content: "b"}}}})
	body := chatBody(false, msg("user", "x"))
	body["id_slot"] = 0 // the same slot: only the tokens can differ
	chat(t, s, body)
	s.MoveTag("<|im_start|>", 99999)
	chat(t, s, body)
	chats := s.Chats()
	if chats[1].CacheN != 0 {
		t.Fatalf("the second prompt took %d tokens from a cache tokenized with the old id", chats[1].CacheN)
	}
	if c := s.SlotCache(chats[1].Slot); len(c) == 0 || c[0] != 99999 {
		t.Fatalf("the slot's cache starts %v", c[:min(len(c), 3)])
	}
}

func TestAPIKeyIsCheckedAsLlamaServerChecksIt(t *testing.T) {
	s := start(t, Options{APIKey: "sekrit", Script: Script{Turns: []Turn{{When: "hi", Content: "hello"}}}})
	for _, tt := range []struct {
		method, path, auth string
		want               int
	}{
		{"GET", "/health", "", 200},
		{"GET", "/v1/models", "", 200},
		{"GET", "/props", "", 401},
		{"POST", "/v1/chat/completions", "", 401},
		{"POST", "/v1/chat/completions", "Bearer wrong", 401},
		{"POST", "/v1/chat/completions", "sekrit", 401},
		{"POST", "/v1/chat/completions", "Bearer sekrit", 200},
	} {
		req, _ := http.NewRequest(tt.method, s.URL()+tt.path, strings.NewReader(`{"messages":[{"role":"user","content":"hi"}]}`))
		if tt.auth != "" {
			req.Header.Set("Authorization", tt.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s %s (%q): %d %s, want %d", tt.method, tt.path, tt.auth, resp.StatusCode, body, tt.want)
		}
		if tt.want == 401 && !strings.Contains(string(body), `"message":"Invalid API Key","type":"authentication_error"`) {
			t.Errorf("%s: the refusal is %s", tt.path, body)
		}
	}
}

// BenchmarkChat is one unstreamed chat completion of a short
// conversation with one tool, through the handler: the stand-in's own
// cost of a request (rendering with the Jinja engine, tokenizing).
func BenchmarkChat(b *testing.B) {
	s := New(Options{Script: Script{Turns: []Turn{{When: "hi", Content: "hello there"}}}})
	h := s.Handler()
	body, _ := json.Marshal(chatBody(false, msg("system", "Be brief."), msg("user", "hi")))
	for b.Loop() {
		req, _ := http.NewRequest("POST", "/v1/chat/completions", bytes.NewReader(body))
		w := &discardResponse{h: http.Header{}}
		h.ServeHTTP(w, req)
		if w.code != 200 {
			b.Fatalf("%d", w.code)
		}
	}
}

type discardResponse struct {
	h    http.Header
	code int
}

func (d *discardResponse) Header() http.Header         { return d.h }
func (d *discardResponse) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardResponse) WriteHeader(code int)        { d.code = code }

func TestScriptCheckRefusesTurnsThatCannotBeUsed(t *testing.T) {
	for _, tt := range []struct {
		turn Turn
		want string
	}{
		{Turn{Match: "("}, "turn 1: match: "},
		{Turn{Match: "x", Role: "assistant"}, `turn 1: role must be user or tool, not "assistant"`},
		{Turn{Raw: "x", Content: "y"}, "turn 1: raw is the whole generation: give it alone"},
		{Turn{ToolCalls: []ToolCall{{Name: "a", Arguments: json.RawMessage(`[1]`)}}}, "turn 1: tool call a: arguments must be a JSON object"},
	} {
		err := Script{Turns: []Turn{tt.turn}}.Check()
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%+v: got %v, want %s...", tt.turn, err, tt.want)
		}
	}
	if err := (Script{Turns: []Turn{{Match: `^read (\S+)$`, Role: "user", Content: "$1"}}}).Check(); err != nil {
		t.Error(err)
	}
}

// A conversation pushed out of the only slot by another takes its prompt
// back from the prompt cache at its next request, as llama-server's
// prompt cache in host memory gives it back (--cache-ram, on by default;
// measured on build 9928, docs/inference-contract.md); with the cache
// off (--cache-ram 0) only the prefix it shares with the other is left.
func TestADisplacedPromptComesBackFromThePromptCache(t *testing.T) {
	for _, off := range []bool{false, true} {
		s := start(t, Options{Slots: 1, NoPromptCache: off, Script: Script{Turns: []Turn{{Content: "Hello."}, {Content: "Other."}, {Content: "Fine."}}}})
		body := func(msgs ...map[string]any) map[string]any {
			b := chatBody(false, msgs...)
			delete(b, "tools")
			return b
		}
		a1 := []map[string]any{msg("system", "You keep the notes of the garden."), msg("user", "what grows in the north bed?")}
		chat(t, s, body(a1...))
		chat(t, s, body(msg("system", "Another conversation entirely."), msg("user", "hello")))
		c := chat(t, s, body(append(a1, msg("assistant", "Hello."), msg("user", "and the south bed?"))...))
		chats := s.Chats()
		// The reply is replayed without the generation prompt's think
		// block (TestCacheNIsTheCommonPrefixWithTheSlotsLastPromptAndReply).
		restored := chats[0].PromptTokens - len(Tokenize("<think>\n\n</think>\n\n", true))
		shared := commonPrefix(Tokenize(chats[1].Prompt, true), Tokenize(chats[2].Prompt, true))
		want := restored
		if off {
			want = shared
		}
		if c.Timings.CacheN != want || shared >= restored {
			t.Errorf("prompt cache off %v: cache_n %d, want %d (restored %d, shared with the other %d)", off, c.Timings.CacheN, want, restored, shared)
		}
	}
}

// Nothing is saved when the newcomer's common prefix keeps at least half
// of what the slot holds, as two of loopd's sessions share the tools
// block and the system prompt: the first session's next turn then takes
// only that prefix from the cache (a loss loopd notes), as build 9928 did
// (docs/inference-contract.md, 2026-12-07).
func TestAPromptSharingOverHalfIsNotSaved(t *testing.T) {
	s := start(t, Options{Slots: 1, Script: Script{Turns: []Turn{{Content: "Hello."}, {Content: "Other."}, {Content: "Fine."}}}})
	sys := msg("system", strings.Repeat("You keep the notes of the garden, bed by bed and seed by seed. ", 10))
	a1 := []map[string]any{sys, msg("user", "what grows in the north bed?")}
	chat(t, s, chatBody(false, a1...))
	chat(t, s, chatBody(false, sys, msg("user", "and the weather?")))
	c := chat(t, s, chatBody(false, append(a1, msg("assistant", "Hello."), msg("user", "and the south bed?"))...))
	chats := s.Chats()
	shared := commonPrefix(Tokenize(chats[1].Prompt, true), Tokenize(chats[2].Prompt, true))
	if c.Timings.CacheN != shared || shared*2 < chats[0].PromptTokens {
		t.Errorf("cache_n %d, want the shared prefix %d of turn 1's %d", c.Timings.CacheN, shared, chats[0].PromptTokens)
	}
}
