package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// RuntimeAuto is [runner] runtime's value that lets the runner choose:
// crun when it is installed and can run on this host's cgroups, runc
// otherwise (D1048). crun starts and removes a container in about two
// thirds of runc's CPU.
const RuntimeAuto = "auto"

// cgroups is what the host's cgroup file systems are, as crun reads
// them: unified (v2 only), legacy (v1 only) or hybrid (v1 with a v2
// tree at <root>/unified), and for hybrid the controllers the v2 tree
// holds, which crun 1.8 refuses ("cgroups in hybrid mode not supported,
// drop all controllers from cgroupv2").
type cgroups struct {
	mode        string // "unified", "hybrid" or "legacy"
	controllers string // hybrid: <root>/unified/cgroup.controllers
}

// readCgroups reads the cgroup file systems under root (/sys/fs/cgroup).
func readCgroups(root string) (cgroups, error) {
	var fs unix.Statfs_t
	if err := unix.Statfs(root, &fs); err != nil {
		return cgroups{}, err
	}
	if fs.Type == unix.CGROUP2_SUPER_MAGIC {
		return cgroups{mode: "unified"}, nil
	}
	unified := filepath.Join(root, "unified")
	if err := unix.Statfs(unified, &fs); err != nil || fs.Type != unix.CGROUP2_SUPER_MAGIC {
		return cgroups{mode: "legacy"}, nil
	}
	c, err := os.ReadFile(filepath.Join(unified, "cgroup.controllers"))
	if err != nil {
		return cgroups{}, err
	}
	return cgroups{mode: "hybrid", controllers: strings.TrimSpace(string(c))}, nil
}

// chooseRuntime is the runtime "auto" stands for on a host where crun
// is at crunPath ("" when it is not installed) with cgroups cg, and why,
// for brokerd's start line and bxctl doctor.
func chooseRuntime(crunPath string, cg cgroups, cgErr error) (runtime, why string) {
	switch {
	case crunPath == "":
		return "runc", "crun is not installed"
	case cgErr != nil:
		return "runc", "the host's cgroups cannot be read: " + cgErr.Error()
	case cg.mode == "hybrid" && cg.controllers != "":
		return "runc", "crun refuses this host's hybrid cgroups, whose v2 tree holds controllers (" + cg.controllers + ")"
	}
	return "crun", "crun is installed and runs on this host's " + cg.mode + " cgroups"
}

// resolveRuntime turns "auto" into the runtime it stands for on this
// host; any other value is kept as it is.
func resolveRuntime(runtime string) (string, string) {
	if runtime != RuntimeAuto {
		return runtime, ""
	}
	crun, err := exec.LookPath("crun")
	if err != nil {
		crun = ""
	}
	cg, cgErr := readCgroups("/sys/fs/cgroup")
	return chooseRuntime(crun, cg, cgErr)
}
