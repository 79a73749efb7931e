package daemon

import (
	"bufio"
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
// with Done set. Error carries a refusal's whole text, Entry its entry.
type Answer struct {
	Done  bool            `json:"done,omitempty"`
	Error string          `json:"error,omitempty"`
	Entry string          `json:"entry,omitempty"`
	Body  json.RawMessage `json:"body,omitempty"`
}

// Peer is the process at the other end of a connection, from SO_PEERCRED.
type Peer struct {
	PID int32
	UID uint32
	GID uint32
}

// Stream lets a handler send events before its final answer.
type Stream struct {
	mu  sync.Mutex
	enc *json.Encoder
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
	// MaxRequest bounds one request line; 0 means 16 MiB.
	MaxRequest int
}

// retryAccept is how long the listener waits after a failed accept.
const retryAccept = 200 * time.Millisecond

// Serve accepts connections until ctx ends or the listener fails for good.
// A transient accept failure (a limit such as EMFILE) is retried every
// 200 ms and printed once per episode; any other failure stops serving and
// is returned as brokerd-listener-lost's "stopped serving" text.
func (s *Socket) Serve(ctx context.Context, ln net.Listener) error {
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	inEpisode := false
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if transientAccept(err) {
				if !inEpisode {
					fmt.Fprintf(s.Log, "%s: %s\n", s.Role, runbook.Refuse(s.ListenerLost,
						"cannot accept on accept-%s for now, retrying: %v", s.Name, syscallError(err)))
					inEpisode = true
				}
				select {
				case <-time.After(retryAccept):
				case <-ctx.Done():
					return nil
				}
				continue
			}
			return runbook.Refuse(s.ListenerLost, "stopped serving: %v", err)
		}
		inEpisode = false
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.handle(ctx, conn)
		}()
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

func (s *Socket) handle(ctx context.Context, c net.Conn) {
	defer c.Close()
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
		enc.Encode(Answer{Done: true, Error: r.Error(), Entry: string(r.Entry)})
		return
	}
	max := s.MaxRequest
	if max == 0 {
		max = 16 << 20
	}
	sc := bufio.NewScanner(c)
	sc.Buffer(make([]byte, 64<<10), max)
	if !sc.Scan() {
		return // the client went away without asking
	}
	var req Request
	if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
		enc.Encode(Answer{Done: true, Error: fmt.Sprintf("the request is not JSON: %v", err)})
		return
	}
	h, ok := s.Kinds[req.Kind]
	if !ok {
		r := runbook.Refuse(runbook.SocketForbidden, "a %q request arrived on the %s socket %s, which does not take it (from pid %d, uid %d)",
			req.Kind, s.Name, s.Path, peer.PID, peer.UID)
		fmt.Fprintf(s.Log, "%s: %s\n", s.Role, r)
		enc.Encode(Answer{Done: true, Error: r.Error(), Entry: string(r.Entry)})
		return
	}
	stream := &Stream{enc: enc}
	body, err := h(ctx, peer, req.Body, stream)
	final := Answer{Done: true}
	if err != nil {
		final.Error = err.Error()
		if e, ok := runbook.EntryOf(err); ok {
			final.Entry = string(e)
		}
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
