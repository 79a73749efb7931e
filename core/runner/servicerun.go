package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"boxmaker/core/policy"
	"boxmaker/runbook"
)

// Launch is how a call's container is started ([runner] launch).
const (
	// LaunchService: through a `podman system service` the runner keeps,
	// its socket in brokerd's root-only run/podman (D1057). The default.
	LaunchService = "service"
	// LaunchRun: a `podman run` per call.
	LaunchRun = "run"
)

// serviceStartWait bounds a service's start, until it answers.
const serviceStartWait = 30 * time.Second

// serviceChecked are the Podman versions (prefixes) whose service
// TestServiceSpecMatchesCommandLine has checked serviceSpec against:
// the service decodes a spec without refusing unknown fields, so on
// another version a field renamed or gone would drop a lockdown option
// silently. On any other, every call is a podman run (D1084).
var serviceChecked = []string{"4.3."}

// errServiceUnchecked: the service's Podman is not one serviceSpec was
// checked against; the call goes by podman run.
var errServiceUnchecked = errors.New("the podman service's version is not one its container spec was checked against")

// servicePingWait is what a service that left a call unanswered has to
// answer a ping at the next call before it is killed and replaced.
const servicePingWait = 5 * time.Second

// podmanService is the `podman system service` a Runner starts the file
// tools' and run's containers through. It is started at the first call
// that needs it, and again at the first call after it ended; a call it
// cannot answer fails (runner-service-down) and its container is removed
// with the podman command instead.
type podmanService struct {
	dir    string   // root's, 0700: nothing but root reaches the socket
	socket string   // dir/podman.sock
	argv   []string // the podman program and its global options
	// conf is the containers.conf the service reads (serviceconf.go),
	// made at each start from confFrom (machineContainersConfs) with
	// conmonEnv added for conmon; ownEnv is the service's own.
	conf     string
	confFrom func() ([]string, error)
	// conmon is brokerd's conmon for the service (serviceconf.go,
	// D1180), made at each start beside conf.
	conmon    string
	conmonEnv []string
	ownEnv    []string
	step      time.Duration // each of the service's steps of a call (serviceClient.step)
	// startWait bounds a start, until the service answers (serviceStartWait).
	startWait time.Duration

	mu     sync.Mutex
	cmd    *exec.Cmd
	ended  chan struct{} // closed once cmd has ended
	stderr *bounded
	client *serviceClient
	closed bool
	// unanswered: a call through client got no answer, and the service
	// answered the ping then (noAnswer); the next call pings it first
	// (get).
	unanswered bool
	// checked are serviceChecked; unchecked is the version of a service
	// that was none of them: no service is started again.
	checked   []string
	unchecked string
}

func newPodmanService(dir string, argv []string, containersConf string) (*podmanService, error) {
	if !filepath.IsAbs(dir) || filepath.Clean(dir) != dir {
		return nil, fmt.Errorf("the podman service's directory %q is not a clean absolute path", dir)
	}
	socket := filepath.Join(dir, "podman.sock")
	if len(socket) >= 108 {
		return nil, fmt.Errorf("the podman service's socket %s is %d bytes long: a unix socket's path must be under 108", socket, len(socket))
	}
	return &podmanService{dir: dir, socket: socket, argv: argv, step: rmWait, startWait: serviceStartWait, checked: serviceChecked,
		conf:      filepath.Join(dir, "containers.conf"),
		conmon:    filepath.Join(dir, "conmon"),
		confFrom:  func() ([]string, error) { return machineContainersConfs(containersConf, "/etc", "/usr/share") },
		conmonEnv: serviceConmonEnv, ownEnv: serviceOwnEnv}, nil
}

// get returns a client of a running service, starting one when none runs.
func (s *podmanService) get(ctx context.Context) (*serviceClient, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, runbook.Refuse(runbook.RunnerServiceDown, "the podman service is stopped: brokerd is stopping")
	}
	if s.unchecked != "" {
		return nil, fmt.Errorf("%w (Podman %s)", errServiceUnchecked, s.unchecked)
	}
	if s.cmd != nil {
		select {
		case <-s.ended:
			s.cmd = nil // it ended: start another
		default:
			if !s.unanswered || !s.killIfHung(ctx) {
				s.unanswered = false
				return s.client, nil
			}
		}
	}
	s.unanswered = false
	if said, err := s.start(ctx); errors.Is(err, errServiceUnchecked) {
		return nil, err
	} else if err != nil {
		// Podman's own failure, as a `podman run` that cannot start.
		if said == "" {
			said = err.Error()
		}
		return nil, unavailable(append(s.argv, "system", "service"), said)
	}
	return s.client, nil
}

// start prepares the socket's directory and starts the service, and
// waits until it answers; when it cannot, said is what podman said, if
// anything. The caller holds s.mu.
func (s *podmanService) start(ctx context.Context) (said string, err error) {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return "", err
	}
	// The directory as it is, not as a link says: root's, 0700.
	var st unix.Stat_t
	if err := unix.Lstat(s.dir, &st); err != nil {
		return "", err
	}
	switch {
	case st.Mode&unix.S_IFMT != unix.S_IFDIR:
		return "", fmt.Errorf("the podman service's socket directory %s is not a directory", s.dir)
	case st.Uid != uint32(os.Geteuid()) || st.Mode&0o077 != 0:
		return "", fmt.Errorf("the podman service's socket directory %s is not brokerd's own (uid %d, mode %#o; want uid %d, 0700)", s.dir, st.Uid, st.Mode&0o7777, os.Geteuid())
	}
	// A socket left by a service that ended; podman does not replace it.
	if err := os.Remove(s.socket); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	// The machine's containers.conf with conmon's Go variables and
	// brokerd's conmon for the machine's, made again at each start: the
	// machine's may have changed.
	files, err := s.confFrom()
	if err != nil {
		return "", err
	}
	conmon, err := machineConmon(files)
	if err != nil {
		return "", err
	}
	if err := writeServiceConmon(s.conmon, conmon); err != nil {
		return "", err
	}
	// A home mounted noexec cannot run it: then the machine's conmon
	// runs, with its exit command, as before D1180 (the runner asks for
	// the exit status either way).
	ownConmon := s.conmon
	if exec.Command(s.conmon, "--version").Run() != nil {
		ownConmon = ""
	}
	conf, err := serviceContainersConf(files, s.conmonEnv, ownConmon)
	if err != nil {
		return "", err
	}
	if err := writeServiceConf(s.conf, conf); err != nil {
		return "", err
	}
	args := append(append([]string(nil), s.argv[1:]...), "system", "service", "--time", "0", "unix://"+s.socket)
	cmd := exec.Command(s.argv[0], args...)
	cmd.Env = withEnv(cmd.Environ(), append([]string{"CONTAINERS_CONF=" + s.conf}, s.ownEnv...))
	stderr := &bounded{limit: 16 << 10}
	cmd.Stdout, cmd.Stderr = stderr, stderr
	// It ends with brokerd, even one that is killed. The signal comes
	// when the thread that started it ends: that thread is kept, locked
	// to the goroutine that waits for the service, for its whole life.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	ended := make(chan struct{})
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		defer close(ended)
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		cmd.Wait()
	}()
	if err := <-started; err != nil {
		return "", err
	}
	client := newServiceClient(s.socket)
	client.step = s.step
	wctx, cancel := context.WithTimeout(ctx, s.startWait)
	defer cancel()
	for {
		pctx, pcancel := context.WithTimeout(wctx, time.Second)
		err := client.do(pctx, "GET", "/_ping", nil, nil)
		pcancel()
		if err == nil {
			break
		}
		select {
		case <-ended:
			return strings.TrimSpace(stderr.buf.String()), errors.New("the podman service ended at once")
		case <-wctx.Done():
			stopService(cmd, ended)
			return "", fmt.Errorf("the podman service did not answer within %s: %v", s.startWait, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	// The version serviceSpec was checked against, or no service.
	vctx, vcancel := context.WithTimeout(ctx, s.startWait)
	version, err := client.version(vctx)
	vcancel()
	if err == nil && !slices.ContainsFunc(s.checked, func(p string) bool { return strings.HasPrefix(version, p) }) {
		s.unchecked = version
		err = fmt.Errorf("%w (Podman %s)", errServiceUnchecked, version)
	}
	if err != nil {
		stopService(cmd, ended)
		return "", err
	}
	s.cmd, s.ended, s.stderr, s.client = cmd, ended, stderr, client
	return "", nil
}

// withEnv is environ with each of vars set: CONTAINERS_CONF over the
// one environ names, a Go variable only where environ sets none (an
// operator's GOGC or GOMEMLIMIT is left alone, as core/startgc leaves it).
func withEnv(environ, vars []string) []string {
	for _, kv := range vars {
		name, _, _ := strings.Cut(kv, "=")
		i := slices.IndexFunc(environ, func(e string) bool { return strings.HasPrefix(e, name+"=") })
		switch {
		case i < 0:
			environ = append(environ, kv)
		case name == "CONTAINERS_CONF":
			environ[i] = kv
		}
	}
	return environ
}

// noAnswer: a call through client got no answer from its service. The
// service is pinged now, and killed when it does not answer (killIfHung),
// not at the next call: a hung Podman keeps whatever locks it held, its
// store's and those of the machine's one lock table every store shares,
// and every Podman process that wants one waits for it, the `podman rm`
// of the call's own container included (D1221). One that answers the
// ping is pinged again at the next call (get).
func (s *podmanService) noAnswer(ctx context.Context, client *serviceClient) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client != client || s.cmd == nil {
		return
	}
	select {
	case <-s.ended:
		return
	default:
	}
	s.unanswered = !s.killIfHung(ctx)
}

// killIfHung pings the running service (servicePingWait) and, when it
// does not answer, kills it (SIGKILL: a stopped or deadlocked process
// ignores SIGTERM) and waits for its end; it says whether it did. Not
// cut short by the call's end: a call cancelled here must not have a
// service that answers killed. The caller holds s.mu.
func (s *podmanService) killIfHung(ctx context.Context) bool {
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), servicePingWait)
	err := s.client.do(pctx, "GET", "/_ping", nil, nil)
	cancel()
	if err == nil {
		return false
	}
	s.cmd.Process.Kill()
	awaitEnd(s.ended)
	s.cmd = nil
	return true
}

// close stops the service and waits for it; no call starts one again.
func (s *podmanService) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.cmd == nil {
		return
	}
	stopService(s.cmd, s.ended)
	s.cmd = nil
}

// serviceStopWait is what a service has to end after SIGTERM before it
// is killed, and again after SIGKILL before the runner stops waiting.
const serviceStopWait = 10 * time.Second

// stopService ends a service: SIGTERM, and SIGKILL when it has not ended
// within serviceStopWait (one that hangs, at its start too, ignores
// SIGTERM). It never waits for ever: whoever calls it holds the lock
// every call waits for.
func stopService(cmd *exec.Cmd, ended <-chan struct{}) {
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-ended:
		return
	case <-time.After(serviceStopWait):
	}
	cmd.Process.Kill()
	awaitEnd(ended)
}

// awaitEnd waits for a killed service to end, at most serviceStopWait
// (a process in an uninterruptible sleep ends when the kernel lets it).
func awaitEnd(ended <-chan struct{}) {
	select {
	case <-ended:
	case <-time.After(serviceStopWait):
	}
}

// Close stops what the Runner keeps running between calls: the podman
// service. brokerd calls it when it stops. Then it lets go of the store's
// own mount (releaseStoreMount): a service ended by a signal never
// unmounts it, and the home could not be removed while it stays.
func (r *Runner) Close() {
	if r.svc != nil {
		r.svc.close()
	}
	releaseStoreMount(r.cfg.Store)
}

// releaseStoreMount unmounts the overlay directory of brokerd's own
// store. Podman's storage binds that directory on itself (private
// propagation) when a podman process opens the store and unmounts it
// when the last one closes the store in order; a service ended by
// SIGTERM or SIGKILL does not, and the mount stays in the host's
// namespace: `rm -rf` of the home, the demo's temporary home included,
// then fails with "Device or resource busy". The unmount is lazy and
// never follows a link; a directory that is not a mount point (EINVAL)
// or not there is left as it is. The next podman process of the store
// binds it again. The default store (Root "") is Podman's and is left
// alone.
func releaseStoreMount(s Store) {
	if s.Root == "" {
		return
	}
	unix.Unmount(filepath.Join(s.Root, "overlay"), unix.MNT_DETACH|unix.UMOUNT_NOFOLLOW)
}

// startThroughService runs the call's container through the service, as
// start runs it with `podman run`, and answers as start does.
func (r *Runner) startThroughService(parent context.Context, c Call, name string, mounts []Mount) (Result, error) {
	ctx, cancel := context.WithTimeout(parent, r.cfg.Timeout+startGrace)
	defer cancel()
	client, err := r.svc.get(ctx)
	if errors.Is(err, errServiceUnchecked) {
		return r.start(parent, c, name, r.Args(c, name, mounts))
	}
	if err != nil {
		return Result{}, err
	}
	stdout := &bounded{limit: 12*r.cfg.OutputLimit + 1<<20}
	stderr := &bounded{limit: 64 << 10}
	var stdin []byte
	if c.Tool == string(policy.WriteFile) {
		stdin = c.Content
	}
	code, err := client.run(ctx, r.serviceSpec(c, name, mounts), stdin, stdout, stderr)
	var se *serviceError
	var re *removeError
	if errors.As(err, &re) {
		// The call ran; its container goes another way.
		r.remove(r.cfg.Store, name)
		err = nil
	}
	if err == nil && code == -1 {
		// Cut short and removed by force through the service: what the
		// runtime and conmon may still run of it ends too, as after a
		// podman run (remove).
		r.remove(r.cfg.Store, name)
	}
	switch {
	case err == nil && code == 0:
	case err == nil:
		if parent.Err() != nil {
			return Result{}, fmt.Errorf("the call was cancelled; its container was removed: %w", parent.Err())
		}
		if ctx.Err() != nil {
			return Result{}, fmt.Errorf("the tool's container did not end within %s; it was removed", r.cfg.Timeout+startGrace)
		}
		return Result{}, fmt.Errorf("the tool's container ended with status %d without a result (killed at a limit?): %s",
			code, strings.TrimSpace(stderr.buf.String()))
	case errors.As(err, &se):
		// The service answered that it could not make or start the
		// container: nothing ran.
		return Result{}, unavailable(nil, se.Message)
	default:
		// The service did not answer: it ended or hangs. One that hangs
		// is killed first (noAnswer), then the container, if it made
		// one, is removed without it; the next call starts another.
		r.svc.noAnswer(parent, client)
		r.remove(r.cfg.Store, name)
		if parent.Err() != nil {
			return Result{}, fmt.Errorf("the call was cancelled; its container was removed: %w", parent.Err())
		}
		// The model is told no more than that; brokerd's log has why.
		return Result{}, runbook.WithCause(runbook.RunnerServiceDown, "the podman service did not answer the call", err)
	}
	return stdout.result()
}
