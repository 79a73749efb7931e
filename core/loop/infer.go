package loop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Client talks to llama-server through inferproxy's unix socket, with the
// paths and fields of llama-server's documented API.
type Client struct {
	Socket string
	// URL, when set, is the server's own address (http://host:port),
	// asked directly instead of through Socket: what boxmaker init and
	// the demo learn of a server before inferproxy runs.
	URL   string
	Model string
	// Timeout bounds a request until its answer begins, and then each
	// silence between two streamed chunks: a server that stalls fails the
	// request instead of holding the turn forever.
	Timeout time.Duration

	once sync.Once
	http *http.Client
}

func (c *Client) client() *http.Client {
	c.once.Do(func() {
		if c.URL != "" {
			c.http = &http.Client{}
			return
		}
		c.http = &http.Client{Transport: &http.Transport{
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				var d net.Dialer
				return d.DialContext(ctx, "unix", c.Socket)
			},
			// Connections to inferproxy are kept alive between requests
			// (docs/performance.md measures what that saves a turn); a
			// request that meets one closed under it is sent again on a
			// new one (see do).
			MaxIdleConnsPerHost: 4,
			IdleConnTimeout:     30 * time.Second,
		}}
	})
	return c.http
}

// HTTPError is an answer with a status other than 200.
type HTTPError struct {
	Method, Path string
	Status       int
	Message      string
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("%s %s answered HTTP %d: %s", e.Method, e.Path, e.Status, e.Message)
}

// do sends one request and returns the response once it has begun, with
// a watchdog that cancels it when nothing arrives within Timeout. The
// caller reads the body through the returned reader, which resets the
// watchdog on every read, and must call done.
//
// A body with encoded messages (a ChatRequest's from a session's kept
// conversation) is sent as parts, the messages' bytes not copied.
func (c *Client) do(ctx context.Context, method, path string, body any) (io.Reader, func(), error) {
	var parts [][]byte
	if body != nil {
		var err error
		if parts, err = encodeBody(body); err != nil {
			return nil, nil, err
		}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	stalled := stallError{timeout}
	watchdog := time.AfterFunc(timeout, func() { cancel(stalled) })
	done := func() { watchdog.Stop(); cancel(nil) }
	base := "http://inferproxy"
	if c.URL != "" {
		base = strings.TrimRight(c.URL, "/")
	}
	req, err := http.NewRequestWithContext(ctx, method, base+path, nil)
	if err != nil {
		done()
		return nil, nil, err
	}
	if body != nil {
		partsBody(req, parts)
		req.Header.Set("Content-Type", "application/json")
	}
	// An Idempotency-Key with no value is not sent; it lets the transport
	// send a request again on a new connection when a kept-alive one was
	// closed before any of the answer came (net/http's documented rule).
	// Every request loopd sends may be sent twice: none changes the
	// server's state but its cache.
	req.Header["Idempotency-Key"] = nil
	shown := strings.SplitN(path, "?", 2)[0]
	resp, err := c.client().Do(req)
	if err != nil {
		done()
		if cause := context.Cause(ctx); errors.Is(cause, stalled) {
			return nil, nil, fmt.Errorf("%s %s: %w", method, shown, stalled)
		}
		return nil, nil, fmt.Errorf("%s %s: %w", method, shown, unwrapURLError(err))
	}
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		done()
		return nil, nil, &HTTPError{method, shown, resp.StatusCode, errorMessage(msg)}
	}
	r := &watchedReader{r: resp.Body, reset: func() { watchdog.Reset(timeout) }, ctx: ctx, stalled: stalled}
	return r, func() {
		// Read to the end, so the connection is reused and inferproxy
		// does not see a client that left in the middle of an answer.
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		done()
	}, nil
}

type watchedReader struct {
	r       io.Reader
	reset   func()
	ctx     context.Context
	stalled error
}

func (w *watchedReader) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	if n > 0 {
		w.reset()
	}
	if err != nil && err != io.EOF {
		if cause := context.Cause(w.ctx); cause != nil && errors.Is(cause, w.stalled) {
			return n, w.stalled
		}
	}
	return n, err
}

// stallError is a request that got no answer, or no more of one, within
// the client's Timeout. It is a timeout (Timeout reports true), as a
// dialer's is.
type stallError struct{ after time.Duration }

func (e stallError) Error() string { return fmt.Sprintf("no answer within %v", e.after) }
func (e stallError) Timeout() bool { return true }

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// StreamError is a failure the server sent in the middle of a streamed
// answer (data: {"error":...}).
type StreamError struct{ Message string }

func (e *StreamError) Error() string { return "the server failed mid-stream: " + e.Message }

// Unparsable reports whether err is the server failing to read the
// model's output as the chat format's tool calls: llama-server answers
// that with HTTP 500, or, once it has begun streaming, with an error in
// the stream ("The model produced output that does not match the
// expected peg-native format"; older parsers: "Failed to parse input at
// pos N").
func Unparsable(err error) (string, bool) {
	var msg string
	var he *HTTPError
	var se *StreamError
	switch {
	case errors.As(err, &he) && he.Status == http.StatusInternalServerError:
		msg = he.Message
	case errors.As(err, &se):
		msg = se.Message
	default:
		return "", false
	}
	if strings.Contains(msg, "does not match the expected") || strings.HasPrefix(msg, "Failed to parse input") {
		return msg, true
	}
	return "", false
}

// errorMessage picks the message out of llama-server's error body
// ({"error":{"message":...}}), else returns the body's first line.
func errorMessage(body []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		return e.Error.Message
	}
	s := strings.TrimSpace(string(body))
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	if s == "" {
		s = "(no body)"
	}
	return s
}

// Health asks the server's /health: nil when it answers 200 with
// {"status":"ok"}, else what it answered (llama-server says 503 "Loading
// model" while it loads).
func (c *Client) Health(ctx context.Context) error {
	r, done, err := c.do(ctx, "GET", "/health", nil)
	if err != nil {
		return err
	}
	defer done()
	var h struct {
		Status string `json:"status"`
	}
	if err := json.NewDecoder(io.LimitReader(r, 1<<16)).Decode(&h); err != nil {
		return fmt.Errorf("GET /health: the answer is not JSON: %v", err)
	}
	if h.Status != "ok" {
		return fmt.Errorf("GET /health answered status %q, not \"ok\"", h.Status)
	}
	return nil
}

// Props is what loopd reads from /props.
type Props struct {
	ChatTemplate string
	NCtx         int // context per slot
	TotalSlots   int
	ModelPath    string // for the operator only
	BuildInfo    string // for the operator only
}

// Props reads the server's properties for the model.
func (c *Client) Props(ctx context.Context) (Props, error) {
	r, done, err := c.do(ctx, "GET", "/props?model="+url.QueryEscape(c.Model), nil)
	if err != nil {
		return Props{}, err
	}
	defer done()
	var p struct {
		ChatTemplate string `json:"chat_template"`
		Default      struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
		TotalSlots int    `json:"total_slots"`
		ModelPath  string `json:"model_path"`
		BuildInfo  string `json:"build_info"`
	}
	if err := json.NewDecoder(r).Decode(&p); err != nil {
		return Props{}, fmt.Errorf("GET /props: the answer is not JSON: %v", err)
	}
	return Props{p.ChatTemplate, p.Default.NCtx, p.TotalSlots, p.ModelPath, p.BuildInfo}, nil
}

// Models lists the models the server names at /v1/models, in its order.
func (c *Client) Models(ctx context.Context) ([]string, error) {
	r, done, err := c.do(ctx, "GET", "/v1/models", nil)
	if err != nil {
		return nil, err
	}
	defer done()
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(r).Decode(&list); err != nil {
		return nil, fmt.Errorf("GET /v1/models: the answer is not JSON: %v", err)
	}
	var ids []string
	for _, m := range list.Data {
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// Tokenize asks /tokenize for the tokens of content, with special tokens
// parsed as the chat template's text would be.
func (c *Client) Tokenize(ctx context.Context, content string) ([]int, error) {
	r, done, err := c.do(ctx, "POST", "/tokenize", map[string]any{
		"model": c.Model, "content": content, "parse_special": true,
	})
	if err != nil {
		return nil, err
	}
	defer done()
	var out struct {
		Tokens []json.RawMessage `json:"tokens"`
	}
	if err := json.NewDecoder(r).Decode(&out); err != nil {
		return nil, fmt.Errorf("POST /tokenize: the answer is not JSON: %v", err)
	}
	ids := make([]int, len(out.Tokens))
	for i, t := range out.Tokens {
		// A token is an id, or {"id":..,"piece":..} when pieces were asked for.
		if err := json.Unmarshal(t, &ids[i]); err != nil {
			var p struct {
				ID *int `json:"id"`
			}
			if json.Unmarshal(t, &p) != nil || p.ID == nil {
				return nil, fmt.Errorf("POST /tokenize: token %d is neither an id nor a piece", i+1)
			}
			ids[i] = *p.ID
		}
	}
	return ids, nil
}

// ChatRequest is one request to /v1/chat/completions.
type ChatRequest struct {
	Messages []Message
	Tools    json.RawMessage // the tools array; empty or "[]" sends none
	Thinking bool
	// For hermetic sessions (agent.ask): another model than the client's,
	// tool_choice "none" (the tools are still sent, so the prompt's prefix
	// stays the same), and a JSON Schema the answer must follow.
	Model      string
	NoTools    bool
	JSONSchema json.RawMessage
	MaxTokens  int // max_tokens; 0 sends none

	// encoded, when set, is Messages already encoded (a session's kept
	// conversation): it is sent, and Messages is not.
	encoded *encodedMessages
}

// splicedBody is a request body whose messages are sent as encoded.
type splicedBody struct {
	body map[string]any // without "messages"
	msgs encodedMessages
}

// templateBody is the part of a chat request the chat template renders:
// the same for /v1/chat/completions and /apply-template.
func (c *Client) templateBody(req ChatRequest) map[string]any {
	model := c.Model
	if req.Model != "" {
		model = req.Model
	}
	body := map[string]any{
		"model":                model,
		"messages":             req.Messages,
		"chat_template_kwargs": map[string]bool{"enable_thinking": req.Thinking},
	}
	if t := bytes.TrimSpace(req.Tools); len(t) > 0 && string(t) != "[]" {
		body["tools"] = json.RawMessage(t)
	}
	return body
}

// requestBody is what do sends for a template body: as it is, or with
// the request's encoded messages in place of Messages.
func requestBody(req ChatRequest, body map[string]any) any {
	if req.encoded == nil {
		return body
	}
	delete(body, "messages")
	return splicedBody{body, *req.encoded}
}

// ApplyTemplate asks /apply-template for the prompt the server renders
// for req (with the generation prompt), without running the model.
func (c *Client) ApplyTemplate(ctx context.Context, req ChatRequest) (string, error) {
	r, done, err := c.do(ctx, "POST", "/apply-template", requestBody(req, c.templateBody(req)))
	if err != nil {
		return "", err
	}
	defer done()
	var out struct {
		Prompt *string `json:"prompt"`
	}
	if err := json.NewDecoder(r).Decode(&out); err != nil || out.Prompt == nil {
		return "", fmt.Errorf("POST /apply-template: the answer is not {\"prompt\":...}")
	}
	return *out.Prompt, nil
}

// Reply is a finished chat completion.
type Reply struct {
	Content      string
	Reasoning    string
	ToolCalls    []WireToolCall
	FinishReason string
	Timings      Timings
}

// Delta is a piece of the reply as it streams.
type Delta struct {
	Content   string
	Reasoning string
}

// Chat sends one streamed chat completion and gathers the reply: the
// content and reasoning as they come (onDelta, which may be nil), tool
// calls merged by index, and the final timings.
func (c *Client) Chat(ctx context.Context, req ChatRequest, onDelta func(Delta) error) (Reply, error) {
	r, done, err := c.do(ctx, "POST", "/v1/chat/completions", c.chatBody(req))
	if err != nil {
		return Reply{}, err
	}
	defer done()
	return readStream(r, onDelta)
}

// chatBody is the body of a streamed chat completion for req.
func (c *Client) chatBody(req ChatRequest) any {
	body := c.templateBody(req)
	body["stream"] = true
	body["stream_options"] = map[string]bool{"include_usage": true}
	body["cache_prompt"] = true
	if req.MaxTokens > 0 {
		body["max_tokens"] = req.MaxTokens
	}
	if _, ok := body["tools"]; ok && req.NoTools {
		body["tool_choice"] = "none"
	}
	if len(req.JSONSchema) > 0 {
		body["response_format"] = map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "answer", "schema": req.JSONSchema}}
	}
	return requestBody(req, body)
}

// chunk is one streamed event of a chat completion.
type chunk struct {
	Choices []struct {
		Delta struct {
			Content          *string        `json:"content"`
			ReasoningContent *string        `json:"reasoning_content"`
			ToolCalls        []WireToolCall `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Timings *struct {
		PromptN     int     `json:"prompt_n"`
		CacheN      *int    `json:"cache_n"`
		PredictedN  int     `json:"predicted_n"`
		PromptMS    float64 `json:"prompt_ms"`
		PredictedMS float64 `json:"predicted_ms"`
	} `json:"timings"`
	Usage *struct {
		PromptTokens int `json:"prompt_tokens"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// readStream reads server-sent events until [DONE].
func readStream(r io.Reader, onDelta func(Delta) error) (Reply, error) {
	var rep Reply
	var content, reasoning strings.Builder
	var calls []WireToolCall
	var cacheN *int
	promptTokens := -1
	sawTimings := false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	finished := false
	for sc.Scan() {
		line := sc.Bytes()
		data, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue // blank separators, comments, event names
		}
		data = bytes.TrimSpace(data)
		if string(data) == "[DONE]" {
			finished = true
			break
		}
		var ch chunk
		if err := json.Unmarshal(data, &ch); err != nil {
			return Reply{}, fmt.Errorf("a streamed chunk is not JSON: %v", err)
		}
		if len(ch.Error) > 0 && string(ch.Error) != "null" {
			return Reply{}, &StreamError{errorMessage([]byte(`{"error":` + string(ch.Error) + `}`))}
		}
		for _, choice := range ch.Choices {
			d := Delta{}
			if choice.Delta.Content != nil {
				d.Content = *choice.Delta.Content
				content.WriteString(d.Content)
			}
			if choice.Delta.ReasoningContent != nil {
				d.Reasoning = *choice.Delta.ReasoningContent
				reasoning.WriteString(d.Reasoning)
			}
			for _, tc := range choice.Delta.ToolCalls {
				i := len(calls)
				if tc.Index != nil {
					i = *tc.Index
				}
				for len(calls) <= i {
					calls = append(calls, WireToolCall{Type: "function"})
				}
				if tc.ID != "" {
					calls[i].ID = tc.ID
				}
				if tc.Function.Name != "" {
					calls[i].Function.Name += tc.Function.Name
				}
				calls[i].Function.Arguments += tc.Function.Arguments
			}
			if choice.FinishReason != nil && *choice.FinishReason != "" {
				rep.FinishReason = *choice.FinishReason
			}
			if onDelta != nil && (d.Content != "" || d.Reasoning != "") {
				if err := onDelta(d); err != nil {
					return Reply{}, err
				}
			}
		}
		if ch.Timings != nil {
			sawTimings = true
			rep.Timings.PromptN = ch.Timings.PromptN
			rep.Timings.PredictedN = ch.Timings.PredictedN
			rep.Timings.PromptMS = ch.Timings.PromptMS
			rep.Timings.PredictedMS = ch.Timings.PredictedMS
			cacheN = ch.Timings.CacheN
		}
		if ch.Usage != nil {
			promptTokens = ch.Usage.PromptTokens
		}
	}
	if err := sc.Err(); err != nil {
		return Reply{}, fmt.Errorf("the stream broke: %w", err)
	}
	if !finished && rep.FinishReason == "" {
		return Reply{}, errors.New("the stream ended before the reply finished")
	}
	switch {
	case cacheN != nil:
		rep.Timings.CacheN = *cacheN
	case sawTimings && promptTokens >= 0:
		rep.Timings.CacheN = max(promptTokens-rep.Timings.PromptN, 0)
	}
	for i := range calls {
		calls[i].Index = nil
	}
	rep.Content, rep.Reasoning, rep.ToolCalls = content.String(), reasoning.String(), calls
	return rep, nil
}
