package inferproxy

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"boxmaker/core/llamastandin"
	"boxmaker/core/testsupport"
	"boxmaker/runbook"
)

// serveProxy starts inferproxy with o (on a socket in a short directory
// when o.Listen is empty) and serves it until the test ends.
func serveProxy(tb testing.TB, o Options) *Server {
	tb.Helper()
	if o.Listen == "" {
		o.Listen = filepath.Join(testsupport.ShortDir(tb), "run", "infer.sock")
	}
	s, err := Start(o)
	if err != nil {
		tb.Fatal(err)
	}
	testsupport.Serve(tb, s.Serve)
	return s
}

func startProxy(t *testing.T, upstream string, burst int, timeout time.Duration) (*Server, string) {
	t.Helper()
	s := serveProxy(t, Options{Upstream: upstream, Burst: burst, QueueTimeout: timeout})
	return s, s.opts.Listen
}

func startStandin(t testing.TB, o llamastandin.Options) *llamastandin.Server {
	t.Helper()
	s, err := llamastandin.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func unixClient(sock string) *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		},
	}}
}

func get(t *testing.T, c *http.Client, method, url, body string) (int, string) {
	t.Helper()
	code, data := testsupport.HTTP(t, c, method, url, strings.NewReader(body))
	return code, string(data)
}

const streamBody = `{"messages":[{"role":"user","content":"hi"}],"stream":true}`

func TestStreamArrivesChunkByChunk(t *testing.T) {
	up := startStandin(t, llamastandin.Options{Script: llamastandin.Script{Turns: []llamastandin.Turn{{Content: "one two three"}}}})
	_, sock := startProxy(t, up.URL(), 2, time.Second)
	release := up.HoldStreams()
	defer release()

	resp, lines := postStream(t, sock)
	defer resp.Body.Close()
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("content type %q", resp.Header.Get("Content-Type"))
	}
	// The stand-in holds the final chunk back; every chunk before it must
	// come through now, while the answer is unfinished.
	var before []string
	for len(before) < 4 {
		select {
		case l := <-lines:
			before = append(before, l)
		case <-time.After(5 * time.Second):
			t.Fatalf("the chunks before the last did not arrive while the last was held (got %d): the proxy buffers", len(before))
		}
	}
	if !strings.Contains(before[3], `" three"`) {
		t.Fatalf("chunks out of order: %q", before)
	}
	select {
	case l := <-lines:
		t.Fatalf("the final chunk arrived before it was produced: %s", l)
	case <-time.After(50 * time.Millisecond):
	}
	release()
	var after []string
	for l := range lines {
		after = append(after, l)
	}
	if len(after) != 2 || !strings.Contains(after[0], `"finish_reason":"stop"`) || after[1] != "data: [DONE]" {
		t.Fatalf("after release: %q", after)
	}
}

func TestPathsQueriesAndBodiesPassThrough(t *testing.T) {
	up := startStandin(t, llamastandin.Options{Model: "m1"})
	router := true // a router checks the model; its 400 passes through
	up.Set(llamastandin.Switch{Router: &router})
	_, sock := startProxy(t, up.URL(), 2, time.Second)
	c := unixClient(sock)
	tests := []struct {
		name, method, path, body string
		wantCode                 int
		wantBody                 string
	}{
		{"health", "GET", "/health", "", 200, `{"status":"ok"}`},
		{"props for the model", "GET", "/props?model=m1", "", 200, `"total_slots":2`},
		{"props for another model", "GET", "/props?model=m2", "", 400, `model 'm2' not found`},
		{"slots", "GET", "/slots?model=m1", "", 200, `"n_ctx":262144`},
		{"tokenize", "POST", "/tokenize", `{"model":"m1","content":"<|im_end|>"}`, 200, `{"tokens":[248046]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := get(t, c, tt.method, "http://infer"+tt.path, tt.body)
			if code != tt.wantCode || !strings.Contains(body, tt.wantBody) {
				t.Fatalf("%d %s", code, body)
			}
			calls := up.Calls()
			last := calls[len(calls)-1]
			if got := last.Path + "?" + last.RawQuery; strings.TrimSuffix(got, "?") != tt.path || string(last.Body) != tt.body {
				t.Fatalf("upstream saw %s %q", got, last.Body)
			}
		})
	}
}

func TestUpstreamFailuresPassThroughAsTheyAre(t *testing.T) {
	up := startStandin(t, llamastandin.Options{Loading: true})
	_, sock := startProxy(t, up.URL(), 2, time.Second)
	c := unixClient(sock)
	code, body := get(t, c, "GET", "http://infer/health", "")
	if code != 503 || body != `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}` {
		t.Fatalf("%d %s", code, body)
	}
	up.SetLoading(false)
	direct, err := http.Post(up.URL()+"/v1/chat/completions", "application/json", strings.NewReader(streamBody))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := io.ReadAll(direct.Body)
	direct.Body.Close()
	code, body = get(t, c, "POST", "http://infer/v1/chat/completions", streamBody)
	if code != direct.StatusCode || code != 500 || body != string(want) {
		t.Fatalf("proxied %d %s, direct %d %s", code, body, direct.StatusCode, want)
	}

	up.Push(llamastandin.Turn{Content: "a b c"})
	up.SetFailAfter(2)
	code, body = get(t, c, "POST", "http://infer/v1/chat/completions", streamBody)
	if code != 200 || !strings.Contains(body, `data: {"error":{"code":500`) || strings.Contains(body, "[DONE]") {
		t.Fatalf("mid-stream failure: %d %s", code, body)
	}
}

func TestAnUnreachableUpstreamIs502NamingIt(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://" + ln.Addr().String()
	ln.Close()
	_, sock := startProxy(t, addr, 2, time.Second)
	code, body := get(t, unixClient(sock), "GET", "http://infer/health", "")
	want := "inferproxy: cannot reach the model server at " + addr + ": dial tcp"
	if code != 502 || !strings.Contains(body, want) || !strings.Contains(body, "connection refused") {
		t.Fatalf("%d %s", code, body)
	}
}

// waitQueued waits until n requests wait at the gate.
func waitQueued(t *testing.T, s *Server, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		s.Proxy.gate.mu.Lock()
		got := len(s.Proxy.gate.waiters)
		s.Proxy.gate.mu.Unlock()
		if got == n {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("%d requests never queued", n)
}

func TestRequestsBeyondTheBurstGoInArrivalOrder(t *testing.T) {
	up, s, c, held, release := holdTheBurst(t, 10*time.Second)
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if code, body := get(t, c, "GET", fmt.Sprintf("http://infer/health?n=%d", i), ""); code != 200 {
				t.Errorf("%d %s", code, body)
			}
		}()
		waitQueued(t, s, i+1)
	}
	if n := len(up.Calls()); n != 1 {
		t.Fatalf("the upstream saw %d requests while the burst of 1 was taken", n)
	}
	release()
	io.Copy(io.Discard, held.Body)
	held.Body.Close()
	wg.Wait()
	var order []string
	for _, call := range up.Calls()[1:] {
		order = append(order, call.RawQuery)
	}
	if strings.Join(order, " ") != "n=0 n=1 n=2 n=3 n=4" {
		t.Fatalf("order %q", order)
	}
}

func TestAWaitLongerThanTheQueueTimeoutIs503(t *testing.T) {
	up, _, c, held, release := holdTheBurst(t, 100*time.Millisecond)
	defer release()
	defer held.Body.Close()
	code, body := get(t, c, "GET", "http://infer/health", "")
	want := "inferproxy: no connection to the model server at " + up.URL() + " came free within 100ms (the burst is 1 and 0 requests were ahead)"
	if code != 503 || !strings.Contains(body, want) || !strings.HasPrefix(body, `{"error":{"code":503,`) {
		t.Fatalf("%d %s", code, body)
	}
}

func TestStartRefusals(t *testing.T) {
	up := startStandin(t, llamastandin.Options{})
	_, sock := startProxy(t, up.URL(), 1, time.Second)
	long := "/tmp/" + strings.Repeat("x", 110) + "/infer.sock"
	tests := []struct {
		name     string
		opts     Options
		entry    runbook.Entry
		wantText string
	}{
		{"a second copy", Options{Listen: sock, Upstream: up.URL()}, runbook.AlreadyRunning,
			"another inferproxy is running (it holds " + sock + ".lock)"},
		{"a path too long", Options{Listen: long, Upstream: up.URL()}, runbook.InferproxyStartFailed,
			"path must be shorter than SUN_LEN"},
		{"an upstream that is not http", Options{Listen: sock + "2", Upstream: "unix:///x"}, runbook.InferproxyStartFailed,
			`the upstream "unix:///x" must be an http:// or https:// URL with a host`},
		{"no socket", Options{Upstream: up.URL()}, runbook.InferproxyStartFailed, "no socket to listen on"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Start(tt.opts)
			if err == nil {
				t.Fatal("started")
			}
			if e, _ := runbook.EntryOf(err); e != tt.entry || !strings.Contains(err.Error(), tt.wantText) ||
				!strings.HasSuffix(err.Error(), runbook.Link(tt.entry)) {
				t.Fatalf("%v (entry %q)", err, e)
			}
		})
	}
	if _, err := os.Stat(filepath.Dir(long)); err == nil {
		t.Fatal("a refused start left a directory")
	}
}

func TestTheSocketIsPrivateAndTheStartLineNamesBoth(t *testing.T) {
	up := startStandin(t, llamastandin.Options{})
	s, sock := startProxy(t, up.URL(), 1, time.Second)
	fi, err := os.Stat(sock)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%v %v", fi.Mode(), err)
	}
	if di, _ := os.Stat(filepath.Dir(sock)); di.Mode().Perm() != 0o700 {
		t.Fatalf("dir %v", di.Mode())
	}
	if got, want := s.StartLine(), "inferproxy: "+sock+" -> "+up.URL(); got != want {
		t.Fatalf("%q, want %q", got, want)
	}
}

func TestTheGateHandsPlacesOnFirstComeFirstServed(t *testing.T) {
	g := newFIFOGate(1)
	if _, err := g.acquire(context.Background(), time.Second); err != nil {
		t.Fatal(err)
	}
	var order bytes.Buffer
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := g.acquire(context.Background(), 5*time.Second); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			fmt.Fprint(&order, i)
			mu.Unlock()
			g.release()
		}()
		for {
			g.mu.Lock()
			n := len(g.waiters)
			g.mu.Unlock()
			if n == i+1 {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	g.release()
	wg.Wait()
	if order.String() != "0123" {
		t.Fatalf("order %s", order.String())
	}
	if g.free != 1 {
		t.Fatalf("free %d after all released", g.free)
	}
}

// postStream posts streamBody to the proxy at sock: the response, and its
// non-empty lines as they come (closed at its end). The caller closes the
// body.
func postStream(t *testing.T, sock string) (*http.Response, <-chan string) {
	t.Helper()
	resp, err := unixClient(sock).Post("http://infer/v1/chat/completions", "application/json", strings.NewReader(streamBody))
	if err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if sc.Text() != "" {
				lines <- sc.Text()
			}
		}
		close(lines)
	}()
	return resp, lines
}

// holdTheBurst starts a proxy of burst 1 in front of a stand-in whose
// streams are held, and takes the burst with one stream (held) until
// release; the proxy's client is c.
func holdTheBurst(t *testing.T, queueTimeout time.Duration) (up *llamastandin.Server, s *Server, c *http.Client, held *http.Response, release func()) {
	t.Helper()
	up = startStandin(t, llamastandin.Options{Script: llamastandin.Script{Turns: []llamastandin.Turn{{Content: "held"}}}})
	s, sock := startProxy(t, up.URL(), 1, queueTimeout)
	c = unixClient(sock)
	release = up.HoldStreams()
	held, err := c.Post("http://infer/v1/chat/completions", "application/json", strings.NewReader(streamBody))
	if err != nil {
		release()
		t.Fatal(err)
	}
	return up, s, c, held, release
}
