// Package fakehoncho is a fake Honcho server for tests only: the part of
// Honcho's /v3 HTTP API (plastic-labs/honcho, src/routers, src/schemas/api.py
// at 3.0.x) that Boxmaker and the official TypeScript SDK's calls for it
// reach, kept in memory, with switches for faults. Production code must not
// import it (deps_test.go holds that).
//
// Routes (all POST, JSON bodies):
//
//	/v3/workspaces                                   get-or-create {id, metadata, configuration}: 201 new, 200 existing
//	/v3/workspaces/{w}/peers                         get-or-create {id, metadata, configuration}
//	/v3/workspaces/{w}/sessions                      get-or-create {id, metadata, peers, configuration, scopes}
//	/v3/workspaces/{w}/sessions/{s}/messages         {messages: [1..100 of {peer_id, content, metadata, configuration, created_at}]}: 201, the messages
//	/v3/workspaces/{w}/sessions/{s}/messages/list    {filters}, ?page=&size=&reverse=: a Page of messages
//	/v3/workspaces/{w}/search                        {query, filters, limit (1..100, 10), scope}: messages best first
//
// As Honcho does: names are 1 to 512 of [a-zA-Z0-9_-]; a message's content
// is at most MaxMessageSize characters (25,000) and NUL bytes are removed;
// adding messages creates the session, its peers and the workspace; a
// session's messages keep the order they were added in. Unlike Honcho, an
// unknown field in a body is refused (422), so a client that sends a shape
// Honcho would silently ignore is caught; and search is a word match (every
// word of the query, without case), not Honcho's hybrid semantic search.
//
// Auth: with Options.Secret set, every request needs `Authorization:
// Bearer <JWT>`, HS256 over that secret, whose claims (`ad`, `w`, `p`, `s`)
// are checked against the route as src/security.py does; Token mints one.
// Without it, auth is off (Honcho's default, AUTH_USE_AUTH=false).
package fakehoncho

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"boxmaker/core/clock"
)

// MaxMessageSize is Honcho's default MAX_MESSAGE_SIZE, in characters.
const MaxMessageSize = 25000

var nameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,512}$`)

// Options configure a Server.
type Options struct {
	// Secret turns auth on: tokens are HS256 JWTs over it.
	Secret string
	// MaxMessageSize overrides the content limit (0: MaxMessageSize).
	MaxMessageSize int
}

// Fault is what the server does to requests instead of, or besides,
// answering them.
type Fault struct {
	// Down: every connection is closed without an answer, as a server
	// that is not there (the client sees a reset or EOF).
	Down bool
	// Delay holds every answer this long (a slow server).
	Delay time.Duration
	// Status, when set (500, 401, 503, ...), answers every request with
	// it and {"detail": ...}, doing nothing.
	Status int
	// LoseAnswers: message batches are stored, then the connection is
	// closed without the answer, so the client cannot know they were.
	LoseAnswers bool
}

// Message is a stored message, as the API shows it.
type Message struct {
	ID          string         `json:"id"`
	Content     string         `json:"content"`
	PeerID      string         `json:"peer_id"`
	SessionID   string         `json:"session_id"`
	Metadata    map[string]any `json:"metadata"`
	CreatedAt   string         `json:"created_at"`
	WorkspaceID string         `json:"workspace_id"`
	TokenCount  int            `json:"token_count"`
}

// Request is one request the server answered, for tests that check what
// a client sent.
type Request struct {
	Method string
	Path   string
	Query  string
	Body   json.RawMessage
	Status int
}

type object struct {
	ID            string         `json:"id"`
	WorkspaceID   string         `json:"workspace_id,omitempty"`
	IsActive      *bool          `json:"is_active,omitempty"`
	Metadata      map[string]any `json:"metadata"`
	Configuration map[string]any `json:"configuration"`
	CreatedAt     string         `json:"created_at"`
}

type session struct {
	object
	peers    map[string]bool
	messages []Message
}

type workspace struct {
	object
	peers    map[string]*object
	sessions map[string]*session
	order    []string // session names, oldest first
}

// Server is a running fake Honcho.
type Server struct {
	URL  string // http://127.0.0.1:<port>
	opts Options
	srv  *httptest.Server

	mu         sync.Mutex
	fault      Fault
	workspaces map[string]*workspace
	requests   []Request
	seq        int
}

// Start serves a new, empty fake on a free loopback port.
func Start(opts Options) *Server {
	if opts.MaxMessageSize == 0 {
		opts.MaxMessageSize = MaxMessageSize
	}
	s := &Server{opts: opts, workspaces: map[string]*workspace{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	return s
}

// Close stops the server.
func (s *Server) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// SetFault replaces the fault in effect (Fault{} for none).
func (s *Server) SetFault(f Fault) {
	s.mu.Lock()
	s.fault = f
	s.mu.Unlock()
	if f.Down {
		s.srv.CloseClientConnections()
	}
}

// Messages are a session's messages in order (nil if there is none).
func (s *Server) Messages(workspace, session string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.workspaces[workspace]
	if w == nil || w.sessions[session] == nil {
		return nil
	}
	return append([]Message(nil), w.sessions[session].messages...)
}

// Sessions are a workspace's session names, oldest first.
func (s *Server) Sessions(workspace string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.workspaces[workspace]; w != nil {
		return append([]string(nil), w.order...)
	}
	return nil
}

// Workspaces are the names of every workspace, sorted.
func (s *Server) Workspaces() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for n := range s.workspaces {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Requests are the requests answered so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Add stores messages in a session as a client's batch would (creating
// what is missing), for tests that need another agent's workspace.
func (s *Server) Add(workspace, session string, msgs ...Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.session(workspace, session, nil)
	for _, m := range msgs {
		sess.peers[m.PeerID] = true
		s.addMessage(workspace, sess, m.PeerID, m.Content, m.Metadata, m.CreatedAt)
	}
}

// apiError is an answer other than 2xx: Honcho's {"detail": ...}.
type apiError struct {
	status int
	detail any
}

func fail(status int, format string, args ...any) *apiError {
	return &apiError{status: status, detail: fmt.Sprintf(format, args...)}
}

// invalid is FastAPI's 422 for a body that does not validate.
func invalid(loc []any, msg string) *apiError {
	return &apiError{status: 422, detail: []map[string]any{{"type": "value_error", "loc": loc, "msg": msg}}}
}

var routeRE = regexp.MustCompile(`^/v3/workspaces(?:/([^/]+)(?:/(peers|sessions|search)(?:/([^/]+)/messages(/list)?)?)?)?$`)

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	f := s.fault
	s.mu.Unlock()
	if f.Down {
		hangUp(w)
		return
	}
	if f.Delay > 0 && clock.Sleep(r.Context(), f.Delay) != nil {
		return // the client left
	}
	body, err := readBody(r)
	rec := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Body: body}
	var status int
	var out any
	switch {
	case f.Status != 0:
		status, out = f.Status, map[string]any{"detail": http.StatusText(f.Status)}
	case err != nil:
		status, out = 422, map[string]any{"detail": err.Error()}
	default:
		var e *apiError
		status, out, e = s.route(r, body)
		if e != nil {
			status, out = e.status, map[string]any{"detail": e.detail}
		}
	}
	rec.Status = status
	s.mu.Lock()
	s.requests = append(s.requests, rec)
	s.mu.Unlock()
	if f.LoseAnswers && status == 201 && strings.HasSuffix(r.URL.Path, "/messages") {
		hangUp(w)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(out)
}

func hangUp(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if c, _, err := hj.Hijack(); err == nil {
			if tc, ok := c.(*net.TCPConn); ok {
				tc.SetLinger(0) // a reset, as from a server that went away
			}
			c.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

func readBody(r *http.Request) (json.RawMessage, error) {
	if r.Body == nil {
		return nil, nil
	}
	var raw json.RawMessage
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 64<<20))
	if err := dec.Decode(&raw); err != nil {
		if err.Error() == "EOF" {
			return nil, nil
		}
		return nil, fmt.Errorf("the body is not JSON: %v", err)
	}
	return raw, nil
}

// route answers one request: its status and body, or an error.
func (s *Server) route(r *http.Request, body json.RawMessage) (int, any, *apiError) {
	m := routeRE.FindStringSubmatch(r.URL.Path)
	if m == nil || r.Method != http.MethodPost {
		return 0, nil, fail(404, "Not Found")
	}
	ws, kind, sess, list := m[1], m[2], m[3], m[4] != ""
	claims, e := s.authenticate(r)
	if e != nil {
		return 0, nil, e
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case ws == "":
		return s.createWorkspace(claims, body)
	case kind == "peers":
		return s.createPeer(claims, ws, body)
	case kind == "sessions" && sess == "":
		return s.createSession(claims, ws, body)
	case kind == "sessions" && !list:
		return s.addMessages(claims, ws, sess, body)
	case kind == "sessions":
		return s.listMessages(claims, ws, sess, r, body)
	case kind == "search":
		return s.search(claims, ws, body)
	}
	return 0, nil, fail(404, "Not Found")
}

// decodeStrict reads body into v, refusing fields v does not have.
func decodeStrict(body json.RawMessage, v any) *apiError {
	if len(body) == 0 || string(body) == "null" {
		return invalid([]any{"body"}, "Field required")
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return invalid([]any{"body"}, err.Error())
	}
	return nil
}

func (s *Server) now() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000000Z") }

func newObject(id, ws string, meta, cfg map[string]any, now string) object {
	if meta == nil {
		meta = map[string]any{}
	}
	if cfg == nil {
		cfg = map[string]any{}
	}
	return object{ID: id, WorkspaceID: ws, Metadata: meta, Configuration: cfg, CreatedAt: now}
}

func checkName(loc string, id *string) *apiError {
	if id == nil {
		return invalid([]any{"body", loc}, "Field required")
	}
	if !nameRE.MatchString(*id) {
		return invalid([]any{"body", loc}, "String should match pattern '^[a-zA-Z0-9_-]+$' and have 1 to 512 characters")
	}
	return nil
}
