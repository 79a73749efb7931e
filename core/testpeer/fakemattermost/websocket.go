package fakemattermost

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"
)

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
			s.resumes++
			return old, replay
		}
	}
	c = &connState{id: NewID(), user: me}
	s.conns[c.id] = c
	return c, nil
}
