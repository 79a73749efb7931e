package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"boxmaker/core/testsupport"
	"boxmaker/runbook"
)

func pingSocket(log io.Writer) *Socket {
	return &Socket{Role: "testd", Name: "test", Log: log, Kinds: map[string]Handler{
		PingKind: func(context.Context, Peer, json.RawMessage, *Stream) (any, error) { return "pong", nil },
	}}
}

// A connection that has not sent its whole request line within the
// timeout is closed; one that sends half a line too. (Issue 8, item 6.)
func TestASilentConnectionIsClosedAtTheTimeout(t *testing.T) {
	s := pingSocket(io.Discard)
	s.RequestTimeout = 300 * time.Millisecond
	path := serveTest(t, s)
	for _, sent := range []string{"", `{"kind":"pi`} {
		c, err := net.Dial("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, sent)
		start := time.Now()
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		n, err := c.Read(make([]byte, 1))
		if n != 0 || err != io.EOF {
			t.Errorf("after %q: read %d, %v; want the server to close the connection", sent, n, err)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("after %q: closed after %s", sent, took)
		}
	}
	// A client that sends at once is served, and may then wait for its
	// answer as long as the handler takes.
	if err := Call(context.Background(), path, PingKind, nil, nil, nil); err != nil {
		t.Errorf("a prompt client: %v", err)
	}
}

// A flood of connections that never send holds at most MaxWaiting of them
// open (the oldest are closed as new ones come), and others are served
// meanwhile. (Issue 8, item 6: 3,000 half-sent requests stayed open.)
func TestAFloodOfSilentConnectionsDoesNotStopOthers(t *testing.T) {
	s := pingSocket(io.Discard)
	s.MaxWaiting = 50
	path := serveTest(t, s)
	const flood = 1000
	var closed atomic.Int64
	var wg sync.WaitGroup
	conns := make([]net.Conn, 0, flood)
	for range flood {
		c, err := net.Dial("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.SetReadDeadline(time.Now().Add(20 * time.Second))
			if _, err := c.Read(make([]byte, 1)); err == io.EOF {
				closed.Add(1)
			}
		}()
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var out string
	if err := Call(ctx, path, "ping", nil, &out, nil); err != nil || out != "pong" {
		t.Fatalf("during the flood: %q, %v", out, err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for closed.Load() < flood-50 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := closed.Load(); n < flood-50 {
		t.Errorf("%d of %d silent connections were closed, want at least %d (at most 50 may wait)", n, flood, flood-50)
	}
}

// A request line over the limit is refused with an answer naming the
// limit, not dropped in silence.
func TestARequestOverTheLimitIsRefusedNamingIt(t *testing.T) {
	s := pingSocket(io.Discard)
	s.MaxRequest = 1 << 16
	path := serveTest(t, s)
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go io.WriteString(c, `{"kind":"ping","body":"`+strings.Repeat("x", 1<<17)+`"}`+"\n")
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var a Answer
	if err := json.Unmarshal([]byte(line), &a); err != nil {
		t.Fatal(err)
	}
	if want := "the request is longer than 65536 bytes, the limit of the test socket; " + runbook.Link(runbook.RequestTooLarge); a.Error != want || a.Entry != runbook.RequestTooLarge.String() {
		t.Errorf("answer %+v, want %q", a, want)
	}
}

// AwaitPing returns once the daemon answers, with ctx's error when none
// does in time, and with alive's error as soon as alive gives one.
func TestAwaitPing(t *testing.T) {
	path := serveTest(t, pingSocket(io.Discard))
	if err := AwaitPing(context.Background(), path, time.Millisecond, nil); err != nil {
		t.Errorf("a daemon that answers: %v", err)
	}
	nobody := filepath.Join(testsupport.ShortDir(t), "none.sock")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := AwaitPing(ctx, nobody, 10*time.Millisecond, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("no daemon: %v, want the deadline", err)
	}
	gone := errors.New("it exited")
	if err := AwaitPing(context.Background(), nobody, 10*time.Millisecond, func() error { return gone }); err != gone {
		t.Errorf("a daemon that exited: %v, want alive's error", err)
	}
}
