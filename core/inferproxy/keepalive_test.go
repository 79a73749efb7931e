package inferproxy

import (
	"context"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"boxmaker/core/llamastandin"
	"boxmaker/core/testsupport"
)

// TestBackToBackStreamsOnOneKeepAliveConnection sends streamed chat
// requests one after another on one keep-alive connection while every
// core is kept busy: each must arrive whole, up to data: [DONE] and the
// end of the chunked body. It is the test for a cut-off stream once seen
// about once in a few thousand requests under load (the proxy logging
// "ReverseProxy read error during body copy: use of closed network
// connection" and the client reading an unexpected EOF); see
// docs/inference-contract.md, "Connections". It runs at most 3,000
// requests or 15 seconds.
func TestBackToBackStreamsOnOneKeepAliveConnection(t *testing.T) {
	up := startStandin(t, llamastandin.Options{Script: llamastandin.Script{Turns: []llamastandin.Turn{{When: "hi", Content: "one two three four"}}}})
	plog := &testsupport.Buffer{}
	s := serveProxy(t, Options{Upstream: up.URL(), Burst: 4, QueueTimeout: time.Minute, Log: plog})
	sock := s.opts.Listen

	var stop atomic.Bool
	var spinners sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		spinners.Add(1)
		go func() {
			defer spinners.Done()
			for n := 0; !stop.Load(); n++ {
			}
		}()
	}
	defer func() { stop.Store(true); spinners.Wait() }()

	var dials atomic.Int32
	c := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			dials.Add(1)
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		},
		MaxIdleConnsPerHost: 1,
	}}
	// A fixed number of requests, however long they take on a loaded
	// machine: the test is about every stream arriving whole on one
	// connection, not about speed.
	const requests = 100
	n, failed := 0, 0
	for ; n < requests; n++ {
		// Each request with a context of its own, cancelled once its
		// answer is read, as loopd's client does.
		rctx, rcancel := context.WithCancel(context.Background())
		req, err := http.NewRequestWithContext(rctx, "POST", "http://infer/v1/chat/completions", strings.NewReader(streamBody))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Do(req)
		if err != nil {
			rcancel()
			failed++
			t.Errorf("request %d: %v", n+1, err)
			continue
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		rcancel()
		if err != nil || resp.StatusCode != 200 || !strings.HasSuffix(string(data), "data: [DONE]\n\n") {
			failed++
			t.Errorf("request %d: %d, %v, %d bytes ending %q", n+1, resp.StatusCode, err, len(data), data[max(0, len(data)-40):])
		}
		if failed >= 5 {
			break
		}
	}
	t.Logf("%d requests on %d connections", n, dials.Load())
	if failed > 0 {
		t.Errorf("%d of %d streams were cut off; inferproxy's log:\n%s", failed, n, plog.String())
	}
	if d := dials.Load(); d > int32(failed)+1 {
		t.Errorf("%d connections for %d requests: the client did not keep its connection", d, n)
	}
}

// The upstream closes a kept-alive connection as a request goes out on
// it (the stand-in's close_reused: it reads the request and closes the
// connection without an answer, as a server whose keep-alive timeout ran
// out as the request arrived). The request is sent again on a new
// connection and answered; a POST too, which net/http would not resend
// on its own.
func TestARequestOnAConnectionClosedUnderItIsSentAgain(t *testing.T) {
	up := startStandin(t, llamastandin.Options{Script: llamastandin.Script{Turns: []llamastandin.Turn{{When: "hi", Content: "hello"}}}})
	_, sock := startProxy(t, up.URL(), 1, time.Second)
	c := unixClient(sock)
	post := func() (int, string) {
		resp, err := c.Post("http://x/v1/chat/completions", "application/json",
			strings.NewReader(`{"messages":[{"role":"user","content":"hi"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	if code, body := post(); code != 200 {
		t.Fatalf("first: %d %s", code, body)
	}
	up.Set(llamastandin.Switch{CloseReused: true})
	if code, body := post(); code != 200 || !strings.Contains(body, "hello") {
		t.Fatalf("on a connection closed under it: %d %s", code, body)
	}
	var chats int
	for _, call := range up.Calls() {
		if call.Path == "/v1/chat/completions" {
			chats++
		}
	}
	if chats != 3 {
		t.Errorf("the upstream saw %d chat requests, want 3 (one, the dropped one, its retry)", chats)
	}
}

// inferproxy lets idle upstream connections go before llama-server
// would close them.
func TestIdleUpstreamConnectionsGoBeforeTheServersTimeout(t *testing.T) {
	p, err := NewProxy("http://127.0.0.1:1", 1, time.Second, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := p.rp.Transport.(*http.Transport)
	if tr.IdleConnTimeout != DefaultIdleTimeout || DefaultIdleTimeout >= llamastandin.DefaultIdleTimeout {
		t.Errorf("idle timeout %v; the server's is %v", tr.IdleConnTimeout, llamastandin.DefaultIdleTimeout)
	}
}
