package inferproxy

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"boxmaker/core/llamastandin"
	"boxmaker/core/secrets"
)

// keyedProxy runs inferproxy with key (nil: none) in front of a stand-in
// started with --api-key.
func keyedProxy(t *testing.T, key *secrets.Value) (string, *llamastandin.Server) {
	t.Helper()
	up := startStandin(t, llamastandin.Options{APIKey: "k-123", Script: llamastandin.Script{Turns: []llamastandin.Turn{{When: "hi", Content: "hello"}}}})
	return serveProxy(t, Options{Upstream: up.URL(), UpstreamKey: key}).opts.Listen, up
}

func postVia(t *testing.T, sock, path, body, auth string) (int, string) {
	t.Helper()
	c := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	req, _ := http.NewRequest("POST", "http://inferproxy"+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

const chatBody = `{"messages":[{"role":"user","content":"hi"}]}`

func TestUpstreamKeyIsSentOnEveryRequest(t *testing.T) {
	t.Setenv("YAAG_TEST_KEY", "k-123")
	key, err := secrets.Read("llama", secrets.Source{Env: "YAAG_TEST_KEY"}, secrets.ProcessEnv())
	if err != nil {
		t.Fatal(err)
	}
	sock, up := keyedProxy(t, &key)
	if code, body := postVia(t, sock, "/v1/chat/completions", chatBody, ""); code != 200 || !strings.Contains(body, "hello") {
		t.Fatalf("with the key: %d %s", code, body)
	}
	// A client's own Authorization never reaches the server: the proxy's
	// key replaces it.
	if code, _ := postVia(t, sock, "/tokenize", `{"content":"x"}`, "Bearer wrong"); code != 200 {
		t.Fatalf("a client header replaced by the key: %d", code)
	}
	if n := len(up.Calls()); n != 2 {
		t.Fatalf("the server saw %d requests", n)
	}
}

func TestWithoutTheKeyTheServerRefuses(t *testing.T) {
	sock, _ := keyedProxy(t, nil)
	code, body := postVia(t, sock, "/v1/chat/completions", chatBody, "Bearer k-123")
	if code != 401 || !strings.Contains(body, "Invalid API Key") || !strings.Contains(body, "authentication_error") {
		t.Fatalf("got %d %s", code, body)
	}
}
