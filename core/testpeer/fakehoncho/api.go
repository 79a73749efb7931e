package fakehoncho

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// workspace is the workspace named, made on first use.
func (s *Server) workspace(name string) *workspace {
	w := s.workspaces[name]
	if w == nil {
		w = &workspace{object: newObject(name, "", nil, nil, s.now()), peers: map[string]*object{}, sessions: map[string]*session{}}
		s.workspaces[name] = w
	}
	return w
}

// namedBody is the body of a get-or-create of a workspace or a peer.
type namedBody struct {
	ID            *string        `json:"id"`
	Metadata      map[string]any `json:"metadata"`
	Configuration map[string]any `json:"configuration"`
}

// decodeNamed reads a namedBody strictly, its id required and checked.
func decodeNamed(body json.RawMessage) (namedBody, *apiError) {
	var b namedBody
	if e := decodeStrict(body, &b); e != nil {
		return b, e
	}
	return b, checkName("id", b.ID)
}

func (s *Server) createWorkspace(c claims, body json.RawMessage) (int, any, *apiError) {
	b, e := decodeNamed(body)
	if e != nil {
		return 0, nil, e
	}
	if !c.Admin && c.Workspace != *b.ID {
		return 0, nil, fail(401, "Unauthorized access to resource")
	}
	status := 200
	if s.workspaces[*b.ID] == nil {
		status = 201
		w := s.workspace(*b.ID)
		if b.Metadata != nil {
			w.Metadata = b.Metadata
		}
		if b.Configuration != nil {
			w.Configuration = b.Configuration
		}
	}
	o := s.workspaces[*b.ID].object
	return status, o, nil
}

func (s *Server) peer(ws *workspace, name string) (*object, bool) {
	if p := ws.peers[name]; p != nil {
		return p, false
	}
	p := newObject(name, ws.ID, nil, nil, s.now())
	ws.peers[name] = &p
	return &p, true
}

func (s *Server) createPeer(c claims, ws string, body json.RawMessage) (int, any, *apiError) {
	if !nameRE.MatchString(ws) {
		return 0, nil, fail(404, "Workspace %s not found", ws)
	}
	b, e := decodeNamed(body)
	if e != nil {
		return 0, nil, e
	}
	if !c.Admin && (c.Workspace != "" && c.Workspace != ws || c.Peer != "" && c.Peer != *b.ID) {
		return 0, nil, fail(401, "Unauthorized access to resource")
	}
	w := s.workspace(ws)
	p, created := s.peer(w, *b.ID)
	if b.Metadata != nil {
		p.Metadata = b.Metadata
	}
	if b.Configuration != nil {
		p.Configuration = b.Configuration
	}
	if created {
		return 201, *p, nil
	}
	return 200, *p, nil
}

// session gets or makes a session (and its workspace) with the peers
// named; the caller holds s.mu.
func (s *Server) session(ws, name string, peers map[string]any) *session {
	w := s.workspace(ws)
	sess := w.sessions[name]
	if sess == nil {
		active := true
		sess = &session{object: newObject(name, ws, nil, nil, s.now()), peers: map[string]bool{}}
		sess.IsActive = &active
		w.sessions[name] = sess
		w.order = append(w.order, name)
	}
	for p := range peers {
		s.peer(w, p)
		sess.peers[p] = true
	}
	return sess
}

var sessionPeerConfigFields = map[string]bool{"observe_me": true, "observe_others": true}

func (s *Server) createSession(c claims, ws string, body json.RawMessage) (int, any, *apiError) {
	var b struct {
		ID            *string        `json:"id"`
		Metadata      map[string]any `json:"metadata"`
		Peers         map[string]any `json:"peers"`
		Configuration map[string]any `json:"configuration"`
		Scopes        []string       `json:"scopes"`
	}
	if e := decodeStrict(body, &b); e != nil {
		return 0, nil, e
	}
	if e := checkName("id", b.ID); e != nil {
		return 0, nil, e
	}
	if !nameRE.MatchString(ws) {
		return 0, nil, fail(404, "Workspace %s not found", ws)
	}
	if !c.Admin && (c.Workspace != "" && c.Workspace != ws || c.Session != "" && c.Session != *b.ID) {
		return 0, nil, fail(401, "Unauthorized access to resource")
	}
	if len(b.Scopes) > 0 {
		return 0, nil, fail(422, "the fake does not keep scopes")
	}
	for p, cfg := range b.Peers {
		if !nameRE.MatchString(p) {
			return 0, nil, invalid([]any{"body", "peers", p}, "not a peer name")
		}
		m, ok := cfg.(map[string]any)
		if !ok {
			return 0, nil, invalid([]any{"body", "peers", p}, "Input should be a valid dictionary")
		}
		for k := range m {
			if !sessionPeerConfigFields[k] {
				return 0, nil, invalid([]any{"body", "peers", p, k}, "Extra inputs are not permitted")
			}
		}
	}
	w := s.workspace(ws)
	_, existed := w.sessions[*b.ID]
	sess := s.session(ws, *b.ID, b.Peers)
	if b.Metadata != nil {
		sess.Metadata = b.Metadata
	}
	if b.Configuration != nil {
		sess.Configuration = b.Configuration
	}
	if existed {
		return 200, sess.object, nil
	}
	return 201, sess.object, nil
}

type messageCreate struct {
	PeerID        *string        `json:"peer_id"`
	Content       *string        `json:"content"`
	Metadata      map[string]any `json:"metadata"`
	Configuration map[string]any `json:"configuration"`
	CreatedAt     *string        `json:"created_at"`
}

func (s *Server) addMessages(c claims, ws, sessName string, body json.RawMessage) (int, any, *apiError) {
	if !c.Admin && (c.Workspace != ws || c.Peer != "" || c.Session != "" && c.Session != sessName) {
		return 0, nil, fail(401, "JWT not permissioned for this resource")
	}
	var b struct {
		Messages []messageCreate `json:"messages"`
	}
	if e := decodeStrict(body, &b); e != nil {
		return 0, nil, e
	}
	if len(b.Messages) < 1 || len(b.Messages) > 100 {
		return 0, nil, invalid([]any{"body", "messages"}, fmt.Sprintf("List should have at least 1 item and at most 100 items, not %d", len(b.Messages)))
	}
	for i, m := range b.Messages {
		switch {
		case m.PeerID == nil:
			return 0, nil, invalid([]any{"body", "messages", i, "peer_id"}, "Field required")
		case m.Content == nil:
			return 0, nil, invalid([]any{"body", "messages", i, "content"}, "Field required")
		case utf8.RuneCountInString(*m.Content) > s.opts.MaxMessageSize:
			return 0, nil, invalid([]any{"body", "messages", i, "content"},
				fmt.Sprintf("String should have at most %d characters", s.opts.MaxMessageSize))
		case !nameRE.MatchString(*m.PeerID):
			return 0, nil, invalid([]any{"body", "messages", i, "peer_id"}, "not a peer name")
		}
		if m.CreatedAt != nil {
			if _, err := time.Parse(time.RFC3339Nano, *m.CreatedAt); err != nil {
				return 0, nil, invalid([]any{"body", "messages", i, "created_at"}, "Input should be a valid datetime")
			}
		}
	}
	if !nameRE.MatchString(ws) || !nameRE.MatchString(sessName) {
		return 0, nil, fail(404, "Session not found")
	}
	sess := s.session(ws, sessName, nil)
	out := make([]Message, 0, len(b.Messages))
	for _, m := range b.Messages {
		sess.peers[*m.PeerID] = true
		s.peer(s.workspaces[ws], *m.PeerID)
		at := ""
		if m.CreatedAt != nil {
			at = *m.CreatedAt
		}
		out = append(out, s.addMessage(ws, sess, *m.PeerID, *m.Content, m.Metadata, at))
	}
	return 201, out, nil
}

func (s *Server) addMessage(ws string, sess *session, peer, content string, meta map[string]any, at string) Message {
	if meta == nil {
		meta = map[string]any{}
	}
	if at == "" {
		at = s.now()
	} else if t, err := time.Parse(time.RFC3339Nano, at); err == nil {
		at = t.UTC().Format("2006-01-02T15:04:05.000000Z")
	}
	content = strings.ReplaceAll(content, "\x00", "")
	m := Message{ID: newID(), Content: content, PeerID: peer, SessionID: sess.ID, Metadata: meta,
		CreatedAt: at, WorkspaceID: ws, TokenCount: len(strings.Fields(content))}
	sess.messages = append(sess.messages, m)
	return m
}

// newID is a 21-character id, as Honcho's nanoid public ids are.
func newID() string {
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-"
	b := make([]byte, 21)
	rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// page is fastapi-pagination's Page.
type page struct {
	Items []Message `json:"items"`
	Total int       `json:"total"`
	Page  int       `json:"page"`
	Size  int       `json:"size"`
	Pages int       `json:"pages"`
}

func (s *Server) listMessages(c claims, ws, sessName string, r *http.Request, body json.RawMessage) (int, any, *apiError) {
	w := s.workspaces[ws]
	var sess *session
	if w != nil {
		sess = w.sessions[sessName]
	}
	member := c.Peer != "" && sess != nil && sess.peers[c.Peer]
	if !c.Admin && (c.Workspace != ws || c.Session != "" && c.Session != sessName || c.Peer != "" && !member) {
		return 0, nil, fail(401, "JWT not permissioned for this resource")
	}
	var b struct {
		Filters map[string]any `json:"filters"`
	}
	if len(body) > 0 && string(body) != "null" {
		if e := decodeStrict(body, &b); e != nil {
			return 0, nil, e
		}
	}
	q := r.URL.Query()
	pg, size := 1, 50
	for _, p := range []struct {
		key      string
		into     *int
		min, max int
	}{{"page", &pg, 1, 1 << 30}, {"size", &size, 1, 100}} {
		if v := q.Get(p.key); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < p.min || n > p.max {
				return 0, nil, invalid([]any{"query", p.key}, fmt.Sprintf("Input should be from %d to %d", p.min, p.max))
			}
			*p.into = n
		}
	}
	reverse := false
	if v := q.Get("reverse"); v != "" {
		var err error
		if reverse, err = strconv.ParseBool(v); err != nil {
			return 0, nil, invalid([]any{"query", "reverse"}, "Input should be a valid boolean")
		}
	}
	if sess == nil {
		return 0, nil, fail(404, "Session not found")
	}
	var msgs []Message
	for _, m := range sess.messages {
		ok, e := matches(m, b.Filters)
		if e != nil {
			return 0, nil, e
		}
		if ok {
			msgs = append(msgs, m)
		}
	}
	if reverse {
		for i, j := 0, len(msgs)-1; i < j; i, j = i+1, j-1 {
			msgs[i], msgs[j] = msgs[j], msgs[i]
		}
	}
	out := page{Items: []Message{}, Total: len(msgs), Page: pg, Size: size, Pages: (len(msgs) + size - 1) / size}
	if from := (pg - 1) * size; from < len(msgs) {
		out.Items = msgs[from:min(from+size, len(msgs))]
	}
	return 200, out, nil
}

// matches applies the filters the fake knows: session_id, peer_id (a
// name, a list, or {"in": [...]}) and metadata (each key equal to a flat
// value, or {"in": [...]} of them). Any other filter is refused, so a
// client relying on one is seen.
func matches(m Message, filters map[string]any) (bool, *apiError) {
	for k, v := range filters {
		switch k {
		case "session_id", "peer_id":
			field := m.SessionID
			if k == "peer_id" {
				field = m.PeerID
			}
			ok, e := nameIn(field, v, k)
			if e != nil || !ok {
				return false, e
			}
		case "metadata":
			want, ok := v.(map[string]any)
			if !ok {
				return false, fail(422, "filters.metadata must be an object")
			}
			for mk, mv := range want {
				have, ok := m.Metadata[mk]
				if op, isOp := mv.(map[string]any); isOp {
					in, ok2 := op["in"].([]any)
					if !ok2 || len(op) != 1 {
						return false, fail(422, "the fake knows only {\"in\": [...]} in metadata filters")
					}
					found := false
					for _, x := range in {
						found = found || ok && fmt.Sprint(have) == fmt.Sprint(x)
					}
					if !found {
						return false, nil
					}
					continue
				}
				if !ok || fmt.Sprint(have) != fmt.Sprint(mv) {
					return false, nil
				}
			}
		default:
			return false, fail(422, "the fake does not filter on %s", k)
		}
	}
	return true, nil
}

func nameIn(field string, v any, key string) (bool, *apiError) {
	switch v := v.(type) {
	case string:
		return field == v, nil
	case []any:
		for _, x := range v {
			if x == field {
				return true, nil
			}
		}
		return false, nil
	case map[string]any:
		if in, ok := v["in"].([]any); ok && len(v) == 1 {
			return nameIn(field, in, key)
		}
	}
	return false, fail(422, "filters.%s must be an id, a list of ids, or {\"in\": [...]}", key)
}

func (s *Server) search(c claims, ws string, body json.RawMessage) (int, any, *apiError) {
	if !c.Admin && (c.Workspace != ws || c.Peer != "" || c.Session != "") {
		return 0, nil, fail(401, "JWT not permissioned for this resource")
	}
	var b struct {
		Query   *string        `json:"query"`
		Filters map[string]any `json:"filters"`
		Limit   *int           `json:"limit"`
		Scope   *string        `json:"scope"`
	}
	if e := decodeStrict(body, &b); e != nil {
		return 0, nil, e
	}
	if b.Query == nil {
		return 0, nil, invalid([]any{"body", "query"}, "Field required")
	}
	limit := 10
	if b.Limit != nil {
		if *b.Limit < 1 || *b.Limit > 100 {
			return 0, nil, invalid([]any{"body", "limit"}, "Input should be from 1 to 100")
		}
		limit = *b.Limit
	}
	if b.Scope != nil {
		return 0, nil, fail(422, "the fake does not keep scopes")
	}
	words := searchWords(*b.Query)
	type scored struct {
		m     Message
		score int
	}
	var hits []scored
	w := s.workspaces[ws]
	if w != nil && len(words) > 0 {
		for _, name := range w.order {
			for _, m := range w.sessions[name].messages {
				ok, e := matches(m, b.Filters)
				if e != nil {
					return 0, nil, e
				}
				if !ok {
					continue
				}
				if n := wordScore(m.Content, words); n > 0 {
					hits = append(hits, scored{m, n})
				}
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	out := []Message{}
	for i := 0; i < len(hits) && i < limit; i++ {
		out = append(out, hits[i].m)
	}
	return 200, out, nil
}

func searchWords(q string) []string {
	return strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// wordScore is how often the words occur in content, 0 unless every one
// does.
func wordScore(content string, words []string) int {
	have := map[string]int{}
	for _, w := range searchWords(content) {
		have[w]++
	}
	n := 0
	for _, w := range words {
		if have[w] == 0 {
			return 0
		}
		n += have[w]
	}
	return n
}
