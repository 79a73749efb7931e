package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"boxmaker/runbook"
)

// RetrySchedule is the wait before each attempt to reach Mattermost
// again: 1, 2, 5 and 10 seconds, then every 30 (the last repeats).
var RetrySchedule = []time.Duration{time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second}

// AuthRefused is Mattermost refusing the token: gatewayd stops.
func AuthRefused(status int) error {
	return runbook.Refuse(runbook.MattermostAuthFailed, "Mattermost refused the token (%d)", status)
}

// Link keeps one WebSocket to Mattermost open, and opens it again when it
// fails, for as long as its context lives. It is the only owner of the
// socket: one is closed before the next is opened.
type Link struct {
	Client    *Client
	HTTP      *http.Client
	DeadAfter time.Duration
	// Log prints one line for the operator.
	Log func(format string, args ...any)
	// Sleep waits d unless ctx ends first (tests pass their own clock).
	Sleep func(ctx context.Context, d time.Duration) error
	// Connected is called once each connection works, before its events:
	// fresh is true when the server did not resume the previous
	// connection (its events may have been missed; the caller catches up
	// over REST).
	Connected func(ctx context.Context, me User, fresh bool) error
	// Event is called with each event, in the connection's order, on the
	// reading goroutine: it must not wait on Mattermost.
	Event func(f Frame)

	connID  string // the last hello's connection_id
	nextSeq int64  // the seq the next event must have
}

// Run connects and keeps connecting until ctx ends (nil) or Mattermost
// refuses the token (mattermost-auth-failed) or Connected fails (its
// error).
func (l *Link) Run(ctx context.Context) error {
	attempt := 0
	for {
		connected, err := l.session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		var fatal *fatalError
		if errors.As(err, &fatal) {
			return fatal.err
		}
		if connected {
			attempt = 0
		}
		wait := RetrySchedule[min(attempt, len(RetrySchedule)-1)]
		attempt++
		l.Log("%v", runbook.Refuse(runbook.MattermostUnreachable, "cannot reach %s: %s; trying again in %d s",
			l.Client.URL, reason(err), int(wait/time.Second)))
		if err := l.Sleep(ctx, wait); err != nil {
			return nil
		}
	}
}

// fatalError ends Run: retrying cannot help.
type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }

// reason is a failure in the words of the runbook line: what failed,
// without Go's decoration.
func reason(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	s := err.Error()
	return strings.TrimPrefix(s, "failed to WebSocket dial: ")
}

// session is one connection: users/me, the upgrade, then events until it
// fails. connected says whether it got as far as events.
func (l *Link) session(ctx context.Context) (connected bool, err error) {
	rctx, cancel := context.WithTimeout(ctx, l.DeadAfter+10*time.Second)
	me, err := l.Client.Me(rctx)
	cancel()
	if status, ok := Refused(err); ok {
		return false, &fatalError{AuthRefused(status)}
	}
	if err != nil {
		return false, err
	}
	wsURL := "ws" + strings.TrimPrefix(l.Client.URL, "http") + "/api/v4/websocket"
	resume := l.connID != ""
	if resume {
		wsURL += "?" + url.Values{"connection_id": {l.connID}, "sequence_number": {strconv.FormatInt(l.nextSeq, 10)}}.Encode()
	}
	dctx, cancel := context.WithTimeout(ctx, l.DeadAfter+10*time.Second)
	conn, resp, err := websocket.Dial(dctx, wsURL, &websocket.DialOptions{
		HTTPClient: l.HTTP,
		HTTPHeader: http.Header{"Authorization": {"Bearer " + l.Client.Token}},
	})
	cancel()
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		// Even a 401 or 403 here is the upgrade failing (Mattermost
		// upgrades without a session; a proxy may refuse it), not the
		// token refused: the next attempt asks users/me first, and that
		// answer decides (D453).
		return false, fmt.Errorf("the WebSocket upgrade failed: %w", err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(maxFrame)

	// The first frame: a hello (a fresh connection, or a resume the
	// server could not honour), or the events missed (a resume), or
	// nothing at all (a resume with nothing missed) within a ping.
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	var wmu sync.Mutex
	var actionSeq int64
	send := func(action string, data map[string]any) error {
		wmu.Lock()
		defer wmu.Unlock()
		actionSeq++
		raw, _ := json.Marshal(Action{Seq: actionSeq, Action: action, Data: data})
		wctx, cancel := context.WithTimeout(sctx, l.DeadAfter)
		defer cancel()
		return conn.Write(wctx, websocket.MessageText, raw)
	}
	pingErr := make(chan error, 1)
	go func() {
		t := time.NewTicker(l.DeadAfter / 3)
		defer t.Stop()
		for {
			if err := send("ping", nil); err != nil {
				pingErr <- err
				return
			}
			select {
			case <-sctx.Done():
				return
			case <-t.C:
			}
		}
	}()

	fresh := !resume
	first := true
	for {
		rctx, cancel := context.WithTimeout(sctx, l.DeadAfter)
		typ, data, err := conn.Read(rctx)
		silent := rctx.Err() == context.DeadlineExceeded
		cancel()
		select {
		case perr := <-pingErr:
			if err == nil {
				err = perr
			}
		default:
		}
		if err != nil {
			if ctx.Err() != nil {
				return connected, ctx.Err()
			}
			if silent {
				return connected, fmt.Errorf("the WebSocket was silent for %d ms (dead_after_ms)", l.DeadAfter.Milliseconds())
			}
			if first && resume && !connected {
				// A resume the server closed at once: begin afresh.
				l.connID = ""
			}
			return connected, fmt.Errorf("the WebSocket closed: %v", closeReason(err))
		}
		if typ != websocket.MessageText {
			continue // msgpack is for requests the client chooses to send so
		}
		f, err := DecodeFrame(data)
		if err != nil {
			return connected, err
		}
		if !f.IsEvent() {
			if f.Status == "FAIL" && f.Error != nil && f.Error.StatusCode == http.StatusUnauthorized {
				// A revoked token leaves the socket open and silent but
				// for these: ask users/me, which says 401 for good.
				rctx, cancel := context.WithTimeout(ctx, l.DeadAfter)
				_, merr := l.Client.Me(rctx)
				cancel()
				if status, ok := Refused(merr); ok {
					return connected, &fatalError{AuthRefused(status)}
				}
			}
			if !connected && resume && f.Status == "OK" {
				// The answer to the first ping, and no hello: the server
				// resumed the connection and had nothing missed to send.
				connected, first = true, false
				if err := l.Connected(ctx, me, false); err != nil {
					return connected, &fatalError{err}
				}
			}
			continue
		}
		if f.Event == "hello" {
			id := f.String("connection_id")
			if f.Seq != 0 {
				return connected, fmt.Errorf("the hello has seq %d, not 0", f.Seq)
			}
			fresh = fresh || id != l.connID
			l.connID, l.nextSeq = id, 1
			if !connected {
				connected = true
				if err := l.Connected(ctx, me, fresh); err != nil {
					return connected, &fatalError{err}
				}
			} else {
				// A second hello on one connection: the server began a
				// new one, and events may have been lost between.
				if err := l.Connected(ctx, me, true); err != nil {
					return connected, &fatalError{err}
				}
			}
			first = false
			continue
		}
		if !connected {
			if !resume {
				return connected, fmt.Errorf("the first event is %q, not hello", f.Event)
			}
			connected = true // the resume replays what was missed
			if err := l.Connected(ctx, me, false); err != nil {
				return connected, &fatalError{err}
			}
		}
		first = false
		if f.Seq != l.nextSeq {
			// A gap: resume from the first event missed.
			return connected, fmt.Errorf("the events jumped from seq %d to %d", l.nextSeq, f.Seq)
		}
		l.nextSeq++
		l.Event(f)
	}
}

// closeReason is a WebSocket read error without the library's wording.
func closeReason(err error) string {
	if st := websocket.CloseStatus(err); st != -1 {
		return fmt.Sprintf("status %d", int(st))
	}
	s := err.Error()
	for _, p := range []string{"failed to get reader: ", "failed to read frame header: "} {
		s = strings.TrimPrefix(s, p)
	}
	return s
}
