package runner

// http_fetch: the runner starts an egress proxy container on [runner]
// egress_network for the call's one host, waits for its socket, and runs
// the tool's container with no network and the socket's directory
// mounted. The executor in it fetches the URL through the proxy.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Where the tool's container finds the proxy's socket and the CA bundle.
const (
	egressMount   = "/egress"
	egressSocket  = egressMount + "/proxy.sock"
	egressCAMount = "/egress-ca.pem"
	// maxRedirects is how many same-host redirects a fetch follows.
	maxRedirects = 5
)

// fetchHost checks an http_fetch URL as the runner is given it (the
// policy's normalised target) and returns its host.
func fetchHost(raw string) (string, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "", fmt.Errorf("the URL %q cannot be parsed", raw)
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("the URL %q is not http or https", raw)
	case u.Hostname() == "":
		return "", fmt.Errorf("the URL %q has no host", raw)
	case u.Port() != "":
		return "", fmt.Errorf("the URL %q names a port; only the scheme's own is fetched", raw)
	}
	return u.Hostname(), nil
}

// fetch runs an http_fetch call: the proxy is told the URL's host, and
// nothing else.
func (r *Runner) fetch(ctx context.Context, c Call) (Result, error) {
	if c.ID == "" {
		return Result{}, errors.New("the call has no id")
	}
	if len(c.Paths) > 0 {
		return Result{}, errors.New("http_fetch takes a URL and no paths")
	}
	host, err := fetchHost(c.URL)
	if err != nil {
		return Result{}, err
	}
	return r.fetchThrough(ctx, c, []string{host})
}

// fetchThrough runs the call with a proxy that connects to hosts. Apart
// from fetch, only tests give it hosts other than the URL's.
func (r *Runner) fetchThrough(ctx context.Context, c Call, hosts []string) (Result, error) {
	if why := r.ready(false); why != "" {
		return Result{}, unavailable(nil, why)
	}
	switch {
	case r.cfg.EgressNetwork == "":
		return Result{}, unavailable(nil, "[runner] egress_network is empty: name the Podman network the egress proxy runs on")
	case r.cfg.EgressDir == "":
		return Result{}, unavailable(nil, "[runner] egress_dir is empty: name a directory for the egress proxy's sockets")
	}
	release, err := r.admit(ctx, 2) // the tool's container and the proxy's
	if err != nil {
		return Result{}, err
	}
	defer release()
	name := r.ContainerName(c.ID)
	dir := r.egressDir(name)
	if err := os.MkdirAll(r.cfg.EgressDir, 0o700); err != nil {
		return Result{}, unavailable(nil, fmt.Sprintf("cannot prepare the egress directory: %v", err))
	}
	os.RemoveAll(dir) // a killed brokerd's
	if err := os.Mkdir(dir, 0o700); err != nil {
		return Result{}, unavailable(nil, fmt.Sprintf("cannot prepare the egress directory: %v", err))
	}
	// The proxy makes its socket here, and the tool connects to it: both
	// run as the tool's uid.
	if err := os.Chown(dir, r.cfg.ToolUID, r.cfg.ToolUID); err != nil {
		os.RemoveAll(dir)
		return Result{}, unavailable(nil, fmt.Sprintf("cannot prepare the egress directory: %v", err))
	}
	defer os.RemoveAll(dir)
	p, err := r.startProxy(ctx, name+"-egress", dir, hosts)
	if err != nil {
		return Result{}, err
	}
	res, err := r.start(ctx, c, name, r.Args(c, name, nil))
	p.stop()
	return res, err
}

func (r *Runner) egressDir(name string) string { return filepath.Join(r.cfg.EgressDir, name) }

// fetchArgs ends Args for http_fetch: the proxy's socket directory, the
// CA bundle, and the request.
func (r *Runner) fetchArgs(c Call, name string) []string {
	a := []string{"-v", r.egressDir(name) + ":" + egressMount + ":ro"}
	req := Request{Tool: c.Tool, URL: c.URL, Socket: egressSocket, Limit: r.cfg.OutputLimit,
		TimeoutMS: int(r.cfg.Timeout / time.Millisecond)}
	if r.cfg.EgressCAFile != "" {
		a = append(a, "-v", r.cfg.EgressCAFile+":"+egressCAMount+":ro")
		req.CAFile = egressCAMount
	}
	body, _ := json.Marshal(req) // a struct of strings and ints
	return append(a, r.cfg.Image, ExecutorPath, CommandToolExec, string(body))
}

// proxyMaxBytes bounds one tunnel: the body the tool keeps, and room for
// headers, TLS and a compressed body's framing.
func (r *Runner) proxyMaxBytes() int64 { return 4*int64(r.cfg.OutputLimit) + 1<<20 }

// ProxyArgs is the podman command line of the egress proxy for a call
// (without the program): locked down as the tool's container is, but on
// the egress network, with the socket directory mounted read-write.
func (r *Runner) ProxyArgs(name, dir string, hosts []string) []string {
	cfg := r.cfg
	a := append(r.lockdown(name, cfg.EgressNetwork, 2*cfg.Timeout+2*startGrace, cfg.CPUs), "-i",
		"-v", dir+":"+egressMount+":rw", cfg.Image, ExecutorPath, CommandEgressProxy,
		"--"+ProxyFlagSocket, egressSocket,
		"--"+ProxyFlagTimeoutMS, strconv.Itoa(int(cfg.Timeout/time.Millisecond)),
		// The proxy ends itself if no one stops it: brokerd was killed.
		"--"+ProxyFlagLifetimeMS, strconv.Itoa(int((cfg.Timeout+2*startGrace)/time.Millisecond)),
		"--"+ProxyFlagMaxBytes, strconv.FormatInt(r.proxyMaxBytes(), 10))
	if cfg.EgressAllowPrivate {
		a = append(a, "--"+ProxyFlagAllowPrivate)
	}
	for _, h := range hosts {
		a = append(a, "--"+ProxyFlagHost, h)
	}
	return a
}

// proxyProcess is a running egress proxy container.
type proxyProcess struct {
	r      *Runner
	name   string
	stdin  io.WriteCloser
	done   chan error
	stderr *bounded
}

// startProxy starts the proxy and waits until its socket is there. Any
// failure is runner-unavailable: nothing of the call ran.
func (r *Runner) startProxy(ctx context.Context, name, dir string, hosts []string) (*proxyProcess, error) {
	args := r.ProxyArgs(name, dir, hosts)
	cmd := r.podman(nil, args...)
	p := &proxyProcess{r: r, name: name, done: make(chan error, 1), stderr: &bounded{limit: 64 << 10}}
	cmd.Stderr = p.stderr
	// The proxy runs until its stdin ends: closing it is the stop.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	p.stdin = stdin
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		return nil, unavailable(args, err.Error())
	}
	go func() { p.done <- cmd.Wait() }()

	wait := r.cfg.EgressStartTimeout
	if wait <= 0 {
		wait = startGrace
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	sock := filepath.Join(dir, filepath.Base(egressSocket))
	for {
		if fi, err := os.Lstat(sock); err == nil && fi.Mode().Type() == fs.ModeSocket {
			return p, nil
		}
		select {
		case err := <-p.done:
			p.done <- err
			return nil, unavailable(args, "the egress proxy ended before it made its socket: "+said(p.stderr.buf.Bytes(), exitText(err)))
		case <-ctx.Done():
			p.stop()
			return nil, fmt.Errorf("the call was cancelled while the egress proxy started: %w", ctx.Err())
		case <-deadline.C:
			p.stop()
			msg := fmt.Sprintf("the egress proxy did not create its socket within %s", wait)
			if s := strings.TrimSpace(p.stderr.buf.String()); s != "" {
				msg += ": " + s
			}
			return nil, unavailable(args, msg)
		case <-tick.C:
		}
	}
}

// exitText is an exit error that never holds nil.
func exitText(err error) error {
	if err == nil {
		return errors.New("exit status 0")
	}
	return err
}

// stop ends the proxy: its stdin closes, and it exits; one that does not
// is removed.
func (p *proxyProcess) stop() {
	p.stdin.Close()
	select {
	case err := <-p.done:
		p.done <- err
		return
	case <-time.After(5 * time.Second):
	}
	p.r.remove(p.r.cfg.Store, p.name)
	err := <-p.done
	p.done <- err
}

// FetchResult fields in Result: URL (where the body came from, after
// redirects), Status, ContentType, Content (the body), Size, Truncated,
// Note (a redirect not followed, a body that is not text).

// fetchURL does an http_fetch inside the tool's container: through the
// proxy's socket, following redirects on the same host only, keeping at
// most Limit bytes of the body.
func fetchURL(ctx context.Context, req Request, res *Result) {
	u, err := url.Parse(req.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		res.Error = fmt.Sprintf("%q is not an http or https URL", req.URL)
		return
	}
	if req.Socket == "" {
		res.Error = "the request names no proxy socket"
		return
	}
	host := u.Hostname()
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if req.CAFile != "" {
		pem, err := os.ReadFile(req.CAFile)
		if err != nil {
			res.Error = "cannot read the CA bundle: " + pathError(err)
			return
		}
		tlsConf.RootCAs = x509.NewCertPool()
		if !tlsConf.RootCAs.AppendCertsFromPEM(pem) {
			res.Error = "the CA bundle holds no certificate"
			return
		}
	}
	timeout := 30 * time.Second
	if req.TimeoutMS > 0 {
		timeout = time.Duration(req.TimeoutMS) * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tr := &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
			return dialThroughProxy(ctx, req.Socket, addr)
		},
		TLSClientConfig:        tlsConf,
		DisableKeepAlives:      true,
		MaxResponseHeaderBytes: 64 << 10,
	}
	defer tr.CloseIdleConnections()
	var notFollowed string
	client := &http.Client{
		Transport: tr,
		CheckRedirect: func(next *http.Request, via []*http.Request) error {
			if next.URL.Hostname() != host || next.URL.Port() != "" {
				notFollowed = fmt.Sprintf("[boxmaker: the redirect to %s was not followed: it leaves %s, the granted host]", next.URL, host)
				return http.ErrUseLastResponse
			}
			if len(via) > maxRedirects {
				notFollowed = fmt.Sprintf("[boxmaker: the redirect to %s was not followed: more than %d redirects]", next.URL, maxRedirects)
				return http.ErrUseLastResponse
			}
			return nil
		},
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		res.Error = err.Error()
		return
	}
	hreq.Header.Set("User-Agent", "boxmaker-http-fetch")
	resp, err := client.Do(hreq)
	if err != nil {
		res.Error = fetchProblem(err, timeout)
		return
	}
	defer resp.Body.Close()
	res.URL = resp.Request.URL.String()
	res.Status = resp.StatusCode
	res.ContentType = resp.Header.Get("Content-Type")
	if loc := resp.Header.Get("Location"); notFollowed == "" && resp.StatusCode/100 == 3 && loc != "" {
		notFollowed = fmt.Sprintf("[boxmaker: the response redirects to %s]", loc)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(req.Limit)+1))
	if err != nil {
		res.Error = fetchProblem(err, timeout)
		return
	}
	res.Size = int64(len(body))
	var notes []string
	if notFollowed != "" {
		notes = append(notes, notFollowed)
	}
	if len(body) > req.Limit {
		res.Truncated = true
		body = body[:req.Limit]
		total := "more than " + strconv.Itoa(req.Limit)
		if resp.ContentLength > 0 {
			total = strconv.FormatInt(resp.ContentLength, 10)
		}
		// A cut may split a character; the text ends before it.
		for i := 0; i < utf8.UTFMax && len(body) > 0 && !utf8.Valid(body); i++ {
			body = body[:len(body)-1]
		}
		notes = append(notes, fmt.Sprintf("[boxmaker: body truncated: %s bytes, the first %d shown]", total, len(body)))
	}
	if !utf8.Valid(body) || bytes.IndexByte(body, 0) >= 0 {
		notes = append(notes, fmt.Sprintf("[boxmaker: the body is not text (%d bytes of %s); not shown]", res.Size, orUnknown(res.ContentType)))
		body = nil
	}
	res.Content = string(body)
	res.Note = strings.Join(notes, "\n")
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown type"
	}
	return s
}

// ProxyRefusedError is the proxy's refusal of a tunnel, as the tool got
// it.
type ProxyRefusedError struct {
	Status int
	Reason string
}

func (e *ProxyRefusedError) Error() string {
	return fmt.Sprintf("the egress proxy refused (%d): %s", e.Status, e.Reason)
}

// dialThroughProxy opens a tunnel to addr (host:port) through the proxy's
// socket.
func dialThroughProxy(ctx context.Context, socket, addr string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return nil, fmt.Errorf("cannot reach the egress proxy: %w", err)
	}
	if dl, ok := ctx.Deadline(); ok {
		c.SetDeadline(dl)
	}
	if _, err := fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", addr, addr); err != nil {
		c.Close()
		return nil, fmt.Errorf("cannot reach the egress proxy: %w", err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("the egress proxy's answer is not HTTP: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		why, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		c.Close()
		return nil, &ProxyRefusedError{Status: resp.StatusCode, Reason: strings.TrimSpace(string(why))}
	}
	c.SetDeadline(time.Time{})
	if br.Buffered() > 0 {
		return &bufferedConn{Conn: c, r: br}, nil
	}
	return c, nil
}

// bufferedConn reads what the proxy's answer left in the buffer first.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (b *bufferedConn) Read(p []byte) (int, error) { return b.r.Read(p) }

// fetchProblem is a failed fetch in words for the model.
func fetchProblem(err error, timeout time.Duration) string {
	var pr *ProxyRefusedError
	if errors.As(err, &pr) {
		return pr.Error()
	}
	if errors.Is(err, context.DeadlineExceeded) || os.IsTimeout(err) {
		return fmt.Sprintf("the fetch did not finish within %s", timeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// FetchText is an http_fetch result as the model is given it: the
// status, the content type, the body, and the notes.
func FetchText(r Result) string {
	if r.Error != "" {
		return "error: " + r.Error
	}
	var b strings.Builder
	fmt.Fprintf(&b, "status: %d %s\n", r.Status, http.StatusText(r.Status))
	if r.URL != "" {
		fmt.Fprintf(&b, "url: %s\n", r.URL)
	}
	fmt.Fprintf(&b, "content-type: %s\n\n", r.ContentType)
	b.WriteString(r.Content)
	if r.Note != "" {
		if r.Content != "" && !strings.HasSuffix(r.Content, "\n") {
			b.WriteString("\n")
		}
		b.WriteString(r.Note + "\n")
	}
	return b.String()
}
