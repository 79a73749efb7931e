package runner

// One cgroup parent for all of brokerd's containers. [runner] cpus and
// memory_mb bound one container; the model runs several sessions and
// races, so up to a slot per call of them, with MCP servers and yaag
// Runs beside, would each take as much. Every container the runner
// starts, on both routes, is given the parent (Podman's --cgroup-parent,
// the service spec's cgroup_parent), whose limits are [runner]
// total_cpus and total_memory_mb, written by brokerd itself.
//
// Podman 4.3's cgroupfs manager puts a container in
// <controller>/<parent>/libpod-<id> and its conmon in
// <controller>/<parent>/conmon, making what is missing in every
// controller; on cgroup v1 the kernel refuses a child a CFS quota above
// its parent's, so a container's quota is never above the total
// (containerCPUs). The parent's directories in the cpu, cpuacct and
// memory controllers are brokerd's: it makes them, writes their limits
// relative to the opened directory, and records what they are (device
// and inode) in CgroupRecord, so that a directory of that name it did
// not make is refused, not adopted.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

var cgroupSetUp sync.Mutex

// CgroupRoot is where the host's cgroup file systems are mounted.
const CgroupRoot = "/sys/fs/cgroup"

// CgroupRecordFor is where an instance's record of its cgroup parent is
// kept: beside its staging directory, root's.
func CgroupRecordFor(instance string) string {
	return filepath.Join(StageRoot, instance+".cgroup")
}

// CgroupParent is the cgroup parent of an instance's containers, as
// Podman is given it: "/boxmaker-<8 hex>", the containers' name prefix.
func CgroupParent(instance string) string {
	return "/" + strings.TrimSuffix(NamePrefix(instance), "-")
}

// cgroupControllers are the cgroup v1 controllers brokerd makes the
// parent in and writes limits to; the others Podman makes.
var cgroupControllers = []string{"cpu", "cpuacct", "memory"}

// cgroupSuperMagic is a cgroup v1 file system's f_type.
const cgroupSuperMagic = 0x27e0eb

// containerCPUs is the CPU limit of one container asked for cpus: never
// above the total, which the kernel would refuse a child of the parent.
func (r *Runner) containerCPUs(cpus float64) float64 {
	if r.parent == "" {
		return cpus
	}
	return min(cpus, r.cfg.TotalCPUs)
}

// cgroupArgs are podman's flags putting a container under the parent.
func (r *Runner) cgroupArgs() []string {
	if r.parent == "" {
		return nil
	}
	return []string{"--cgroup-parent", r.parent}
}

// noParentHere says why this host is one where brokerd makes no parent,
// or "": a cgroup v2 hierarchy under root, or Podman managing cgroups
// with systemd (which takes a parent only as a slice): the parent is
// built and tested on cgroup v1 with the cgroupfs manager only (D1139,
// D1140). confs are the containers.conf files Podman reads, init
// process 1's comm.
func noParentHere(root string, confs func() ([]string, error), init string) string {
	if root == "" {
		return ""
	}
	if _, err := os.Stat(filepath.Join(root, "cgroup.controllers")); err == nil {
		return root + " is a cgroup v2 (unified) hierarchy"
	}
	files, err := confs()
	if err != nil {
		return ""
	}
	if m, err := podmanCgroupManager(files, init); err == nil && m != "cgroupfs" {
		return "Podman manages cgroups with " + m + " here, which takes a parent only as a slice"
	}
	return ""
}

// NoCgroupParent says why the runner's containers run under no common
// parent, each under its own limits alone, or "" when they have one.
func (r *Runner) NoCgroupParent() string { return r.noParent }

// cgroupProblem says why no container may start under the parent, or "".
func (r *Runner) cgroupProblem() string {
	if r.noParent != "" {
		return ""
	}
	if r.parentRefused != "" {
		return r.parentRefused
	}
	if r.cfg.CgroupRoot == "" {
		return "the runner has no cgroup parent for its containers ([runner] total_cpus, total_memory_mb)"
	}
	made, err := r.cgroup()
	if err != nil {
		return err.Error()
	}
	return cgroupParentGone(r.cfg.CgroupRoot, r.parent, made)
}

// CgroupParent is the cgroup parent of the runner's containers.
func (r *Runner) CgroupParent() string { return r.parent }

// RemoveCgroupParent removes the parent when brokerd stops, when nothing
// runs below it any more and it is still the one brokerd made: its
// conmon cgroup and itself in every controller Podman made it in. One
// still in use (a container, a conmon, a `bxctl mcp tools` of this
// instance) is left, as a killed brokerd's is: the next start takes it
// back by its record.
func (r *Runner) RemoveCgroupParent() {
	if r.noParent != "" {
		return
	}
	made, err := r.cgroup()
	if err != nil || r.cfg.CgroupRoot == "" || cgroupParentGone(r.cfg.CgroupRoot, r.parent, made) != "" {
		return
	}
	cgroupSetUp.Lock()
	defer cgroupSetUp.Unlock()
	dirs, _ := filepath.Glob(filepath.Join(r.cfg.CgroupRoot, "*", r.parent))
	for _, d := range dirs {
		// rmdir refuses a cgroup with a process or a child in it.
		unix.Rmdir(filepath.Join(d, "conmon"))
		unix.Rmdir(d)
	}
}

// PrepareCgroupParent makes the parent of brokerd's containers and
// writes its limits, once; brokerd calls it at start, under its lock,
// and every container's start waits for it (ready).
func (r *Runner) PrepareCgroupParent() error {
	if why := r.cgroupProblem(); why != "" {
		return errors.New(why)
	}
	return nil
}

// setUpCgroupParent makes the parent in each controller under root,
// or takes back the one the record says it made, and writes its limits;
// it records what it made. Any failure is returned: no container runs
// without the parent (ready).
func setUpCgroupParent(root, parent, record string, cpus float64, memoryMB int) ([]objectID, error) {
	// One runner at a time: another's directory, made a moment ago, is
	// not yet in the record.
	cgroupSetUp.Lock()
	defer cgroupSetUp.Unlock()
	if _, err := os.Stat(filepath.Join(root, "cgroup.controllers")); err == nil {
		return nil, fmt.Errorf("%s is a cgroup v2 (unified) hierarchy: brokerd sets its containers' cgroup parent (total_cpus, total_memory_mb) on cgroup v1 only, and runs no container without the total it was given (remove total_cpus and total_memory_mb to run each container under its own limits alone)", root)
	}
	known, err := readCgroupRecord(record)
	if err != nil {
		return nil, err
	}
	name := strings.TrimPrefix(parent, "/")
	var seen []objectID
	for _, ctl := range cgroupControllers {
		id, err := setUpCgroupDir(filepath.Join(root, ctl), name, known, seen, cpus, memoryMB, ctl)
		if err != nil {
			return nil, fmt.Errorf("the cgroup parent %s of brokerd's containers in %s: %w", parent, filepath.Join(root, ctl), err)
		}
		seen = append(seen, id)
	}
	return seen, writeCgroupRecord(record, seen)
}

// cgroupParentGone says which of the parent's directories is no longer
// the one brokerd made (removed, or made again by another), or "": a
// container started under a parent Podman makes anew would have no
// limit.
func cgroupParentGone(root, parent string, made []objectID) string {
	for i, ctl := range cgroupControllers {
		p := filepath.Join(root, ctl, parent)
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil || (objectID{dev: st.Dev, ino: st.Ino}) != made[i] {
			return fmt.Sprintf("the cgroup parent %s of brokerd's containers is no longer the one brokerd made and limited (restart brokerd to make it again)", p)
		}
	}
	return ""
}

// setUpCgroupDir makes (or takes back) name in the controller's
// directory and writes the limit of ctl there. It is brokerd's own when
// it made it now, or when known (the record) or seen (a controller
// mounted with another, cpu,cpuacct) holds its identity.
func setUpCgroupDir(ctlDir, name string, known, seen []objectID, cpus float64, memoryMB int, ctl string) (objectID, error) {
	cfd, err := unix.Open(ctlDir, unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return objectID{}, err
	}
	defer unix.Close(cfd)
	made := unix.Mkdirat(cfd, name, 0o755) == nil
	fd, err := unix.Openat(cfd, name, unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		return objectID{}, fmt.Errorf("%s is a link or not a directory: brokerd uses only a cgroup it made", name)
	}
	if err != nil {
		return objectID{}, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	var fs unix.Statfs_t
	if err := unix.Fstat(fd, &st); err != nil {
		return objectID{}, err
	}
	if err := unix.Fstatfs(fd, &fs); err != nil {
		return objectID{}, err
	}
	id := objectID{dev: st.Dev, ino: st.Ino}
	switch {
	case fs.Type != cgroupSuperMagic:
		return objectID{}, fmt.Errorf("%s is not on a cgroup v1 file system", name)
	case !made && !containsID(known, id) && !containsID(seen, id):
		return objectID{}, fmt.Errorf("%s exists and is not brokerd's own (brokerd did not make it, and its record of the one it made names another): remove it with rmdir if nothing uses it", name)
	}
	var writes [][2]string
	switch ctl {
	case "cpu":
		writes = [][2]string{{"cpu.cfs_period_us", strconv.Itoa(cpuPeriod)}, {"cpu.cfs_quota_us", strconv.FormatInt(CPUQuota(cpus), 10)}}
	case "memory":
		if b, err := readAt(fd, "memory.use_hierarchy"); err != nil || string(bytes.TrimSpace(b)) != "1" {
			return objectID{}, fmt.Errorf("memory.use_hierarchy is not 1 (%q, %v): the limit would not hold the containers below it", bytes.TrimSpace(b), err)
		}
		limit := strconv.FormatInt(int64(memoryMB)<<20, 10)
		writes = [][2]string{{"memory.limit_in_bytes", limit}}
		// Swap too, where the kernel accounts it: the containers'
		// memory_mb includes swap.
		if _, err := readAt(fd, "memory.memsw.limit_in_bytes"); err == nil {
			writes = append(writes, [2]string{"memory.memsw.limit_in_bytes", limit})
		}
	}
	for _, w := range writes {
		if err := writeAt(fd, w[0], w[1]); err != nil {
			return objectID{}, fmt.Errorf("cannot write its limit %s = %s: %w", w[0], w[1], err)
		}
		if b, err := readAt(fd, w[0]); err != nil || string(bytes.TrimSpace(b)) != w[1] {
			return objectID{}, fmt.Errorf("its limit %s reads %q after brokerd wrote %s (%v)", w[0], bytes.TrimSpace(b), w[1], err)
		}
	}
	return id, nil
}

func containsID(ids []objectID, id objectID) bool {
	for _, k := range ids {
		if k == id {
			return true
		}
	}
	return false
}

// writeAt writes value to the file name of the directory dir, never
// through a link.
func writeAt(dir int, name, value string) error {
	fd, err := unix.Openat(dir, name, unix.O_WRONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	_, err = unix.Write(fd, []byte(value))
	return err
}

// readAt reads the small file name of the directory dir.
func readAt(dir int, name string) ([]byte, error) {
	fd, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	b := make([]byte, 64)
	n, err := unix.Read(fd, b)
	if err != nil {
		return nil, err
	}
	return b[:n], nil
}

// readCgroupRecord reads the identities a record holds, one
// "<dev> <ino>" a line; no record is none.
func readCgroupRecord(path string) ([]objectID, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the record of brokerd's cgroup parent: %w", err)
	}
	var ids []objectID
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var id objectID
		if _, err := fmt.Sscanf(l, "%d %d", &id.dev, &id.ino); err != nil {
			return nil, fmt.Errorf("the record of brokerd's cgroup parent %s: line %q: %v", path, l, err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// writeCgroupRecord replaces the record with ids, 0600 in a root-only
// directory.
func writeCgroupRecord(path string, ids []objectID) error {
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, "%d %d\n", id.dev, id.ino)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("the record of brokerd's cgroup parent: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("the record of brokerd's cgroup parent: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("the record of brokerd's cgroup parent: %w", err)
	}
	return nil
}
