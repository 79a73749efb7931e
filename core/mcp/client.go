// Package mcp is Boxmaker's client of MCP (Model Context Protocol) tool
// servers, through the official Go SDK (github.com/modelcontextprotocol/go-sdk,
// D922). It starts a server process, speaks the protocol over its stdin
// and stdout (the stdio transport), and lists its tools with a pin: a
// hash of the list that changes whenever anything the model or the owner
// could be shown of a tool changes (ToolList).
//
// It calls tools (Session.Call: a cancelled context sends the server
// notifications/cancelled) and tells of notifications/tools/list_changed
// (Options.ToolsChanged). The process is whatever *exec.Cmd the caller
// builds; containment is the caller's (core/mcpserve, core/runner). A
// message from the server is bounded by the SDK's frame limit (16 MiB):
// one longer ends the connection. Resources and prompts are not read.
//
// The client advertises no capabilities (no roots, sampling or
// elicitation), so a server cannot call back into Boxmaker, and a server
// such as the reference filesystem server keeps the directories it was
// started with instead of replacing them with the client's roots.
package mcp

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Limits bound what a server can make the client hold. A server is
// outside code: its list is read whole before it is hashed, so it must
// end.
const (
	MaxTools     = 512 // tools in one list
	MaxPages     = 64  // tools/list pages followed
	StderrTail   = 8 << 10
	startTimeout = 30 * time.Second
)

// Options are how Connect starts and talks to a server. Zero values are
// the defaults in brackets.
type Options struct {
	// StartTimeout bounds the start and the handshake [30s].
	StartTimeout time.Duration
	// TerminateAfter is how long Close waits, after closing the server's
	// stdin, before it sends SIGTERM, and again before SIGKILL [2s].
	TerminateAfter time.Duration
	// ToolsChanged, when set, is called when the server sends
	// notifications/tools/list_changed: its list must be read and judged
	// again before another call.
	ToolsChanged func()
}

// Session is one connected server.
type Session struct {
	cs        *sdk.ClientSession
	cmd       *exec.Cmd
	stderr    *tail
	terminate time.Duration
}

// StartError says a server did not get through its start and handshake:
// the process could not start, exited, hung or answered wrongly. Stderr
// is the end of what it wrote there (its own text: show it as such).
type StartError struct {
	Command string // the program
	Exit    string // "exit status 3", "signal: killed", "" while running
	Stderr  string
	Err     error
}

func (e *StartError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the MCP server %s did not start", e.Command)
	if e.Exit != "" {
		fmt.Fprintf(&b, ": it ended (%s) before the handshake was done", e.Exit)
	}
	if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	if s := strings.TrimSpace(e.Stderr); s != "" {
		fmt.Fprintf(&b, "; its standard error ends: %q", lastLines(s, 5))
	}
	return b.String()
}

func (e *StartError) Unwrap() error { return e.Err }

// Connect starts cmd (not yet started; its Stdin and Stdout must be
// unset) and does the protocol's handshake with it. cmd's standard
// error is kept (its last StderrTail bytes) unless the caller set one.
// On an error the process has been stopped.
func Connect(ctx context.Context, cmd *exec.Cmd, opts Options) (*Session, error) {
	if cmd.Stdin != nil || cmd.Stdout != nil {
		return nil, errors.New("mcp: the command's stdin and stdout are the transport: leave them unset")
	}
	s := &Session{cmd: cmd, stderr: &tail{max: StderrTail}}
	if cmd.Stderr == nil {
		cmd.Stderr = s.stderr
	}
	if cmd.WaitDelay == 0 {
		// A child that keeps the stderr pipe open must not hold Wait.
		cmd.WaitDelay = time.Second
	}
	timeout := opts.StartTimeout
	if timeout <= 0 {
		timeout = startTimeout
	}
	terminate := opts.TerminateAfter
	if terminate <= 0 {
		terminate = 2 * time.Second
	}
	copts := &sdk.ClientOptions{Capabilities: &sdk.ClientCapabilities{}}
	if opts.ToolsChanged != nil {
		copts.ToolListChangedHandler = func(context.Context, *sdk.ToolListChangedRequest) { opts.ToolsChanged() }
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "boxmaker"}, copts)
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cs, err := client.Connect(cctx, boundedTransport{&sdk.CommandTransport{Command: cmd, TerminateDuration: terminate}}, nil)
	if err != nil {
		if cmd.Process != nil && cmd.ProcessState == nil {
			// The SDK closes the session on a failed handshake, but not
			// on every path: be sure the process is gone.
			cmd.Process.Kill()
			cmd.Wait()
		}
		e := &StartError{Command: cmd.Path, Stderr: s.stderr.String(), Err: err}
		switch {
		case errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
			e.Err = fmt.Errorf("no answer to the handshake within %v, so it was stopped", timeout)
		case cmd.ProcessState != nil && cmd.ProcessState.Exited():
			// It ended of its own accord (a signal would be the
			// client's stop after a protocol error, which err says).
			e.Exit, e.Err = cmd.ProcessState.String(), nil
		}
		return nil, e
	}
	s.cs, s.terminate = cs, terminate
	return s, nil
}

// Protocol is the protocol version the server and the client agreed on.
func (s *Session) Protocol() string {
	if r := s.cs.InitializeResult(); r != nil {
		return r.ProtocolVersion
	}
	return ""
}

// ServerInfo is the name and version the server gives itself: its own
// words, never an identity.
func (s *Session) ServerInfo() (name, version string) {
	if r := s.cs.InitializeResult(); r != nil && r.ServerInfo != nil {
		return r.ServerInfo.Name, r.ServerInfo.Version
	}
	return "", ""
}

// Stderr is the end of what the server wrote to its standard error.
func (s *Session) Stderr() string { return s.stderr.String() }

// Tools lists the server's tools, through every page, and pins them.
func (s *Session) Tools(ctx context.Context) (ToolList, error) {
	var all []*sdk.Tool
	params := &sdk.ListToolsParams{}
	for page := 0; ; page++ {
		if page == MaxPages {
			return ToolList{}, fmt.Errorf("the server's tool list goes on past %d pages", MaxPages)
		}
		res, err := s.cs.ListTools(ctx, params)
		if err != nil {
			return ToolList{}, fmt.Errorf("listing the server's tools: %w", err)
		}
		all = append(all, res.Tools...)
		if len(all) > MaxTools {
			return ToolList{}, fmt.Errorf("the server lists more than %d tools", MaxTools)
		}
		if res.NextCursor == "" {
			break
		}
		params = &sdk.ListToolsParams{Cursor: res.NextCursor}
	}
	return Pin(all)
}

// Close ends the session: it closes the server's stdin, waits, then
// sends SIGTERM and at last SIGKILL (the SDK's order), and waits for the
// process.
func (s *Session) Close() error {
	// A server that reads nothing holds the client's writes (an answer to
	// its ping, the call's arguments): the SDK's close waits behind them,
	// so the process is killed once the SDK's own order is past due.
	stop := s.killAfter(3*s.terminate + time.Second)
	defer stop()
	err := s.cs.Close()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		// A server that exits non-zero on stdin's end is no failure of
		// the close.
		return nil
	}
	return err
}

// killAfter kills the server's process when d passes before stop is
// called. Killing it closes the pipes, so a write stuck on a server that
// reads nothing returns.
func (s *Session) killAfter(d time.Duration) (stop func()) {
	t := time.AfterFunc(d, func() {
		if s.cmd.Process != nil {
			s.cmd.Process.Kill()
		}
	})
	return func() { t.Stop() }
}

// MaxServerRequests bounds the requests from a server (ping, roots/list,
// what the client refuses) that the client has read and not yet
// answered: the SDK queues each one it reads, without a bound, behind
// the answer it is writing, and a server that sends them without
// reading the answers would grow brokerd's memory until the call's
// timeout. One more ends the connection.
const MaxServerRequests = 64

// boundedTransport is a transport whose connection counts the server's
// requests against their answers (MaxServerRequests).
type boundedTransport struct{ sdk.Transport }

func (t boundedTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &boundedConn{Connection: c}, nil
}

type boundedConn struct {
	sdk.Connection
	open atomic.Int64
}

func (c *boundedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if r, ok := m.(*jsonrpc.Request); ok && err == nil && r.IsCall() && c.open.Add(1) > MaxServerRequests {
		return nil, fmt.Errorf("the server sent more than %d requests whose answers it did not wait for", MaxServerRequests)
	}
	return m, err
}

func (c *boundedConn) Write(ctx context.Context, m jsonrpc.Message) error {
	err := c.Connection.Write(ctx, m)
	if _, ok := m.(*jsonrpc.Response); ok {
		c.open.Add(-1)
	}
	return err
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
