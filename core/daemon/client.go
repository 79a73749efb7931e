package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"boxmaker/core/clock"
	"boxmaker/runbook"
)

// RemoteError is a final answer that carried an error. Its text is the
// server's whole message, runbook link included.
type RemoteError struct {
	Text   string // the whole message, as the server's log says it
	Entry  string // a refusal's entry, as the server named it
	Public string // a refusal's public text, without its link
}

func (e *RemoteError) Error() string { return e.Text }

// Refusal is the server's refusal made again on this side, entry and
// public text apart, so that it goes on as the same refusal (its entry
// kept, its text not parsed out of the message); nil when the answer was
// no refusal, or named an entry this binary does not know.
func (e *RemoteError) Refusal() *runbook.Refusal {
	entry, ok := runbook.Lookup(e.Entry)
	if !ok {
		return nil
	}
	text := e.Public
	if text == "" { // a server that sends the message alone
		var cut bool
		if text, cut = strings.CutSuffix(e.Text, "; "+runbook.Link(entry)); !cut {
			return nil // its link is not where a refusal's is
		}
	}
	return &runbook.Refusal{Entry: entry, Text: text}
}

// Unwrap is the refusal, so that runbook.EntryOf and errors.As see it.
func (e *RemoteError) Unwrap() error {
	if r := e.Refusal(); r != nil {
		return r
	}
	return nil
}

// PublicText is the refusal's public text, or the whole message when the
// answer was no refusal.
func (e *RemoteError) PublicText() string {
	if r := e.Refusal(); r != nil {
		return r.Text
	}
	return e.Text
}

// Call sends one request on a new connection to the socket at path and
// decodes the final answer's body into out (which may be nil). Events sent
// before the final answer go to onEvent, when it is not nil. The context's
// deadline bounds the whole exchange.
func Call(ctx context.Context, path, kind string, body any, out any, onEvent func(json.RawMessage) error) error {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return err
	}
	defer c.Close()
	if dl, ok := ctx.Deadline(); ok {
		c.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()

	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	line, err := json.Marshal(Request{Kind: kind, Body: raw})
	if err != nil {
		return err
	}
	// A daemon that refuses the connection (its peer check) answers at
	// once and closes without reading: the write may then fail with a
	// broken pipe, but the answer saying why is waiting to be read.
	_, writeErr := c.Write(append(line, '\n'))
	sc := bufio.NewScanner(c)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		var a Answer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			return fmt.Errorf("the answer from %s is not JSON: %w", path, err)
		}
		if !a.Done {
			if onEvent != nil {
				if err := onEvent(a.Body); err != nil {
					return err
				}
			}
			continue
		}
		if a.Error != "" {
			return &RemoteError{Text: a.Error, Entry: a.Entry, Public: a.Text}
		}
		if out != nil && len(a.Body) > 0 {
			return json.Unmarshal(a.Body, out)
		}
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if writeErr != nil {
		return writeErr
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return errors.New("the connection closed before the answer")
}

// PingKind is the request every daemon's socket answers (rolecli.Ping:
// who serves it). Clients and tests ask it to wait until a daemon is up.
const PingKind = "ping"

// AwaitPing asks the daemon at socket for a ping, each try within a
// second and every interval, until it answers (nil), ctx ends (ctx's
// error, with the last try's), or alive, asked between tries, returns an
// error (a process that exited): that error.
func AwaitPing(ctx context.Context, socket string, every time.Duration, alive func() error) error {
	for {
		cctx, cancel := context.WithTimeout(ctx, time.Second)
		err := Call(cctx, socket, PingKind, nil, nil, nil)
		cancel()
		if err == nil {
			return nil
		}
		if alive != nil {
			if aerr := alive(); aerr != nil {
				return aerr
			}
		}
		if cerr := clock.Sleep(ctx, every); cerr != nil {
			return fmt.Errorf("%w (the last try: %v)", cerr, err)
		}
	}
}
