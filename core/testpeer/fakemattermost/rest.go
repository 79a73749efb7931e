package fakemattermost

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"boxmaker/core/clock"
)

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
		if f.NoUpgrade != 0 {
			http.Error(w, http.StatusText(f.NoUpgrade), f.NoUpgrade)
			return
		}
		s.serveWebSocket(w, r, f)
		return
	}
	if f.Delay > 0 && clock.Sleep(r.Context(), f.Delay) != nil {
		return // the client left
	}
	if s.opts.Before != nil {
		s.opts.Before(r.Method, r.URL.Path)
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	rec := &statusRecorder{ResponseWriter: w, status: 200}
	lost := 0
	if s.opts.Intercept != nil {
		lost = s.opts.Intercept(r.Method, r.URL.Path, body)
	}
	if lost != 0 {
		http.Error(rec, http.StatusText(lost), lost)
	} else {
		s.route(rec, r, body, f)
	}
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
	reChan        = regexp.MustCompile(`^/api/v4/channels/([a-z0-9]{26})$`)
	reChanMembers = regexp.MustCompile(`^/api/v4/channels/([a-z0-9]{26})/members$`)
	reTeamMembers = regexp.MustCompile(`^/api/v4/teams/([a-z0-9]{26})/members$`)
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
	case m == http.MethodGet && path == "/api/v4/users/me" && f.ForbidMe:
		appError(w, 403, errNotAllowed, "You do not have the appropriate permissions.")
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
	case m == http.MethodGet && reChan.MatchString(path):
		c := s.channels[reChan.FindStringSubmatch(path)[1]]
		switch {
		case c == nil:
			appError(w, 404, "app.channel.get.existing.app_error", "Unable to find the existing channel.")
		case !s.canRead(me, c):
			appError(w, 403, errNotAllowed, "You do not have the appropriate permissions.")
		default:
			writeJSON(w, 200, c.Channel)
		}
	case m == http.MethodGet && reChanMembers.MatchString(path):
		c := s.channels[reChanMembers.FindStringSubmatch(path)[1]]
		page, per, ok := paging(r)
		switch {
		case !ok:
			appError(w, 400, "api.context.invalid_url_param.app_error", "Invalid or missing page in request URL.")
		case c == nil || !s.canRead(me, c):
			appError(w, 403, errNotAllowed, "You do not have the appropriate permissions.")
		default:
			ids := sortedKeys(c.members)
			out := []ChannelMember{}
			for _, id := range window(ids, page*per, per) {
				out = append(out, ChannelMember{ChannelID: c.ID, UserID: id, Roles: "channel_user", NotifyProps: map[string]string{
					"desktop": "default", "email": "default", "ignore_channel_mentions": "default", "mark_unread": "all", "push": "default"},
					SchemeUser: true})
			}
			writeJSON(w, 200, out)
		}
	case m == http.MethodGet && reTeamMembers.MatchString(path):
		page, per, ok := paging(r)
		switch {
		case !ok:
			appError(w, 400, "api.context.invalid_url_param.app_error", "Invalid or missing page in request URL.")
		case reTeamMembers.FindStringSubmatch(path)[1] != teamID:
			appError(w, 404, "app.team.get.find.app_error", "Unable to find the existing team.")
		case !s.team[me]:
			appError(w, 403, errNotAllowed, "You do not have the appropriate permissions.")
		default:
			out := []TeamMember{}
			for _, id := range window(sortedKeys(s.team), page*per, per) {
				out = append(out, TeamMember{TeamID: teamID, UserID: id, Roles: "team_user", SchemeUser: true})
			}
			writeJSON(w, 200, out)
		}
	case m == http.MethodGet && reChanPosts.MatchString(path):
		s.channelPosts(w, r, me, reChanPosts.FindStringSubmatch(path)[1])
	case m == http.MethodPost && path == "/api/v4/posts":
		var np Post
		if err := json.Unmarshal(body, &np); err != nil {
			appError(w, 400, "api.context.invalid_body_param.app_error", "Invalid or missing post in request body.")
			return
		}
		if f.Forbidden[np.ChannelID] {
			appError(w, 403, errNotAllowed, "You do not have the appropriate permissions.")
			return
		}
		p, status, e := s.createPost(me, np, nil)
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
			Message *string         `json:"message"`
			Props   *map[string]any `json:"props"`
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
			if patch.Props != nil {
				// model.Post.Patch: the props given replace them all; the
				// server's own marks stay the server's.
				props := map[string]any{}
				for k, v := range *patch.Props {
					if k != "from_webhook" && k != "override_username" && k != "override_icon_url" && k != "from_bot" {
						props[k] = v
					}
				}
				if v, ok := p.Props["from_bot"]; ok {
					props["from_bot"] = v
				}
				p.Props = props
			}
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

// canRead reports whether the user may read channel c: its members, and
// for an open channel every member of its team (a public channel is read
// without joining it). Called with s.mu held.
func (s *Server) canRead(me string, c *channel) bool {
	return c.members[me] || c.Type == "O" && s.team[me]
}

// paging reads ?page= (from 0) and ?per_page= (60 when absent, at most
// 200), as the server's params do.
func paging(r *http.Request) (page, per int, ok bool) {
	q := r.URL.Query()
	page, per = 0, 60
	var err error
	if v := q.Get("page"); v != "" {
		if page, err = strconv.Atoi(v); err != nil || page < 0 {
			return 0, 0, false
		}
	}
	if v := q.Get("per_page"); v != "" {
		if per, err = strconv.Atoi(v); err != nil || per < 0 {
			return 0, 0, false
		}
	}
	return page, min(per, 200), true
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// readable is the post id when the user may read it.
func (s *Server) readable(me, id string) (*post, bool) {
	p := s.posts[id]
	if p == nil || p.DeleteAt != 0 || !s.channels[p.ChannelID].members[me] {
		return nil, false
	}
	return p, true
}

// createPost makes a post as me from the body of POST /posts (a
// model.Post, of which the server reads the channel, root, message,
// props, pending post id and files), as that route does, and sends
// posted. server are props the server itself sets (a webhook's marks),
// after a client's reserved ones are dropped. It is called with s.mu
// held.
func (s *Server) createPost(me string, np Post, server map[string]any) (Post, int, *AppError) {
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
	for k, v := range server {
		p.Props[k] = v
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

func window[T any](ps []T, from, n int) []T {
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
