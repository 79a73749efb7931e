package honcho_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/honcho"
	"boxmaker/core/secrets"
	"boxmaker/core/testpeer/fakehoncho"
)

// sdkDir holds the pinned SDK (package.json, package-lock.json) and the
// script that drives it; scripts/setup.sh runs `npm ci` there.
const sdkDir = "../testpeer/fakehoncho/sdk"

const fakeSecret = "conformance-secret"

type sdkLine struct {
	Step  string          `json:"step"`
	Value json.RawMessage `json:"value"`
	Error *struct {
		Name   string `json:"name"`
		Status *int   `json:"status"`
	} `json:"error"`
}

// runSDK runs conformance.js against a new fake and returns its lines by
// step, and the fake.
func runSDK(t *testing.T) (map[string]sdkLine, *fakehoncho.Server) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not on PATH: the conformance test drives Honcho's TypeScript SDK with Node.js (scripts/setup.sh installs it)")
	}
	lock, err := os.ReadFile(filepath.Join(sdkDir, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	var l struct {
		Packages map[string]struct {
			Version string `json:"version"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(lock, &l); err != nil {
		t.Fatal(err)
	}
	want := l.Packages["node_modules/@honcho-ai/sdk"].Version
	pj, err := os.ReadFile(filepath.Join(sdkDir, "node_modules/@honcho-ai/sdk/package.json"))
	if err != nil {
		t.Fatalf("the SDK is not installed: run scripts/setup.sh (npm ci --prefix %s): %v", sdkDir, err)
	}
	var p struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(pj, &p); p.Version != want || want == "" {
		t.Fatalf("node_modules holds @honcho-ai/sdk %s, the lockfile pins %s: run npm ci --prefix %s", p.Version, want, sdkDir)
	}
	// Read here so that go test's cache knows the script: a change to it
	// runs the test again.
	if _, err := os.ReadFile(filepath.Join(sdkDir, "conformance.js")); err != nil {
		t.Fatal(err)
	}
	fake := fakehoncho.Start(fakehoncho.Options{Secret: fakeSecret})
	t.Cleanup(fake.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "conformance.js")
	cmd.Dir = sdkDir
	cmd.Env = append(os.Environ(), "HONCHO_URL="+fake.URL,
		"TOKEN="+fake.Token(fakehoncho.Claims{Workspace: "w1"}),
		"OTHER_TOKEN="+fake.Token(fakehoncho.Claims{Workspace: "w2"}))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node conformance.js: %v\n%s", err, stderr.String())
	}
	lines := map[string]sdkLine{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ln sdkLine
		if err := json.Unmarshal(sc.Bytes(), &ln); err != nil {
			t.Fatalf("a line of the SDK script is not JSON: %q", sc.Text())
		}
		lines[ln.Step] = ln
	}
	return lines, fake
}

func value(t *testing.T, lines map[string]sdkLine, step string, into any) {
	t.Helper()
	ln, ok := lines[step]
	switch {
	case !ok:
		t.Fatalf("step %s did not run", step)
	case ln.Error != nil:
		t.Fatalf("step %s: the SDK failed: %s (status %v)", step, ln.Error.Name, ln.Error.Status)
	}
	if err := json.Unmarshal(ln.Value, into); err != nil {
		t.Fatalf("step %s: %v", step, err)
	}
}

func sdkError(t *testing.T, lines map[string]sdkLine, step, name string, status int) {
	t.Helper()
	ln := lines[step]
	if ln.Error == nil {
		t.Errorf("step %s: the SDK accepted what Honcho refuses: %s", step, ln.Value)
		return
	}
	got := 0
	if ln.Error.Status != nil {
		got = *ln.Error.Status
	}
	if ln.Error.Name != name || got != status {
		t.Errorf("step %s: %s (status %d), want %s (status %d)", step, ln.Error.Name, got, name, status)
	}
}

type sdkMessage struct {
	ID          string         `json:"id"`
	Content     string         `json:"content"`
	PeerID      string         `json:"peerId"`
	SessionID   string         `json:"sessionId"`
	WorkspaceID string         `json:"workspaceId"`
	Metadata    map[string]any `json:"metadata"`
	CreatedAt   string         `json:"createdAt"`
	TokenCount  *int           `json:"tokenCount"`
}

// TestSDKConformance drives the official TypeScript SDK against the fake
// through every route Boxmaker uses (and the workspace and peer
// get-or-create the SDK makes on its way), and fails on any answer the
// SDK cannot read, any refusal that differs from Honcho's, and any request
// of Boxmaker's client whose shape differs from the SDK's for the route.
func TestSDKConformance(t *testing.T) {
	lines, fake := runSDK(t)

	var sess struct {
		ID        string `json:"id"`
		IsActive  bool   `json:"isActive"`
		CreatedAt string `json:"createdAt"`
	}
	value(t, lines, "session-create", &sess)
	if sess.ID != "s1" || !sess.IsActive || sess.CreatedAt == "" {
		t.Errorf("session-create: the SDK read %+v", sess)
	}
	statuses := map[string][]int{}
	for _, r := range fake.Requests() {
		statuses[r.Method+" "+routeOf(r.Path)] = append(statuses[r.Method+" "+routeOf(r.Path)], r.Status)
	}
	// get-or-create: 201 the first time, 200 after.
	if got := statuses["POST /v3/workspaces"]; len(got) < 1 || got[0] != 201 {
		t.Errorf("workspace get-or-create statuses %v, want 201 first", got)
	}
	if got := statuses["POST /v3/workspaces/{w}/sessions"]; len(got) < 2 || got[0] != 201 || got[1] != 200 {
		t.Errorf("session get-or-create statuses %v, want 201 then 200", got)
	}
	if got := statuses["POST /v3/workspaces/{w}/peers"]; len(got) < 1 || got[0] != 200 {
		t.Errorf("peer get-or-create statuses %v, want 200 (the session made the peer)", got)
	}
	var id struct{ ID string }
	value(t, lines, "session-get", &id)
	value(t, lines, "peer-get", &id)
	if id.ID != "kyle" {
		t.Errorf("peer-get: %q", id.ID)
	}

	var added []sdkMessage
	value(t, lines, "messages-add", &added)
	stored := fake.Messages("w1", "s1")
	if len(added) != 3 || len(stored) < 3 {
		t.Fatalf("messages-add: the SDK read %d messages, the fake holds %d", len(added), len(stored))
	}
	for i, m := range added {
		s := stored[i]
		want := sdkMessage{ID: s.ID, Content: s.Content, PeerID: s.PeerID, SessionID: "s1", WorkspaceID: "w1",
			Metadata: s.Metadata, CreatedAt: s.CreatedAt, TokenCount: &s.TokenCount}
		if diff := cmp.Diff(want, m); diff != "" {
			t.Errorf("message %d as the SDK read it (-fake +sdk):\n%s", i, diff)
		}
	}
	if added[0].PeerID != "ann" || added[1].PeerID != "kyle" || added[0].Metadata["boxmaker_id"] != "u-1" ||
		!strings.HasPrefix(added[0].CreatedAt, "2026-10-01T09:00:00") {
		t.Errorf("messages-add: %+v", added[:2])
	}

	var page struct {
		Items                    []sdkMessage
		Total, Page, Size, Pages int
	}
	value(t, lines, "messages-list", &page)
	if page.Total != 3 || page.Page != 1 || page.Size != 100 || page.Pages != 1 || len(page.Items) != 3 ||
		page.Items[0].ID != added[2].ID || page.Items[2].ID != added[0].ID {
		t.Errorf("messages-list (reverse): %+v", page)
	}

	value(t, lines, "messages-by-id", &page)
	if page.Total != 2 || len(page.Items) != 2 || page.Items[0].ID != added[0].ID || page.Items[1].ID != added[2].ID {
		t.Errorf("messages-by-id: %+v", page)
	}

	var hits []sdkMessage
	value(t, lines, "search", &hits)
	if len(hits) != 1 || hits[0].ID != added[0].ID {
		t.Errorf("search osprey nest: %+v", hits)
	}
	value(t, lines, "search-none", &hits)
	if len(hits) != 0 {
		t.Errorf("search kestrel: %+v", hits)
	}

	// The limits, as Honcho has them: 1 to 100 messages, 25,000
	// characters.
	sdkError(t, lines, "messages-add-101", "UnprocessableEntityError", 422)
	var n int
	value(t, lines, "messages-add-100", &n)
	if n != 100 {
		t.Errorf("messages-add-100: %d", n)
	}
	sdkError(t, lines, "messages-add-too-long", "UnprocessableEntityError", 422)
	value(t, lines, "messages-add-longest", &n)
	if n != 25000 {
		t.Errorf("messages-add-longest: %d", n)
	}
	// The name rule is the same on both sides: the SDK refuses before
	// sending, and the fake refuses what the SDK would not send.
	if ln := lines["name-with-a-dot"]; ln.Error == nil || ln.Error.Status != nil {
		t.Errorf("name-with-a-dot: the SDK did not refuse it itself: %+v", ln)
	}
	// Keys: another workspace's, and one that is not a JWT.
	sdkError(t, lines, "other-workspace-key", "AuthenticationError", 401)
	sdkError(t, lines, "bad-key", "AuthenticationError", 401)

	t.Run("Boxmaker's requests", func(t *testing.T) { compareRequests(t, fake.Requests()) })
}

// compareRequests runs Boxmaker's client through the routes it uses
// against a fresh fake and requires, of each of its requests, that every
// field it sends (with its JSON type, and every query key) is one the SDK
// sent for that route, and that it sends every field the SDK always sent.
func compareRequests(t *testing.T, sdk []fakehoncho.Request) {
	sdkAny := map[string]map[string]bool{}    // fields the SDK sent at least once, by route
	sdkAlways := map[string]map[string]bool{} // fields the SDK sent every time, by route
	for _, r := range sdk {
		if r.Status >= 300 {
			continue
		}
		route := r.Method + " " + routeOf(r.Path)
		f := requestFields(r)
		if sdkAny[route] == nil {
			sdkAny[route], sdkAlways[route] = map[string]bool{}, f
		}
		for k := range f {
			sdkAny[route][k] = true
		}
		for k := range sdkAlways[route] {
			if !f[k] {
				delete(sdkAlways[route], k)
			}
		}
	}
	fake := fakehoncho.Start(fakehoncho.Options{Secret: fakeSecret})
	defer fake.Close()
	c := &honcho.Client{URL: fake.URL, Timeout: 10 * time.Second}
	key := keyValue(t, fake.Token(fakehoncho.Claims{Workspace: "w1"}))
	ctx := context.Background()
	if _, err := c.GetOrCreateSession(ctx, key, "w1", "s1", []string{"kyle", "ann"}); err != nil {
		t.Fatal(err)
	}
	msgs := []honcho.NewMessage{
		{PeerID: "ann", Content: "where is the osprey nest?", Metadata: map[string]any{"boxmaker_id": "u-1"}, CreatedAt: "2026-10-01T09:00:00.000000001Z"},
		{PeerID: "kyle", Content: "On the north cliff.", Metadata: map[string]any{"boxmaker_id": "a-1"}, CreatedAt: "2026-10-01T09:00:01Z"},
	}
	if _, err := c.AddMessages(ctx, key, "w1", "s1", msgs); err != nil {
		t.Fatal(err)
	}
	p, err := c.ListMessages(ctx, key, "w1", "s1", 1, 100, true, nil)
	if err != nil || len(p.Items) != 2 || p.Items[0].Content != "On the north cliff." {
		t.Fatalf("ListMessages: %+v, %v", p, err)
	}
	p, err = c.ListMessages(ctx, key, "w1", "s1", 1, 100, false, []string{"a-1", "zz"})
	if err != nil || len(p.Items) != 1 || p.Items[0].Content != "On the north cliff." {
		t.Fatalf("ListMessages by id: %+v, %v", p, err)
	}
	hits, err := c.Search(ctx, key, "w1", "osprey", 5)
	if err != nil || len(hits) != 1 {
		t.Fatalf("Search: %+v, %v", hits, err)
	}
	routes := map[string]bool{}
	for _, r := range fake.Requests() {
		route := r.Method + " " + routeOf(r.Path)
		routes[route] = true
		if r.Status >= 300 {
			t.Errorf("%s: the fake refused Boxmaker's request with %d", route, r.Status)
			continue
		}
		if sdkAny[route] == nil {
			t.Errorf("%s: Boxmaker uses a route the SDK script does not drive", route)
			continue
		}
		f := requestFields(r)
		for k := range f {
			if !sdkAny[route][k] {
				t.Errorf("%s: Boxmaker sends %s, which the SDK never sends (it sends %v)", route, k, sortedKeys(sdkAny[route]))
			}
		}
		for k := range sdkAlways[route] {
			if !f[k] {
				t.Errorf("%s: Boxmaker leaves out %s, which the SDK always sends", route, k)
			}
		}
	}
	if len(routes) != 4 {
		t.Errorf("Boxmaker's client used %d routes, want the 4 it uses: %v", len(routes), sortedKeys(routes))
	}
}

func keyValue(t *testing.T, tok string) secrets.Value {
	t.Helper()
	v, err := secrets.Read("k", secrets.Source{Env: "K"}, secrets.Env{Lookup: func(string) (string, bool) { return tok, true }})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

var (
	sessionPath = regexp.MustCompile(`^/v3/workspaces/[^/]+/sessions/[^/]+/`)
	wsPath      = regexp.MustCompile(`^/v3/workspaces/[^/]+/`)
)

// routeOf is a path with its names replaced by {w} and {s}.
func routeOf(p string) string {
	switch {
	case sessionPath.MatchString(p):
		return sessionPath.ReplaceAllString(p, "/v3/workspaces/{w}/sessions/{s}/")
	case wsPath.MatchString(p):
		return wsPath.ReplaceAllString(p, "/v3/workspaces/{w}/")
	}
	return p
}

// requestFields are a request's query keys and the body's fields, each
// as a path with its JSON type ("body.messages[].content: string").
// metadata and the names of peers are free-form: only that they are an
// object counts.
func requestFields(r fakehoncho.Request) map[string]bool {
	out := map[string]bool{}
	for _, kv := range strings.Split(r.Query, "&") {
		if k, _, _ := strings.Cut(kv, "="); k != "" {
			out["query."+k] = true
		}
	}
	var body any
	if len(r.Body) > 0 {
		json.Unmarshal(r.Body, &body)
	}
	fieldsOf(body, "body", out)
	return out
}

func fieldsOf(v any, path string, out map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		out[path+": object"] = true
		if strings.HasSuffix(path, ".metadata") {
			return
		}
		for k, e := range v {
			if strings.HasSuffix(path, ".peers") {
				k = "<peer>"
			}
			fieldsOf(e, path+"."+k, out)
		}
	case []any:
		out[path+": array"] = true
		for _, e := range v {
			fieldsOf(e, path+"[]", out)
		}
	case string:
		out[path+": string"] = true
	case float64:
		out[path+": number"] = true
	case bool:
		out[path+": bool"] = true
	case nil:
		out[path+": null"] = true
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
