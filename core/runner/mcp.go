package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"strings"
	"sync"
	"time"

	"boxmaker/core/policy"
	"boxmaker/runbook"
)

// MCPListTimeout bounds a container that lists an MCP server's tools:
// podman's --timeout, past which the container is killed whatever the
// client does.
const MCPListTimeout = 60 * time.Second

// MCPCommand is the podman command that runs an MCP server from image
// with argv, for listing its tools: the tools' lockdown (no network, a
// read-only root, no capabilities, no new privileges, the tool uid and
// the seccomp profile, the ulimits, pids, memory and [mcp] cpus, no
// log), a /tmp tmpfs, stdin kept open for the stdio transport (-i,
// never a TTY), nothing mounted, and no variable but env (KEY=VALUE
// each; never a secret: podman's command line can be read by any
// process). name is the container's name (ContainerName); remove it
// with RemoveContainer once the command has ended.
func (r *Runner) MCPCommand(name, image string, argv, env []string) (*exec.Cmd, error) {
	switch {
	case r.cfg.SeccompProfile == "":
		return nil, unavailable(nil, "the runner has no seccomp profile for the tools")
	case r.seccomp() != nil:
		return nil, unavailable(nil, r.seccomp().Error())
	case r.cgroupProblem() != "":
		return nil, unavailable(nil, r.cgroupProblem())
	case len(argv) == 0:
		return nil, fmt.Errorf("an MCP server needs a command")
	}
	args := append(r.lockdown(name, "none", MCPListTimeout, r.mcpCPUs()), "-i",
		"--tmpfs", fmt.Sprintf("/tmp:rw,nosuid,nodev,size=%dm", r.cfg.TmpMB))
	for _, e := range env {
		args = append(args, "--env", e)
	}
	args = append(append(args, image), argv...)
	// In Podman's default store, not the runner's own (D1047): the
	// operator loads an MCP server's image there by its manifest digest.
	cmd := exec.Command(r.cfg.Podman, args...)
	return cmd, nil
}

// RemoveContainer removes the container name, whatever its state, and
// what a killed Podman client may have left of it.
func (r *Runner) RemoveContainer(name string) { r.remove(Store{}, name) }

// MCPServe is an MCP server's container for one session (StartMCP).
type MCPServe struct {
	Name  string   // the container's name (ContainerName)
	Image string   // name@sha256:..., never pulled
	Argv  []string // the server's command in the image
	Env   []string // plain variables, KEY=VALUE, on podman's command line
	// Secrets are KEY=VALUE too, but given to podman through its own
	// environment (--env KEY, no value): a command line can be read by
	// any process, an environment by its user alone.
	Secrets []string
	// Mounts are the paths the server is given, as decided
	// (policy.MCPPlan): each staged by descriptor as a file tool's,
	// read-only unless Write, with its masks.
	Mounts []policy.MCPMount
	// Lifetime is podman's --timeout for the container: whatever else
	// happens, it is killed then.
	Lifetime time.Duration
}

// MCPStarted is a server's container ready to start: Cmd is the podman
// command (not started: core/mcp takes its stdin and stdout), Mounted
// says what each mount is (device and inode held), and Release, once
// the command has ended, removes the container, detaches the staged
// mounts and gives back the container's slot.
type MCPStarted struct {
	Cmd     *exec.Cmd
	Mounted []string
	Release func()
}

// StartMCP prepares the container of an MCP server for a session, in the
// tools' lockdown (lockdown: no network, read-only root, no
// capabilities, no new privileges, the tools' uid and seccomp profile,
// the limits of [runner] with [mcp]'s CPU limit, --pull never), with a
// /tmp tmpfs and exactly the decided paths, staged as the file tools'
// are: each opened without following a link, checked against the
// harness by identity, and its mount cloned, so that the object decided
// is the object mounted.
func (r *Runner) StartMCP(ctx context.Context, s MCPServe) (*MCPStarted, error) {
	switch {
	case len(s.Argv) == 0:
		return nil, fmt.Errorf("an MCP server needs a command")
	case len(s.Mounts) > 0 && r.ownerProblem() != "":
		return nil, runbook.Refuse(runbook.OwnerNotSet, "%s", NoOwnerText)
	}
	switch {
	case r.cfg.SeccompProfile == "":
		return nil, unavailable(nil, "the runner has no seccomp profile for the tools")
	case r.seccomp() != nil:
		return nil, unavailable(nil, r.seccomp().Error())
	case r.cgroupProblem() != "":
		return nil, unavailable(nil, r.cgroupProblem())
	}
	for _, m := range s.Mounts {
		if err := checkMountable(m.Path); err != nil {
			return nil, err
		}
	}
	slot, err := r.admit(ctx, 1)
	if err != nil {
		return nil, err
	}
	st, err := r.newStage(s.Name)
	if err != nil {
		slot()
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			st.release()
			slot()
		}
	}()
	for _, m := range s.Mounts {
		h, err := hold(m.Path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, targetChanged(m.Path, "no longer exists")
		}
		if err != nil {
			return nil, err
		}
		st.held = append(st.held, h)
		if m.Ino != 0 && (h.st.Dev != m.Dev || h.st.Ino != m.Ino) {
			return nil, targetChanged(m.Path, "is another object than the one decided")
		}
		if !h.isDir() && !h.isRegular() {
			return nil, fmt.Errorf("%s is not a regular file or a directory", m.Path)
		}
		if err := r.checkHarness(h); err != nil {
			return nil, err
		}
		if err := st.attach(h, m.Path, !m.Write); err != nil {
			return nil, err
		}
		if h.isDir() {
			if err := st.maskUnder(st.trees[len(st.trees)-1], m.Path, m.Masks); err != nil {
				return nil, err
			}
		}
	}
	args := append(r.lockdown(s.Name, "none", s.Lifetime, r.mcpCPUs()), "-i",
		"--tmpfs", fmt.Sprintf("/tmp:rw,nosuid,nodev,size=%dm", r.cfg.TmpMB))
	for _, m := range st.mounts {
		mode := "rw"
		if m.ReadOnly {
			mode = "ro"
		}
		args = append(args, "-v", m.Source+":"+m.Dest+":"+mode+",rbind,nosuid,nodev")
	}
	for _, e := range s.Env {
		args = append(args, "--env", e)
	}
	var secretEnv []string
	for _, e := range s.Secrets {
		k, _, _ := strings.Cut(e, "=")
		args = append(args, "--env", k)
		secretEnv = append(secretEnv, e)
	}
	args = append(append(args, s.Image), s.Argv...)
	// Podman's default store, as MCPCommand's (D1047).
	cmd := exec.Command(r.cfg.Podman, args...)
	if len(secretEnv) > 0 {
		cmd.Env = append(cmd.Environ(), secretEnv...)
	}
	ok = true
	var once sync.Once
	return &MCPStarted{Cmd: cmd, Mounted: st.mounted, Release: func() {
		once.Do(func() {
			r.remove(Store{}, s.Name)
			st.release()
			slot()
		})
	}}, nil
}
