// Package inferproxy is the only way from loopd to the model server: an
// HTTP reverse proxy from a unix socket to llama-server's URL.
//
// It passes every path and query (?model= included) and every body
// through unchanged, streams server-sent events chunk by chunk (each chunk
// is flushed as it arrives; nothing is buffered), and limits how many
// requests, and so connections, it has open upstream at once: the burst.
// A request beyond the burst waits its turn, first come first served, for
// at most the queue timeout, and is then answered 503. The upstream's
// answers, failures included, are passed through as they are (status and
// body); an upstream it cannot reach is answered 502 naming the upstream
// and the error. Its own answers use llama-server's error shape,
// {"error":{"code":..,"message":..,"type":..}}, so that a client reads
// every failure the same way.
//
// Upstream connections are kept alive, idle at most the idle timeout
// (DefaultIdleTimeout, below llama-server's 5 s); a request that meets a
// kept-alive connection closed under it before any answer came is sent
// again on another connection.
//
// A request's body is read whole from the client before the request is
// forwarded, and the upstream is sent that copy. Forwarding the client's
// body as it is cuts streamed answers off: net/http's server closes a
// handler's request body when the handler starts its response, and the
// transport reads the body once more after sending it (to check it is
// not longer than its Content-Length); when that read comes after the
// upstream has answered, it fails, and the transport closes the
// upstream connection under the answer being copied (golang/go#40747;
// docs/inference-contract.md, "Connections").
package inferproxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"sync"
	"time"

	"boxmaker/core/secrets"
)

// Defaults of Options.
const (
	DefaultBurst        = 4
	DefaultQueueTimeout = 30 * time.Second
	// DefaultIdleTimeout is how long an idle upstream connection is kept:
	// below llama-server's own 5 s (cpp-httplib's keep-alive timeout), so
	// that inferproxy, not the server, closes it, and a request seldom
	// meets a connection the server is closing.
	DefaultIdleTimeout = 4 * time.Second
)

// Proxy is the HTTP handler that forwards to the upstream.
type Proxy struct {
	upstream *url.URL
	burst    int
	timeout  time.Duration
	gate     *fifoGate
	rp       *httputil.ReverseProxy
	log      io.Writer
	key      *secrets.Value // the upstream's key; nil: none
	// requestTimeout bounds the reading of a request's body (Start sets
	// it from Options.RequestTimeout; 0: unbounded).
	requestTimeout time.Duration
	// down keeps the log to one line per DownLogPeriod while the upstream
	// cannot be reached; now is its clock (time.Now when nil).
	down downLog
	now  func() time.Time
}

// DownLogPeriod is how often inferproxy says, while the model server
// cannot be reached, that it still cannot: the first failure is logged,
// the others of the period are counted into the next line (D886).
const DownLogPeriod = 30 * time.Second

// downLog is the state of an upstream that cannot be reached.
type downLog struct {
	mu      sync.Mutex
	down    bool
	since   time.Time // the first failure of this run of failures
	logged  time.Time // the last line written
	unsaid  int       // failures since that line
	failing int       // failures in this run, all told
}

// failed counts a failure at now and says whether to log it, with the
// number of failures left unsaid since the last line.
func (d *downLog) failed(now time.Time) (log bool, unsaid int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.failing++
	if !d.down {
		d.down, d.since, d.logged, d.unsaid = true, now, now, 0
		return true, 0
	}
	if now.Sub(d.logged) < DownLogPeriod {
		d.unsaid++
		return false, 0
	}
	unsaid, d.logged, d.unsaid = d.unsaid, now, 0
	return true, unsaid
}

// answered ends a run of failures; it returns how many requests failed
// and since when, or 0 when none had.
func (d *downLog) answered() (failing int, since time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.down {
		return 0, time.Time{}
	}
	failing, since = d.failing, d.since
	d.down, d.failing, d.unsaid = false, 0, 0
	return failing, since
}

func (p *Proxy) clock() time.Time {
	if p.now != nil {
		return p.now()
	}
	return time.Now()
}

// NewProxy makes the handler. upstream is the model server's base URL;
// idle is how long an idle upstream connection is kept (DefaultIdleTimeout
// when 0).
func NewProxy(upstream string, burst int, queueTimeout, idle time.Duration, logw io.Writer) (*Proxy, error) {
	u, err := ParseUpstream(upstream)
	if err != nil {
		return nil, err
	}
	if burst <= 0 {
		burst = DefaultBurst
	}
	if queueTimeout <= 0 {
		queueTimeout = DefaultQueueTimeout
	}
	if logw == nil {
		logw = io.Discard
	}
	if idle <= 0 {
		idle = DefaultIdleTimeout
	}
	p := &Proxy{upstream: u, burst: burst, timeout: queueTimeout, gate: newFIFOGate(burst), log: logw}
	transport := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        burst,
		MaxIdleConnsPerHost: burst,
		MaxConnsPerHost:     burst,
		IdleConnTimeout:     idle,
		DisableCompression:  true, // pass the upstream's bytes as they are
	}
	p.rp = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(u)
			setBody(pr.Out)
			pr.Out.Header.Del("Authorization")
			if p.key != nil {
				pr.Out.Header.Set("Authorization", "Bearer "+p.key.Reveal())
			}
			// The upstream may close a kept-alive connection as a request
			// goes out on it. An Idempotency-Key without a value is not
			// sent, and lets the transport send the request again, once
			// per connection, on another when nothing of the answer came
			// (net/http's rule for a reused connection): the server never
			// took that request. Nothing loopd sends changes the server
			// but its cache.
			pr.Out.Header["Idempotency-Key"] = nil
		},
		Transport: transport,
		// Any answer, an error status included, is the server reached.
		ModifyResponse: func(*http.Response) error {
			if n, since := p.down.answered(); n > 0 {
				fmt.Fprintf(p.log, "inferproxy: the model server at %s answers again, after %d failed %s since %s\n",
					p.upstream, n, plural(n, "request", "requests"), since.UTC().Format(time.RFC3339))
			}
			return nil
		},
		// Flush every write at once: a streamed answer must reach loopd
		// chunk by chunk, and a buffer would hold the first token back.
		FlushInterval: -1,
		ErrorHandler:  p.upstreamFailed,
		// A stream cut off while it is copied is logged here, by
		// ReverseProxy, and nowhere else.
		ErrorLog: log.New(logw, "inferproxy: ", 0),
	}
	return p, nil
}

// ParseUpstream checks the model server's URL: http or https, with a host.
func ParseUpstream(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("the upstream %q is not a URL: %v", s, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the upstream %q must be an http:// or https:// URL with a host", s)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("the upstream %q must not have a query or a fragment", s)
	}
	return u, nil
}

// Upstream is the model server's URL.
func (p *Proxy) Upstream() string { return p.upstream.String() }

// ServeHTTP reads the request's body, waits for a place in the burst and
// forwards the request.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The body is read before the gate, so that a request waiting its turn
	// holds no place in the burst while its client is still sending.
	// The body must arrive within the request timeout; the deadline is
	// lifted once it has, so that the answer may stream for as long as
	// the model writes (a server-wide ReadTimeout would cancel it).
	rc := http.NewResponseController(w)
	if p.requestTimeout > 0 {
		rc.SetReadDeadline(time.Now().Add(p.requestTimeout))
	}
	body, err := io.ReadAll(r.Body)
	if err == nil && p.requestTimeout > 0 {
		rc.SetReadDeadline(time.Time{})
	}
	if err != nil {
		w.Header().Set("Connection", "close") // what is left of it is not read
		if r.Context().Err() == nil {
			msg := fmt.Sprintf("inferproxy: cannot read the request's body: %v", err)
			fmt.Fprintf(p.log, "inferproxy: %s %s: %s\n", r.Method, r.URL.Path, msg)
			writeError(w, http.StatusBadRequest, msg)
		}
		return
	}
	r = r.WithContext(context.WithValue(r.Context(), bodyKey{}, body))
	waited, err := p.gate.acquire(r.Context(), p.timeout)
	if errors.Is(err, errQueueTimeout) {
		msg := fmt.Sprintf("inferproxy: no connection to the model server at %s came free within %s "+
			"(the burst is %d and %d requests were ahead); the server is busy: retry later",
			p.upstream, p.timeout, p.burst, waited)
		fmt.Fprintf(p.log, "inferproxy: %s %s: %s\n", r.Method, r.URL.Path, msg)
		writeError(w, http.StatusServiceUnavailable, msg)
		return
	}
	if err != nil {
		return // the client went away while waiting
	}
	defer p.gate.release()
	p.rp.ServeHTTP(w, r)
}

// bodyKey carries a request's body, read whole, from ServeHTTP to the
// Rewrite that sends it upstream.
type bodyKey struct{}

// setBody gives the outgoing request the body ServeHTTP read, as an
// in-memory reader: the transport's reads of it cannot fail, whenever
// they happen, and the body goes with a Content-Length (a chunked body
// from the client is sent with its length).
func setBody(out *http.Request) {
	body, _ := out.Context().Value(bodyKey{}).([]byte)
	out.TransferEncoding = nil
	out.ContentLength = int64(len(body))
	if len(body) == 0 {
		out.Body, out.GetBody = nil, nil
		return
	}
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
}

// upstreamFailed answers a request the upstream could not take: 502 with
// the upstream and the error. A client that went away gets nothing.
func (p *Proxy) upstreamFailed(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return
	}
	msg := fmt.Sprintf("inferproxy: cannot reach the model server at %s: %v", p.upstream, err)
	// One line per DownLogPeriod while it is down, not one per request:
	// a client that retries must not flood the log (issue 25 item 7).
	if log, unsaid := p.down.failed(p.clock()); log {
		line := fmt.Sprintf("inferproxy: %s %s: %s", r.Method, r.URL.Path, msg)
		if unsaid > 0 {
			line += fmt.Sprintf(" (and %d more %s since the last line; one line per %s while it cannot be reached)", unsaid, plural(unsaid, "request", "requests"), DownLogPeriod)
		}
		fmt.Fprintln(p.log, line)
	}
	writeError(w, http.StatusBadGateway, msg)
}

func writeError(w http.ResponseWriter, code int, msg string) {
	body := `{"error":{"code":` + strconv.Itoa(code) + `,"message":` + strconv.Quote(msg) + `,"type":"unavailable_error"}}`
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	io.WriteString(w, body)
}

var errQueueTimeout = errors.New("queue timeout")

// fifoGate lets at most n holders in at once and hands each freed place
// to the longest waiter, so requests beyond the burst go in arrival order.
type fifoGate struct {
	mu      sync.Mutex
	free    int
	waiters []chan struct{}
}

func newFIFOGate(n int) *fifoGate { return &fifoGate{free: n} }

// acquire takes a place, waiting at most timeout; on a timeout it reports
// how many were waiting ahead.
func (g *fifoGate) acquire(ctx context.Context, timeout time.Duration) (int, error) {
	g.mu.Lock()
	if g.free > 0 && len(g.waiters) == 0 {
		g.free--
		g.mu.Unlock()
		return 0, nil
	}
	ch := make(chan struct{})
	ahead := len(g.waiters)
	g.waiters = append(g.waiters, ch)
	g.mu.Unlock()

	t := time.NewTimer(timeout)
	defer t.Stop()
	var err error
	select {
	case <-ch:
		return 0, nil
	case <-t.C:
		err = errQueueTimeout
	case <-ctx.Done():
		err = ctx.Err()
	}
	g.mu.Lock()
	for i, w := range g.waiters {
		if w == ch {
			g.waiters = append(g.waiters[:i], g.waiters[i+1:]...)
			g.mu.Unlock()
			return ahead, err
		}
	}
	g.mu.Unlock()
	// The place was handed over as the wait ended: give it on.
	g.release()
	return ahead, err
}

func (g *fifoGate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.waiters) > 0 {
		ch := g.waiters[0]
		g.waiters = g.waiters[1:]
		close(ch)
		return
	}
	g.free++
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
