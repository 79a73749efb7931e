package rolecli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/core/home"
	"boxmaker/core/role"
	"boxmaker/core/termsafe"
	"boxmaker/runbook"
)

// LoadConfig reads a role's configuration strictly; a failure is the
// role's start-failed refusal, naming the file (and the line).
func LoadConfig(path string, v any, startFailed runbook.Entry) error {
	if err := conf.Load(path, v); err != nil {
		return runbook.Wrap(startFailed, err)
	}
	if c, ok := v.(interface{ Validate() error }); ok {
		if err := c.Validate(); err != nil {
			return runbook.Refuse(startFailed, "%s: %v", path, err)
		}
	}
	return nil
}

// Log is where a daemon's lines go: standard error, each line escaped by
// core/termsafe so that no value the model chose (a target, a reason, a
// tool's error) can act on the terminal or journal it is read on, or
// begin a line of its own. Every daemon writes its lines here.
var Log = termsafe.NewWriter(os.Stderr)

// LogAs is Log with every line begun "role: ", for the lines a package
// writes in its own name ("audit: ..."), so that they read as the role's
// as every other line of its does. Each Write is one line, as Log takes
// it.
func LogAs(r role.Role) io.Writer { return prefixWriter(r.String() + ": ") }

type prefixWriter string

func (p prefixWriter) Write(b []byte) (int, error) {
	if _, err := Log.Write(append([]byte(p), b...)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Role is a daemon role: the role, and the runbook entries its start and
// its sockets fail under.
type Role struct {
	Name role.Role
	// StartFailed is a start that cannot go on: a configuration that does
	// not load or check, a socket that cannot be prepared. bxctl doctor
	// reports a problem of the role's config under it too.
	StartFailed runbook.Entry
	// ListenerLost is a socket that stopped accepting connections.
	ListenerLost runbook.Entry
	// BxctlFlag is bxctl's global flag that names the role's config
	// (--broker-config PATH), for bxctl and whoever runs it (the demo).
	BxctlFlag string
}

// The daemons (conf.Daemons names them in start order).
var (
	Brokerd  = Role{Name: role.Brokerd, StartFailed: runbook.BrokerdStartFailed, ListenerLost: runbook.BrokerdListenerLost, BxctlFlag: "broker-config"}
	Memoryd  = Role{Name: role.Memoryd, StartFailed: runbook.MemorydStartFailed, ListenerLost: runbook.ListenerLost, BxctlFlag: "memory-config"}
	Loopd    = Role{Name: role.Loopd, StartFailed: runbook.LoopdStartFailed, ListenerLost: runbook.ListenerLost, BxctlFlag: "loop-config"}
	Gatewayd = Role{Name: role.Gatewayd, StartFailed: runbook.GatewaydStartFailed, ListenerLost: runbook.ListenerLost, BxctlFlag: "gateway-config"}
	// Inferproxy's socket is core/inferproxy's HTTP server, not a Daemon's
	// (it reports under listener-lost too).
	Inferproxy = Role{Name: role.Inferproxy, StartFailed: runbook.InferproxyStartFailed, ListenerLost: runbook.ListenerLost, BxctlFlag: "inferproxy-config"}
)

// Daemon is r's daemon serving the home dir: its lock is the home's
// run/<role>.lock, and every socket it is given (Socket) takes requests
// from the daemon's own user and the uids in allow.
func (r Role) Daemon(dir string, allow []uint32) *Daemon {
	return &Daemon{role: r, lockPath: home.Home{Dir: dir}.Lock(r.Name), allow: allow}
}

// Daemon is a running daemon's lock and sockets.
type Daemon struct {
	// Ready is printed once every socket listens (the start line).
	Ready string
	// ReadyAfter, when set, holds the start line and systemd's READY=1
	// until it is closed (gatewayd: once connected to Mattermost).
	ReadyAfter <-chan struct{}

	role     Role
	lockPath string
	allow    []uint32
	sockets  []*daemon.Socket

	lock      *daemon.Lock
	listeners []net.Listener
}

// Socket adds one of the daemon's sockets, named name for its lines and
// its ping, at path: it takes kinds, and ping besides, and its lines go
// to Log. Add every socket before Start; the returned socket's Kinds may
// still be filled in until Serve.
func (d *Daemon) Socket(name, path string, kinds map[string]daemon.Handler) *daemon.Socket {
	all := map[string]daemon.Handler{daemon.PingKind: daemon.NoBody(Ping(d.role.Name, name))}
	for k, h := range kinds {
		all[k] = h
	}
	s := &daemon.Socket{
		Role: d.role.Name.String(), Name: name, Path: path, Kinds: all,
		AllowUIDs:    d.allow,
		ListenerLost: d.role.ListenerLost,
		Log:          Log,
	}
	d.sockets = append(d.sockets, s)
	return s
}

// Lock takes the daemon's lock (run/<role>.lock) ahead of Start, for a
// daemon that must know it is the only one before it opens anything else
// (brokerd, before the audit log): a second copy meets already-running as
// every role's does. Start takes it when Lock was not called.
func (d *Daemon) Lock() error {
	notifySocket() // before the daemon starts any program (brokerd's Podman)
	if d.lock != nil {
		return nil
	}
	lock, err := daemon.TakeLock(d.role.Name.String(), d.lockPath)
	if err != nil {
		return err
	}
	d.lock = lock
	return nil
}

// Start takes the lock (unless Lock did) and listens on every socket. On
// failure nothing is left listening and the lock is released.
func (d *Daemon) Start() error {
	if err := d.Lock(); err != nil {
		return err
	}
	for _, s := range d.sockets {
		listen := daemon.Listen
		if len(s.AllowUIDs) > 0 {
			listen = daemon.ListenShared
		}
		ln, err := listen(d.lock, s.Path)
		if err != nil {
			d.Close()
			return runbook.Wrap(d.role.StartFailed, err)
		}
		d.listeners = append(d.listeners, ln)
	}
	return nil
}

// Serve serves every socket until SIGINT or SIGTERM (a clean stop, nil) or
// until one socket stops serving for good (its error). It prints the start
// line and tells systemd the daemon is ready.
func (d *Daemon) Serve(ctx context.Context) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, len(d.sockets))
	for i, s := range d.sockets {
		go func() { errs <- s.Serve(ctx, d.listeners[i]) }()
	}
	ready := func() {
		if d.Ready != "" {
			fmt.Println(d.Ready)
		}
		Notify(d.role.Name, daemon.NotifyReady)
	}
	if d.ReadyAfter == nil {
		ready()
	} else {
		go func() {
			select {
			case <-d.ReadyAfter:
				ready()
			case <-ctx.Done():
			}
		}()
	}
	stopping := false
	var first error
	for range d.sockets {
		var err error
		select {
		case err = <-errs:
		case <-ctx.Done():
			if !stopping {
				Notify(d.role.Name, daemon.NotifyStopping)
				stopping = true
			}
			err = <-errs
		}
		if err != nil && first == nil {
			first = err
			cancel()
		}
	}
	d.Close()
	if first == nil && ctx.Err() != nil && !errors.Is(ctx.Err(), context.Canceled) {
		return ctx.Err()
	}
	return first
}

// Notify tells systemd state (daemon.NotifyReady, daemon.NotifyStopping)
// when it started this daemon as a Type=notify service; a failure is
// printed, not returned: serving matters more than the unit's status.
func Notify(r role.Role, state string) {
	if err := daemon.Notify(notifySocket(), state); err != nil {
		fmt.Fprintf(Log, "%s: cannot tell systemd %s: %v\n", r, state, err)
	}
}

var notifyOnce struct {
	sync.Once
	socket string
}

// notifySocket is $NOTIFY_SOCKET, read once and then removed from the
// environment: a program the daemon starts (Podman, and the container it
// runs) must not be able to speak to systemd for the daemon's unit.
func notifySocket() string {
	notifyOnce.Do(func() {
		notifyOnce.socket = os.Getenv("NOTIFY_SOCKET")
		os.Unsetenv("NOTIFY_SOCKET")
	})
	return notifyOnce.socket
}

// Close stops listening and releases the lock.
func (d *Daemon) Close() {
	for _, ln := range d.listeners {
		ln.Close()
	}
	d.listeners = nil
	d.lock.Release()
}

// Ping answers a ping (daemon.PingKind) with the role and the socket's name.
func Ping(r role.Role, socket string) daemon.Handler {
	return func(context.Context, daemon.Peer, json.RawMessage, *daemon.Stream) (any, error) {
		return map[string]string{"role": r.String(), "socket": socket}, nil
	}
}
