package daemontest

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"testing"

	"boxmaker/core/daemon"
	"boxmaker/core/llamastandin"
	"boxmaker/core/testsupport"
)

// A peer answers its kinds while the test runs; when it ends, the socket
// is closed and its lock is free for the next daemon.
func TestAPeerServesUntilItsTestEnds(t *testing.T) {
	dir := testsupport.ShortDir(t)
	var sock string
	t.Run("serving", func(t *testing.T) {
		sock = Peer(t, dir, "broker", map[string]daemon.Handler{"echo": func(_ context.Context, _ daemon.Peer, body json.RawMessage, _ *daemon.Stream) (any, error) {
			return body, nil
		}})
		var got string
		if err := daemon.Call(context.Background(), sock, "echo", "hello", &got, nil); err != nil || got != "hello" {
			t.Fatalf("echo = %q, %v", got, err)
		}
	})
	if err := daemon.Call(context.Background(), sock, "echo", "hello", nil, nil); err == nil {
		t.Error("the socket still answers after its test ended")
	}
	lock, err := daemon.TakeLock("broker", sock+".lock")
	if err != nil {
		t.Fatalf("the lock is still held: %v", err)
	}
	lock.Release()
}

// Model's socket reaches the stand-in through inferproxy.
func TestModelIsReachedThroughInferproxy(t *testing.T) {
	srv, sock := Model(t, testsupport.ShortDir(t), llamastandin.Options{})
	c := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	resp, err := c.Get("http://inferproxy/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var models struct {
		Data []struct{ ID string } `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&models); err != nil || len(models.Data) == 0 || models.Data[0].ID != srv.Model() {
		t.Errorf("models %+v (%v), want %s", models, err, srv.Model())
	}
}
