package gateway

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"time"
)

// The Mattermost wire types gatewayd uses: only the fields it reads or
// sends, spelt as server/public/model spells them (the fake Mattermost's
// conformance module checks both against the official types).

// Post is a Mattermost post (model.Post).
type Post struct {
	ID            string         `json:"id"`
	CreateAt      int64          `json:"create_at"`
	UpdateAt      int64          `json:"update_at"`
	EditAt        int64          `json:"edit_at"`
	DeleteAt      int64          `json:"delete_at"`
	UserID        string         `json:"user_id"`
	ChannelID     string         `json:"channel_id"`
	RootID        string         `json:"root_id"`
	Message       string         `json:"message"`
	Type          string         `json:"type"`
	Props         map[string]any `json:"props"`
	PendingPostID string         `json:"pending_post_id"`
}

// Thread is the id of the thread a post belongs to: its root's.
func (p Post) Thread() string {
	if p.RootID != "" {
		return p.RootID
	}
	return p.ID
}

// Prop is a string prop of the post ("" when absent or not a string).
func (p Post) Prop(key string) string {
	s, _ := p.Props[key].(string)
	return s
}

// PostList is a list of posts (model.PostList): Posts by id, Order the ids
// the server chose to list (newest first).
type PostList struct {
	Order      []string        `json:"order"`
	Posts      map[string]Post `json:"posts"`
	NextPostID string          `json:"next_post_id"`
	PrevPostID string          `json:"prev_post_id"`
}

// Sorted are the listed posts oldest first: by create_at, then id.
func (l PostList) Sorted() []Post {
	out := make([]Post, 0, len(l.Order))
	seen := map[string]bool{}
	for _, id := range l.Order {
		if p, ok := l.Posts[id]; ok && !seen[id] {
			seen[id] = true
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].CreateAt != out[j].CreateAt {
			return out[i].CreateAt < out[j].CreateAt
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// User is a Mattermost user (model.User).
type User struct {
	ID       string `json:"id"`
	Username string `json:"username"`
	IsBot    bool   `json:"is_bot"`
	DeleteAt int64  `json:"delete_at"`
}

// Channel is a Mattermost channel (model.Channel). Type is O, P, D or G.
type Channel struct {
	ID         string `json:"id"`
	Type       string `json:"type"`
	Name       string `json:"name"`
	TeamID     string `json:"team_id"`
	LastPostAt int64  `json:"last_post_at"`
}

// AppError is the body of a REST error (model.AppError).
type AppError struct {
	ID         string `json:"id"`
	Message    string `json:"message"`
	RequestID  string `json:"request_id"`
	StatusCode int    `json:"status_code"`
}

// APIError is a REST request Mattermost answered with an error status.
type APIError struct {
	Method, Path string
	Status       int
	App          AppError // empty when the body was not an AppError
}

func (e *APIError) Error() string {
	msg := e.App.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	if e.App.ID != "" {
		msg += " (" + e.App.ID + ")"
	}
	return fmt.Sprintf("%s %s: %d %s", e.Method, e.Path, e.Status, msg)
}

// Refused reports whether err is Mattermost refusing the token itself:
// 401 or 403 on users/me.
func Refused(err error) (int, bool) {
	var ae *APIError
	if errors.As(err, &ae) && (ae.Status == http.StatusUnauthorized || ae.Status == http.StatusForbidden) {
		return ae.Status, true
	}
	return 0, false
}

// Client is Mattermost's REST API v4, with the bot's token.
type Client struct {
	URL   string // scheme://host[:port]
	Token string
	HTTP  *http.Client
}

// NewHTTPClient is the HTTP client gatewayd uses for REST and the
// WebSocket: TLS verified against roots (nil: the system's), never
// turned off, and every request bounded by timeout.
func NewHTTPClient(roots *x509.CertPool, timeout time.Duration) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	tr.MaxIdleConnsPerHost = 8
	return &http.Client{Transport: tr, Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// maxBody bounds one REST answer: a page of 200 posts of 16383 runes
// each fits.
const maxBody = 64 << 20

func (c *Client) do(ctx context.Context, method, path string, query url.Values, in, out any) error {
	u := c.URL + "/api/v4" + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var body io.Reader
	if in != nil {
		raw, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		e := &APIError{Method: method, Path: path, Status: resp.StatusCode}
		json.Unmarshal(data, &e.App) // a plain-text body (429) leaves it empty
		return e
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: the answer is not what Mattermost sends: %v", method, path, err)
	}
	return nil
}

// Me is the token's user (GET /users/me).
func (c *Client) Me(ctx context.Context) (User, error) {
	var u User
	err := c.do(ctx, http.MethodGet, "/users/me", nil, nil, &u)
	return u, err
}

// User is the user id (GET /users/{id}).
func (c *Client) User(ctx context.Context, id string) (User, error) {
	var u User
	err := c.do(ctx, http.MethodGet, "/users/"+url.PathEscape(id), nil, nil, &u)
	return u, err
}

// NewPost is the body of POST /posts.
type NewPost struct {
	ChannelID     string         `json:"channel_id"`
	RootID        string         `json:"root_id,omitempty"`
	Message       string         `json:"message"`
	Props         map[string]any `json:"props,omitempty"`
	PendingPostID string         `json:"pending_post_id,omitempty"`
}

// CreatePost posts p (POST /posts).
func (c *Client) CreatePost(ctx context.Context, p NewPost) (Post, error) {
	var out Post
	err := c.do(ctx, http.MethodPost, "/posts", url.Values{"set_online": {"false"}}, p, &out)
	return out, err
}

// PatchPost replaces a post's message, and its props when props is not
// nil (PUT /posts/{id}/patch: props given replace them all).
func (c *Client) PatchPost(ctx context.Context, id, message string, props map[string]any) (Post, error) {
	var out Post
	body := map[string]any{"message": message}
	if props != nil {
		body["props"] = props
	}
	err := c.do(ctx, http.MethodPut, "/posts/"+url.PathEscape(id)+"/patch", nil, body, &out)
	return out, err
}

// Thread is every post of the thread post belongs to (GET
// /posts/{id}/thread).
func (c *Client) Thread(ctx context.Context, post string) (PostList, error) {
	var out PostList
	err := c.do(ctx, http.MethodGet, "/posts/"+url.PathEscape(post)+"/thread", nil, nil, &out)
	return out, err
}

// PostsAfter is page (from 0) of the posts of channel created after the
// post after, per_page at a time (GET /channels/{id}/posts?after=).
func (c *Client) PostsAfter(ctx context.Context, channel, after string, page, perPage int) (PostList, error) {
	var out PostList
	q := url.Values{"after": {after}, "page": {strconv.Itoa(page)}, "per_page": {strconv.Itoa(perPage)}}
	err := c.do(ctx, http.MethodGet, "/channels/"+url.PathEscape(channel)+"/posts", q, nil, &out)
	return out, err
}

// Posts is page (from 0, newest first) of channel's posts.
func (c *Client) Posts(ctx context.Context, channel string, page, perPage int) (PostList, error) {
	var out PostList
	q := url.Values{"page": {strconv.Itoa(page)}, "per_page": {strconv.Itoa(perPage)}}
	err := c.do(ctx, http.MethodGet, "/channels/"+url.PathEscape(channel)+"/posts", q, nil, &out)
	return out, err
}

// MyChannels are the channels of every team the user is in, DMs and
// group messages included (GET /users/{id}/channels).
func (c *Client) MyChannels(ctx context.Context, me string) ([]Channel, error) {
	var out []Channel
	err := c.do(ctx, http.MethodGet, "/users/"+url.PathEscape(me)+"/channels", nil, nil, &out)
	return out, err
}

// DirectChannel is the DM channel of me and other, made when missing
// (POST /channels/direct).
func (c *Client) DirectChannel(ctx context.Context, me, other string) (Channel, error) {
	var out Channel
	err := c.do(ctx, http.MethodPost, "/channels/direct", nil, []string{me, other}, &out)
	return out, err
}

// Typing shows me typing in channel, in the thread parent (POST
// /users/{id}/typing).
func (c *Client) Typing(ctx context.Context, me, channel, parent string) error {
	return c.do(ctx, http.MethodPost, "/users/"+url.PathEscape(me)+"/typing", nil,
		map[string]string{"channel_id": channel, "parent_id": parent}, nil)
}

// GetPost is the post id (GET /posts/{id}).
func (c *Client) GetPost(ctx context.Context, id string) (Post, error) {
	var out Post
	err := c.do(ctx, http.MethodGet, "/posts/"+url.PathEscape(id), nil, nil, &out)
	return out, err
}

// Channel is the channel id (GET /channels/{id}).
func (c *Client) Channel(ctx context.Context, id string) (Channel, error) {
	var out Channel
	err := c.do(ctx, http.MethodGet, "/channels/"+url.PathEscape(id), nil, nil, &out)
	return out, err
}

// ChannelMember is one member of a channel (model.ChannelMember).
type ChannelMember struct {
	ChannelID string `json:"channel_id"`
	UserID    string `json:"user_id"`
}

// ChannelMembers is page (from 0) of channel's members, perPage at a time
// (GET /channels/{id}/members; the server gives at most 200 a page).
func (c *Client) ChannelMembers(ctx context.Context, channel string, page, perPage int) ([]ChannelMember, error) {
	var out []ChannelMember
	q := url.Values{"page": {strconv.Itoa(page)}, "per_page": {strconv.Itoa(perPage)}}
	err := c.do(ctx, http.MethodGet, "/channels/"+url.PathEscape(channel)+"/members", q, nil, &out)
	return out, err
}

// TeamMember is one member of a team (model.TeamMember): DeleteAt is
// when they left it (0: a member).
type TeamMember struct {
	TeamID   string `json:"team_id"`
	UserID   string `json:"user_id"`
	DeleteAt int64  `json:"delete_at"`
}

// TeamMembers is page (from 0) of team's members, perPage at a time (GET
// /teams/{id}/members).
func (c *Client) TeamMembers(ctx context.Context, team string, page, perPage int) ([]TeamMember, error) {
	var out []TeamMember
	q := url.Values{"page": {strconv.Itoa(page)}, "per_page": {strconv.Itoa(perPage)}}
	err := c.do(ctx, http.MethodGet, "/teams/"+url.PathEscape(team)+"/members", q, nil, &out)
	return out, err
}
