package llamastandin

import (
	"context"
	"errors"
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
	// IdleTimeout is how long a kept-alive connection may stay idle before
	// the server closes it: DefaultIdleTimeout (the real server's 5 s)
	// when 0.
	IdleTimeout time.Duration
	// OnChat, when set, is told of each chat completion request once it
	// is answered or refused (llama-standin --request-log).
	OnChat func(Chat)
	// RequireMaxTokens is the stand-in's test mode (llama-standin
	// --require-max-tokens), no part of llama-server: a chat completion
	// without a positive max_tokens is refused, 400, and logged. The real
	// server takes such a request and generates until the slot's context
	// is full; the tests turn this on so that a request loopd sends
	// without its bound fails instead of passing unnoticed.
	RequireMaxTokens bool
	// NoPromptCache is llama-server's --cache-ram 0: a prompt displaced
	// from its slot is gone. Without it, as the real server by default,
	// the displaced prompt is kept in the server's memory and a later
	// request it fits better than the slot's own is given it back
	// (promptcache.go).
	NoPromptCache bool
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
	saved    [][]int // the prompt cache in host memory, oldest first (promptcache.go)
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
	// Refused is why the stand-in's test mode refused the request
	// (Options.RequireMaxTokens); empty for a request it answered.
	Refused string
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
