// Package fakemattermost is a fake Mattermost server for tests only: the
// part of the REST API v4 and the WebSocket API that gatewayd uses,
// written from Mattermost's API reference (api/v4/source/*.yaml) and its
// server (server/channels/api4, app/platform/web_conn.go, web_hub.go,
// websocket_router.go, app/notification.go), kept in memory, with switches
// for faults. Production code must not import it (deps_test.go holds
// that); its JSON is checked against the official wire types
// (server/public/model v0.4.3) by the test-only module in conformance/.
//
// REST, under /api/v4, every route but /system/ping needing
// `Authorization: Bearer <token>` (or `Token <token>`), errors as
// model.AppError bodies:
//
//	GET  /system/ping                    {"status":"OK"}
//	GET  /users/me, /users/{id}          a User
//	GET  /users/{id}/channels            the user's channels, DMs included
//	POST /users/{id}/typing              {channel_id, parent_id}: a typing event to the others
//	POST /channels/direct                [a, b]: the DM channel of a and b (made once)
//	GET  /channels/{id}/posts            ?page=&per_page= (newest first) or ?after=ID&page=&per_page=
//	                                     (created after ID, oldest first across pages); a PostList
//	POST /posts                          {channel_id, root_id, message, props, pending_post_id}: 201 a Post
//	GET  /posts/{id}, /posts/{id}/thread a Post, a PostList of the thread
//	PUT  /posts/{id}/patch               {message}: the post edited (post_edited event)
//
// As Mattermost does: ids are 26 characters of a-z0-9; root_id must name a
// thread's root in the same channel (400 api.post.create_post.root_id); a
// post over 16383 runes is refused (400); a bot's posts get
// props.from_bot "true"; a pending_post_id seen in the last 30 s returns the
// post already made; only a channel's members read or post in it (403).
//
// WebSocket at /api/v4/websocket, authenticated by the upgrade's header:
// a fresh connection's first event is hello (seq 0, a new connection_id);
// events are numbered per connection (seq 0, 1, 2, ...); a reconnect with
// connection_id and sequence_number resumes: the missed events of the last
// 128 are sent again, and no hello, or a new hello (new id, seq 0) when they
// are gone or the id is unknown. Events: hello, posted (data.post a JSON
// string, mentions a JSON string naming the receiver when it is mentioned
// or the DM's other member), post_edited, typing. Actions: ping (answered
// {"status":"OK","seq_reply":N,"data":{"text":"pong",...}}), user_typing.
package fakemattermost

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
)

// MaxPostRunes is Mattermost's post size limit (PostMessageMaxRunesV2).
const MaxPostRunes = 16383

// DeadQueueSize is how many events a connection keeps for a resume.
const DeadQueueSize = 128

// Options configure a Server.
type Options struct {
	// TLS serves https with a certificate of its own (CAPEM is its
	// issuer, for a client's ca_file).
	TLS bool
	// ResumeWindow is how long a closed connection's state is kept for a
	// resume (0: 5 minutes, as the server's inactive connection reaper).
	ResumeWindow time.Duration
	// Observe, when set, is told of each REST request once it is
	// answered (benchmarks time what a client does with it).
	Observe func(r Request)
}

// Fault is what the server does instead of, or besides, answering.
type Fault struct {
	// Down: every HTTP connection (REST and the upgrade) is closed without
	// an answer, as a server that is not there.
	Down bool
	// Silent: the WebSockets stay open but nothing is written on them
	// (no event, no answer to a ping): a link that is dead without a close.
	Silent bool
	// Refuse answers every authenticated request with 401, as for a
	// revoked token.
	Refuse bool
	// Forbidden channels answer 403 to posts made in them.
	Forbidden map[string]bool
	// Delay holds every REST answer this long.
	Delay time.Duration
	// LoseNext events are numbered and kept for a resume but not written
	// (frames lost on the way): the client sees a gap in seq.
	LoseNext int
}

// Request is one REST request the server received.
type Request struct {
	Method, Path, Query string
	Status              int
	Body                []byte
}

// Server is a running fake.
type Server struct {
	URL  string
	opts Options
	srv  *httptest.Server

	mu       sync.Mutex
	lastMS   int64
	users    map[string]*user
	tokens   map[string]string // token -> user id
	channels map[string]*channel
	posts    map[string]*post
	pending  map[string]pendingPost
	conns    map[string]*connState
	fault    Fault
	requests []Request
}

type user struct {
	User
	token string
}

type channel struct {
	Channel
	members map[string]bool
	order   []string // post ids, in creation order
}

type post struct{ Post }

type pendingPost struct {
	id   string
	when time.Time
}

// connState is one WebSocket connection's numbering, kept after it closes
// for a resume.
type connState struct {
	id     string
	user   string
	seq    int64 // the next event's
	dead   [][]byte
	first  int64 // seq of dead[0]
	live   *websocket.Conn
	closed time.Time
	write  chan []byte
	done   chan struct{}
}

// Start serves a new fake on a free loopback port.
func Start(o Options) *Server {
	s := &Server{opts: o, users: map[string]*user{}, tokens: map[string]string{}, channels: map[string]*channel{},
		posts: map[string]*post{}, pending: map[string]pendingPost{}, conns: map[string]*connState{}}
	if s.opts.ResumeWindow == 0 {
		s.opts.ResumeWindow = 5 * time.Minute
	}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(s.serveHTTP))
	if o.TLS {
		s.srv.StartTLS()
	} else {
		s.srv.Start()
	}
	s.URL = s.srv.URL
	return s
}

// CAPEM is the PEM of the certificate that signs the server's (TLS only).
func (s *Server) CAPEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.srv.Certificate().Raw})
}

// Close stops the server and closes every WebSocket.
func (s *Server) Close() {
	s.mu.Lock()
	for _, c := range s.conns {
		if c.live != nil {
			c.live.CloseNow()
		}
	}
	s.mu.Unlock()
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// SetFault applies f from now on.
func (s *Server) SetFault(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fault = f
}

// DropSockets closes every WebSocket at once, without a close frame (the
// client sees the connection end, as on a network failure). Their state
// is kept for a resume.
func (s *Server) DropSockets() {
	s.mu.Lock()
	var live []*websocket.Conn
	for _, c := range s.conns {
		if c.live != nil {
			live = append(live, c.live)
		}
	}
	s.mu.Unlock()
	for _, c := range live {
		c.CloseNow()
	}
}

// Restart forgets every connection's state, as a server restart does:
// the next connection gets a new hello.
func (s *Server) Restart() {
	s.DropSockets()
	s.mu.Lock()
	s.conns = map[string]*connState{}
	s.mu.Unlock()
}

// Sockets is how many WebSockets are open now.
func (s *Server) Sockets() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.conns {
		if c.live != nil {
			n++
		}
	}
	return n
}

// Requests are the REST requests so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

var idAlphabet = "ybndrfg8ejkmcpqxot1uwisza345h769" // model.NewId's z-base-32

// NewID is a new Mattermost id: 26 characters of a-z0-9.
func NewID() string {
	var b [26]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
	}
	return string(b[:])
}

var idRE = regexp.MustCompile(`^[a-z0-9]{26}$`)

// now is a post's time in milliseconds, strictly increasing (posts of
// one millisecond would be ambiguous for ?after=; a real server's can be).
func (s *Server) now() int64 {
	ms := time.Now().UnixMilli()
	if ms <= s.lastMS {
		ms = s.lastMS + 1
	}
	s.lastMS = ms
	return ms
}

// AddUser makes a user (a bot when bot is set) and returns it with its
// access token.
func (s *Server) AddUser(username string, bot bool) (User, string) {
	return s.AddUserWithToken(username, bot, NewID())
}

// AddUserWithToken is AddUser with the access token given (a test that
// hands the token to gatewayd another way, as a systemd credential).
func (s *Server) AddUserWithToken(username string, bot bool, token string) (User, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := &user{User: User{ID: NewID(), Username: username, IsBot: bot, CreateAt: time.Now().UnixMilli(), Roles: "system_user"}, token: token}
	u.UpdateAt = u.CreateAt
	s.users[u.ID] = u
	s.tokens[u.token] = u.ID
	return u.User, u.token
}

// RevokeTokens makes every token of the user invalid (401 from then on).
func (s *Server) RevokeTokens(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for t, id := range s.tokens {
		if id == userID {
			delete(s.tokens, t)
		}
	}
}

// NewChannel makes an open channel with these members.
func (s *Server) NewChannel(name string, members ...string) Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &channel{Channel: Channel{ID: NewID(), Type: "O", Name: name, DisplayName: name, TeamID: teamID, CreateAt: time.Now().UnixMilli()},
		members: map[string]bool{}}
	c.UpdateAt = c.CreateAt
	for _, m := range members {
		c.members[m] = true
	}
	s.channels[c.ID] = c
	return c.Channel
}

// teamID is the fake's one team.
var teamID = NewID()

// DM is the direct channel of a and b, made when missing.
func (s *Server) DM(a, b string) Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dm(a, b).Channel
}

func (s *Server) dm(a, b string) *channel {
	ids := []string{a, b}
	sort.Strings(ids)
	name := ids[0] + "__" + ids[1]
	for _, c := range s.channels {
		if c.Type == "D" && c.Name == name {
			return c
		}
	}
	c := &channel{Channel: Channel{ID: NewID(), Type: "D", Name: name, DisplayName: "", CreateAt: time.Now().UnixMilli()},
		members: map[string]bool{a: true, b: true}}
	c.UpdateAt = c.CreateAt
	s.channels[c.ID] = c
	return c
}

// PostAs posts message in channel (in the thread root when not empty) as
// the user, as that user's client would, and returns the post.
func (s *Server) PostAs(userID, channelID, root, message string) (Post, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, status, appErr := s.createPost(userID, newPost{ChannelID: channelID, RootID: root, Message: message})
	if appErr != nil {
		return Post{}, fmt.Errorf("%d %s", status, appErr.Message)
	}
	return p, nil
}

// Thread is every post of the thread root, oldest first.
func (s *Server) Thread(root string) []Post {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Post
	for _, p := range s.posts {
		if p.ID == root || p.RootID == root {
			out = append(out, p.Post)
		}
	}
	sortPosts(out)
	return out
}

// ChannelPosts is every post of the channel, oldest first.
func (s *Server) ChannelPosts(channelID string) []Post {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channels[channelID]
	if c == nil {
		return nil
	}
	var out []Post
	for _, id := range c.order {
		out = append(out, s.posts[id].Post)
	}
	return out
}

// Post is the post id as it is now.
func (s *Server) Post(id string) (Post, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.posts[id]
	if !ok {
		return Post{}, false
	}
	return p.Post, true
}

func sortPosts(ps []Post) {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].CreateAt != ps[j].CreateAt {
			return ps[i].CreateAt < ps[j].CreateAt
		}
		return ps[i].ID < ps[j].ID
	})
}

// serveHTTP is every request: the fault, the log, then the route.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	f := s.fault
	s.mu.Unlock()
	if f.Down {
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
				return
			}
		}
		panic(http.ErrAbortHandler)
	}
	if r.URL.Path == "/api/v4/websocket" || r.URL.Path == "/api/v4/websocket/" {
		s.serveWebSocket(w, r, f)
		return
	}
	if f.Delay > 0 {
		select {
		case <-time.After(f.Delay):
		case <-r.Context().Done():
			return
		}
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	rec := &statusRecorder{ResponseWriter: w, status: 200}
	s.route(rec, r, body, f)
	req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Status: rec.status, Body: body}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	if s.opts.Observe != nil {
		s.opts.Observe(req)
	}
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// token reads the request's token: Bearer or Token, any case.
func token(r *http.Request) string {
	h := r.Header.Get("Authorization")
	for _, p := range []string{"bearer ", "token "} {
		if len(h) > len(p) && strings.EqualFold(h[:len(p)], p) {
			return strings.TrimSpace(h[len(p):])
		}
	}
	return ""
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func appError(w http.ResponseWriter, status int, id, message string) {
	writeJSON(w, status, AppError{ID: id, Message: message, RequestID: NewID(), StatusCode: status})
}

var (
	reUser        = regexp.MustCompile(`^/api/v4/users/([a-z0-9]{26}|me)$`)
	reUserChans   = regexp.MustCompile(`^/api/v4/users/([a-z0-9]{26}|me)/channels$`)
	reUserTyping  = regexp.MustCompile(`^/api/v4/users/([a-z0-9]{26}|me)/typing$`)
	reChanPosts   = regexp.MustCompile(`^/api/v4/channels/([a-z0-9]{26})/posts$`)
	rePost        = regexp.MustCompile(`^/api/v4/posts/([a-z0-9]{26})$`)
	rePostThread  = regexp.MustCompile(`^/api/v4/posts/([a-z0-9]{26})/thread$`)
	rePostPatch   = regexp.MustCompile(`^/api/v4/posts/([a-z0-9]{26})/patch$`)
	errNotAllowed = "api.context.permissions.app_error"
)

func (s *Server) route(w http.ResponseWriter, r *http.Request, body []byte, f Fault) {
	path := r.URL.Path
	if path == "/api/v4/system/ping" && r.Method == http.MethodGet {
		writeJSON(w, 200, map[string]string{"status": "OK", "ActiveSearchBackend": "database"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	me, ok := s.tokens[token(r)]
	if !ok || f.Refuse {
		appError(w, 401, "api.context.session_expired.app_error", "Invalid or expired session, please login again.")
		return
	}
	resolve := func(id string) string {
		if id == "me" {
			return me
		}
		return id
	}
	switch m := r.Method; {
	case m == http.MethodGet && reUser.MatchString(path):
		u := s.users[resolve(reUser.FindStringSubmatch(path)[1])]
		if u == nil {
			appError(w, 404, "app.user.missing_account.const", "Unable to find the user.")
			return
		}
		writeJSON(w, 200, u.User)
	case m == http.MethodGet && reUserChans.MatchString(path):
		if resolve(reUserChans.FindStringSubmatch(path)[1]) != me {
			appError(w, 403, errNotAllowed, "You do not have the appropriate permissions.")
			return
		}
		out := []Channel{}
		for _, c := range s.channels {
			if c.members[me] {
				out = append(out, c.Channel)
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
		writeJSON(w, 200, out)
	case m == http.MethodPost && reUserTyping.MatchString(path):
		var t struct {
			ChannelID string `json:"channel_id"`
			ParentID  string `json:"parent_id"`
		}
		if resolve(reUserTyping.FindStringSubmatch(path)[1]) != me || json.Unmarshal(body, &t) != nil {
			appError(w, 400, "api.context.invalid_body_param.app_error", "Invalid or missing typing in request body.")
			return
		}
		c := s.channels[t.ChannelID]
		if c == nil || !c.members[me] {
			appError(w, 403, errNotAllowed, "You do not have the appropriate permissions.")
			return
		}
		s.broadcast(c, me, "typing", map[string]any{"parent_id": t.ParentID, "user_id": me})
		writeJSON(w, 200, map[string]string{"status": "OK"})
	case m == http.MethodPost && path == "/api/v4/channels/direct":
		var ids []string
		if json.Unmarshal(body, &ids) != nil || len(ids) != 2 || !idRE.MatchString(ids[0]) || !idRE.MatchString(ids[1]) ||
			(ids[0] != me && ids[1] != me) || s.users[ids[0]] == nil || s.users[ids[1]] == nil {
			appError(w, 400, "api.context.invalid_body_param.app_error", "Invalid or missing user_ids in request body.")
			return
		}
		writeJSON(w, 201, s.dm(ids[0], ids[1]).Channel)
	case m == http.MethodGet && reChanPosts.MatchString(path):
		s.channelPosts(w, r, me, reChanPosts.FindStringSubmatch(path)[1])
	case m == http.MethodPost && path == "/api/v4/posts":
		var np newPost
		if err := json.Unmarshal(body, &np); err != nil {
			appError(w, 400, "api.context.invalid_body_param.app_error", "Invalid or missing post in request body.")
			return
		}
		if f.Forbidden[np.ChannelID] {
			appError(w, 403, errNotAllowed, "You do not have the appropriate permissions.")
			return
		}
		p, status, e := s.createPost(me, np)
		if e != nil {
			writeJSON(w, status, e)
			return
		}
		writeJSON(w, 201, p)
	case m == http.MethodGet && rePost.MatchString(path):
		p, ok := s.readable(me, rePost.FindStringSubmatch(path)[1])
		if !ok {
			appError(w, 404, "app.post.get.app_error", "Unable to get the post.")
			return
		}
		writeJSON(w, 200, p.Post)
	case m == http.MethodGet && rePostThread.MatchString(path):
		p, ok := s.readable(me, rePostThread.FindStringSubmatch(path)[1])
		if !ok {
			appError(w, 404, "app.post.get.app_error", "Unable to get the post.")
			return
		}
		root := p.RootID
		if root == "" {
			root = p.ID
		}
		list := newPostList()
		var ps []Post
		for _, q := range s.posts {
			if (q.ID == root || q.RootID == root) && q.DeleteAt == 0 {
				ps = append(ps, q.Post)
			}
		}
		sortPosts(ps)
		for i := len(ps) - 1; i >= 0; i-- {
			list.add(ps[i])
		}
		writeJSON(w, 200, list)
	case m == http.MethodPut && rePostPatch.MatchString(path):
		p, ok := s.readable(me, rePostPatch.FindStringSubmatch(path)[1])
		var patch struct {
			Message *string `json:"message"`
		}
		switch {
		case !ok:
			appError(w, 404, "app.post.get.app_error", "Unable to get the post.")
		case p.UserID != me:
			appError(w, 403, errNotAllowed, "You do not have the appropriate permissions.")
		case json.Unmarshal(body, &patch) != nil || patch.Message == nil:
			appError(w, 400, "api.context.invalid_body_param.app_error", "Invalid or missing patch in request body.")
		case utf8.RuneCountInString(*patch.Message) > MaxPostRunes:
			appError(w, 400, "model.post.is_valid.message_length.app_error", "Message property is longer than the maximum permitted length.")
		default:
			now := s.now()
			p.Message, p.EditAt, p.UpdateAt = *patch.Message, now, now
			s.broadcast(s.channels[p.ChannelID], "", "post_edited", map[string]any{"post": mustJSON(p.Post)})
			writeJSON(w, 200, p.Post)
		}
	default:
		appError(w, 404, "api.context.404.app_error", "Sorry, we could not find the page.")
	}
}

func mustJSON(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(raw)
}

// readable is the post id when the user may read it.
func (s *Server) readable(me, id string) (*post, bool) {
	p := s.posts[id]
	if p == nil || p.DeleteAt != 0 || !s.channels[p.ChannelID].members[me] {
		return nil, false
	}
	return p, true
}

type newPost struct {
	ChannelID     string         `json:"channel_id"`
	RootID        string         `json:"root_id"`
	Message       string         `json:"message"`
	Props         map[string]any `json:"props"`
	PendingPostID string         `json:"pending_post_id"`
	FileIDs       []string       `json:"file_ids"`
}

// createPost makes a post as me, as POST /posts does, and sends posted.
// It is called with s.mu held.
func (s *Server) createPost(me string, np newPost) (Post, int, *AppError) {
	bad := func(status int, id, msg string) (Post, int, *AppError) {
		return Post{}, status, &AppError{ID: id, Message: msg, RequestID: NewID(), StatusCode: status}
	}
	c := s.channels[np.ChannelID]
	switch {
	case c == nil || !c.members[me]:
		return bad(403, errNotAllowed, "You do not have the appropriate permissions.")
	case strings.TrimSpace(np.Message) == "" && len(np.FileIDs) == 0:
		return bad(400, "model.post.is_valid.msg.app_error", "Invalid message.")
	case utf8.RuneCountInString(np.Message) > MaxPostRunes:
		return bad(400, "model.post.is_valid.message_length.app_error", "Message property is longer than the maximum permitted length.")
	}
	if np.RootID != "" {
		root := s.posts[np.RootID]
		if root == nil || root.RootID != "" || root.ChannelID != np.ChannelID || root.DeleteAt != 0 {
			return bad(400, "api.post.create_post.root_id.app_error", "Invalid RootId parameter.")
		}
	}
	for k := range np.Props {
		if k == "from_webhook" || k == "override_username" || k == "override_icon_url" || k == "from_bot" {
			delete(np.Props, k)
		}
	}
	if np.PendingPostID != "" {
		key := np.PendingPostID
		if pp, ok := s.pending[key]; ok && time.Since(pp.when) < 30*time.Second {
			return s.posts[pp.id].Post, 201, nil
		}
	}
	u := s.users[me]
	now := s.now()
	p := &post{Post: Post{ID: NewID(), CreateAt: now, UpdateAt: now, UserID: me, ChannelID: c.ID, RootID: np.RootID,
		Message: np.Message, Props: map[string]any{}, PendingPostID: np.PendingPostID, Metadata: map[string]any{}}}
	for k, v := range np.Props {
		p.Props[k] = v
	}
	if u.IsBot {
		p.Props["from_bot"] = "true"
	}
	s.posts[p.ID] = p
	c.order = append(c.order, p.ID)
	c.LastPostAt, c.UpdateAt = now, now
	if np.RootID != "" {
		root := s.posts[np.RootID]
		root.UpdateAt = now
	}
	if np.PendingPostID != "" {
		s.pending[np.PendingPostID] = pendingPost{id: p.ID, when: time.Now()}
	}
	s.sendPosted(c, p.Post, u)
	return p.Post, 201, nil
}

// sendPosted sends posted to every member, mentions as each receiver's
// broadcast hook would write it.
func (s *Server) sendPosted(c *channel, p Post, sender *user) {
	raw := mustJSON(p)
	for m := range c.members {
		data := map[string]any{"channel_display_name": c.DisplayName, "channel_name": c.Name, "channel_type": c.Type,
			"post": raw, "sender_name": "@" + sender.Username, "set_online": true, "team_id": c.TeamID}
		if m != sender.ID {
			mentioned := c.Type == "D"
			if u := s.users[m]; u != nil && mentionsUser(p.Message, u.Username) {
				mentioned = true
			}
			if mentioned {
				data["mentions"] = mustJSON([]string{m})
			}
		}
		if c.Type == "D" {
			data["channel_display_name"] = "@" + sender.Username
		}
		s.sendTo(m, c.ID, "posted", data)
	}
}

// mentionsUser reports whether message has @username as a word.
func mentionsUser(message, username string) bool {
	re := regexp.MustCompile(`(^|[^a-z0-9_.-])@` + regexp.QuoteMeta(username) + `($|[^a-z0-9_-])`)
	return re.MatchString(strings.ToLower(message))
}

// broadcast sends event to every member of c but omit.
func (s *Server) broadcast(c *channel, omit, event string, data map[string]any) {
	if c == nil {
		return
	}
	for m := range c.members {
		if m != omit {
			s.sendTo(m, c.ID, event, data)
		}
	}
}

// Event is an event as the WebSocket sends it (model.WebSocketEvent).
type Event struct {
	Event     string         `json:"event"`
	Data      map[string]any `json:"data"`
	Broadcast Broadcast      `json:"broadcast"`
	Seq       int64          `json:"seq"`
}

// Broadcast is model.WebsocketBroadcast.
type Broadcast struct {
	OmitUsers        map[string]bool `json:"omit_users"`
	UserID           string          `json:"user_id"`
	ChannelID        string          `json:"channel_id"`
	TeamID           string          `json:"team_id"`
	ConnectionID     string          `json:"connection_id"`
	OmitConnectionID string          `json:"omit_connection_id"`
}

// sendTo numbers the event for each of the user's connections and sends
// or keeps it. Called with s.mu held.
func (s *Server) sendTo(userID, channelID, event string, data map[string]any) {
	for _, c := range s.conns {
		if c.user != userID {
			continue
		}
		if c.live == nil && time.Since(c.closed) > s.opts.ResumeWindow {
			continue
		}
		frame := mustJSON(Event{Event: event, Data: data, Broadcast: Broadcast{ChannelID: channelID}, Seq: c.seq})
		s.queue(c, []byte(frame))
	}
}

// queue keeps frame in the connection's dead queue and writes it when the
// connection is live and the server not silent.
func (s *Server) queue(c *connState, frame []byte) {
	c.seq++
	c.dead = append(c.dead, frame)
	if len(c.dead) > DeadQueueSize {
		c.dead = c.dead[1:]
		c.first++
	}
	if c.live != nil && s.fault.LoseNext > 0 {
		s.fault.LoseNext--
		return
	}
	if c.live != nil && !s.fault.Silent {
		select {
		case c.write <- frame:
		default: // a client that does not read loses its connection
			c.live.CloseNow()
		}
	}
}

// channelPosts is GET /channels/{id}/posts. Called with s.mu held.
func (s *Server) channelPosts(w http.ResponseWriter, r *http.Request, me, id string) {
	c := s.channels[id]
	if c == nil || !c.members[me] {
		appError(w, 403, errNotAllowed, "You do not have the appropriate permissions.")
		return
	}
	q := r.URL.Query()
	page, perr := strconv.Atoi(q.Get("page"))
	if q.Get("page") == "" {
		page, perr = 0, nil
	}
	per, serr := strconv.Atoi(q.Get("per_page"))
	if q.Get("per_page") == "" {
		per, serr = 60, nil
	}
	if perr != nil || serr != nil || page < 0 || per < 0 {
		appError(w, 400, "api.context.invalid_url_param.app_error", "Invalid or missing page in request URL.")
		return
	}
	if per > 200 {
		per = 200
	}
	if q.Has("since") {
		appError(w, 400, "api.context.invalid_url_param.app_error", "this fake serves ?after=, not ?since= (gatewayd never uses since)")
		return
	}
	var live []Post
	for _, pid := range c.order {
		if p := s.posts[pid]; p.DeleteAt == 0 {
			live = append(live, p.Post)
		}
	}
	var sel []Post
	if after := q.Get("after"); after != "" {
		anchor := s.posts[after]
		if anchor == nil || anchor.ChannelID != id {
			writeJSON(w, 200, newPostList())
			return
		}
		var newer []Post
		for _, p := range live {
			if p.CreateAt > anchor.CreateAt {
				newer = append(newer, p)
			}
		}
		sel = window(newer, page*per, per)
	} else {
		rev := make([]Post, len(live))
		for i, p := range live {
			rev[len(live)-1-i] = p
		}
		sel = window(rev, page*per, per)
	}
	sortPosts(sel)
	list := newPostList()
	for i := len(sel) - 1; i >= 0; i-- {
		list.add(sel[i])
	}
	writeJSON(w, 200, list)
}

func window(ps []Post, from, n int) []Post {
	if from >= len(ps) {
		return nil
	}
	return ps[from:min(from+n, len(ps))]
}

// PostList is model.PostList.
type PostList struct {
	Order      []string        `json:"order"`
	Posts      map[string]Post `json:"posts"`
	NextPostID string          `json:"next_post_id"`
	PrevPostID string          `json:"prev_post_id"`
	HasNext    *bool           `json:"has_next,omitempty"`
}

func newPostList() *PostList { return &PostList{Order: []string{}, Posts: map[string]Post{}} }

func (l *PostList) add(p Post) {
	l.Order = append(l.Order, p.ID)
	l.Posts[p.ID] = p
}

// serveWebSocket is the upgrade and one connection's life.
func (s *Server) serveWebSocket(w http.ResponseWriter, r *http.Request, f Fault) {
	s.mu.Lock()
	me, ok := s.tokens[token(r)]
	s.mu.Unlock()
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	if !ok || f.Refuse {
		// The upgrade works without a session; a connection that never
		// authenticates is closed (after 5 s on the server; at once here).
		conn.CloseNow()
		return
	}
	conn.SetReadLimit(8 << 10) // SocketMaxMessageSizeKb
	q := r.URL.Query()
	s.mu.Lock()
	c, resumed := s.attach(me, q.Get("connection_id"), q.Get("sequence_number"))
	c.live, c.write, c.done = conn, make(chan []byte, 4096), make(chan struct{})
	var replay [][]byte
	if resumed != nil {
		replay = resumed
	} else {
		hello := mustJSON(Event{Event: "hello", Data: map[string]any{"connection_id": c.id,
			"server_version": "10.5.0.10.5.0.fake.false", "server_hostname": "fakemattermost"},
			Broadcast: Broadcast{UserID: me}, Seq: c.seq})
		c.seq++
		c.dead = append(c.dead, []byte(hello))
		replay = [][]byte{[]byte(hello)}
	}
	silent := s.fault.Silent
	write, done := c.write, c.done
	s.mu.Unlock()

	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	go func() {
		defer cancel()
		if !silent {
			for _, fr := range replay {
				if conn.Write(ctx, websocket.MessageText, fr) != nil {
					return
				}
			}
		}
		for {
			select {
			case fr := <-write:
				if conn.Write(ctx, websocket.MessageText, fr) != nil {
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			break
		}
		var req struct {
			Seq    int64          `json:"seq"`
			Action string         `json:"action"`
			Data   map[string]any `json:"data"`
		}
		if json.Unmarshal(data, &req) != nil {
			continue
		}
		resp := Response{Status: "OK", SeqReply: req.Seq}
		switch {
		case req.Seq <= 0:
			resp = Response{Status: "FAIL", SeqReply: req.Seq, Error: &AppError{ID: "api.web_socket_router.bad_seq.app_error",
				Message: "Invalid sequence for WebSocket message.", StatusCode: 400}}
		case req.Action == "ping":
			resp.Data = map[string]any{"text": "pong", "version": "10.5.0", "server_time": time.Now().UnixMilli(), "node_id": ""}
		case req.Action == "user_typing":
		case req.Action == "authentication_challenge":
			continue // already authenticated: no answer, as the server
		default:
			resp = Response{Status: "FAIL", SeqReply: req.Seq, Error: &AppError{ID: "api.web_socket_router.bad_action.app_error",
				Message: "Unknown WebSocket action.", StatusCode: 500}}
		}
		s.mu.Lock()
		revoked := s.fault.Refuse
		if _, ok := s.tokens[token(r)]; !ok {
			revoked = true
		}
		if revoked {
			resp = Response{Status: "FAIL", SeqReply: req.Seq, Error: &AppError{ID: "api.web_socket_router.not_authenticated.app_error",
				Message: "No websocket session.", StatusCode: 401}}
		}
		quiet := s.fault.Silent
		s.mu.Unlock()
		if !quiet {
			select {
			case write <- []byte(mustJSON(resp)):
			default:
			}
		}
	}
	s.mu.Lock()
	if c.live == conn {
		c.live, c.closed = nil, time.Now()
	}
	s.mu.Unlock()
	close(done)
	conn.CloseNow()
}

// Response is model.WebSocketResponse.
type Response struct {
	Status   string         `json:"status"`
	SeqReply int64          `json:"seq_reply,omitempty"`
	Data     map[string]any `json:"data,omitempty"`
	Error    *AppError      `json:"error,omitempty"`
}

// attach finds the connection a reconnect resumes, or makes a new one.
// replay is the events to send again (nil: a new connection, whose hello
// the caller sends). Called with s.mu held.
func (s *Server) attach(me, id, seqText string) (c *connState, replay [][]byte) {
	if old := s.conns[id]; id != "" && old != nil && old.user == me && time.Since(old.closed) <= s.opts.ResumeWindow {
		if old.live != nil {
			old.live.CloseNow() // one connection per id
		}
		seq, err := strconv.ParseInt(seqText, 10, 64)
		if err == nil && seq >= old.first && seq <= old.seq {
			replay = [][]byte{}
			for i := seq - old.first; i < int64(len(old.dead)); i++ {
				replay = append(replay, old.dead[i])
			}
			return old, replay
		}
	}
	c = &connState{id: NewID(), user: me}
	s.conns[c.id] = c
	return c, nil
}

// Addr is the server's host:port.
func (s *Server) Addr() string {
	return s.srv.Listener.Addr().(*net.TCPAddr).String()
}
