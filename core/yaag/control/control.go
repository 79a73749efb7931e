// Package control is a live Run's Control Channel: a unix socket per Run
// (core/daemon's: its directory 0700, the socket 0600, the peer's uid
// checked), one JSON request per connection, of three kinds:
//
//	status  {}                -> Status
//	pause   {"wait_ms": n}    -> {"status":"paused","checkpoint":path}
//	stop    {"wait_ms": n}    -> {"status":...}
//
// A pause makes the Run settle (no new step starts, the ones in flight
// end and are journaled), then the Run writes its Checkpoint and stops;
// the answer comes when the Checkpoint is on disk. A refused request
// changes nothing, and its error starts with its code: BUSY (another
// pause or stop is being carried out), RUN_SETTLING (the Run settles
// already: a pause, or an Agent's question), RUN_ENDED, FLUSH_BUDGET (the
// Asks in flight did not end within wait_ms: the pause is withdrawn and
// the Run goes on). A client that cannot connect says CONNECT_FAILED; one
// whose connection closed before the answer, CHANNEL_CLOSED. A body that
// is not its kind's (daemon.DecodeBody: an unknown field, a key twice...)
// is the socket's socket-forbidden refusal, without a code: the client
// says REFUSED and keeps its entry.
package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"boxmaker/core/daemon"
	"boxmaker/core/yaag/engine"
	"boxmaker/core/yaagwire"
)

// Texts the troubleshooting page quotes.
// The codes.
const (
	Busy          = yaagwire.Busy
	RunEnded      = yaagwire.RunEnded
	RunSettling   = yaagwire.RunSettling
	FlushBudget   = yaagwire.FlushBudget
	ConnectFailed = yaagwire.ConnectFailed
	ChannelClosed = yaagwire.ChannelClosed
)

// The request kinds.
const (
	KindStatus = yaagwire.KindStatus
	KindPause  = yaagwire.KindPause
	KindStop   = yaagwire.KindStop
)

// DefaultWait is how long a pause or a stop waits for the Run to settle
// when the request does not say.
const DefaultWait = 10 * time.Second

// Request is the body of pause and stop.
type Request = yaagwire.Request

// Status is the answer to status.
type Status = yaagwire.Status

// Answer is the answer to pause and stop.
type Answer = yaagwire.Answer

// Server answers one Run's Control Channel.
type Server struct {
	Run     string
	Control *engine.Control
	// Stop ends the Run (its context); Ended is closed once its end is
	// written (the Cassette or the Checkpoint, and the record), and End
	// then says how it ended.
	Stop  func()
	Ended <-chan struct{}
	End   func() Answer

	busy sync.Mutex
}

func refuse(code, format string, args ...any) error {
	return fmt.Errorf("%s: %s", code, fmt.Sprintf(format, args...))
}

// Kinds are the handlers of the socket.
func (s *Server) Kinds() map[string]daemon.Handler {
	return map[string]daemon.Handler{
		KindStatus: daemon.NoBody(func(context.Context, daemon.Peer, json.RawMessage, *daemon.Stream) (any, error) {
			return Status{Run: s.Run, State: s.Control.State(), Agents: s.Control.Agents()}, nil
		}),
		KindPause: daemon.Takes(s.pause),
		KindStop:  daemon.Takes(s.stop),
	}
}

func wait(r Request) time.Duration {
	if r.WaitMS <= 0 {
		return DefaultWait
	}
	return time.Duration(r.WaitMS) * time.Millisecond
}

func (s *Server) ended() bool {
	select {
	case <-s.Ended:
		return true
	default:
		return false
	}
}

// begin takes a pause or stop request: its budget, with the server's one
// slot for them held (release gives it back).
func (s *Server) begin(r Request) (budget time.Duration, release func(), err error) {
	budget = wait(r)
	if s.ended() {
		return 0, nil, refuse(RunEnded, "Run %s has ended", s.Run)
	}
	if !s.busy.TryLock() {
		return 0, nil, refuse(Busy, "a pause or a stop of Run %s is being carried out; wait for it, then read the Run with yaag status", s.Run)
	}
	return budget, s.busy.Unlock, nil
}

func (s *Server) pause(ctx context.Context, _ daemon.Peer, r Request, _ *daemon.Stream) (any, error) {
	budget, release, err := s.begin(r)
	if err != nil {
		return nil, err
	}
	defer release()
	switch err := s.Control.Pause(); {
	case errors.Is(err, engine.ErrEnded):
		return nil, refuse(RunEnded, "Run %s has ended", s.Run)
	case errors.Is(err, engine.ErrSettling):
		return nil, refuse(RunSettling, "Run %s is settling already (%s): it stops at its next settled boundary by itself", s.Run, s.Control.State())
	}
	t := time.NewTimer(budget)
	defer t.Stop()
	select {
	case <-s.Ended:
		return s.End(), nil
	case <-t.C:
	case <-ctx.Done():
	}
	if s.Control.Withdraw() {
		return nil, refuse(FlushBudget, "the Asks in flight of Run %s did not end within %v, so its journal could not be flushed at a settled boundary; the pause is withdrawn and the Run goes on", s.Run, budget)
	}
	// It settled meanwhile: the Checkpoint is being written.
	select {
	case <-s.Ended:
		return s.End(), nil
	case <-time.After(30 * time.Second):
		return nil, refuse(FlushBudget, "Run %s settled, and its Checkpoint was not written within 30 s", s.Run)
	}
}

func (s *Server) stop(ctx context.Context, _ daemon.Peer, r Request, _ *daemon.Stream) (any, error) {
	budget, release, err := s.begin(r)
	if err != nil {
		return nil, err
	}
	defer release()
	s.Stop()
	select {
	case <-s.Ended:
		return s.End(), nil
	case <-time.After(budget):
		return Answer{Status: "stopping"}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Error is a request the Control Channel refused or did not answer.
type Error = yaagwire.ControlError

// Call sends one request to a Run's Control Channel.
func Call(ctx context.Context, socket, kind string, body, out any) error {
	return yaagwire.Call(ctx, socket, kind, body, out)
}

// Failed words a refused pause (or stop, status: verb) for the person:
// "Pause failed: CODE: ...", with the entry's link.
func Failed(verb string, err error) error { return yaagwire.Failed(verb, err) }
