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
//	GET  /channels/{id}                  a Channel
//	GET  /channels/{id}/members          ?page=&per_page= (60, at most 200): ChannelMembers
//	GET  /teams/{id}/members             ?page=&per_page=: the team's TeamMembers
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
// post already made; only a channel's members post in it (403), and read
// it, but for an open channel, which every member of its team reads (the
// channel and its members; its posts are read by members only here).
// There is one team: a channel's members are its members.
//
// WebSocket at /api/v4/websocket, authenticated by the upgrade's header:
// a fresh connection's first event is hello (seq 0, a new connection_id);
// events are numbered per connection (seq 0, 1, 2, ...); a reconnect with
// connection_id and sequence_number resumes: the missed events of the last
// 128 are sent again, and no hello, or a new hello (new id, seq 0) when they
// are gone or the id is unknown. Events: hello, posted (data.post a JSON
// string, mentions a JSON string naming the receiver when it is mentioned
// or the DM's other member), post_edited, typing, user_added (AddMember).
// Forge sends a posted event the server never made. Actions: ping (answered
// {"status":"OK","seq_reply":N,"data":{"text":"pong",...}}), user_typing.
package fakemattermost

import (
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"sync"
	"time"

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
	// Before, when set, is called with each REST request's method and
	// path before it is answered: a test blocks in it to keep one request
	// in flight while it looks at what the client did meanwhile.
	Before func(method, path string)
	// Intercept, when set, is called with each REST request and its body
	// before it is carried out; a status other than 0 is the answer
	// instead, and the request is not carried out: a test sees what the
	// client had written when it sent the request, and may make it lost
	// on the way, as a client killed before the server had it.
	Intercept func(method, path string, body []byte) int
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
	// NoUpgrade, when not 0, is the status the WebSocket's upgrade is
	// answered with instead (as a proxy that does not pass WebSockets).
	NoUpgrade int
	// ForbidMe answers GET /users/me with 403, as for a token whose
	// account may not use the API.
	ForbidMe bool
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
	team     map[string]bool // the one team's members
	pending  map[string]pendingPost
	conns    map[string]*connState
	fault    Fault
	requests []Request
	resumes  int // reconnects that resumed a connection (no new hello)
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
		posts: map[string]*post{}, team: map[string]bool{}, pending: map[string]pendingPost{}, conns: map[string]*connState{}}
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

// Resumes is how many reconnects resumed a connection by its
// connection_id and sequence_number (the missed events sent again, no
// new hello).
func (s *Server) Resumes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resumes
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

// NewChannel makes an open channel of the team with these members (who
// join the team, as a channel's members must be its team's).
func (s *Server) NewChannel(name string, members ...string) Channel {
	return s.newChannel("O", name, members)
}

// NewPrivateChannel makes a private channel of the team with these
// members.
func (s *Server) NewPrivateChannel(name string, members ...string) Channel {
	return s.newChannel("P", name, members)
}

func (s *Server) newChannel(typ, name string, members []string) Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &channel{Channel: Channel{ID: NewID(), Type: typ, Name: name, DisplayName: name, TeamID: teamID, CreateAt: time.Now().UnixMilli()},
		members: map[string]bool{}}
	c.UpdateAt = c.CreateAt
	for _, m := range members {
		c.members[m] = true
		s.team[m] = true
	}
	s.channels[c.ID] = c
	return c.Channel
}

// JoinTeam makes the user a member of the team (and so a reader of its
// open channels) without joining any channel.
func (s *Server) JoinTeam(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.team[userID] = true
}

// AddMember adds the user to the channel (and the team), and sends
// user_added to the channel's members, as POST /channels/{id}/members
// does (app.AddChannelMember: the event's data names the user and the
// team, its broadcast the channel).
func (s *Server) AddMember(channelID, userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.channels[channelID]
	if c == nil || c.members[userID] {
		return
	}
	c.members[userID] = true
	if c.TeamID != "" {
		s.team[userID] = true
	}
	s.broadcast(c, "", "user_added", map[string]any{"user_id": userID, "team_id": c.TeamID})
}

// Forge sends the user's WebSocket connections a posted event the server
// did not make: its post is p as given (nothing is stored), with
// channel_type and sender_name as given, framed as the server frames
// posted. It stands for a stream tampered with on the way (a proxy, a
// compromised plugin): what the event claims need not be what the server
// holds.
func (s *Server) Forge(to string, p Post, channelType, senderName string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.Props == nil {
		p.Props = map[string]any{}
	}
	if p.Metadata == nil {
		p.Metadata = map[string]any{}
	}
	data := map[string]any{"channel_display_name": "", "channel_name": "", "channel_type": channelType,
		"post": mustJSON(p), "sender_name": senderName, "set_online": true, "team_id": ""}
	if mentionsUser(p.Message, s.users[to].Username) || channelType == "D" {
		data["mentions"] = mustJSON([]string{to})
	}
	s.sendTo(to, p.ChannelID, "posted", data)
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
	p, status, appErr := s.createPost(userID, Post{ChannelID: channelID, RootID: root, Message: message}, nil)
	if appErr != nil {
		return Post{}, fmt.Errorf("%d %s", status, appErr.Message)
	}
	return p, nil
}

// PostFromWebhook posts message as an incoming webhook the user set up
// does: in the user's name (user_id), marked by the server with
// from_webhook and the name the caller chose (override_username).
func (s *Server) PostFromWebhook(userID, channelID, root, message, username string) (Post, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, status, appErr := s.createPost(userID, Post{ChannelID: channelID, RootID: root, Message: message},
		map[string]any{"from_webhook": "true", "override_username": username})
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

// Addr is the server's host:port.
func (s *Server) Addr() string {
	return s.srv.Listener.Addr().(*net.TCPAddr).String()
}
