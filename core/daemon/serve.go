package daemon

import (
	"bufio"
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"boxmaker/runbook"
)

// Request is what a client sends on a connection: one JSON object, one
// line. Kind says what it asks; Body is the kind's own payload.
type Request struct {
	Kind string          `json:"kind"`
	Body json.RawMessage `json:"body,omitempty"`
}

// Answer is one JSON line a server writes back. A unary request gets one;
// a streaming request (a loop turn) gets events and then a final answer
// with Done set. A failed request's Error is its whole message, as a
// person reads it (a refusal's text, then its runbook link); for a
// refusal, Entry and Text are its entry and its public text apart, so
// that the client makes the same runbook.Refusal again (RemoteError).
type Answer struct {
	Done  bool            `json:"done,omitempty"`
	Error string          `json:"error,omitempty"`
	Entry string          `json:"entry,omitempty"`
	Text  string          `json:"text,omitempty"`
	Body  json.RawMessage `json:"body,omitempty"`
}

// failure is the final answer of a request that failed with err.
func failure(err error) Answer {
	a := Answer{Done: true, Error: err.Error()}
	if e, text, ok := runbook.Public(err); ok {
		a.Entry, a.Text = e.String(), text
	} else if e, ok := runbook.EntryOf(err); ok {
		a.Entry = e.String() // the client cuts nothing: Text is empty
	}
	return a
}

// Peer is the process at the other end of a connection, from SO_PEERCRED.
type Peer struct {
	PID int32
	UID uint32
	GID uint32
}

// Stream lets a handler send events before its final answer, and tells
// it when the client has gone (Gone).
type Stream struct {
	mu  sync.Mutex
	enc *json.Encoder

	conn     net.Conn
	goneOnce sync.Once
	gone     chan struct{}
}

// Gone is closed when the client closes its connection (or the handler
// has returned). A client sends nothing after its request line, so a read
// that ends is the client gone; the read starts at the first call.
func (s *Stream) Gone() <-chan struct{} {
	s.goneOnce.Do(func() {
		s.gone = make(chan struct{})
		if s.conn == nil {
			return
		}
		go func() {
			var b [1]byte
			for {
				if _, err := s.conn.Read(b[:]); err != nil {
					close(s.gone)
					return
				}
			}
		}()
	})
	return s.gone
}

// Send writes one event line (an Answer without Done).
func (s *Stream) Send(body any) error {
	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.enc.Encode(Answer{Body: raw})
}

// Handler answers one request. The value it returns is the final answer's
// body; an error becomes the final answer's Error (and Entry, for a
// refusal).
type Handler func(ctx context.Context, peer Peer, body json.RawMessage, s *Stream) (any, error)

// Socket describes one listening socket of a daemon.
type Socket struct {
	Role  string // "brokerd": the prefix of every line printed
	Name  string // "broker", "admin", "state": shown in accept-<name>
	Path  string
	Kinds map[string]Handler
	// AllowUIDs are the peers' uids allowed besides the daemon's own.
	AllowUIDs []uint32
	// ListenerLost is the entry for accept failures (brokerd has its own).
	ListenerLost runbook.Entry
	// Log receives the lines an operator reads (refusals, accept trouble).
	Log io.Writer
	// MaxRequest bounds one request line; 0 means 16 MiB. A longer one is
	// answered with a refusal naming the limit.
	MaxRequest int
	// RequestTimeout is how long a connection may take to send its whole
	// request line; 0 means DefaultRequestTimeout. The connection is closed
	// then: a client that connects and never sends holds nothing for long.
	RequestTimeout time.Duration
	// MaxWaiting is how many connections may be waiting for their request
	// at once; 0 means DefaultMaxWaiting. One more closes the one that has
	// waited longest, so that a flood of silent connections cannot keep
	// others from being served.
	MaxWaiting int

	waitMu  sync.Mutex
	waiting list.List // of net.Conn, oldest first
}

// The defaults of a socket's request limits. A request line is written
// at once by every client of the harness; ten seconds is far beyond what
// any of them needs.
const (
	DefaultRequestTimeout = 10 * time.Second
	DefaultMaxWaiting     = 256
	DefaultMaxRequest     = 16 << 20
)

// await registers a connection that has not sent its request yet, closing
// the one that has waited longest when MaxWaiting are already waiting. The
// returned func removes it once its request is read (or it is gone).
func (s *Socket) await(c net.Conn) (done func()) {
	max := s.MaxWaiting
	if max <= 0 {
		max = DefaultMaxWaiting
	}
	s.waitMu.Lock()
	defer s.waitMu.Unlock()
	for s.waiting.Len() >= max {
		oldest := s.waiting.Front()
		s.waiting.Remove(oldest)
		oldest.Value.(net.Conn).Close()
	}
	e := s.waiting.PushBack(c)
	return func() {
		s.waitMu.Lock()
		defer s.waitMu.Unlock()
		for x := s.waiting.Front(); x != nil; x = x.Next() {
			if x == e {
				s.waiting.Remove(e)
				return
			}
		}
	}
}

// retryAccept is how long the listener waits after a failed accept.
const retryAccept = 200 * time.Millisecond

// acceptCalm is how long accept must go without a transient failure for
// the next one to start a new run of failures (a new line). In a flood, a
// descriptor comes free for a moment (a connection answered or timed out)
// and one accept succeeds between failures: that is the same run.
const acceptCalm = 10 * time.Second

// Acceptor is what a daemon's listener says when accept fails for now:
// Role's line for the socket accept-Name, of the entry Lost
// (listener-lost, or brokerd's own), written to Log. One Acceptor serves
// one listener for its whole life: it remembers the run of failures.
type Acceptor struct {
	Log        io.Writer
	Role, Name string
	Lost       runbook.Entry
	// Now is the clock (time.Now when nil).
	Now func() time.Time

	lastFail time.Time // the latest transient failure; zero before any
}

func (a *Acceptor) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

// Accept takes the next connection from ln. A failure that a freed
// resource may cure (a limit such as EMFILE) is tried again every 200 ms,
// and the first of each run of them is written to Log: a run ends only
// when accept has gone acceptCalm without such a failure, so the odd
// accept that succeeds in a flood does not print the line again. done
// closing ends the wait with net.ErrClosed. Any other failure is returned.
func (a *Acceptor) Accept(ln net.Listener, done <-chan struct{}) (net.Conn, error) {
	for {
		conn, err := ln.Accept()
		if err == nil {
			return conn, nil
		}
		select {
		case <-done:
			return nil, net.ErrClosed
		default:
		}
		if !transientAccept(err) {
			return nil, err
		}
		now := a.now()
		if a.lastFail.IsZero() || now.Sub(a.lastFail) >= acceptCalm {
			fmt.Fprintf(a.Log, "%s: %s\n", a.Role, runbook.Refuse(a.Lost,
				"cannot accept on accept-%s for now, retrying: %v", a.Name, syscallError(err)))
		}
		a.lastFail = now
		select {
		case <-time.After(retryAccept):
		case <-done:
			return nil, net.ErrClosed
		}
	}
}

// Serve accepts connections until ctx ends or the listener fails for good.
// A transient accept failure is retried (Acceptor); any other failure
// stops serving and is returned as brokerd-listener-lost's "stopped
// serving" text.
func (s *Socket) Serve(ctx context.Context, ln net.Listener) error {
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	acc := &Acceptor{Log: s.Log, Role: s.Role, Name: s.Name, Lost: s.ListenerLost}
	for {
		conn, err := acc.Accept(ln, ctx.Done())
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return runbook.Refuse(s.ListenerLost, "stopped serving: %v", err)
		}
		// Counted in the order of arrival: a flood evicts its own oldest.
		waited := s.await(conn)
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.handle(ctx, conn, waited)
		}()
	}
}

var errTooLong = errors.New("request line too long")

// readRequest reads one request line, its newline included, of at most
// max bytes. A line cut by the end of the connection or the read deadline
// is no request.
func readRequest(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		part, err := br.ReadSlice('\n')
		if len(line)+len(part) > max+1 {
			return nil, errTooLong
		}
		line = append(line, part...)
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return nil, err
		}
	}
}

// transientAccept tells a failure that a freed resource may cure from one
// that means the listener is gone.
func transientAccept(err error) bool {
	for _, e := range []syscall.Errno{unix.EMFILE, unix.ENFILE, unix.ENOBUFS, unix.ENOMEM, unix.ECONNABORTED, unix.EINTR, unix.EAGAIN, unix.EPROTO, unix.EPERM} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// PeerOf reads the credentials of the process at the other end of c.
func PeerOf(c net.Conn) (Peer, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return Peer{}, errors.New("not a unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return Peer{}, err
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return Peer{}, err
	}
	if cerr != nil {
		return Peer{}, cerr
	}
	return Peer{PID: cred.Pid, UID: cred.Uid, GID: cred.Gid}, nil
}

func (s *Socket) allowed(uid uint32) bool {
	if int(uid) == unix.Geteuid() {
		return true
	}
	for _, u := range s.AllowUIDs {
		if u == uid {
			return true
		}
	}
	return false
}

// handle answers one connection; done takes it off the waiting list.
func (s *Socket) handle(ctx context.Context, c net.Conn, done func()) {
	defer c.Close()
	defer done()
	timeout := s.RequestTimeout
	if timeout <= 0 {
		timeout = DefaultRequestTimeout
	}
	c.SetReadDeadline(time.Now().Add(timeout))
	enc := json.NewEncoder(c)
	peer, err := PeerOf(c)
	if err != nil {
		fmt.Fprintf(s.Log, "%s: cannot read the peer of a connection on %s: %v\n", s.Role, s.Path, err)
		return
	}
	if !s.allowed(peer.UID) {
		r := runbook.Refuse(runbook.SocketPeerRefused,
			"refused a connection on %s from uid %d (pid %d): only uid %d and the uids the config names may connect",
			s.Path, peer.UID, peer.PID, unix.Geteuid())
		fmt.Fprintf(s.Log, "%s: %s\n", s.Role, r)
		enc.Encode(failure(r))
		return
	}
	max := s.MaxRequest
	if max == 0 {
		max = DefaultMaxRequest
	}
	line, err := readRequest(bufio.NewReaderSize(c, 64<<10), max)
	if errors.Is(err, errTooLong) {
		r := runbook.Refuse(runbook.RequestTooLarge, "the request is longer than %d bytes, the limit of the %s socket", max, s.Name)
		fmt.Fprintf(s.Log, "%s: %s\n", s.Role, runbook.Refuse(runbook.RequestTooLarge,
			"refused a request on %s from pid %d (uid %d): it is longer than %d bytes, the limit of the %s socket", s.Path, peer.PID, peer.UID, max, s.Name))
		enc.Encode(failure(r))
		return
	}
	if err != nil {
		// The client went away without asking, or did not send its whole
		// request line within the timeout.
		return
	}
	done()
	c.SetReadDeadline(time.Time{})
	// The request line is read as strictly as a body (DecodeBody): the
	// body's own field is left for its kind's handler to read.
	var req Request
	if problem := decodeObject(line, &req); problem != "" {
		r := runbook.Refuse(runbook.SocketForbidden, "a request arrived on the %s socket %s that is not one {\"kind\",\"body\"} object (from pid %d, uid %d): %s",
			s.Name, s.Path, peer.PID, peer.UID, cutProblem(problem))
		fmt.Fprintf(s.Log, "%s: %s\n", s.Role, r)
		enc.Encode(failure(r))
		return
	}
	h, ok := s.Kinds[req.Kind]
	if !ok {
		r := runbook.Refuse(runbook.SocketForbidden, "a %q request arrived on the %s socket %s, which does not take it (from pid %d, uid %d)",
			req.Kind, s.Name, s.Path, peer.PID, peer.UID)
		fmt.Fprintf(s.Log, "%s: %s\n", s.Role, r)
		enc.Encode(failure(r))
		return
	}
	stream := &Stream{enc: enc, conn: c}
	body, err := h(ctx, peer, req.Body, stream)
	if be := (*BodyError)(nil); errors.As(err, &be) {
		err = s.refuseBody(req.Kind, peer, be)
	}
	final := Answer{Done: true}
	if err != nil {
		final = failure(err)
	} else if body != nil {
		raw, merr := json.Marshal(body)
		if merr != nil {
			final.Error = fmt.Sprintf("cannot encode the answer: %v", merr)
		} else {
			final.Body = raw
		}
	}
	stream.mu.Lock()
	defer stream.mu.Unlock()
	enc.Encode(final)
}
