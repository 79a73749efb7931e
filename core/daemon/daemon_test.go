package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"boxmaker/core/testsupport"
	"boxmaker/runbook"
)

func TestTakeLockRefusesSecondHolder(t *testing.T) {
	dir := testsupport.ShortDir(t)
	path := filepath.Join(dir, "run", "brokerd.lock")
	first, err := TakeLock("brokerd", path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = TakeLock("brokerd", path)
	want := "another brokerd is running (it holds " + path + "); " + runbook.Link(runbook.AlreadyRunning)
	if err == nil || err.Error() != want {
		t.Fatalf("second lock: got %v, want %q", err, want)
	}
	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	again, err := TakeLock("brokerd", path)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	again.Release()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("lock file mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestTakeLockCannotCreate(t *testing.T) {
	dir := testsupport.ShortDir(t)
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(file, "run", "loopd.lock")
	_, err := TakeLock("loopd", path)
	if err == nil || !strings.HasPrefix(err.Error(), "cannot take the lock "+path+": ") ||
		!strings.HasSuffix(err.Error(), runbook.Link(runbook.AlreadyRunning)) {
		t.Fatalf("got %v", err)
	}
}

// TestLockReleasedWhenHolderKilled runs a child that takes the lock and is
// killed with SIGKILL: the kernel must release the lock.
func TestLockReleasedWhenHolderKilled(t *testing.T) {
	if os.Getenv("BOXMAKER_TEST_HOLD_LOCK") != "" {
		if _, err := TakeLock("memoryd", os.Getenv("BOXMAKER_TEST_HOLD_LOCK")); err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString("locked\n")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	path := filepath.Join(testsupport.ShortDir(t), "memoryd.lock")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockReleasedWhenHolderKilled$")
	cmd.Env = append(os.Environ(), "BOXMAKER_TEST_HOLD_LOCK="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 7)
	if _, err := io.ReadFull(out, buf); err != nil || string(buf) != "locked\n" {
		t.Fatalf("child did not lock: %q %v", buf, err)
	}
	if _, err := TakeLock("memoryd", path); err == nil {
		t.Fatal("lock taken while the child holds it")
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	l, err := TakeLock("memoryd", path)
	if err != nil {
		t.Fatalf("lock after SIGKILL: %v", err)
	}
	l.Release()
}

func lockFor(t *testing.T, dir string) *Lock {
	t.Helper()
	l, err := TakeLock("brokerd", filepath.Join(dir, "brokerd.lock"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Release() })
	return l
}

func TestListenModes(t *testing.T) {
	dir := testsupport.ShortDir(t)
	sock := filepath.Join(dir, "run", "loop-broker", "broker.sock")
	if err := os.MkdirAll(filepath.Dir(sock), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := Listen(lockFor(t, dir), sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for path, want := range map[string]os.FileMode{filepath.Dir(sock): 0o700 | os.ModeDir, sock: 0o600 | os.ModeSocket} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&(os.ModeType|os.ModePerm) != want {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode(), want)
		}
	}
}

func TestListenRefusals(t *testing.T) {
	dir := testsupport.ShortDir(t)
	lock := lockFor(t, dir)
	real := filepath.Join(dir, "real")
	os.Mkdir(real, 0o700)
	os.Symlink(real, filepath.Join(dir, "link"))
	os.WriteFile(filepath.Join(dir, "afile"), nil, 0o600)
	long := filepath.Join(dir, "d", strings.Repeat("x", 108-len(dir)-len("/d/")))
	tests := []struct {
		name, path, want string
	}{
		{"root directory", "/x.sock", "cannot prepare /x.sock: a socket needs a directory of its own, not /"},
		{"symlinked directory", filepath.Join(dir, "link", "s.sock"), "cannot prepare " + filepath.Join(dir, "link") + ": is a symbolic link or not a directory"},
		{"path through a file", filepath.Join(dir, "afile", "sub", "s.sock"), "cannot prepare " + filepath.Join(dir, "afile", "sub") + ": not a directory"},
		{"108 bytes", long, "cannot listen on " + long + ": path must be shorter than SUN_LEN (108 bytes, at most 107)"},
		{"relative", "run/x.sock", "cannot prepare run/x.sock: a socket path must be absolute"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ln, err := Listen(lock, tt.path)
			if err == nil {
				ln.Close()
				t.Fatalf("listened on %s", tt.path)
			}
			if err.Error() != tt.want {
				t.Errorf("got  %q\nwant %q", err, tt.want)
			}
		})
	}
	if len(long) != 108 {
		t.Fatalf("long path is %d bytes", len(long))
	}
	if fi, err := os.Stat(real); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the link's target was changed: %v %v", fi.Mode(), err)
	}
}

func TestListenReplacesStaleSocket(t *testing.T) {
	dir := testsupport.ShortDir(t)
	sock := filepath.Join(dir, "s", "x.sock")
	lock := lockFor(t, dir)
	ln, err := Listen(lock, sock)
	if err != nil {
		t.Fatal(err)
	}
	ln.Close() // leaves the file: a daemon that died
	if _, err := os.Lstat(sock); err != nil {
		t.Fatalf("the stale socket should still be there: %v", err)
	}
	ln2, err := Listen(lock, sock)
	if err != nil {
		t.Fatalf("stale socket not replaced: %v", err)
	}
	// A live socket is not stale.
	_, err = Listen(lock, sock)
	if err == nil || !strings.Contains(err.Error(), "address already in use") {
		t.Fatalf("live socket: %v", err)
	}
	ln2.Close()
	// A file that is not a socket is not ours to remove.
	plain := filepath.Join(dir, "s", "plain.sock")
	os.WriteFile(plain, []byte("keep"), 0o600)
	if _, err := Listen(lock, plain); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Fatalf("plain file: %v", err)
	}
	if data, _ := os.ReadFile(plain); string(data) != "keep" {
		t.Fatal("plain file was changed")
	}
}

func TestListenNeedsLock(t *testing.T) {
	if _, err := Listen(nil, filepath.Join(testsupport.ShortDir(t), "s", "x.sock")); err == nil {
		t.Fatal("listened without the lock")
	}
}

func serveTest(t *testing.T, s *Socket) string {
	t.Helper()
	dir := testsupport.ShortDir(t)
	if s.Path == "" {
		s.Path = filepath.Join(dir, "s", "x.sock")
	}
	ln, err := Listen(lockFor(t, dir), s.Path)
	if err != nil {
		t.Fatal(err)
	}
	testsupport.Serve(t, func(ctx context.Context) error { return s.Serve(ctx, ln) })
	return s.Path
}

func echoHandler(_ context.Context, _ Peer, body json.RawMessage, s *Stream) (any, error) {
	var in struct{ N int }
	json.Unmarshal(body, &in)
	for i := range in.N {
		s.Send(map[string]int{"event": i})
	}
	return map[string]int{"events": in.N}, nil
}

func TestServeRequestKinds(t *testing.T) {
	log := &testsupport.Buffer{}
	path := serveTest(t, &Socket{
		Role: "brokerd", Name: "broker", Log: log, ListenerLost: runbook.BrokerdListenerLost,
		Kinds: map[string]Handler{
			"echo": echoHandler,
			"fail": func(context.Context, Peer, json.RawMessage, *Stream) (any, error) {
				return nil, runbook.Refuse(runbook.AlreadyRunning, "no")
			},
		},
	})
	ctx := context.Background()
	var events []string
	var out struct{ Events int }
	if err := Call(ctx, path, "echo", map[string]int{"N": 3}, &out, func(b json.RawMessage) error {
		events = append(events, string(b))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if out.Events != 3 || len(events) != 3 || events[2] != `{"event":2}` {
		t.Errorf("events %v, answer %+v", events, out)
	}

	err := Call(ctx, path, "fail", nil, nil, nil)
	var re *RemoteError
	if !errors.As(err, &re) || re.Entry != runbook.AlreadyRunning.String() || re.Text != "no; "+runbook.Link(runbook.AlreadyRunning) {
		t.Errorf("fail: %#v", err)
	}

	err = Call(ctx, path, "approve", nil, nil, nil)
	if !errors.As(err, &re) || re.Entry != runbook.SocketForbidden.String() {
		t.Fatalf("wrong kind: %#v", err)
	}
	if !strings.HasPrefix(re.Text, `a "approve" request arrived on the broker socket `+path+", which does not take it") {
		t.Errorf("wrong kind text: %q", re.Text)
	}
	if !strings.Contains(log.String(), "brokerd: a \"approve\" request arrived on the broker socket") {
		t.Errorf("log: %q", log.String())
	}
}

func TestServeRefusesOtherUID(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to connect as another user") // CI runs as root
	}
	log := &testsupport.Buffer{}
	s := &Socket{Role: "memoryd", Name: "admin", Log: log, ListenerLost: runbook.BrokerdListenerLost,
		Kinds: map[string]Handler{"echo": echoHandler}}
	path := serveTest(t, s)
	const nobody = 65534
	a, err := echoAs(nobody, path)
	if err != nil {
		t.Fatal(err)
	}
	if a.Entry != runbook.SocketPeerRefused.String() || !strings.Contains(a.Error, "from uid 65534") {
		t.Errorf("answer %+v", a)
	}
	if !strings.Contains(log.String(), "memoryd: refused a connection on "+path+" from uid 65534") {
		t.Errorf("log %q", log.String())
	}

	// The same user, named in AllowUIDs, is answered.
	s2 := &Socket{Role: "memoryd", Name: "admin", Log: log, AllowUIDs: []uint32{nobody},
		ListenerLost: runbook.BrokerdListenerLost, Kinds: map[string]Handler{"echo": echoHandler}}
	path2 := serveTest(t, s2)
	if a2, err := echoAs(nobody, path2); err != nil || a2.Error != "" || !a2.Done {
		t.Errorf("allowed uid: %+v %v", a2, err)
	}
}

// echoAs sends an echo request to the socket at path as uid and reads the
// answer.
func echoAs(uid int, path string) (Answer, error) {
	c, err := testsupport.DialAs(uid, path)
	if err != nil {
		return Answer{}, err
	}
	defer c.Close()
	c.Write([]byte(`{"kind":"echo"}` + "\n"))
	var a Answer
	err = json.NewDecoder(c).Decode(&a)
	return a, err
}

// flakyListener fails Accept with the given errors, then blocks until
// closed.
type flakyListener struct {
	errs   chan error
	closed chan struct{}
	once   sync.Once
}

func (l *flakyListener) Accept() (net.Conn, error) {
	select {
	case err := <-l.errs:
		return nil, err
	case <-l.closed:
		return nil, net.ErrClosed
	}
}
func (l *flakyListener) Close() error   { l.once.Do(func() { close(l.closed) }); return nil }
func (l *flakyListener) Addr() net.Addr { return &net.UnixAddr{} }

func acceptErr(errno syscall.Errno) error {
	return &net.OpError{Op: "accept", Net: "unix", Err: os.NewSyscallError("accept4", errno)}
}

func TestServeRetriesTransientAccept(t *testing.T) {
	log := &testsupport.Buffer{}
	l := &flakyListener{errs: make(chan error, 10), closed: make(chan struct{})}
	for range 3 {
		l.errs <- acceptErr(unix.EMFILE)
	}
	s := &Socket{Role: "brokerd", Name: "admin", Log: log, ListenerLost: runbook.BrokerdListenerLost}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- s.Serve(ctx, l) }()
	for len(l.errs) > 0 {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(250 * time.Millisecond) // the third retry's wait
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if time.Since(start) < 2*retryAccept {
		t.Errorf("three failures took %v; the retries must wait %v each", time.Since(start), retryAccept)
	}
	want := "brokerd: cannot accept on accept-admin for now, retrying: too many open files; " + runbook.Link(runbook.BrokerdListenerLost) + "\n"
	if log.String() != want {
		t.Errorf("log %q, want it once: %q", log.String(), want)
	}
}

func TestServeStopsOnOtherAcceptFailure(t *testing.T) {
	l := &flakyListener{errs: make(chan error, 1), closed: make(chan struct{})}
	l.errs <- acceptErr(unix.EBADF)
	s := &Socket{Role: "brokerd", Name: "broker", Log: io.Discard, ListenerLost: runbook.BrokerdListenerLost}
	err := s.Serve(context.Background(), l)
	want := "stopped serving: accept unix: accept4: bad file descriptor; " + runbook.Link(runbook.BrokerdListenerLost)
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

func TestNotifySendsTheStateAsOneDatagram(t *testing.T) {
	path := filepath.Join(testsupport.ShortDir(t), "notify")
	pc, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	for _, state := range []string{NotifyReady, NotifyStopping} {
		if err := Notify(path, state); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 64)
		pc.SetReadDeadline(time.Now().Add(5 * time.Second))
		n, err := pc.Read(buf)
		if err != nil || string(buf[:n]) != state {
			t.Fatalf("got %q %v, want %q", buf[:n], err, state)
		}
	}
	if err := Notify("", NotifyReady); err != nil {
		t.Errorf("no NOTIFY_SOCKET: %v", err)
	}
}

// A refused peer is told why by Call, even when the daemon closed before
// reading the request and the write failed with a broken pipe: a request
// larger than the socket's buffer makes that happen every time.
func TestCallReadsTheRefusalAfterABrokenPipe(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to connect as another user") // CI runs as root
	}
	s := &Socket{Role: "brokerd", Name: "admin", Log: &testsupport.Buffer{}, ListenerLost: runbook.BrokerdListenerLost,
		Kinds: map[string]Handler{"echo": echoHandler}}
	path := serveTest(t, s)
	big := strings.Repeat("x", 8<<20)
	for _, body := range []any{nil, big} {
		errc := make(chan error)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread dies with the goroutine
			if _, _, e := unix.RawSyscall(unix.SYS_SETRESUID, ^uintptr(0), 65534, ^uintptr(0)); e != 0 {
				errc <- e
				return
			}
			unix.RawSyscall(unix.SYS_SETFSUID, 0, 0, 0)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			errc <- Call(ctx, path, "echo", body, nil, nil)
		}()
		err := <-errc
		var re *RemoteError
		if !errors.As(err, &re) || re.Entry != runbook.SocketPeerRefused.String() || !strings.Contains(re.Text, "from uid 65534") {
			t.Errorf("body %.10v: Call = %v, want the peer refusal", body, err)
		}
	}
}

func TestAHandlerIsToldWhenItsClientHasGone(t *testing.T) {
	told := make(chan struct{})
	path := serveTest(t, &Socket{Role: "loopd", Name: "loop", Log: &testsupport.Buffer{}, ListenerLost: runbook.ListenerLost,
		Kinds: map[string]Handler{"wait": func(ctx context.Context, _ Peer, _ json.RawMessage, s *Stream) (any, error) {
			select {
			case <-s.Gone():
				close(told)
			case <-time.After(10 * time.Second):
			}
			return nil, nil
		}}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Call(ctx, path, "wait", nil, nil, nil) }()
	time.Sleep(50 * time.Millisecond)
	cancel() // the client closes its connection
	<-done
	select {
	case <-told:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler was not told that its client has gone")
	}
}

// A refusal crosses the socket whole: the client makes the same refusal
// again from the answer's entry and public text (context a wrapper put in
// front kept), and its message is the server's, link once at the end.
func TestARefusalKeepsItsEntryAcrossTheSocket(t *testing.T) {
	path := serveTest(t, &Socket{
		Role: "memoryd", Name: "block", Log: &testsupport.Buffer{}, ListenerLost: runbook.ListenerLost,
		Kinds: map[string]Handler{
			"wrapped": func(context.Context, Peer, json.RawMessage, *Stream) (any, error) {
				return nil, fmt.Errorf("memory block: %w", &runbook.Refusal{Entry: runbook.MemoryUnavailable, Text: "the index is gone", Cause: errors.New("hidden cause")})
			},
			"plain": func(context.Context, Peer, json.RawMessage, *Stream) (any, error) {
				return nil, errors.New("not a refusal")
			},
		},
	})
	err := Call(context.Background(), path, "wrapped", nil, nil, nil)
	want := "memory block: the index is gone; " + runbook.Link(runbook.MemoryUnavailable)
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if e, ok := runbook.EntryOf(err); !ok || e != runbook.MemoryUnavailable {
		t.Errorf("EntryOf = %v, %v", e, ok)
	}
	var r *runbook.Refusal
	if !errors.As(err, &r) || r.Text != "memory block: the index is gone" || r.Error() != want {
		t.Errorf("the refusal made again: %+v", r)
	}
	if strings.Contains(err.Error(), "hidden cause") {
		t.Error("the cause crossed the socket")
	}
	err = Call(context.Background(), path, "plain", nil, nil, nil)
	var re *RemoteError
	if !errors.As(err, &re) || re.Refusal() != nil || re.PublicText() != "not a refusal" {
		t.Errorf("plain: %#v", err)
	}
	if _, ok := runbook.EntryOf(err); ok {
		t.Error("an error that was no refusal came back with an entry")
	}
}

// TestAcceptorOnceARun: an accept that succeeds between failures (a
// descriptor free for a moment in a flood) does not print the line again;
// failures after acceptCalm without one start a new run, and a new line.
func TestAcceptorOnceARun(t *testing.T) {
	log := &testsupport.Buffer{}
	now := time.Unix(1000, 0)
	a := &Acceptor{Log: log, Role: "brokerd", Name: "broker", Lost: runbook.BrokerdListenerLost, Now: func() time.Time { return now }}
	done := make(chan struct{})
	line := "brokerd: cannot accept on accept-broker for now, retrying: too many open files; " + runbook.Link(runbook.BrokerdListenerLost) + "\n"
	for i, step := range []struct {
		advance time.Duration
		lines   int
	}{
		{0, 1},                             // the first failure: the line
		{time.Second, 1},                   // a second after an accept that worked: the same run
		{acceptCalm - time.Millisecond, 1}, // still within the run (measured from the last failure)
		{acceptCalm, 2},                    // calm for acceptCalm: a new run
	} {
		now = now.Add(step.advance)
		ln := &sequenceListener{errs: []error{acceptErr(unix.EMFILE)}}
		if _, err := a.Accept(ln, done); err != nil {
			t.Fatalf("step %d: Accept: %v", i, err)
		}
		if got := strings.Count(log.String(), line); got != step.lines {
			t.Errorf("step %d: %d lines, want %d: %q", i, got, step.lines, log.String())
		}
	}
}

// sequenceListener fails Accept with errs in turn, then accepts a
// connection (one end of a pipe).
type sequenceListener struct{ errs []error }

func (l *sequenceListener) Accept() (net.Conn, error) {
	if len(l.errs) > 0 {
		err := l.errs[0]
		l.errs = l.errs[1:]
		return nil, err
	}
	c, _ := net.Pipe()
	return c, nil
}
func (l *sequenceListener) Close() error   { return nil }
func (l *sequenceListener) Addr() net.Addr { return &net.UnixAddr{} }
