package control

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boxmaker/core/daemon"
	"boxmaker/core/testsupport"
	"boxmaker/core/testsupport/daemontest"
	"boxmaker/core/yaag/engine"
	"boxmaker/runbook"
)

// serve runs a Server for a Control on a real socket.
func serve(t *testing.T, c *engine.Control, ended chan struct{}) string {
	t.Helper()
	srv := &Server{Run: "r-20261201-100000-00000000", Control: c, Stop: func() {}, Ended: ended, End: func() Answer {
		return Answer{Status: "paused", Checkpoint: "/c.json"}
	}}
	return serveKinds(t, srv.Kinds())
}

// serveKinds serves the handlers on a real socket as a Run's Control
// Channel, and returns its path.
func serveKinds(t *testing.T, kinds map[string]daemon.Handler) string {
	t.Helper()
	return daemontest.Serve(t, &daemon.Socket{Role: "yaag", Name: "control", Path: filepath.Join(testsupport.ShortDir(t), "ch", "control.sock"),
		Kinds: kinds, ListenerLost: runbook.ListenerLost})
}

func code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestEveryRefusalCode(t *testing.T) {
	c := engine.NewControl()
	ended := make(chan struct{})
	sock := serve(t, c, ended)
	ctx := context.Background()
	var st Status
	if err := Call(ctx, sock, KindStatus, struct{}{}, &st); err != nil || st.State != engine.StateRunning {
		t.Fatalf("status %+v %v", st, err)
	}
	// FLUSH_BUDGET: nothing settles in time; the pause is withdrawn.
	if err := Call(ctx, sock, KindPause, Request{WaitMS: 50}, nil); code(err) != FlushBudget {
		t.Fatalf("got %v", err)
	}
	if c.State() != engine.StateRunning {
		t.Fatalf("after FLUSH_BUDGET the Run is %s", c.State())
	}
	// BUSY: a pause waits; a second one is refused.
	first := make(chan error, 1)
	go func() { first <- Call(ctx, sock, KindPause, Request{WaitMS: 5000}, nil) }()
	for c.State() != engine.StatePausing {
		time.Sleep(5 * time.Millisecond)
	}
	if err := Call(ctx, sock, KindPause, Request{}, nil); code(err) != Busy {
		t.Fatalf("a second pause: %v", err)
	}
	if err := Call(ctx, sock, KindStop, Request{}, nil); code(err) != Busy {
		t.Fatalf("a stop meanwhile: %v", err)
	}
	close(ended) // the Checkpoint is written
	if err := <-first; err != nil {
		t.Fatalf("the first pause: %v", err)
	}
	// RUN_ENDED: the Run has ended, its socket still answers.
	if err := Call(ctx, sock, KindPause, Request{}, nil); code(err) != RunEnded {
		t.Fatalf("a pause after the end: %v", err)
	}
	if err := Call(ctx, sock, KindStop, Request{}, nil); code(err) != RunEnded {
		t.Fatalf("a stop after the end: %v", err)
	}
}

func TestRunSettling(t *testing.T) {
	c := engine.NewControl()
	sock := serve(t, c, make(chan struct{}))
	if err := c.Pause(); err != nil { // as an Agent's question would
		t.Fatal(err)
	}
	err := Call(context.Background(), sock, KindPause, Request{}, nil)
	if code(err) != RunSettling || !strings.Contains(err.Error(), "is settling already (pausing)") {
		t.Fatalf("got %v", err)
	}
	if err := Failed("pause", err); !strings.HasPrefix(err.Error(), "Pause failed: RUN_SETTLING: ") || !strings.HasSuffix(err.Error(), "see docs/yaag/troubleshooting.md#pause-refused") {
		t.Fatalf("worded %q", err)
	}
}

func TestTheClientsCodes(t *testing.T) {
	dir := t.TempDir()
	if err := Call(context.Background(), filepath.Join(dir, "none.sock"), KindStatus, struct{}{}, nil); code(err) != ConnectFailed {
		t.Fatalf("no socket: %v", err)
	}
	// A server that reads the request and closes without an answer.
	sock := filepath.Join(dir, "c.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			c.Read(make([]byte, 100))
			c.Close()
		}
	}()
	if err := Call(context.Background(), sock, KindPause, Request{}, nil); code(err) != ChannelClosed {
		t.Fatalf("closed: %v", err)
	}
}

// TestASocketsRefusalKeepsItsEntry: a refusal of the socket itself (as
// its peer check gives) crosses Call with its entry, and Failed's message
// ends with that entry's link alone.
func TestASocketsRefusalKeepsItsEntry(t *testing.T) {
	refuse := func(context.Context, daemon.Peer, json.RawMessage, *daemon.Stream) (any, error) {
		return nil, runbook.Refuse(runbook.SocketPeerRefused, "uid 1234 may not use this socket")
	}
	sock := serveKinds(t, map[string]daemon.Handler{KindPause: refuse})

	err := Call(context.Background(), sock, KindPause, Request{}, nil)
	if e, ok := runbook.EntryOf(err); code(err) != "REFUSED" || !ok || e != runbook.SocketPeerRefused {
		t.Fatalf("Call: %v", err)
	}
	msg := Failed("pause", err).Error()
	want := "Pause failed: REFUSED: uid 1234 may not use this socket; the Run's record is unchanged (yaag status reads it, yaag stop still ends it); " + runbook.Link(runbook.SocketPeerRefused)
	if msg != want {
		t.Errorf("got  %q\nwant %q", msg, want)
	}
}
