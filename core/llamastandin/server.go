// Package llamastandin is the project's one stand-in: a test peer that
// plays llama.cpp's llama-server, written from its documented HTTP API
// (tools/server/README.md), for the tests of loopd and inferproxy and for
// `boxmaker demo` without a model.
//
// It answers the paths loopd uses with the documented fields and shapes:
//
//   - GET /health: 503 {"error":{"code":503,"message":"Loading model",
//     "type":"unavailable_error"}} while loading (every other llama.cpp
//     path answers the same then), else {"status":"ok"}.
//   - GET /props: default_generation_settings (n_ctx per slot),
//     total_slots, model_path, chat_template, modalities, build_info.
//   - GET /slots (and ?fail_on_no_slot=1), GET /v1/models and /models.
//   - POST /tokenize (content, add_special, parse_special default true,
//     with_pieces), /detokenize, /apply-template.
//   - POST /v1/chat/completions (and /chat/completions), streamed as
//     server-sent events ("data: {json}\n\n" chunks, then "data: [DONE]")
//     or not: reasoning_content, content, parsed tool_calls (arguments a
//     JSON string; streamed deltas carry index and are merged by it),
//     finish_reason stop, tool_calls or length, usage and timings.
//
// With Options.APIKey it checks the key as llama-server's --api-key does.
//
// A ?model= query (or a request's "model") that names another model is
// answered 404, as a router in front of llama-server answers; an empty one
// is the loaded model.
//
// Prompts are rendered with a Qwen-style ChatML template (Render) and
// tokenized byte by byte with the Qwen3.5 tag table as special tokens
// (Tokenize). Each slot keeps the tokens of its last prompt and reply, and
// timings.cache_n is the real longest common prefix of the new prompt
// with them (cache_prompt, default true). A request without id_slot takes
// the idle slot whose cache shares the most with its prompt, else the one
// used least recently, and waits when every slot is busy. timings'
// millisecond figures are computed from the counts, not measured.
//
// Replies come from a Script. Switches, set from Go (Set and the helpers)
// or through POST /standin/switch, which is the stand-in's own and no part
// of llama.cpp's API, change the template, stop tool call parsing, forget
// or disable the cache, stall, fail in the middle of a stream, put the
// server back into loading, answer 404 on paths a router would not pass,
// or change the tokenizer: a tag moved to another id (as another model
// file would give it) or HTML-escaped tags read as tags.
package llamastandin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Defaults of Options.
const (
	DefaultModel     = "qwen3.5-standin"
	DefaultModelPath = "/models/qwen3.5-standin.gguf"
	DefaultSlots     = 2
	DefaultNCtx      = 262144
)

// Options configure a stand-in.
type Options struct {
	Model     string // the model's name (alias); DefaultModel when empty
	ModelPath string // /props model_path; DefaultModelPath when empty
	Slots     int    // total_slots; DefaultSlots when 0
	NCtx      int    // context per slot; DefaultNCtx when 0
	Template  string // chat_template; QwenTemplate when empty
	Script    Script
	Loading   bool // start in the loading state (503 until SetLoading(false))
	// APIKey is llama-server's --api-key: when set, every path but the
	// public ones (/health, /v1/health, /models, /v1/models, /api/tags)
	// needs "Authorization: Bearer <key>", else 401 "Invalid API Key".
	APIKey string
}

// Server is a running or runnable stand-in.
type Server struct {
	opts Options

	mu       sync.Mutex
	idle     *sync.Cond
	slots    []*slot
	queue    []Turn // turns without When, not yet used
	when     []Turn
	sw       state
	hold     chan struct{}
	chats    []Chat
	calls    []Call
	nextID   int
	useClock int
	closing  chan struct{}

	srv *http.Server
	ln  net.Listener
}

type slot struct {
	id         int
	cache      []int
	processing bool
	task       int
	lastUsed   int
	decoded    int
}

// state is the switches' current values.
type state struct {
	template       string
	parseToolCalls bool
	cacheDisabled  bool
	stall          StallMode
	delay          time.Duration
	failAfter      int // -1: off
	loading        bool
	vocab          vocab           // never changed in place: Set replaces its map
	notFound       map[string]bool // paths answered 404; never changed in place
}

// StallMode is how the server stalls.
type StallMode string

const (
	// StallNone answers normally.
	StallNone StallMode = "none"
	// StallNever accepts requests and never answers them.
	StallNever StallMode = "never"
	// StallSlow waits the delay before answering and between streamed
	// chunks.
	StallSlow StallMode = "slow"
)

// Chat is one chat completion request as the stand-in saw it.
type Chat struct {
	Query        url.Values
	Body         []byte // the request body as received
	Request      ChatRequest
	Prompt       string // the rendered prompt
	PromptTokens int
	Slot         int
	CacheN       int
	PromptN      int
	PredictedN   int
	Reply        Turn // the script's turn that answered it
	Stream       bool
}

// Call is any request the stand-in received.
type Call struct {
	Method   string
	Path     string
	RawQuery string
	Body     []byte
}

// New makes a stand-in; Start or Serve runs it.
func New(o Options) *Server {
	if o.Model == "" {
		o.Model = DefaultModel
	}
	if o.ModelPath == "" {
		o.ModelPath = DefaultModelPath
	}
	if o.Slots <= 0 {
		o.Slots = DefaultSlots
	}
	if o.NCtx <= 0 {
		o.NCtx = DefaultNCtx
	}
	if o.Template == "" {
		o.Template = QwenTemplate
	}
	s := &Server{
		opts:    o,
		closing: make(chan struct{}),
		sw: state{
			template:       o.Template,
			parseToolCalls: true,
			stall:          StallNone,
			failAfter:      -1,
			loading:        o.Loading,
		},
	}
	s.idle = sync.NewCond(&s.mu)
	for i := range o.Slots {
		s.slots = append(s.slots, &slot{id: i, task: -1})
	}
	s.setScriptLocked(o.Script)
	return s
}

// Start runs a stand-in on 127.0.0.1 at a free port.
func Start(o Options) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := New(o)
	s.ln = ln
	go s.Serve(ln)
	return s, nil
}

// Serve answers HTTP on ln until Close.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	s.ln = ln
	s.srv = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	srv := s.srv
	s.mu.Unlock()
	err := srv.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// URL is the base URL, such as http://127.0.0.1:41234 (empty before Serve).
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln == nil {
		return ""
	}
	return "http://" + s.ln.Addr().String()
}

// Model is the model's name.
func (s *Server) Model() string { return s.opts.Model }

// Close stops serving and ends stalled requests.
func (s *Server) Close() error {
	s.mu.Lock()
	select {
	case <-s.closing:
	default:
		close(s.closing)
	}
	srv := s.srv
	s.idle.Broadcast()
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	return srv.Close()
}

// SetScript replaces the script.
func (s *Server) SetScript(sc Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setScriptLocked(sc)
}

func (s *Server) setScriptLocked(sc Script) {
	s.queue, s.when = nil, nil
	s.pushLocked(sc.Turns...)
}

// Push appends turns to the script.
func (s *Server) Push(turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pushLocked(turns...)
}

func (s *Server) pushLocked(turns ...Turn) {
	for _, t := range turns {
		if t.When != "" {
			s.when = append(s.when, t)
		} else {
			s.queue = append(s.queue, t)
		}
	}
}

// Remaining is the number of ordered turns not yet used.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// Chats is every chat completion request so far, in arrival order.
func (s *Server) Chats() []Chat {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Chat(nil), s.chats...)
}

// Calls is every request so far, in arrival order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// SlotCache is a copy of the tokens slot id holds in its cache.
func (s *Server) SlotCache(id int) []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id < 0 || id >= len(s.slots) {
		return nil
	}
	return append([]int(nil), s.slots[id].cache...)
}

// Switch changes the stand-in's behaviour at run time; nil fields keep
// their value. It is also the body of POST /standin/switch.
type Switch struct {
	// Template replaces /props chat_template (its sha256 changes; the
	// rendering stays Render's).
	Template *string `json:"template,omitempty"`
	// ParseToolCalls false returns tool call text as content.
	ParseToolCalls *bool `json:"parse_tool_calls,omitempty"`
	// ForgetCache erases every slot's cache now, once.
	ForgetCache bool `json:"forget_cache,omitempty"`
	// CacheDisabled true makes every request start from an empty cache.
	CacheDisabled *bool `json:"cache_disabled,omitempty"`
	// Stall is "none", "never" or "slow"; DelayMS is the slow delay.
	Stall   *StallMode `json:"stall,omitempty"`
	DelayMS *int       `json:"delay_ms,omitempty"`
	// FailAfterChunks >= 0 makes chat completions fail: a streamed one
	// sends that many chunks, then data: {"error":...} and ends without
	// [DONE]; an unstreamed one answers 500. -1 turns it off.
	FailAfterChunks *int `json:"fail_after_chunks,omitempty"`
	// Loading true answers 503 "Loading model" on every llama.cpp path.
	Loading *bool `json:"loading,omitempty"`
	// TagIDs gives tags (by their text, such as "<|im_end|>") other token
	// ids, as another model file's tokenizer would: /tokenize and the
	// prompts then use them. It replaces the earlier moves; {} undoes them.
	TagIDs map[string]int `json:"tag_ids,omitempty"`
	// ReadEscapedTags true makes the tokenizer read a tag spelt with &lt;
	// and &gt; (&lt;|im_end|&gt;, as loopd neutralises it) as the tag, the
	// way a tokenizer that decodes HTML entities first would.
	ReadEscapedTags *bool `json:"read_escaped_tags,omitempty"`
	// NotFound lists paths (such as "/tokenize") answered 404 File Not
	// Found, as a router in front of llama-server that does not pass them
	// answers. It replaces the earlier list; [] undoes it.
	NotFound []string `json:"not_found,omitempty"`
}

// Set applies a switch.
func (s *Server) Set(sw Switch) error {
	if sw.Stall != nil {
		switch *sw.Stall {
		case StallNone, StallNever, StallSlow:
		default:
			return fmt.Errorf("stall must be none, never or slow, not %q", *sw.Stall)
		}
	}
	if sw.DelayMS != nil && *sw.DelayMS < 0 {
		return fmt.Errorf("delay_ms must not be negative")
	}
	for text, id := range sw.TagIDs {
		if _, ok := tagByText(text); !ok {
			return fmt.Errorf("tag_ids: %q is not a tag of the tokenizer", text)
		}
		if id < 0 {
			return fmt.Errorf("tag_ids: the id of %q must not be negative", text)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sw.Template != nil {
		s.sw.template = *sw.Template
	}
	if sw.ParseToolCalls != nil {
		s.sw.parseToolCalls = *sw.ParseToolCalls
	}
	if sw.ForgetCache {
		for _, sl := range s.slots {
			sl.cache = nil
		}
	}
	if sw.CacheDisabled != nil {
		s.sw.cacheDisabled = *sw.CacheDisabled
	}
	if sw.Stall != nil {
		s.sw.stall = *sw.Stall
	}
	if sw.DelayMS != nil {
		s.sw.delay = time.Duration(*sw.DelayMS) * time.Millisecond
	}
	if sw.FailAfterChunks != nil {
		s.sw.failAfter = *sw.FailAfterChunks
	}
	if sw.Loading != nil {
		s.sw.loading = *sw.Loading
	}
	if sw.TagIDs != nil {
		moved := map[string]int{}
		for text, id := range sw.TagIDs {
			if t, _ := tagByText(text); t.ID != id {
				moved[text] = id
			}
		}
		s.sw.vocab.moved = moved
	}
	if sw.ReadEscapedTags != nil {
		s.sw.vocab.entities = *sw.ReadEscapedTags
	}
	if sw.NotFound != nil {
		nf := map[string]bool{}
		for _, p := range sw.NotFound {
			nf[p] = true
		}
		s.sw.notFound = nf
	}
	return nil
}

// SetTemplate changes the chat template /props reports.
func (s *Server) SetTemplate(t string) { s.Set(Switch{Template: &t}) }

// SetParseToolCalls turns tool call parsing on or off.
func (s *Server) SetParseToolCalls(on bool) { s.Set(Switch{ParseToolCalls: &on}) }

// ForgetCache erases every slot's cache once.
func (s *Server) ForgetCache() { s.Set(Switch{ForgetCache: true}) }

// SetCacheDisabled makes every request start from an empty cache.
func (s *Server) SetCacheDisabled(on bool) { s.Set(Switch{CacheDisabled: &on}) }

// SetStall sets the stall mode; delay is used by StallSlow.
func (s *Server) SetStall(mode StallMode, delay time.Duration) error {
	ms := int(delay / time.Millisecond)
	return s.Set(Switch{Stall: &mode, DelayMS: &ms})
}

// SetFailAfter makes chat completions fail after n streamed chunks; -1
// turns it off.
func (s *Server) SetFailAfter(n int) { s.Set(Switch{FailAfterChunks: &n}) }

// SetLoading puts the server into or out of the loading state.
func (s *Server) SetLoading(on bool) { s.Set(Switch{Loading: &on}) }

// MoveTag gives the tag spelt text the token id id, as another model
// file's tokenizer would.
func (s *Server) MoveTag(text string, id int) error {
	s.mu.Lock()
	moved := map[string]int{}
	for k, v := range s.sw.vocab.moved {
		moved[k] = v
	}
	s.mu.Unlock()
	moved[text] = id
	return s.Set(Switch{TagIDs: moved})
}

// SetReadEscapedTags makes the tokenizer read &lt;|im_end|&gt; and the
// like as the tags they spell, or stop doing so.
func (s *Server) SetReadEscapedTags(on bool) { s.Set(Switch{ReadEscapedTags: &on}) }

// SetNotFound makes the server answer 404 on the paths given, as a router
// that does not pass them would; none undoes it.
func (s *Server) SetNotFound(paths ...string) {
	s.Set(Switch{NotFound: append([]string{}, paths...)})
}

// HoldStreams makes streamed chat answers stop before their final chunk
// until release is called, so a test can see that what came before
// arrived on its own.
func (s *Server) HoldStreams() (release func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan struct{})
	s.hold = ch
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			if s.hold == ch {
				s.hold = nil
			}
			s.mu.Unlock()
			close(ch)
		})
	}
}

func (s *Server) snapshot() state {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sw
}

// Handler is the stand-in's HTTP handler.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /standin/switch", s.handleSwitch)
	mux.HandleFunc("GET /health", s.handleHealth)
	mux.HandleFunc("GET /v1/health", s.handleHealth)
	mux.HandleFunc("GET /props", s.handleProps)
	mux.HandleFunc("GET /slots", s.handleSlots)
	mux.HandleFunc("GET /v1/models", s.handleModels)
	mux.HandleFunc("GET /models", s.handleModels)
	mux.HandleFunc("POST /tokenize", s.handleTokenize)
	mux.HandleFunc("POST /detokenize", s.handleDetokenize)
	mux.HandleFunc("POST /apply-template", s.handleApplyTemplate)
	mux.HandleFunc("POST /v1/chat/completions", s.handleChat)
	mux.HandleFunc("POST /chat/completions", s.handleChat)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
		if err != nil {
			writeError(w, 400, "cannot read the request: "+err.Error(), "invalid_request_error")
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r = r.WithContext(context.WithValue(r.Context(), bodyKey{}, body))
		s.mu.Lock()
		s.calls = append(s.calls, Call{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Body: body})
		st := s.sw
		s.mu.Unlock()
		if r.URL.Path != "/standin/switch" {
			if st.notFound[r.URL.Path] {
				writeError(w, 404, "File Not Found", "not_found_error")
				return
			}
			if st.loading {
				writeError(w, 503, "Loading model", "unavailable_error")
				return
			}
			if !s.keyAccepted(r) {
				writeError(w, 401, "Invalid API Key", "authentication_error")
				return
			}
			if !s.stall(r.Context(), st) {
				return
			}
		}
		if _, pattern := mux.Handler(r); pattern == "" {
			writeError(w, 404, "File Not Found", "not_found_error")
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// publicPaths are the paths llama-server answers without its API key.
var publicPaths = map[string]bool{"/health": true, "/v1/health": true, "/models": true, "/v1/models": true, "/api/tags": true}

// keyAccepted is llama-server's API key check: a Bearer token equal to
// the key, on every path but the public ones.
func (s *Server) keyAccepted(r *http.Request) bool {
	if s.opts.APIKey == "" || publicPaths[r.URL.Path] || r.URL.Path == "/" {
		return true
	}
	const prefix = "Bearer "
	h := r.Header.Get("Authorization")
	return len(h) > len(prefix) && h[:len(prefix)] == prefix && h[len(prefix):] == s.opts.APIKey
}

// bodyKey carries the request body, as received, to the handlers that
// record it.
type bodyKey struct{}

// stall waits as the stall switch says; false means the request is over
// (the client left or the server is closing).
func (s *Server) stall(ctx context.Context, st state) bool {
	var wait <-chan time.Time
	switch st.stall {
	case StallNever:
	case StallSlow:
		wait = time.After(st.delay)
	default:
		return true
	}
	select {
	case <-wait:
		return true
	case <-ctx.Done():
	case <-s.closing:
	}
	return false
}

func (s *Server) handleSwitch(w http.ResponseWriter, r *http.Request) {
	var sw Switch
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sw); err != nil {
		writeError(w, 400, "standin switch: "+err.Error(), "invalid_request_error")
		return
	}
	if err := s.Set(sw); err != nil {
		writeError(w, 400, "standin switch: "+err.Error(), "invalid_request_error")
		return
	}
	writeJSON(w, 200, map[string]any{"ok": true})
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, map[string]any{"status": "ok"})
}

// checkModel answers 404 for a ?model= naming another model.
func (s *Server) checkModel(w http.ResponseWriter, model string) bool {
	if model == "" || model == s.opts.Model {
		return true
	}
	writeError(w, 404, fmt.Sprintf("model '%s' not found", model), "not_found_error")
	return false
}

func (s *Server) slotJSON(sl *slot) map[string]any {
	return map[string]any{
		"id":            sl.id,
		"id_task":       sl.task,
		"n_ctx":         s.opts.NCtx,
		"speculative":   false,
		"is_processing": sl.processing,
		"params":        defaultParams(),
		"next_token": map[string]any{
			"has_next_token": sl.processing,
			"has_new_line":   false,
			"n_remain":       -1,
			"n_decoded":      sl.decoded,
		},
	}
}

func defaultParams() map[string]any {
	return map[string]any{
		"n_predict": -1, "seed": 4294967295, "temperature": 0.8, "top_k": 40, "top_p": 0.95,
		"min_p": 0.05, "max_tokens": -1, "n_keep": 0, "stream": true, "samplers": []string{
			"penalties", "dry", "top_k", "typ_p", "top_p", "min_p", "xtc", "temperature"},
		"timings_per_token": false,
	}
}

func (s *Server) handleProps(w http.ResponseWriter, r *http.Request) {
	if !s.checkModel(w, r.URL.Query().Get("model")) {
		return
	}
	s.mu.Lock()
	dgs := s.slotJSON(&slot{id: 0, task: -1})
	dgs["prompt"] = ""
	body := map[string]any{
		"default_generation_settings": dgs,
		"total_slots":                 len(s.slots),
		"model_path":                  s.opts.ModelPath,
		"chat_template":               s.sw.template,
		"modalities":                  map[string]any{"vision": false, "audio": false},
		"build_info":                  "b0-standin",
	}
	s.mu.Unlock()
	writeJSON(w, 200, body)
}

func (s *Server) handleSlots(w http.ResponseWriter, r *http.Request) {
	if !s.checkModel(w, r.URL.Query().Get("model")) {
		return
	}
	s.mu.Lock()
	out := make([]map[string]any, len(s.slots))
	anyIdle := false
	for i, sl := range s.slots {
		out[i] = s.slotJSON(sl)
		anyIdle = anyIdle || !sl.processing
	}
	s.mu.Unlock()
	if r.URL.Query().Get("fail_on_no_slot") == "1" && !anyIdle {
		writeError(w, 503, "no slot available", "unavailable_error")
		return
	}
	writeJSON(w, 200, out)
}

func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, map[string]any{
		"object": "list",
		"data": []any{map[string]any{
			"id": s.opts.Model, "object": "model", "created": 0, "owned_by": "llamacpp",
			"meta": map[string]any{"vocab_type": 2, "n_vocab": qwen35Base + len(tagTable), "n_ctx_train": s.opts.NCtx},
		}},
	})
}

func (s *Server) handleTokenize(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model        string  `json:"model"`
		Content      *string `json:"content"`
		AddSpecial   bool    `json:"add_special"`
		ParseSpecial *bool   `json:"parse_special"`
		WithPieces   bool    `json:"with_pieces"`
	}
	if !decodeBody(w, r, &req) || !s.checkModel(w, firstNonEmpty(r.URL.Query().Get("model"), req.Model)) {
		return
	}
	if req.Content == nil {
		writeError(w, 400, "\"content\" must be provided", "invalid_request_error")
		return
	}
	parse := req.ParseSpecial == nil || *req.ParseSpecial
	// add_special adds nothing: the Qwen family has no BOS token.
	v := s.snapshot().vocab
	ids := v.tokenize(*req.Content, parse)
	if !req.WithPieces {
		writeJSON(w, 200, map[string]any{"tokens": ids})
		return
	}
	type piece struct {
		ID    int `json:"id"`
		Piece any `json:"piece"`
	}
	out := make([]piece, len(ids))
	for i, id := range ids {
		p, _ := v.piece(id)
		out[i] = piece{ID: id, Piece: pieceJSON(p)}
	}
	writeJSON(w, 200, map[string]any{"tokens": out})
}

func (s *Server) handleDetokenize(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Tokens []int `json:"tokens"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	writeJSON(w, 200, map[string]any{"content": s.snapshot().vocab.detokenize(req.Tokens)})
}

func (s *Server) handleApplyTemplate(w http.ResponseWriter, r *http.Request) {
	var req ChatRequest
	if !decodeBody(w, r, &req) {
		return
	}
	prompt, err := Render(req.Messages, req.Tools, true, req.thinking())
	if err != nil {
		writeError(w, 400, err.Error(), "invalid_request_error")
		return
	}
	writeJSON(w, 200, map[string]any{"prompt": prompt})
}

// errorBody is llama-server's (and OpenAI's) error shape.
func errorBody(code int, message, typ string) map[string]any {
	return map[string]any{"error": map[string]any{"code": code, "message": message, "type": typ}}
}

func writeError(w http.ResponseWriter, code int, message, typ string) {
	writeJSON(w, code, errorBody(code, message, typ))
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	data, err := marshal(v)
	if err != nil {
		code, data = 500, []byte(`{"error":{"code":500,"message":"cannot encode the answer","type":"server_error"}}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	w.Write(data)
}

// marshal encodes as llama-server does: without escaping <, > and &,
// which chat templates are full of.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		writeError(w, 400, "the request body is not valid JSON: "+err.Error(), "invalid_request_error")
		return false
	}
	return true
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
