package boxmaker

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/core/home"
	"boxmaker/core/inferproxy"
	"boxmaker/core/role"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
	"boxmaker/runbook"
)

// homeFlag is the --home of the commands that work on one home (init, up).
var homeFlag = &cli.StringFlag{Name: "home", Usage: "the home `DIR` (default: $BOXMAKER_HOME, else .state in a checkout)"}

// homeOf is the home homeFlag names, else rolecli.DefaultHome.
func homeOf(c *cli.Context) string {
	if dir := c.String("home"); dir != "" {
		return dir
	}
	return rolecli.DefaultHome()
}

func upCommand(roles []role.Role) *cli.Command {
	return &cli.Command{
		Name:  "up",
		Usage: "run every daemon of a home in the foreground, for development",
		Description: "up starts brokerd, memoryd, inferproxy, loopd and gatewayd, each whose\n" +
			"config exists in the home's etc/ and whose role is in this binary, by running\n" +
			"this binary as that role; their output is prefixed with [role]. It waits for\n" +
			"each to answer on its socket before starting the next. Ctrl-C or SIGTERM stops\n" +
			"them all; if one exits, up says which and its runbook entry, and stops the rest.\n\n" +
			"up runs as root, on a home root made (sudo boxmaker init): the tools run in root's\n" +
			"Podman (rootless Podman is not supported). Run as another user, or on a home a\n" +
			"user made, it refuses at once (the runbook's run-as-root).",
		Flags: []cli.Flag{
			homeFlag,
			&cli.BoolFlag{Name: rolecli.AcceptBreakFlag, Usage: "start brokerd with --accept-break: accept a broken audit chain (the runbook's audit-chain-broken: copy the log first)"},
		},
		Action: rolecli.NoArgs(func(c *cli.Context) error {
			dir := homeOf(c)
			if err := rootShape("up", dir); err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
			defer stop()
			return up(ctx, home.Home{Dir: dir}, roles, os.Stdout, upOptions{AcceptBreak: c.Bool(rolecli.AcceptBreakFlag)})
		}),
	}
}

// child is one daemon up runs.
type child struct {
	role role.Role
	cmd  *exec.Cmd
	done chan struct{}
	err  error

	mu   sync.Mutex
	last string // its last line of output

	reason *runbook.Refusal // why it stopped, when it said (set before done closes)
}

func (ch *child) lastLine() string {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return ch.last
}

// upOptions are what up passes on to the daemons.
type upOptions struct {
	AcceptBreak bool // brokerd serve --accept-break
}

func up(ctx context.Context, h home.Home, roles []role.Role, out io.Writer, o upOptions) error {
	exe, err := thisBinary()
	if err != nil {
		return err
	}
	if err := homeIsDown(h, roles); err != nil {
		return err
	}
	var outMu sync.Mutex
	var running []*child
	exited := make(chan *child, len(conf.Daemons()))
	stopAll := func() {
		for i := len(running) - 1; i >= 0; i-- {
			ch := running[i]
			select {
			case <-ch.done:
				continue
			default:
			}
			ch.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-ch.done:
			case <-time.After(10 * time.Second):
				fmt.Fprintf(out, "up: %s did not stop within 10s; killing it\n", ch.role)
				ch.cmd.Process.Kill()
				<-ch.done
			}
		}
	}
	failed := func(ch *child) error {
		stopAll()
		msg := fmt.Sprintf("%s exited (%v)", ch.role, ch.err)
		if r := ch.reason; r != nil {
			// Its refusal, as it printed it last: the entry kept, the
			// link said once, at the end.
			return &runbook.Refusal{Entry: r.Entry, Text: fmt.Sprintf("%s; its last line: %s: %s", msg, ch.role, r.Text)}
		}
		if last := ch.lastLine(); last != "" {
			msg += "; its last line: " + last
		}
		return errors.New(msg)
	}
	started := 0
	for _, d := range conf.Files() {
		r := d.Name
		path := h.Config(r)
		if !slices.Contains(roles, r) {
			continue
		}
		if _, err := os.Stat(path); err != nil {
			continue
		}
		if empty, err := conf.SetsNothing(path); err == nil && empty {
			// init writes gatewayd.toml with every line a comment.
			fmt.Fprintf(out, "up: %s sets nothing (every line is a comment); %s is not started\n", path, r)
			continue
		}
		socket := ""
		if d.Ready != nil {
			socket, err = configString(path, d.Ready)
			if err != nil {
				stopAll()
				return err
			}
		}
		ch := &child{role: r, done: make(chan struct{})}
		var extra []string
		if r == role.Brokerd && o.AcceptBreak {
			extra = append(extra, "--"+rolecli.AcceptBreakFlag)
		}
		args := rolecli.ServeArgs(r, path, extra...)
		ch.cmd = exec.Command(exe, args...)
		ch.cmd.Stdin = nil
		stdout, _ := ch.cmd.StdoutPipe()
		stderr, _ := ch.cmd.StderrPipe()
		ch.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // Ctrl-C reaches up, which stops them in order
		// Why it stops, if it stops with a refusal: on a pipe of its own
		// (rolecli.ReasonFDEnv), not parsed out of its output.
		reasonR, reasonW, err := os.Pipe()
		if err != nil {
			stopAll()
			return fmt.Errorf("cannot start %s: %w", r, err)
		}
		ch.cmd.ExtraFiles = []*os.File{reasonW}
		ch.cmd.Env = append(os.Environ(), rolecli.ReasonFDEnv+"=3")
		err = ch.cmd.Start()
		reasonW.Close()
		if err != nil {
			reasonR.Close()
			stopAll()
			return fmt.Errorf("cannot start %s: %w", r, err)
		}
		reasonDone := make(chan struct{})
		go func() {
			defer close(reasonDone)
			ch.reason = rolecli.ReadReason(reasonR)
			reasonR.Close()
		}()
		var wg sync.WaitGroup
		for _, r := range []io.Reader{stdout, stderr} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sc := bufio.NewScanner(r)
				sc.Buffer(make([]byte, 64<<10), 1<<20)
				for sc.Scan() {
					ch.mu.Lock()
					ch.last = sc.Text()
					ch.mu.Unlock()
					outMu.Lock()
					fmt.Fprintf(out, "[%s] %s\n", ch.role, termsafe.Line(sc.Text())) // a daemon may relay what it was told
					outMu.Unlock()
				}
			}()
		}
		go func() {
			wg.Wait()
			<-reasonDone
			ch.err = ch.cmd.Wait()
			close(ch.done)
			exited <- ch
		}()
		running = append(running, ch)
		started++
		if socket != "" {
			if err := waitReady(ctx, ch, socket, d.ReadyPing); err != nil {
				if errors.Is(err, errExited) {
					return failed(ch)
				}
				stopAll()
				if ctx.Err() != nil {
					fmt.Fprintln(out, "up: stopped")
					return nil
				}
				return err
			}
		}
	}
	if started == 0 {
		return fmt.Errorf("no daemon to start: no %s in %s", "etc/<role>.toml", h.Path("etc"))
	}
	outMu.Lock()
	fmt.Fprintf(out, "up: %d daemons running; Ctrl-C stops them\n", started)
	outMu.Unlock()
	select {
	case <-ctx.Done():
		stopAll()
		fmt.Fprintln(out, "up: stopped")
		return nil
	case ch := <-exited:
		return failed(ch)
	}
}

var errExited = errors.New("exited")

// homeIsDown refuses a home whose daemons run already, before up starts
// any of them: each daemon's lock is tried, and let go at once. Without
// it, a second up started brokerd, found the running one answering on
// the socket, went on to the next daemon, printed that they all ran, and
// only then saw them exit already-running.
func homeIsDown(h home.Home, roles []role.Role) error {
	for _, d := range conf.Files() {
		r := d.Name
		path := h.Config(r)
		if !slices.Contains(roles, r) {
			continue
		}
		if _, err := os.Stat(path); err != nil {
			continue
		}
		lock := h.Lock(r)
		if r == role.Inferproxy { // its config names no home: its lock is its socket's
			listen, err := configString(path, d.Ready)
			if err != nil {
				return err
			}
			lock = inferproxy.LockPath(listen)
		}
		l, err := daemon.Flock(lock)
		switch {
		case errors.Is(err, daemon.ErrHeld):
			return runbook.Refuse(runbook.AlreadyRunning, "another %s is running (it holds %s): the home is up already, and boxmaker up started nothing", r, lock)
		case err == nil:
			l.Release()
		}
	}
	return nil
}

// thisBinary is the file to run the roles from: os.Executable, but by the
// name it was started under when that name leads to the same file (a
// link named boxmaker), so the children are dispatched as this process
// was, not by the name of the file the link points at.
func thisBinary() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find this binary: %w", err)
	}
	named, err := exec.LookPath(os.Args[0])
	if err != nil {
		return exe, nil
	}
	if named, err = filepath.Abs(named); err != nil {
		return exe, nil
	}
	a, errA := os.Stat(named)
	b, errB := os.Stat(exe)
	if errA == nil && errB == nil && os.SameFile(a, b) {
		return named, nil
	}
	return exe, nil
}

// waitReady waits until the daemon answers on socket: a ping, or for
// inferproxy (HTTP) a connection.
func waitReady(ctx context.Context, ch *child, socket string, ping bool) error {
	deadline := time.Now().Add(2 * time.Minute) // loopd's selftest asks the model
	for {
		select {
		case <-ch.done:
			return errExited
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		cctx, cancel := context.WithTimeout(ctx, time.Second)
		var err error
		if ping {
			err = daemon.Call(cctx, socket, daemon.PingKind, nil, nil, nil)
		} else {
			var c net.Conn
			c, err = (&net.Dialer{}).DialContext(cctx, "unix", socket)
			if err == nil {
				c.Close()
			}
		}
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not answer on %s within 2 minutes: %v", ch.role, socket, err)
		}
		select {
		case <-ch.done:
			return errExited
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// configString reads one string key of a daemon's config; the daemon
// reads its file strictly itself.
func configString(path string, key []string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return "", fmt.Errorf("%s: %v", path, err)
	}
	var v any = doc
	for _, k := range key {
		m, ok := v.(map[string]any)
		if !ok {
			return "", nil
		}
		v = m[k]
	}
	s, _ := v.(string)
	if s != "" && !filepath.IsAbs(s) {
		return "", fmt.Errorf("%s: %s is not an absolute path", path, s)
	}
	return s, nil
}
