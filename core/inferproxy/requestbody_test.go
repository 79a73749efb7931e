package inferproxy

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"boxmaker/core/llamastandin"
	"boxmaker/core/testsupport"
)

// lateConn is an upstream connection whose writes return late: each
// write reaches the peer at once, and the writer goes on only after a
// pause. It is how a busy machine schedules the transport's write loop
// (descheduled just after it sent the request), made certain.
type lateConn struct {
	net.Conn
	pause  time.Duration
	writes *atomic.Int32 // writes finished
	busy   *atomic.Int32 // writes under way
}

func (c *lateConn) Write(p []byte) (int, error) {
	c.busy.Add(1)
	defer c.busy.Add(-1)
	n, err := c.Conn.Write(p)
	time.Sleep(c.pause)
	c.writes.Add(1)
	return n, err
}

// TestAStreamOutlivesTheTransportsLateReadOfTheRequestBody is the test
// for the cut-off stream of docs/inference-contract.md, "Connections".
// After the transport has sent a request's body it reads the body once
// more (to check it is not longer than its Content-Length). When that
// read comes after the upstream has answered and inferproxy has started
// the answer to its client, the http.Server has closed the client's body
// by then; if inferproxy forwarded that body, the read fails, and the
// transport closes the upstream connection under the stream being copied
// (inferproxy logging "ReverseProxy read error during body copy: ... use
// of closed network connection", the client reading a stream that ends
// early). Here the transport's writes return 200 ms late, so the read
// always comes after the answer has started; the stream must still
// arrive whole.
func TestAStreamOutlivesTheTransportsLateReadOfTheRequestBody(t *testing.T) {
	up := startStandin(t, llamastandin.Options{Script: llamastandin.Script{Turns: []llamastandin.Turn{{Content: "one two three"}}}})
	release := up.HoldStreams()
	defer release()
	plog := &testsupport.Buffer{}
	sock := testsupport.ShortDir(t) + "/infer.sock"
	s, err := Start(Options{Listen: sock, Upstream: up.URL(), Burst: 2, QueueTimeout: time.Second, Log: plog})
	if err != nil {
		t.Fatal(err)
	}
	var writes, busy atomic.Int32
	s.Proxy.rp.Transport.(*http.Transport).DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &lateConn{Conn: c, pause: 200 * time.Millisecond, writes: &writes, busy: &busy}, nil
	}
	testsupport.Serve(t, s.Serve)

	resp, lines := postStream(t, sock)
	defer resp.Body.Close()
	var before []string
	for len(before) < 4 {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the stream ended after %d chunks, before the held one; inferproxy's log:\n%s", len(before), plog.String())
			}
			before = append(before, l)
		case <-time.After(10 * time.Second):
			t.Fatalf("the chunks before the last did not arrive (got %d)", len(before))
		}
	}
	// The answer has started. Wait for the transport to be done with its
	// writes, and so with the request's body, before the last chunk goes.
	deadline := time.Now().Add(10 * time.Second)
	for writes.Load() == 0 || busy.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the transport's writes did not finish")
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	release()
	var after []string
	for l := range lines {
		after = append(after, l)
	}
	if len(after) != 2 || !strings.Contains(after[0], `"finish_reason":"stop"`) || after[1] != "data: [DONE]" {
		t.Fatalf("the stream was cut off: after the held chunk came %q; inferproxy's log:\n%s", after, plog.String())
	}
	if strings.Contains(plog.String(), "read error") {
		t.Fatalf("inferproxy's log:\n%s", plog.String())
	}
	calls := up.Calls()
	if got := string(calls[len(calls)-1].Body); got != streamBody {
		t.Fatalf("the upstream got the body %q", got)
	}
}

// TestBodiesOfEveryFramingGoUpstreamWhole: a body sent chunked (no
// Content-Length), one with a length and none at all each reach the
// upstream byte for byte.
func TestBodiesOfEveryFramingGoUpstreamWhole(t *testing.T) {
	up := startStandin(t, llamastandin.Options{})
	_, sock := startProxy(t, up.URL(), 2, time.Second)
	c := unixClient(sock)
	big := `{"content":"` + strings.Repeat("a long body ", 20000) + `"}`
	tests := []struct {
		name    string
		method  string
		body    string
		chunked bool
	}{
		{"with a length", "POST", `{"content":"hi"}`, false},
		{"chunked", "POST", `{"content":"hi"}`, true},
		{"large and chunked", "POST", big, true},
		{"none", "GET", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := "/tokenize"
			if tt.method == "GET" {
				path = "/health"
			}
			req, err := http.NewRequest(tt.method, "http://infer"+path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if tt.chunked {
				req.ContentLength = -1
				req.Body = struct{ io.ReadCloser }{io.NopCloser(strings.NewReader(tt.body))}
			}
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("status %d", resp.StatusCode)
			}
			calls := up.Calls()
			if got := string(calls[len(calls)-1].Body); got != tt.body {
				t.Fatalf("the upstream got %d bytes, want %d", len(got), len(tt.body))
			}
		})
	}
}
