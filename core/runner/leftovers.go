package runner

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A brokerd killed while a `podman run` was starting a container can
// leave that container's conmon and its `runc init` running after Podman
// has forgotten the container: `podman rm` then finds nothing to remove.
// What names them is conmon's command line, which carries the container's
// name (-n) and id (-c); every name of this instance begins with
// NamePrefix(instance), so the scan finds this home's processes only,
// never another home's or another program's.

// leftover is a conmon process of one of this instance's containers.
type leftover struct {
	pid      int
	name, id string
}

// findLeftovers scans /proc for conmon processes whose container name
// begins with prefix.
func findLeftovers(prefix string) []leftover {
	var found []leftover
	eachProcess(func(pid int, dir string) {
		raw, err := os.ReadFile(filepath.Join(dir, "cmdline"))
		if err != nil || len(raw) == 0 {
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
		if strings.HasPrefix(l.name, prefix) {
			l.pid = pid
			found = append(found, l)
		}
	})
	return found
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

// killLeftovers ends the leftover processes of this instance: each
// conmon's children (runc init, whose death ends the container's own
// processes, the first of its pid namespace) and then the conmon, by
// pid; then it asks the runtime and Podman to forget the container. It
// returns the names of the containers whose processes it ended.
func (r *Runner) killLeftovers(ctx context.Context) []string {
	var names []string
	var killed []int
	for _, l := range findLeftovers(NamePrefix(r.cfg.Instance)) {
		for _, kid := range childrenOf(l.pid) {
			syscall.Kill(kid, syscall.SIGKILL)
			killed = append(killed, kid)
		}
		syscall.Kill(l.pid, syscall.SIGKILL)
		killed = append(killed, l.pid)
		if l.id != "" {
			cctx, cancel := context.WithTimeout(ctx, startGrace)
			if r.cfg.Runtime != "" {
				exec.CommandContext(cctx, r.cfg.Runtime, "delete", "--force", l.id).Run()
			}
			exec.CommandContext(cctx, r.cfg.Podman, "rm", "-f", "-i", "-t", "0", l.id).Run()
			cancel()
		}
		names = append(names, l.name)
	}
	// A process in an uninterruptible wait dies when it leaves it: wait
	// (a little) until every one is gone, or a zombie.
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range killed {
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	return names
}

// alive reports whether pid is a process that has not ended (a zombie has).
func alive(pid int) bool {
	f := statFields(filepath.Join("/proc", strconv.Itoa(pid)))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// Leftovers names the containers of instance whose conmon is running,
// whether Podman knows them or not: what CleanLeftovers would end.
func Leftovers(instance string) []string {
	var names []string
	for _, l := range findLeftovers(NamePrefix(instance)) {
		names = append(names, l.name)
	}
	return names
}
