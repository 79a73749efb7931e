package boxmaker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"boxmaker/audit"
	"boxmaker/core/daemon"
	"boxmaker/core/home"
	"boxmaker/core/inferproxy"
	"boxmaker/core/role"
	"boxmaker/roles/rolecli"
)

// demoStack is the daemons, run by up in the background.
type demoStack struct {
	cancel  context.CancelFunc
	done    chan error
	log     *tailWriter
	path    string
	stopped bool
	err     error // what stopping them returned
}

// tailWriter keeps the daemons' output in a file and its last lines in
// memory, to show them when something fails.
type tailWriter struct {
	mu    sync.Mutex
	f     *os.File
	lines []string
	part  string
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.f.Write(p)
	t.part += string(p)
	for {
		i := strings.IndexByte(t.part, '\n')
		if i < 0 {
			break
		}
		t.lines = append(t.lines, t.part[:i])
		t.part = t.part[i+1:]
		if len(t.lines) > 40 {
			t.lines = t.lines[len(t.lines)-40:]
		}
	}
	return len(p), nil
}

func (t *tailWriter) tail() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.lines)
}

func (s *demoStack) showTail(out io.Writer) {
	fmt.Fprintf(out, "demo: the daemons' last lines (all of them are in %s; --keep keeps it):\n", s.path)
	for _, l := range s.log.tail() {
		fmt.Fprintf(out, "  %s\n", l)
	}
}

// stop stops the daemons (up sends each SIGTERM, last started first) and
// waits for them; once.
func (s *demoStack) stop() error {
	if s.stopped {
		return s.err
	}
	s.stopped = true
	s.cancel()
	err := <-s.done
	s.log.f.Close()
	if err != nil {
		s.err = fmt.Errorf("stopping the daemons: %w", err)
	}
	return s.err
}

// startStack runs up on the demo's home and waits until every daemon
// answers on its socket (loopd answers only after its selftest). A stage
// that fails later stops them and shows their last lines.
func (d *demoRun) startStack(ctx context.Context) error {
	path := d.h.Path("daemons.log")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	upCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &demoStack{cancel: cancel, done: make(chan error, 1), log: &tailWriter{f: f}, path: path}
	d.say("demo: starting %s (as boxmaker up does; their output goes to %s)", strings.Join(role.Names(demoRoles), ", "), path)
	go func() { s.done <- up(upCtx, d.h, demoRoles, s.log, upOptions{}) }()
	sockets := []string{
		d.h.Path(home.SocketBrokerTools), d.h.Path(home.SocketMemoryBlock), d.h.Path(home.SocketLoop),
	}
	wait, cancelWait := context.WithTimeout(ctx, 3*time.Minute)
	defer cancelWait()
	var upErr error
	upEnded := errors.New("up returned")
	for _, sock := range sockets {
		err := daemon.AwaitPing(wait, sock, 100*time.Millisecond, func() error {
			select {
			case upErr = <-s.done:
				return upEnded
			default:
				return nil
			}
		})
		switch {
		case err == nil:
			continue
		case err == upEnded:
			s.log.f.Close()
			s.showTail(d.out)
			if upErr == nil {
				upErr = errors.New("up returned before every daemon answered")
			}
			return fmt.Errorf("the stack did not start: %w", upErr)
		case ctx.Err() != nil:
			s.stop()
			return errors.New("interrupted while the daemons started")
		default:
			s.stop()
			s.showTail(d.out)
			return fmt.Errorf("the stack did not start: nothing answered on %s within 3 minutes: %v", sock, err)
		}
	}
	d.stack = s
	d.undo = append(d.undo, func() error {
		if !s.stopped {
			s.stop()
			s.showTail(d.out)
		}
		return nil
	})
	d.say("demo: brokerd, memoryd, inferproxy and loopd are up (loopd's selftest passed against the model)")
	return nil
}

// stopStack stops the daemons once the conversation is over.
func (d *demoRun) stopStack(context.Context) error {
	if err := d.stack.stop(); err != nil {
		d.stack.showTail(d.out)
		return err
	}
	return nil
}

// checkStopped makes sure every daemon let go of its lock and brokerd
// wrote its stop record last.
func (d *demoRun) checkStopped(context.Context) error {
	for _, r := range demoRoles {
		path := d.h.Lock(r)
		if r == role.Inferproxy { // its config names no home: its lock is its socket's
			path = inferproxy.LockPath(d.h.Path(home.SocketInfer))
		}
		l, err := daemon.TakeLock(r.String(), path)
		if err != nil {
			return fmt.Errorf("%s did not stop: %w", r, err)
		}
		l.Release()
	}
	recs, err := audit.Records(d.h.Path(home.DirAudit))
	if err != nil {
		return fmt.Errorf("cannot read the audit log: %w", err)
	}
	if len(recs) == 0 || recs[len(recs)-1].Type != audit.TypeStop {
		return errors.New("brokerd did not write its stop record: it did not stop cleanly")
	}
	d.say("")
	d.say("demo: the daemons stopped cleanly")
	return nil
}

// auditVerify runs 'bxctl audit verify' on the home, as the operator would.
func (d *demoRun) auditVerify(ctx context.Context) error {
	cfg := d.h.Config(role.Brokerd)
	d.say("demo: %s --%s %s audit verify", role.Bxctl, rolecli.Brokerd.BxctlFlag, cfg)
	cmd := exec.CommandContext(ctx, d.exe, role.Bxctl.String(), "--"+rolecli.Brokerd.BxctlFlag, cfg, "audit", "verify")
	out, err := cmd.CombinedOutput()
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		d.say("  %s", l)
	}
	if err != nil {
		return fmt.Errorf("bxctl audit verify failed: %v", err)
	}
	if !strings.HasPrefix(string(out), "audit: ok") {
		return errors.New("bxctl audit verify did not say audit: ok")
	}
	return nil
}
