package inferproxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"boxmaker/core/daemon"
	"boxmaker/core/role"
	"boxmaker/core/secrets"
	"boxmaker/runbook"
)

// Options configure a running inferproxy.
type Options struct {
	Listen       string // the unix socket; the lock is Listen + ".lock"
	Upstream     string
	Burst        int
	QueueTimeout time.Duration
	IdleTimeout  time.Duration // of idle upstream connections; DefaultIdleTimeout when 0
	AllowUIDs    []uint32      // peers allowed besides the daemon's own uid
	Log          io.Writer
	// UpstreamKey is the model server's key, sent on every upstream
	// request as "Authorization: Bearer"; nil sends none.
	UpstreamKey *secrets.Value
	// RequestTimeout bounds how long a client may take to send its
	// request's headers, and again its body, as every Boxmaker socket
	// bounds a request (daemon.DefaultRequestTimeout when 0). The answer,
	// a stream as long as the model writes, is not bounded.
	RequestTimeout time.Duration
}

// Server is inferproxy holding its lock and listening.
type Server struct {
	Proxy *Proxy
	opts  Options
	lock  *daemon.Lock
	ln    *guardedListener
	srv   *http.Server
}

// LockPath is inferproxy's lock: its socket's path with .lock added.
func LockPath(listen string) string { return listen + ".lock" }

// Start checks the upstream, takes the lock and listens. Failures are the
// already-running and inferproxy-start-failed refusals; on failure nothing
// is left listening and the lock is released.
func Start(o Options) (*Server, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	p, err := o.check()
	if err != nil {
		return nil, err
	}
	lock, err := daemon.TakeLock(role.Inferproxy.String(), LockPath(o.Listen))
	if err != nil {
		return nil, err
	}
	ln, err := daemon.Listen(lock, o.Listen)
	if err != nil {
		lock.Release()
		return nil, runbook.Wrap(runbook.InferproxyStartFailed, err)
	}
	s := &Server{Proxy: p, opts: o, lock: lock, ln: &guardedListener{Listener: ln, path: o.Listen, allow: o.AllowUIDs, log: o.Log, done: make(chan struct{})}}
	timeout := o.RequestTimeout
	if timeout <= 0 {
		timeout = daemon.DefaultRequestTimeout
	}
	p.requestTimeout = timeout
	s.srv = &http.Server{
		Handler:           p,
		ReadHeaderTimeout: timeout,
		// A kept-alive client connection with no request is closed after
		// a minute (loopd opens a new one when it needs to).
		IdleTimeout: time.Minute,
		ErrorLog:    log.New(o.Log, "inferproxy: ", 0),
	}
	return s, nil
}

// Check checks the options as Start does, without taking the lock or
// listening (inferproxy serve --check-config).
func (o Options) Check() error {
	if o.Log == nil {
		o.Log = io.Discard
	}
	_, err := o.check()
	return err
}

func (o Options) check() (*Proxy, error) {
	p, err := NewProxy(o.Upstream, o.Burst, o.QueueTimeout, o.IdleTimeout, o.Log)
	if err != nil {
		return nil, runbook.Wrap(runbook.InferproxyStartFailed, err)
	}
	p.key = o.UpstreamKey
	if o.Listen == "" {
		return nil, runbook.Refuse(runbook.InferproxyStartFailed, "no socket to listen on: give --listen or listen in the config")
	}
	if len(o.Listen) > daemon.MaxSocketPath {
		// Checked before the lock, whose directory would be made first.
		return nil, runbook.Refuse(runbook.InferproxyStartFailed, "cannot listen on %s: path must be shorter than SUN_LEN (%d bytes, at most %d)",
			o.Listen, len(o.Listen), daemon.MaxSocketPath)
	}
	return p, nil
}

// StartLine is what inferproxy prints once it listens.
func (s *Server) StartLine() string {
	return fmt.Sprintf("inferproxy: %s -> %s", s.opts.Listen, s.Proxy.Upstream())
}

// Serve serves until ctx ends (nil) or the listener fails for good (the
// listener-lost "stopped serving" refusal). It releases the lock when it
// returns.
func (s *Server) Serve(ctx context.Context) error {
	errs := make(chan error, 1)
	go func() { errs <- s.srv.Serve(s.ln) }()
	var err error
	select {
	case err = <-errs:
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		s.ln.close()
		s.srv.Shutdown(shut)
		cancel()
		s.srv.Close()
		<-errs
	}
	s.ln.close()
	s.lock.Release()
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return runbook.Refuse(runbook.ListenerLost, "stopped serving: %v", err)
	}
	return nil
}

// guardedListener retries transient accept failures every 200 ms, saying
// so once per run of failures, and turns away peers of another uid.
type guardedListener struct {
	net.Listener
	path      string
	allow     []uint32
	log       io.Writer
	done      chan struct{}
	closeOnce sync.Once
	acc       *daemon.Acceptor // one for the listener's life: it keeps the run of failures
}

func (l *guardedListener) close() {
	l.closeOnce.Do(func() { close(l.done) })
	l.Listener.Close()
}

func (l *guardedListener) Accept() (net.Conn, error) {
	if l.acc == nil { // http.Server calls Accept from one goroutine
		l.acc = &daemon.Acceptor{Log: l.log, Role: role.Inferproxy.String(), Name: "infer", Lost: runbook.ListenerLost}
	}
	for {
		c, err := l.acc.Accept(l.Listener, l.done)
		if err != nil {
			select {
			case <-l.done:
				return nil, http.ErrServerClosed
			default:
				return nil, err
			}
		}
		if l.admit(c) {
			return c, nil
		}
	}
}

// admit checks the peer's uid; a refused peer gets a 403 with the
// socket-peer-refused text and the connection is closed.
func (l *guardedListener) admit(c net.Conn) bool {
	peer, err := daemon.PeerOf(c)
	if err != nil {
		fmt.Fprintf(l.log, "inferproxy: cannot read the peer of a connection on %s: %v\n", l.path, err)
		c.Close()
		return false
	}
	if int(peer.UID) == unix.Geteuid() {
		return true
	}
	for _, u := range l.allow {
		if u == peer.UID {
			return true
		}
	}
	r := runbook.Refuse(runbook.SocketPeerRefused,
		"refused a connection on %s from uid %d (pid %d): only uid %d and the uids the config names may connect",
		l.path, peer.UID, peer.PID, unix.Geteuid())
	fmt.Fprintf(l.log, "inferproxy: %s\n", r)
	c.SetWriteDeadline(time.Now().Add(time.Second))
	w := &http.Response{StatusCode: 403, ProtoMajor: 1, ProtoMinor: 1, Header: http.Header{"Content-Type": {"text/plain; charset=utf-8"}, "Connection": {"close"}}}
	body := r.Error() + "\n"
	w.ContentLength = int64(len(body))
	w.Body = io.NopCloser(strings.NewReader(body))
	w.Write(c)
	c.Close()
	return false
}
