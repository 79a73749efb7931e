package runner

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"

	"boxmaker/runbook"
)

// Check asks Podman whether the runner could start a container now: the
// program runs, the tools image is set and loaded, the OCI runtime is
// there, and for http_fetch the egress network exists. Each finding is a
// runner-unavailable refusal naming the [runner] key and what Podman said.
// brokerd prints them as warnings at start (a grant may need none of it)
// and bxctl doctor reports them; a call still finds out for itself.
func (r *Runner) Check(ctx context.Context) []error {
	var found []error
	add := func(format string, args ...any) {
		found = append(found, runbook.Refuse(runbook.RunnerUnavailable, format, args...))
	}
	out, err := exec.CommandContext(ctx, r.cfg.Podman, "version", "--format", "{{.Client.Version}}").CombinedOutput()
	if err != nil {
		add("[runner] podman %q cannot be run: %s", r.cfg.Podman, said(out, err))
		return found // nothing else can be asked
	}
	if why := r.ownerProblem(); why != "" {
		found = append(found, runbook.Refuse(runbook.OwnerNotSet, "%s", why))
	}
	switch {
	case r.cfg.Image == "":
		add("[runner] image is empty: boxmaker tools-image builds and loads the tools image and prints the ID to put there")
	default:
		// In brokerd's own store, or in the default one, from which
		// brokerd copies it at start (PrepareStore).
		has := false
		for _, s := range r.stores() {
			ok, err := r.storeHas(ctx, s, r.cfg.Image)
			if err != nil {
				add("%v", err)
				has = true // said already
				break
			}
			if has = ok; has {
				break
			}
		}
		if !has {
			add("the tools image %s ([runner] image) is not loaded: boxmaker tools-image loads it", r.cfg.Image)
		}
	}
	if rt := r.cfg.Runtime; rt != "" && !filepath.IsAbs(rt) {
		if _, err := exec.LookPath(rt); err != nil {
			add("[runner] runtime %q is not on PATH: Podman will not find it either (install it, or name its full path)", rt)
		}
	}
	if n := r.cfg.EgressNetwork; n != "" {
		if out, err := exec.CommandContext(ctx, r.cfg.Podman, "network", "exists", n).CombinedOutput(); err != nil {
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 && len(strings.TrimSpace(string(out))) == 0 {
				add("[runner] egress_network %q is not a Podman network: http_fetch cannot start its proxy (podman network ls lists them)", n)
			} else {
				add("cannot ask Podman about the network %q: %s", n, said(out, err))
			}
		}
	}
	return found
}
