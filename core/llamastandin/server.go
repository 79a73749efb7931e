// Package llamastandin is the project's one stand-in: a test peer that
// plays llama.cpp's llama-server, written from its documented HTTP API
// (tools/server/README.md) and checked against a real one, for the tests of
// loopd and inferproxy, for `boxmaker demo` without a model, and for
// `boxmaker llama-standin`. It is not a model: its replies come from a
// Script.
//
// # What matches the real server
//
// Measured against llama-server build 9928 (upstream commit 81ff7abe50b9,
// CPU, --jinja, the Qwen3.5 template; docs/inference-contract.md says how):
//
//   - GET /health, /v1/health: {"status":"ok"}; while loading, 503
//     {"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}
//     (every llama.cpp path answers the same then). Matches.
//   - GET /props: default_generation_settings {params, n_ctx} (n_ctx per
//     slot), total_slots, model_alias, model_path, modalities (vision,
//     video, audio), endpoint_*, chat_template, chat_template_caps,
//     bos_token, eos_token, build_info, is_sleeping. Matches in the fields
//     loopd reads (chat_template, n_ctx, total_slots) and in shape; the
//     real one has more (ui, media_marker, ...) and 40 params, build_info
//     is "b0-standin".
//   - GET /slots: id, n_ctx, speculative, is_processing; after a task also
//     id_task, n_prompt_tokens, params and next_token as an array of one
//     object. ?fail_on_no_slot answers 503 only when every slot is busy.
//     Matches in shape; the counts are the stand-in's.
//   - GET /v1/models, /models: {"object":"list","data":[{"id",...}]} with
//     the model's name as id (the real one lists the file name or --alias;
//     its ollama-style "models" list is not written).
//   - POST /tokenize: content (none is no tokens: 200 {"tokens":[]}),
//     parse_special (default true), with_pieces. Matches in shape; the
//     tokenizer is byte-level with the Qwen3.5 tag ids (248044...), not a
//     BPE, so counts differ.
//   - POST /detokenize, POST /apply-template ({"prompt":...}): match; the
//     prompt is byte for byte the real server's (TestRenderIsTheRealServersRendering).
//   - POST /v1/chat/completions, /chat/completions: the prompt rendered
//     with the chat template by a Jinja engine (the real Qwen3.5 template
//     by default); a history whose tool call arguments are not JSON is 500
//     "Failed to parse tool call arguments as JSON: ...", arguments that
//     are JSON but not an object 400, as the real server answers. Matches.
//     The reply: reasoning_content, content ("" when empty, never null),
//     tool_calls parsed from the Qwen3.5 XML form (arguments a JSON string,
//     ids 32 random letters and digits), finish_reason stop, tool_calls or
//     length; cut by max_tokens (or max_completion_tokens, n_predict) or a
//     full context inside a call, the call as far as it got, arguments not
//     JSON, as the real server streams it; output that opens a call and
//     breaks the format fails: 500, or streamed, the content so far, then
//     data: {"error":...} and no [DONE]. Matches.
//     Streamed: a first delta {"role":"assistant","content":null}, one
//     delta a piece, each tool call's first delta with id, type, name and
//     the first piece of the arguments, the finish chunk, and, with
//     stream_options.include_usage, a last chunk with empty choices
//     carrying usage (with prompt_tokens_details.cached_tokens) and
//     timings; without it timings ride on the finish chunk. Matches.
//     timings.cache_n is the longest common prefix of the prompt's tokens
//     with the slot's last prompt and reply (one token always evaluated);
//     the millisecond figures are computed from the counts, not measured.
//     model and ?model= are ignored, as a single-model server ignores them;
//     id_slot past the slots is taken modulo their number; tool_choice is
//     ignored ("required" does not force a call on the real server either).
//   - Errors: {"error":{"code","message","type"}}; a body that is not JSON
//     500 server_error; unknown paths 404 "File Not Found"; a prompt over
//     the context 400 exceed_context_size_error with n_prompt_tokens and
//     n_ctx. Match (the JSON parser's message text differs).
//   - Connections: idle keep-alive connections are closed after 5 s
//     (Options.IdleTimeout), with Keep-Alive: timeout=5, max=100. Matches.
//   - With Options.APIKey it checks the key as llama-server's --api-key
//     does.
//   - Not written: POST /completion, GET /metrics, /slots actions, router
//     endpoints, embeddings; loopd uses none of them.
//
// # Scheduling
//
// Each slot keeps the tokens of its last prompt and reply. A request
// without id_slot takes the idle slot whose cache shares the most with its
// prompt (at least a tenth of it), else the one used least recently, and
// waits when every slot is busy.
//
// # Switches
//
// Switches, set from Go (Set and the helpers) or through POST
// /standin/switch, which is the stand-in's own and no part of llama.cpp's
// API, change the template, stop tool call parsing, read unparsable output
// as content, forget or disable the cache, stall, fail in the middle of a
// stream, stay silent before an error, put the server back into loading,
// answer 404 on paths a router would not pass, check the model as a router
// does, close a kept-alive connection under the next request, or change the
// tokenizer: a tag moved to another id (as another model file would give
// it) or HTML-escaped tags read as tags.
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
	"sync/atomic"
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
	// IdleTimeout is how long a kept-alive connection may stay idle before
	// the server closes it: DefaultIdleTimeout (the real server's 5 s)
	// when 0.
	IdleTimeout time.Duration
}

// DefaultIdleTimeout is how long llama-server keeps an idle connection
// open (cpp-httplib's keep-alive timeout; it says Keep-Alive: timeout=5).
const DefaultIdleTimeout = 5 * time.Second

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
	served     bool // it has run a task: /slots then shows its params
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
	router         bool
	unparsable     UnparsableMode
	errorSilence   time.Duration
	closeReused    bool
}

// UnparsableMode is what the server does with generated text that opens a
// tool call and then breaks the format.
type UnparsableMode string

const (
	// UnparsableFail fails the request as llama-server does: HTTP 500,
	// or, streamed, data: {"error":...} after the content and no [DONE].
	UnparsableFail UnparsableMode = "fail"
	// UnparsableContent returns the text as content, as older builds and
	// other parsers do.
	UnparsableContent UnparsableMode = "content"
)

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
	Reply        Turn   // the script's turn that answered it
	Generated    string // the text the model generated (cut at max_tokens)
	Finish       string // finish_reason
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
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
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
			unparsable:     UnparsableFail,
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
	s.srv = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: s.opts.IdleTimeout,
		ConnContext: func(ctx context.Context, _ net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, new(connUse))
		}}
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
		if t.When != "" || t.Match != "" {
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
	// Router true checks ?model= and a request's "model" as llama-server's
	// router mode does (400 "model 'x' not found"); a single-model server,
	// the default, ignores them.
	Router *bool `json:"router,omitempty"`
	// Unparsable is "fail" (the default, as the real server) or "content"
	// (text that breaks the tool-call format is returned as content).
	Unparsable *UnparsableMode `json:"unparsable,omitempty"`
	// ErrorSilenceMS is how long the server stays silent before it fails
	// on output it cannot parse (the real one held 11.6 s back).
	ErrorSilenceMS *int `json:"error_silence_ms,omitempty"`
	// CloseReused true makes the server close the next kept-alive
	// connection a request arrives on (one that has served a request
	// before) without answering, once: as a server that closed an idle
	// connection as the client reused it.
	CloseReused bool `json:"close_reused,omitempty"`
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
	if sw.ErrorSilenceMS != nil && *sw.ErrorSilenceMS < 0 {
		return fmt.Errorf("error_silence_ms must not be negative")
	}
	if sw.Unparsable != nil && *sw.Unparsable != UnparsableFail && *sw.Unparsable != UnparsableContent {
		return fmt.Errorf("unparsable must be fail or content, not %q", *sw.Unparsable)
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
	if sw.Router != nil {
		s.sw.router = *sw.Router
	}
	if sw.Unparsable != nil {
		s.sw.unparsable = *sw.Unparsable
	}
	if sw.ErrorSilenceMS != nil {
		s.sw.errorSilence = time.Duration(*sw.ErrorSilenceMS) * time.Millisecond
	}
	if sw.CloseReused {
		s.sw.closeReused = true
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
		use, _ := r.Context().Value(connKey{}).(*connUse)
		reused := use != nil && use.requests.Add(1) > 1
		s.mu.Lock()
		s.calls = append(s.calls, Call{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Body: body})
		drop := reused && s.sw.closeReused
		if drop {
			s.sw.closeReused = false
		}
		st := s.sw
		s.mu.Unlock()
		if drop {
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					c.Close()
					return
				}
			}
		}
		w.Header().Set("Keep-Alive", fmt.Sprintf("timeout=%d, max=100", int(s.opts.IdleTimeout/time.Second)))
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

// connKey carries a connection's use count to its requests.
type connKey struct{}

type connUse struct{ requests atomic.Int64 }

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

// checkModel answers as llama-server's router mode does for a request
// that names no model or another one: 400. A single-model server (no
// router switch) ignores the name, as the real one does.
func (s *Server) checkModel(w http.ResponseWriter, model string) bool {
	if !s.snapshot().router || model == s.opts.Model {
		return true
	}
	if model == "" {
		writeError(w, 400, "model name is missing from the request", "invalid_request_error")
		return false
	}
	writeError(w, 400, fmt.Sprintf("model '%s' not found", model), "invalid_request_error")
	return false
}

// slotJSON is a slot as /slots shows it: id, n_ctx, speculative and
// is_processing, and, once it has run a task, the task's id, counts,
// params and next_token (an array of one object, as the real server
// writes it).
func (s *Server) slotJSON(sl *slot) map[string]any {
	out := map[string]any{
		"id":            sl.id,
		"n_ctx":         s.opts.NCtx,
		"speculative":   false,
		"is_processing": sl.processing,
	}
	if !sl.served && !sl.processing {
		return out
	}
	out["id_task"] = sl.task
	out["n_prompt_tokens"] = len(sl.cache)
	out["params"] = defaultParams()
	out["next_token"] = []any{map[string]any{
		"has_next_token": sl.processing,
		"has_new_line":   false,
		"n_remain":       0,
		"n_decoded":      sl.decoded,
	}}
	return out
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
	body := map[string]any{
		"default_generation_settings": map[string]any{"params": defaultParams(), "n_ctx": s.opts.NCtx},
		"total_slots":                 len(s.slots),
		"model_alias":                 s.opts.Model,
		"model_path":                  s.opts.ModelPath,
		"modalities":                  map[string]any{"vision": false, "video": false, "audio": false},
		"endpoint_slots":              true,
		"endpoint_props":              false,
		"endpoint_metrics":            false,
		"chat_template":               s.sw.template,
		"chat_template_caps":          map[string]any{},
		"bos_token":                   "",
		"eos_token":                   "<|im_end|>",
		"build_info":                  BuildInfo,
		"is_sleeping":                 false,
	}
	s.mu.Unlock()
	writeJSON(w, 200, body)
}

// BuildInfo is what the stand-in says of its build in /props build_info
// and each answer's system_fingerprint: a real server says "b9928-81ff7ab".
const BuildInfo = "b0-standin"

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
	if r.URL.Query().Has("fail_on_no_slot") && !anyIdle {
		writeError(w, 503, "no slot available", "unavailable_error")
		return
	}
	writeJSON(w, 200, out)
}

func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, map[string]any{
		"object": "list",
		"data": []any{map[string]any{
			"id": s.opts.Model, "aliases": []string{s.opts.Model}, "tags": []string{},
			"object": "model", "created": 0, "owned_by": "llamacpp",
			"meta": map[string]any{"vocab_type": 2, "n_vocab": qwen35Base + len(tagTable), "n_ctx": s.opts.NCtx, "n_ctx_train": s.opts.NCtx},
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
	content := ""
	if req.Content != nil { // no content is no tokens, as the real server answers
		content = *req.Content
	}
	parse := req.ParseSpecial == nil || *req.ParseSpecial
	// add_special adds nothing: the Qwen family has no BOS token.
	v := s.snapshot().vocab
	ids := v.tokenize(content, parse)
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
	body, _ := r.Context().Value(bodyKey{}).([]byte)
	prompt, err := renderTemplate(s.snapshot().template, body, true)
	var argErr errArguments
	if errors.As(err, &argErr) {
		writeError(w, 500, argErr.Error(), "server_error")
		return
	}
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

// decodeBody reads a request's JSON body; one that is not JSON is
// answered 500 server_error, as the real server answers it (its JSON
// library's exception, uncaught by the handler).
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		writeError(w, 500, "[json.exception.parse_error.101] parse error: "+err.Error(), "server_error")
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
