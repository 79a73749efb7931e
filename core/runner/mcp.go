package runner

import (
	"fmt"
	"os/exec"
	"time"
)

// MCPListTimeout bounds a container that lists an MCP server's tools:
// podman's --timeout, past which the container is killed whatever the
// client does.
const MCPListTimeout = 60 * time.Second

// MCPCommand is the podman command that runs an MCP server from image
// with argv, for listing its tools: the tools' lockdown (no network, a
// read-only root, no capabilities, no new privileges, the tool uid and
// the seccomp profile, the ulimits, pids and memory, no log), a /tmp
// tmpfs, stdin kept open for the stdio transport (-i, never a TTY),
// nothing mounted, and no variable but env (KEY=VALUE each; never a
// secret: podman's command line can be read by any process). name is the
// container's name (ContainerName); remove it with RemoveContainer once
// the command has ended.
func (r *Runner) MCPCommand(name, image string, argv, env []string) (*exec.Cmd, error) {
	switch {
	case r.cfg.SeccompProfile == "":
		return nil, unavailable(nil, "the runner has no seccomp profile for the tools")
	case r.seccomp() != nil:
		return nil, unavailable(nil, r.seccomp().Error())
	case len(argv) == 0:
		return nil, fmt.Errorf("an MCP server needs a command")
	}
	args := append(r.lockdown(name, "none", MCPListTimeout), "-i",
		"--tmpfs", fmt.Sprintf("/tmp:rw,nosuid,nodev,size=%dm", r.cfg.TmpMB))
	for _, e := range env {
		args = append(args, "--env", e)
	}
	args = append(append(args, image), argv...)
	cmd := exec.Command(r.cfg.Podman, args...)
	return cmd, nil
}

// RemoveContainer removes the container name, whatever its state, and
// what a killed Podman client may have left of it.
func (r *Runner) RemoveContainer(name string) { r.remove(name) }
