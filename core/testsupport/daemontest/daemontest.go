// Package daemontest runs real Boxmaker servers inside a test, each in
// the background until the test ends: a core/daemon socket serving the
// test's handlers (Serve, or Peer for a daemon the test plays), inferproxy on a unix socket (InferProxy), and
// the llama-server stand-in with inferproxy in front of it, as loopd
// reaches the model (Model). What a server logged is shown when the test
// fails.
//
// It is for tests only (deps_test.go holds it). It is apart from package
// testsupport because it imports core/daemon and core/inferproxy, whose
// own tests use testsupport.
package daemontest

import (
	"context"
	"path/filepath"
	"testing"

	"boxmaker/core/daemon"
	"boxmaker/core/home"
	"boxmaker/core/inferproxy"
	"boxmaker/core/llamastandin"
	"boxmaker/core/role"
	"boxmaker/core/testsupport"
	"boxmaker/runbook"
)

// Serve serves s on a real unix socket at s.Path, as a daemon does: its
// lock taken beside the socket (s.Path + ".lock"), the socket made by
// daemon.Listen. A nil s.Log is a buffer shown if the test fails. It
// returns s.Path.
func Serve(tb testing.TB, s *daemon.Socket) string {
	tb.Helper()
	lock, err := daemon.TakeLock(s.Role, s.Path+".lock")
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := daemon.Listen(lock, s.Path)
	if err != nil {
		lock.Release()
		tb.Fatal(err)
	}
	if s.Log == nil {
		s.Log = logOnFailure(tb, s.Role+"'s "+s.Name+" socket")
	}
	tb.Cleanup(func() { lock.Release() })
	testsupport.Serve(tb, func(ctx context.Context) error { return s.Serve(ctx, ln) })
	return s.Path
}

// Peer is a daemon the test plays: a socket named name at
// dir/run/name/name.sock serving kinds. It returns the socket's path.
func Peer(tb testing.TB, dir, name string, kinds map[string]daemon.Handler) string {
	tb.Helper()
	return Serve(tb, &daemon.Socket{Role: name, Name: name, Path: filepath.Join(dir, "run", name, name+".sock"),
		Kinds: kinds, ListenerLost: runbook.ListenerLost})
}

// InferProxy runs inferproxy with o; a nil o.Log is a buffer shown if
// the test fails. It returns the socket, o.Listen.
func InferProxy(tb testing.TB, o inferproxy.Options) string {
	tb.Helper()
	if o.Log == nil {
		o.Log = logOnFailure(tb, role.Inferproxy.String())
	}
	p, err := inferproxy.Start(o)
	if err != nil {
		tb.Fatal(err)
	}
	testsupport.Serve(tb, p.Serve)
	return o.Listen
}

// Model runs the llama-server stand-in with o on loopback and inferproxy
// in front of it on the socket a home in dir has for it
// (dir/run/infer/infer.sock, core/home's SocketInfer), which it returns.
// The stand-in runs in its test mode: a chat request without max_tokens
// is refused (llamastandin.Options.RequireMaxTokens).
func Model(tb testing.TB, dir string, o llamastandin.Options) (*llamastandin.Server, string) {
	tb.Helper()
	o.RequireMaxTokens = true
	srv, err := llamastandin.Start(o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { srv.Close() })
	return srv, InferProxy(tb, inferproxy.Options{Listen: home.Home{Dir: dir}.Path(home.SocketInfer), Upstream: srv.URL()})
}

// logOnFailure is a log that the test shows, headed by what, if it fails.
func logOnFailure(tb testing.TB, what string) *testsupport.Buffer {
	log := &testsupport.Buffer{}
	tb.Cleanup(func() {
		if tb.Failed() && log.String() != "" {
			tb.Logf("%s's log:\n%s", what, log)
		}
	})
	return log
}
