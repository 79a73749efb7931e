package runner

// A yaag Run that brokerd's yaag_run starts is the model's program, so it
// runs as a tool does: in a container of the tools image (its static
// boxmaker binary runs `yaag run`), as the tools' uid, with no network,
// a read-only root, no capabilities and no new privileges, and limits of
// its own ([yaag] in brokerd.toml): memory and pids (cgroup), CPU time
// (RLIMIT_CPU; spent at most [runner] cpus at a time, a CFS quota) and
// wall clock (brokerd's timer, Podman's --timeout behind it). It sees
// only the decided directory (staged and idmapped as a read tool's
// target, read-only) and the Run's own disk, which brokerd makes (a
// tmpfs of [yaag] disk_mb) and mounts at its own path. See
// docs/runner.md, "yaag Runs".

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// YaagSpec is one Run's container.
type YaagSpec struct {
	ID  string // the Run's id: the container is named after it
	Dir string // the decided directory: staged, read-only, at its own path
	// Mounts are the Run's own places (its disk), read-write, each a
	// directory brokerd made and only brokerd and this Run can reach:
	// mounted by path, not staged.
	Mounts  []Mount
	Args    []string // /bin/boxmaker's arguments
	Env     []string
	Workdir string
	Stdin   io.Reader // the inline program, or nil

	MemoryMB, PidsLimit, CPUSeconds int
	Wall                            time.Duration
}

// YaagContainer is a Run's running container.
type YaagContainer struct {
	Stdout, Stderr io.Reader

	r       *Runner
	name    string
	cmd     *exec.Cmd
	st      *stage
	release func()
	done    chan struct{}
	err     error
	kill    chan struct{}
	once    sync.Once
}

// ToolUID is the uid the tools (and yaag Runs) run as.
func (r *Runner) ToolUID() int { return r.cfg.ToolUID }

// yaagGrace is what the Run's container may take beyond its wall clock
// before Podman's own --timeout ends it (brokerd's timer ends it first).
const yaagGrace = 30 * time.Second

// StartYaag starts a Run's container. The error is a runner-unavailable
// refusal when nothing started (no image, no slot, Podman failed to
// start), or the staging's refusal of the directory.
func (r *Runner) StartYaag(s YaagSpec) (*YaagContainer, error) {
	if why := r.ready(true); why != "" {
		return nil, unavailable(nil, why)
	}
	if err := checkMountable(s.Dir); err != nil {
		return nil, err
	}
	for _, m := range s.Mounts {
		if err := checkMountable(m.Dest); err != nil {
			return nil, err
		}
		if strings.ContainsAny(m.Source, ":,\x00\n") {
			return nil, fmt.Errorf("the runner cannot mount %q", m.Source)
		}
	}
	// The Run's threads count against the tools' uid's RLIMIT_NPROC
	// like a tool container's processes: it takes the slots its
	// pids_limit needs (budget.go), for as long as it runs.
	n := (s.PidsLimit + r.cfg.PidsLimit - 1) / r.cfg.PidsLimit
	if err := r.budget.acquire(context.Background(), n, 2*time.Second); err != nil {
		return nil, unavailable(nil, err.Error())
	}
	release := func() { r.budget.release(n) }
	name := r.ContainerName("yaag-" + s.ID)
	st, answer, err := r.stageCall(Call{ID: s.ID, Tool: "list_dir", Paths: []string{s.Dir}}, name)
	if err == nil && answer != nil {
		err = fmt.Errorf("%s", answer.Error)
	}
	if err != nil {
		release()
		return nil, err
	}
	args := r.yaagArgs(s, name, st.mounts)
	cmd := r.podman(nil, args...)
	if s.Stdin != nil {
		cmd.Stdin = s.Stdin
	}
	stdout, err := cmd.StdoutPipe()
	if err == nil {
		var stderr io.Reader
		if stderr, err = cmd.StderrPipe(); err == nil {
			c := &YaagContainer{Stdout: stdout, Stderr: stderr, r: r, name: name, cmd: cmd, st: st, release: release,
				done: make(chan struct{}), kill: make(chan struct{})}
			if err = cmd.Start(); err == nil {
				go c.wait()
				return c, nil
			}
		}
	}
	st.release()
	release()
	return nil, unavailable(args, err.Error())
}

// yaagArgs is the Run's podman command line: lockdown's confinement with
// the Run's own limits, and Podman's default seccomp profile (the Run
// opens its files with openat2, which the tools' profile refuses; it
// writes only to its own disk, nosuid and noexec).
func (r *Runner) yaagArgs(s YaagSpec, name string, staged []Mount) []string {
	cfg := r.cfg
	timeout := s.Wall + yaagGrace
	a := []string{"run", "--rm", "--pull", "never", "-i",
		"--name", name, "--label", "boxmaker=" + cfg.Instance, "--annotation", instanceAnnotation + "=" + cfg.Instance, "--annotation", nameAnnotation + "=" + name,
		"--network", "none", "--read-only", "--read-only-tmpfs=false",
		"--cap-drop", "all", "--security-opt", "no-new-privileges",
		"--user", fmt.Sprintf("%d:%d", cfg.ToolUID, cfg.ToolUID),
		"--ulimit", fmt.Sprintf("nofile=%d:%d", cfg.UlimitNofile, cfg.UlimitNofile),
		"--ulimit", fmt.Sprintf("nproc=%d:%d", cfg.UlimitNproc, cfg.UlimitNproc),
		// The soft limit's SIGXCPU ends yaag with its own status; the
		// hard limit's SIGKILL a little later ends it whatever it does.
		"--ulimit", fmt.Sprintf("cpu=%d:%d", s.CPUSeconds, s.CPUSeconds+2),
		"--pids-limit", strconv.Itoa(s.PidsLimit),
		"--memory", fmt.Sprintf("%dm", s.MemoryMB), "--memory-swap", fmt.Sprintf("%dm", s.MemoryMB),
		"--log-driver", "none",
		"--timeout", strconv.Itoa(int((timeout + time.Second - 1) / time.Second)),
		"--tmpfs", "/tmp:rw,nosuid,nodev,noexec,size=8m",
	}
	// cpu_seconds bounds the Run's CPU time; [runner] cpus how fast it
	// may spend it, as a tool's.
	a = append(a, cpuArgs(r.containerCPUs(cfg.CPUs))...)
	a = append(a, r.cgroupArgs()...)
	if cfg.Runtime != "" {
		a = append(a, "--runtime", cfg.Runtime)
	}
	for _, m := range staged {
		a = append(a, "-v", m.Source+":"+m.Dest+":ro,rbind,nosuid,nodev")
	}
	for _, m := range s.Mounts {
		a = append(a, "-v", m.Source+":"+m.Dest+":rw,rbind,nosuid,nodev,noexec")
	}
	for _, e := range s.Env {
		a = append(a, "--env", e)
	}
	if s.Workdir != "" {
		a = append(a, "--workdir", s.Workdir)
	}
	a = append(a, cfg.Image, ExecutorPath)
	return append(a, s.Args...)
}

// wait waits for the Podman client; Kill makes it end. As runPodman does,
// the client is never killed while it may be creating or removing the
// container (Podman's locks): the container is removed by name until the
// client ends, and only a client that outlives stopWait is killed.
func (c *YaagContainer) wait() {
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-c.kill:
		give := time.NewTimer(stopWait)
	loop:
		for {
			c.r.podmanRemove(c.r.cfg.Store, c.name)
			select {
			case err = <-done:
				break loop
			case <-give.C:
				c.cmd.Process.Kill()
				err = <-done
				break loop
			case <-time.After(rmAgainIn):
			}
		}
		give.Stop()
	}
	if err != nil {
		// A container killed at a limit, or by Kill: what conmon or the
		// runtime still holds of it goes too.
		c.r.remove(c.r.cfg.Store, c.name)
	}
	c.st.release()
	c.release()
	c.err = err
	close(c.done)
}

// Kill ends the Run's container, whatever the Run is doing: every
// process in it goes with it.
func (c *YaagContainer) Kill() { c.once.Do(func() { close(c.kill) }) }

// Done is closed when the container is gone.
func (c *YaagContainer) Done() <-chan struct{} { return c.done }

// ExitCode is the Run's exit status once Done: 137 for a process killed
// (SIGKILL: the kernel at the memory limit, the CPU-time hard limit, or
// Kill), 125 when Podman could not start it, -1 when the client itself
// did not exit normally.
func (c *YaagContainer) ExitCode() int {
	<-c.done
	var ee *exec.ExitError
	switch {
	case c.err == nil:
		return 0
	case errors.As(c.err, &ee):
		return ee.ExitCode()
	}
	return -1
}

// StartFailed is the runner-unavailable refusal for a container Podman
// could not start (status 125, 126 or 127), with what it said.
func (c *YaagContainer) StartFailed(said string) error {
	return unavailable(c.cmd.Args, said)
}
