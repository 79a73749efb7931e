package honcho

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"boxmaker/core/secrets"
)

// The routes Boxmaker uses (src/routers of Honcho 3.0.x, all POST):
//
//	/v3/workspaces/{w}/sessions                    get-or-create a session with its peers
//	/v3/workspaces/{w}/sessions/{s}/messages       add 1 to 100 messages
//	/v3/workspaces/{w}/sessions/{s}/messages/list  a page of a session's messages
//	/v3/workspaces/{w}/search                      search a workspace's messages
const apiVersion = "v3"

// MaxBatch is the most messages one request may add (MessageBatchCreate).
const MaxBatch = 100

// MaxContent is the most characters a message's content may have
// (Honcho's default MAX_MESSAGE_SIZE); longer text is sent in parts.
const MaxContent = 25000

// Client speaks to one Honcho. Every call is given the key of the
// workspace it is about (the zero Value: no Authorization).
type Client struct {
	URL     string // scheme://host[:port]
	HTTP    *http.Client
	Timeout time.Duration // each request (0: none beyond ctx)
}

// NewMessage is one message to add.
type NewMessage struct {
	PeerID    string         `json:"peer_id"`
	Content   string         `json:"content"`
	Metadata  map[string]any `json:"metadata,omitempty"`
	CreatedAt string         `json:"created_at,omitempty"` // RFC 3339
}

// Message is a message as Honcho shows it.
type Message struct {
	ID          string         `json:"id"`
	Content     string         `json:"content"`
	PeerID      string         `json:"peer_id"`
	SessionID   string         `json:"session_id"`
	WorkspaceID string         `json:"workspace_id"`
	Metadata    map[string]any `json:"metadata"`
	CreatedAt   string         `json:"created_at"`
}

// Page is a page of a list (fastapi-pagination's Page).
type Page struct {
	Items []Message `json:"items"`
	Total int       `json:"total"`
	Page  int       `json:"page"`
	Size  int       `json:"size"`
	Pages int       `json:"pages"`
}

// APIError is an answer other than 2xx.
type APIError struct {
	Status int
	Route  string // the route's shape, such as "POST /v3/workspaces/{w}/search"
	Detail string // Honcho's detail, cut to 200 characters: text from outside
}

func (e *APIError) Error() string {
	if e.Detail == "" {
		return fmt.Sprintf("Honcho answered %s with %d", e.Route, e.Status)
	}
	return fmt.Sprintf("Honcho answered %s with %d: %s", e.Route, e.Status, e.Detail)
}

// Refused reports whether err is Honcho refusing the request itself for
// good: a 4xx other than 401, 403, 404, 408, 409 and 429, which a wait, a
// new key or a new workspace can cure. Everything else may succeed when
// tried again.
func Refused(err error) bool {
	var e *APIError
	if !errors.As(err, &e) || e.Status < 400 || e.Status >= 500 {
		return false
	}
	switch e.Status {
	case 401, 403, 404, 408, 409, 429:
		return false
	}
	return true
}

// Uncertain reports whether err leaves it unknown whether Honcho did what
// was asked: no answer at all, or a server error after it may have
// stored the batch. A 4xx is certain: nothing was done.
func Uncertain(err error) bool {
	var e *APIError
	if errors.As(err, &e) {
		return e.Status >= 500
	}
	return err != nil
}

// GetOrCreateSession makes sure the session exists with the peers, and
// says whether it was made now (201) or existed (200).
func (c *Client) GetOrCreateSession(ctx context.Context, key secrets.Value, ws, session string, peers []string) (bool, error) {
	body := map[string]any{"id": session}
	if len(peers) > 0 {
		pm := map[string]any{}
		for _, p := range peers {
			pm[p] = map[string]any{}
		}
		body["peers"] = pm
	}
	status, err := c.do(ctx, key, "/workspaces/"+ws+"/sessions", "POST /v3/workspaces/{w}/sessions", nil, body, nil)
	return status == http.StatusCreated, err
}

// AddMessages adds 1 to MaxBatch messages to a session, in order.
func (c *Client) AddMessages(ctx context.Context, key secrets.Value, ws, session string, msgs []NewMessage) ([]Message, error) {
	if len(msgs) < 1 || len(msgs) > MaxBatch {
		return nil, fmt.Errorf("a batch is 1 to %d messages, not %d", MaxBatch, len(msgs))
	}
	for i, m := range msgs {
		if n := utf8.RuneCountInString(m.Content); n > MaxContent {
			return nil, fmt.Errorf("message %d is %d characters, over Honcho's %d", i+1, n, MaxContent)
		}
	}
	var out []Message
	_, err := c.do(ctx, key, "/workspaces/"+ws+"/sessions/"+session+"/messages",
		"POST /v3/workspaces/{w}/sessions/{s}/messages", nil, map[string]any{"messages": msgs}, &out)
	return out, err
}

// ListMessages is one page (from 1) of size messages of a session,
// newest first when reverse; with ids, only the messages whose
// metadata's boxmaker_id is one of them (Honcho's filter
// {"metadata": {"boxmaker_id": {"in": ids}}}).
func (c *Client) ListMessages(ctx context.Context, key secrets.Value, ws, session string, page, size int, reverse bool, ids []string) (Page, error) {
	q := url.Values{"page": {strconv.Itoa(page)}, "size": {strconv.Itoa(size)}}
	if reverse {
		q.Set("reverse", "true")
	}
	body := map[string]any{}
	if len(ids) > 0 {
		body["filters"] = map[string]any{"metadata": map[string]any{"boxmaker_id": map[string]any{"in": ids}}}
	}
	var out Page
	_, err := c.do(ctx, key, "/workspaces/"+ws+"/sessions/"+session+"/messages/list",
		"POST /v3/workspaces/{w}/sessions/{s}/messages/list", q, body, &out)
	return out, err
}

// Search finds at most limit (1 to 100) messages of a workspace matching
// query, best first.
func (c *Client) Search(ctx context.Context, key secrets.Value, ws, query string, limit int) ([]Message, error) {
	var out []Message
	_, err := c.do(ctx, key, "/workspaces/"+ws+"/search", "POST /v3/workspaces/{w}/search", nil,
		map[string]any{"query": query, "limit": limit}, &out)
	return out, err
}

// do sends one request and decodes a 2xx answer into out. Names in the
// path are Honcho names ([a-zA-Z0-9_-]), which need no escaping; the
// caller has checked them.
func (c *Client) do(ctx context.Context, key secrets.Value, path, route string, q url.Values, body, out any) (int, error) {
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	b, err := json.Marshal(body)
	if err != nil {
		return 0, err
	}
	u := c.URL + "/" + apiVersion + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if key.Len() > 0 {
		req.Header.Set("Authorization", "Bearer "+key.Reveal())
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", route, unwrapURL(err))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return resp.StatusCode, fmt.Errorf("%s: reading the answer: %w", route, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, &APIError{Status: resp.StatusCode, Route: route, Detail: detail(data)}
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s: the answer is not what Honcho sends: %v", route, err)
		}
	}
	return resp.StatusCode, nil
}

// unwrapURL drops url.Error's repetition of the method and URL: the route
// already names the request.
func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return errors.New("no answer in time")
		}
		return ue.Err
	}
	return err
}

// detail is Honcho's {"detail": ...} as one short line.
func detail(data []byte) string {
	var d struct {
		Detail any `json:"detail"`
	}
	s := strings.TrimSpace(string(data))
	if json.Unmarshal(data, &d) == nil && d.Detail != nil {
		if str, ok := d.Detail.(string); ok {
			s = str
		} else {
			b, _ := json.Marshal(d.Detail)
			s = string(b)
		}
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}
