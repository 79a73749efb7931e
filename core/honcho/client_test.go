package honcho_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"boxmaker/core/honcho"
	"boxmaker/core/secrets"
	"boxmaker/core/testpeer/fakehoncho"
)

func newClient(t *testing.T, opts fakehoncho.Options) (*fakehoncho.Server, *honcho.Client) {
	t.Helper()
	f := fakehoncho.Start(opts)
	t.Cleanup(f.Close)
	return f, &honcho.Client{URL: f.URL, Timeout: 5 * time.Second}
}

func status(err error) int {
	var e *honcho.APIError
	if errors.As(err, &e) {
		return e.Status
	}
	return 0
}

func TestClientAgainstFake(t *testing.T) {
	f, c := newClient(t, fakehoncho.Options{})
	ctx := context.Background()
	var none secrets.Value
	created, err := c.GetOrCreateSession(ctx, none, "w", "s", []string{"kyle", "ann"})
	if err != nil || !created {
		t.Fatalf("first get-or-create: %v, %v", created, err)
	}
	if created, err = c.GetOrCreateSession(ctx, none, "w", "s", nil); err != nil || created {
		t.Fatalf("second get-or-create: %v, %v", created, err)
	}
	out, err := c.AddMessages(ctx, none, "w", "s", []honcho.NewMessage{
		{PeerID: "ann", Content: "a\x00b", Metadata: map[string]any{"boxmaker_id": "x"}, CreatedAt: "2026-10-01T09:00:00Z"},
		{PeerID: "kyle", Content: "reply"},
	})
	if err != nil || len(out) != 2 || out[0].Content != "ab" || out[0].Metadata["boxmaker_id"] != "x" || out[1].PeerID != "kyle" {
		t.Fatalf("AddMessages: %+v, %v", out, err)
	}
	if got := f.Messages("w", "s"); len(got) != 2 || got[0].CreatedAt != "2026-10-01T09:00:00.000000Z" {
		t.Fatalf("stored: %+v", got)
	}
	// Batches of 1 to 100; content up to 25,000 characters, counted as
	// characters, not bytes.
	if _, err := c.AddMessages(ctx, none, "w", "s", nil); err == nil {
		t.Error("an empty batch was sent")
	}
	if _, err := c.AddMessages(ctx, none, "w", "s", make([]honcho.NewMessage, 101)); err == nil {
		t.Error("a batch of 101 was sent")
	}
	if _, err := c.AddMessages(ctx, none, "w", "s", []honcho.NewMessage{{PeerID: "ann", Content: strings.Repeat("é", 25000)}}); err != nil {
		t.Errorf("25,000 characters: %v", err)
	}
	if _, err := c.AddMessages(ctx, none, "w", "s", []honcho.NewMessage{{PeerID: "ann", Content: strings.Repeat("é", 25001)}}); err == nil {
		t.Error("25,001 characters were sent")
	}
	// The fake's own limits, as Honcho's, for a client that does not check.
	f2, c2 := newClient(t, fakehoncho.Options{MaxMessageSize: 5})
	_, err = c2.AddMessages(ctx, none, "w", "s", []honcho.NewMessage{{PeerID: "ann", Content: "123456"}})
	if status(err) != 422 || !honcho.Refused(err) || honcho.Uncertain(err) {
		t.Errorf("over the fake's limit: %v (refused %v)", err, honcho.Refused(err))
	}
	if len(f2.Messages("w", "s")) != 0 {
		t.Error("a refused batch was stored in part")
	}
	_, err = c.AddMessages(ctx, none, "w", "s", []honcho.NewMessage{{PeerID: "ann.b", Content: "x"}})
	if status(err) != 422 {
		t.Errorf("a peer name with a dot: %v", err)
	}
	_, err = c.GetOrCreateSession(ctx, none, "w", "s-é", nil)
	if status(err) != 404 && status(err) != 422 {
		t.Errorf("a session name outside the rule: %v", err)
	}

	p, err := c.ListMessages(ctx, none, "w", "s", 1, 2, true, nil)
	if err != nil || p.Total != 3 || p.Pages != 2 || len(p.Items) != 2 || p.Items[0].Content != strings.Repeat("é", 25000) {
		t.Fatalf("ListMessages: total %d pages %d items %d, %v", p.Total, p.Pages, len(p.Items), err)
	}
	hits, err := c.Search(ctx, none, "w", "REPLY", 10)
	if err != nil || len(hits) != 1 || hits[0].Content != "reply" {
		t.Fatalf("Search: %+v, %v", hits, err)
	}
	if _, err := c.Search(ctx, none, "w", "reply", 101); status(err) != 422 {
		t.Errorf("search limit 101: %v", err)
	}
}

func TestFakeAuth(t *testing.T) {
	f, c := newClient(t, fakehoncho.Options{Secret: "s3cret"})
	ctx := context.Background()
	key := func(cl fakehoncho.Claims) secrets.Value { return keyValue(t, f.Token(cl)) }
	w := key(fakehoncho.Claims{Workspace: "w"})
	if _, err := c.GetOrCreateSession(ctx, w, "w", "s", []string{"kyle"}); err != nil {
		t.Fatal(err)
	}
	// The calls a key is tried with: a search of workspace w, a write to
	// session s (or t), a read of session s.
	search := func(k secrets.Value) error { _, err := c.Search(ctx, k, "w", "x", 1); return err }
	write := func(session string) func(secrets.Value) error {
		return func(k secrets.Value) error {
			_, err := c.AddMessages(ctx, k, "w", session, []honcho.NewMessage{{PeerID: "kyle", Content: "x"}})
			return err
		}
	}
	read := func(k secrets.Value) error { _, err := c.ListMessages(ctx, k, "w", "s", 1, 10, false, nil); return err }
	for _, tt := range []struct {
		name string
		key  secrets.Value
		call func(secrets.Value) error
		want int
	}{
		{"no key", secrets.Value{}, search, 401},
		{"a key of another secret", keyValue(t, fakehoncho.MintToken("other", fakehoncho.Claims{Workspace: "w"})), search, 401},
		{"another workspace's key", key(fakehoncho.Claims{Workspace: "v"}), search, 401},
		{"expired", key(fakehoncho.Claims{Workspace: "w", Expires: time.Now().Add(-time.Minute)}), search, 401},
		{"a peer scope without a workspace", key(fakehoncho.Claims{Peer: "kyle"}), search, 401},
		{"a peer's key cannot write a session", key(fakehoncho.Claims{Workspace: "w", Peer: "kyle"}), write("s"), 401},
		{"a peer's key reads a session it is in", key(fakehoncho.Claims{Workspace: "w", Peer: "kyle"}), read, 0},
		{"a peer's key does not read a session it is not in", key(fakehoncho.Claims{Workspace: "w", Peer: "ann"}), read, 401},
		{"a session's key writes its session", key(fakehoncho.Claims{Workspace: "w", Session: "s"}), write("s"), 0},
		{"a session's key does not write another", key(fakehoncho.Claims{Workspace: "w", Session: "s"}), write("t"), 401},
		{"admin", key(fakehoncho.Claims{Admin: true}), search, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call(tt.key)
			if got := status(err); got != tt.want || (tt.want == 0 && err != nil) {
				t.Fatalf("status %d (%v), want %d", got, err, tt.want)
			}
			if err != nil && (honcho.Refused(err) || honcho.Uncertain(err)) {
				t.Errorf("a 401 counts as refused for good or uncertain: %v", err)
			}
		})
	}
}

func TestFakeFaults(t *testing.T) {
	f, c := newClient(t, fakehoncho.Options{})
	ctx := context.Background()
	var none secrets.Value
	msg := []honcho.NewMessage{{PeerID: "ann", Content: "x"}}

	f.SetFault(fakehoncho.Fault{Down: true})
	_, err := c.AddMessages(ctx, none, "w", "s", msg)
	if err == nil || status(err) != 0 || !honcho.Uncertain(err) || honcho.Refused(err) {
		t.Errorf("down: %v", err)
	}
	f.SetFault(fakehoncho.Fault{Status: 500})
	if _, err = c.AddMessages(ctx, none, "w", "s", msg); status(err) != 500 || !honcho.Uncertain(err) {
		t.Errorf("500: %v", err)
	}
	f.SetFault(fakehoncho.Fault{Status: 401})
	if _, err = c.Search(ctx, none, "w", "x", 1); status(err) != 401 {
		t.Errorf("401: %v", err)
	}
	// A Honcho slower than the client's timeout: the answer would come
	// after 1 s, so only the timeout can make it "no answer in time".
	f.SetFault(fakehoncho.Fault{Delay: time.Second})
	short := &honcho.Client{URL: f.URL, Timeout: 50 * time.Millisecond}
	_, err = short.Search(ctx, none, "w", "x", 1)
	if err == nil || !strings.Contains(err.Error(), "no answer in time") {
		t.Errorf("slow: %v", err)
	}
	if len(f.Messages("w", "s")) != 0 {
		t.Fatal("a fault let a batch through")
	}
	// A lost answer: the batch is stored, the client cannot know it.
	f.SetFault(fakehoncho.Fault{LoseAnswers: true})
	if _, err = c.AddMessages(ctx, none, "w", "s", msg); err == nil || !honcho.Uncertain(err) {
		t.Errorf("lost answer: %v", err)
	}
	if len(f.Messages("w", "s")) != 1 {
		t.Errorf("a batch whose answer was lost was not stored")
	}
	f.SetFault(fakehoncho.Fault{})
	if _, err = c.AddMessages(ctx, none, "w", "s", msg); err != nil {
		t.Errorf("after the faults: %v", err)
	}
}
