package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A brokerd killed while a `podman run` was starting a container can
// leave that container's conmon and its `runc init` running after Podman
// has forgotten the container: `podman rm` then finds nothing to remove.
// Two things name them. Conmon's command line carries the container's
// name (-n) and id (-c); every name of this instance begins with
// NamePrefix(instance). But a conmon that died too (killed with
// brokerd's process group before it left it, or by anyone) leaves a
// `runc init` that waits for a `runc start` that never comes, with no
// conmon to find it by. So the runtime's own state is scanned as well:
// runc keeps each container it created in <root>/<id>/state.json (root
// only), with the OCI annotations brokerd gave Podman, among them
// instanceAnnotation, the pid and start time of the container's first
// process and its cgroups. Neither a tool nor another user can write
// that state, and the container's processes cannot leave its cgroups, so
// the scan finds this home's processes only, never another home's or
// another program's, whatever they are called.

// instanceAnnotation and nameAnnotation are the OCI annotations that
// name a container's instance and the container itself in the runtime's
// state.
const (
	instanceAnnotation = "boxmaker.instance"
	nameAnnotation     = "boxmaker.container"
)

// leftover is a conmon process of one of this instance's containers.
type leftover struct {
	pid      int
	name, id string
}

// findLeftovers scans /proc for conmon processes whose container name
// begins with prefix. A command line is anyone's to write: a tool's
// program, in a container left running by a killed brokerd, can call
// itself conmon with -n of this home's prefix and -c of any name, and
// the clean-up would remove that container (`podman rm` takes names).
// So only a process of brokerd's own uid (root; tools never run as
// root) in brokerd's pid namespace counts, and its -c must be a
// container ID (64 hex digits), never a name.
func findLeftovers(prefix string) []leftover {
	var found []leftover
	ownNS, _ := os.Readlink("/proc/self/ns/pid")
	eachProcess(func(pid int, dir string) {
		raw, err := os.ReadFile(filepath.Join(dir, "cmdline"))
		if err != nil || len(raw) == 0 {
			return
		}
		if ns, err := os.Readlink(filepath.Join(dir, "ns/pid")); err != nil || ns != ownNS || realUID(dir) != os.Geteuid() {
			return
		}
		args := strings.Split(string(bytes.TrimRight(raw, "\x00")), "\x00")
		if filepath.Base(args[0]) != "conmon" {
			return
		}
		var l leftover
		for i := 0; i+1 < len(args); i++ {
			switch args[i] {
			case "-n", "--name":
				l.name = args[i+1]
			case "-c", "--cid":
				l.id = args[i+1]
			}
		}
		if strings.HasPrefix(l.name, prefix) && containerIDRE.MatchString(l.id) {
			l.pid = pid
			found = append(found, l)
		}
	})
	return found
}

var containerIDRE = regexp.MustCompile(`^[0-9a-f]{64}$`)

// realUID is the real uid of the process whose /proc directory is dir,
// or -1.
func realUID(dir string) int {
	raw, err := os.ReadFile(filepath.Join(dir, "status"))
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[0] == "Uid:" {
			if uid, err := strconv.Atoi(f[1]); err == nil {
				return uid
			}
		}
	}
	return -1
}

// eachProcess calls f with each process's pid and /proc directory.
func eachProcess(f func(pid int, dir string)) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			f(pid, filepath.Join("/proc", e.Name()))
		}
	}
}

// childrenOf are the processes whose parent is pid.
func childrenOf(pid int) []int {
	var kids []int
	eachProcess(func(p int, dir string) {
		if f := statFields(dir); len(f) > 1 {
			if ppid, err := strconv.Atoi(f[1]); err == nil && ppid == pid {
				kids = append(kids, p)
			}
		}
	})
	return kids
}

// statFields are the fields of a process's stat after its name: state,
// ppid, ... (the name, in parentheses, may hold spaces and parentheses).
func statFields(dir string) []string {
	stat, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return nil
	}
	return strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
}

// runtimeLeftover is a container of this instance that the OCI runtime
// still keeps state for.
type runtimeLeftover struct {
	id, name string   // name: the container's, from nameAnnotation ("" before it was given)
	pid      int      // the container's first process (runc init until started), 0 if none
	start    uint64   // its start time, in clock ticks since boot (stat field 22)
	cgroups  []string // its cgroup directories
	stateDir string
}

// runtimeRoot is where the OCI runtime keeps its containers' state:
// runc's default for root (brokerd runs as root, D520), /run/runc, or
// /run/<name> for a runtime named by [runner] runtime.
func (r *Runner) runtimeRoot() string {
	name := "runc"
	if r.cfg.Runtime != "" {
		name = filepath.Base(r.cfg.Runtime)
	}
	return filepath.Join("/run", name)
}

// runcState is what the scan reads of runc's state.json.
type runcState struct {
	ID         string            `json:"id"`
	InitPID    int               `json:"init_process_pid"`
	InitStart  uint64            `json:"init_process_start"`
	CgroupPath map[string]string `json:"cgroup_paths"`
	Config     struct {
		Labels []string `json:"labels"`
	} `json:"config"`
}

// findRuntimeLeftovers reads the state of every container under root
// (runc's state.json, or crun's status) and returns those of instance. It trusts only a root directory that root
// owns and no one else can write (runc makes it 0700), so no one could
// plant a state that names another process.
func findRuntimeLeftovers(root, instance string) []runtimeLeftover {
	if !rootOnly(root) {
		return nil
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	want := instanceAnnotation + "=" + instance
	var found []runtimeLeftover
	for _, e := range ents {
		dir := filepath.Join(root, e.Name())
		raw, err := os.ReadFile(filepath.Join(dir, "state.json"))
		if err != nil {
			if l, ok := crunLeftover(dir, e.Name(), want); ok {
				found = append(found, l)
			}
			continue
		}
		var st runcState
		if json.Unmarshal(raw, &st) != nil || st.ID != e.Name() || !slices.Contains(st.Config.Labels, want) {
			continue
		}
		l := runtimeLeftover{id: st.ID, stateDir: dir}
		for _, lb := range st.Config.Labels {
			if v, ok := strings.CutPrefix(lb, nameAnnotation+"="); ok {
				l.name = v
			}
		}
		if st.InitPID > 0 && startTime(st.InitPID) == st.InitStart {
			l.pid, l.start = st.InitPID, st.InitStart
		}
		for _, p := range st.CgroupPath {
			// The container's own cgroup only, never a parent it shares.
			if strings.HasPrefix(p, "/sys/fs/cgroup/") && strings.Contains(filepath.Base(p), st.ID) && !slices.Contains(l.cgroups, p) {
				l.cgroups = append(l.cgroups, p)
			}
		}
		found = append(found, l)
	}
	return found
}

// crunStatus is what the scan reads of crun's state, <root>/<id>/status:
// crun keeps the container's annotations in its bundle's config.json.
type crunStatus struct {
	PID        int    `json:"pid"`
	Start      uint64 `json:"process-start-time"`
	CgroupPath string `json:"cgroup-path"` // under the cgroup root (v1: each controller's)
	Bundle     string `json:"bundle"`
}

// crunLeftover reads crun's state of the container id in dir and says
// whether it is one of the instance's (want is its annotation). The
// bundle (Podman's, in brokerd's root-only store) must be root's only
// too, so that no one could plant the annotations it names.
func crunLeftover(dir, id, want string) (runtimeLeftover, bool) {
	raw, err := os.ReadFile(filepath.Join(dir, "status"))
	if err != nil {
		return runtimeLeftover{}, false
	}
	var st crunStatus
	if json.Unmarshal(raw, &st) != nil || !filepath.IsAbs(st.Bundle) || !rootOnly(st.Bundle) {
		return runtimeLeftover{}, false
	}
	raw, err = os.ReadFile(filepath.Join(st.Bundle, "config.json"))
	if err != nil {
		return runtimeLeftover{}, false
	}
	var spec struct {
		Annotations map[string]string `json:"annotations"`
	}
	k, v, _ := strings.Cut(want, "=")
	if json.Unmarshal(raw, &spec) != nil || spec.Annotations[k] != v {
		return runtimeLeftover{}, false
	}
	l := runtimeLeftover{id: id, name: spec.Annotations[nameAnnotation], stateDir: dir}
	if st.PID > 0 && startTime(st.PID) == st.Start {
		l.pid, l.start = st.PID, st.Start
	}
	// The container's own cgroup only, never a parent it shares: in the
	// unified tree, or in v1's pids controller, which holds every process.
	if p := filepath.Clean("/" + st.CgroupPath); strings.Contains(filepath.Base(p), id) {
		for _, cg := range []string{filepath.Join("/sys/fs/cgroup", p), filepath.Join("/sys/fs/cgroup/pids", p)} {
			if _, err := os.Stat(filepath.Join(cg, "cgroup.procs")); err == nil {
				l.cgroups = append(l.cgroups, cg)
			}
		}
	}
	return l, true
}

// rootOnly reports whether dir is a directory of root's that only root
// can write.
func rootOnly(dir string) bool {
	var st unix.Stat_t
	if unix.Lstat(dir, &st) != nil {
		return false
	}
	return st.Mode&unix.S_IFMT == unix.S_IFDIR && st.Uid == 0 && st.Mode&0o022 == 0
}

// startTime is a process's start time in clock ticks since boot, or 0.
func startTime(pid int) uint64 {
	f := statFields(filepath.Join("/proc", strconv.Itoa(pid)))
	// After the name: state is field 3 of stat, starttime field 22.
	if len(f) < 20 {
		return 0
	}
	n, _ := strconv.ParseUint(f[19], 10, 64)
	return n
}

// processes are the live processes of a runtime leftover: its first
// process, if it still is the one the runtime started, and every process
// in its cgroups (none of which a container's process can leave).
func (l runtimeLeftover) processes() []int {
	var pids []int
	if l.pid > 0 && startTime(l.pid) == l.start {
		pids = append(pids, l.pid)
	}
	for _, cg := range l.cgroups {
		raw, err := os.ReadFile(filepath.Join(cg, "cgroup.procs"))
		if err != nil {
			continue
		}
		for _, w := range strings.Fields(string(raw)) {
			if pid, err := strconv.Atoi(w); err == nil && pid > 0 && !slices.Contains(pids, pid) {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// killLeftovers ends the leftover processes of this instance: each
// conmon's children (runc init, whose death ends the container's own
// processes, the first of its pid namespace) and then the conmon, by
// pid; then every process of a container the runtime still keeps state
// for, found by its state and cgroups (a runc init whose conmon is
// dead); then it asks the runtime and Podman to forget the containers.
// It returns the names (or, for a container known only to the runtime,
// "") and ids of the containers whose processes it ended.
func (r *Runner) killLeftovers(ctx context.Context) (names, ids []string) {
	return r.killContainers(ctx, "")
}

// killContainers is killLeftovers for every container of this instance
// (only "") or for the one container named only.
func (r *Runner) killContainers(ctx context.Context, only string) (names, ids []string) {
	var killed []int
	for _, l := range findLeftovers(NamePrefix(r.cfg.Instance)) {
		if only != "" && l.name != only {
			continue
		}
		for _, kid := range childrenOf(l.pid) {
			if r.isPodman(kid) {
				// conmon's exit command (`podman container cleanup`),
				// removing the container: killed halfway, it would lose
				// the container's lock (D741). It ends by itself.
				continue
			}
			syscall.Kill(kid, syscall.SIGKILL)
			killed = append(killed, kid)
		}
		syscall.Kill(l.pid, syscall.SIGKILL)
		killed = append(killed, l.pid)
		ids = append(ids, l.id)
		names = append(names, l.name)
	}
	runtime := findRuntimeLeftovers(r.runtimeRoot(), r.cfg.Instance)
	for _, l := range runtime {
		if only != "" && l.name != only {
			continue
		}
		for _, pid := range l.processes() {
			syscall.Kill(pid, syscall.SIGKILL)
			killed = append(killed, pid)
		}
		if !slices.Contains(ids, l.id) {
			ids = append(ids, l.id)
			names = append(names, "")
		}
	}
	// A process in an uninterruptible wait dies when it leaves it: wait
	// (a little) until every one is gone, or a zombie.
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range killed {
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	for _, id := range ids {
		if id == "" {
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, startGrace)
		exec.CommandContext(cctx, r.runtimeProgram(), "--root", r.runtimeRoot(), "delete", "--force", id).Run()
		cancel()
		for _, s := range r.stores() {
			r.podmanRemove(s, id)
		}
	}
	return names, ids
}

// isPodman reports whether pid runs the Podman program brokerd runs, in
// brokerd's own pid namespace (no container's process, whatever it
// execs, is in it).
func (r *Runner) isPodman(pid int) bool {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	own, _ := os.Readlink("/proc/self/ns/pid")
	if ns, err := os.Readlink(filepath.Join(dir, "ns/pid")); err != nil || ns != own {
		return false
	}
	path, err := exec.LookPath(r.cfg.Podman)
	if err != nil {
		return false
	}
	want, err := os.Stat(path)
	if err != nil {
		return false
	}
	got, err := os.Stat(filepath.Join(dir, "exe"))
	return err == nil && os.SameFile(want, got)
}

// runtimeProgram is the OCI runtime brokerd's Podman uses.
func (r *Runner) runtimeProgram() string {
	if r.cfg.Runtime != "" {
		return r.cfg.Runtime
	}
	return "runc"
}

// alive reports whether pid is a process that has not ended (a zombie has).
func alive(pid int) bool {
	f := statFields(filepath.Join("/proc", strconv.Itoa(pid)))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// Leftovers names the containers of instance whose conmon is running,
// whether Podman knows them or not, and (by id) those with a process
// that the runtime's state names: what CleanLeftovers would end. runtime
// is [runner] runtime ("": runc; RuntimeAuto: what it stands for here).
func Leftovers(instance, runtime string) []string {
	runtime, _ = resolveRuntime(runtime)
	r := &Runner{cfg: Config{Instance: instance, Runtime: runtime}}
	var names, ids []string
	for _, l := range findLeftovers(NamePrefix(instance)) {
		names = append(names, l.name)
		ids = append(ids, l.id)
	}
	for _, l := range findRuntimeLeftovers(r.runtimeRoot(), instance) {
		if len(l.processes()) > 0 && !slices.Contains(ids, l.id) {
			names = append(names, l.id)
		}
	}
	return names
}
