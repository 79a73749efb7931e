package runner

// Staging: how the container is given exactly the objects that were
// decided. Podman and the OCI runtime resolve a mount's source path
// themselves, half a second after the decision; a path in a directory the
// model can write may by then lead somewhere else (a parent swapped for a
// symbolic link). So no decided path is handed to Podman. The runner
// opens each decided path itself, from the root and refusing a symbolic
// link at every component (openat2 RESOLVE_NO_SYMLINKS), holds the
// descriptor, clones the mount of exactly that object (open_tree
// OPEN_TREE_CLONE) and attaches the clone at a fresh name in the call's
// staging directory, <stage dir>/<container name>/m<N>, which is
// brokerd's own (0700, outside every grant; nothing the model runs can
// reach it). Podman is given the staging path, which nothing but brokerd
// can change. Once the container has ended, the clones are detached and
// the staging directory removed.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"boxmaker/core/policy"
	"boxmaker/runbook"
)

// StageRoot holds every instance's staging directories: under /run,
// which a reboot empties, and outside every home, so that removing a
// home whose brokerd was killed mid-call never reaches through a staging
// mount into a granted directory.
const StageRoot = "/run/boxmaker-stage"

// StageDir is an instance's staging directory.
func StageDir(instance string) string { return filepath.Join(StageRoot, instance) }

// Mount is one mount of a call's container: Source, a staging path only
// brokerd can change, is shown at Dest, the path that was decided.
type Mount struct {
	Source   string
	Dest     string
	ReadOnly bool
}

// objectID is what a held object is, whatever its path.
type objectID struct{ dev, ino uint64 }

func (o objectID) String() string {
	return fmt.Sprintf("device %d:%d, inode %d", unix.Major(o.dev), unix.Minor(o.dev), o.ino)
}

// held is a decided path, open without having followed any link.
type held struct {
	path string
	fd   int
	st   unix.Stat_t
}

func (h held) id() objectID { return objectID{h.st.Dev, h.st.Ino} }

// HarnessRefusedText is what the model is told when a decided path leads
// to the harness's own files.
const HarnessRefusedText = "the target is part of the harness, which no tool is ever given"

// checkHarness refuses an object that is, contains or lies inside one of
// the harness's directories, judged by identity: the grants cannot name
// them (grants-invalid), but a path may still reach them another way (a
// bind mount made after the grants were read).
func (r *Runner) checkHarness(h *held) error {
	if r.cfg.Protected == nil {
		return nil
	}
	parent := -1
	if !h.isDir() {
		dir, err := hold(filepath.Dir(h.path))
		if err != nil {
			return targetChanged(h.path, "has no directory any more")
		}
		var st unix.Stat_t
		if unix.Fstatat(dir.fd, filepath.Base(h.path), &st, unix.AT_SYMLINK_NOFOLLOW) != nil || (objectID{st.Dev, st.Ino}) != h.id() {
			dir.close()
			return targetChanged(h.path, "is no longer in its directory")
		}
		parent = dir.fd // Object closes it
	}
	if hh, rel := r.cfg.Protected.Object(h.fd, parent); rel != "" {
		return runbook.WithCause(runbook.HarnessRefused, HarnessRefusedText, fmt.Errorf("%s %s %s (%s); the call was not run", h.path, rel, hh.What, hh.Path))
	}
	return nil
}

// HardLinkedText is what the model is told when a file tool's target has
// more than one link by the time the runner holds it.
const HardLinkedText = "the file has more than one link, which no grant allows"

// TargetChangedText is what the model is told when a decided path no
// longer leads to an object without passing a symbolic link.
const TargetChangedText = "the target changed after the decision"

// targetChanged is the refusal for a path that, since the decision, runs
// through a symbolic link (or is one): something replaced a directory or
// file of the grant while the call was on its way.
func targetChanged(path, what string) error {
	return runbook.WithCause(runbook.TargetChanged, TargetChangedText, fmt.Errorf("%s %s; the call was not run", path, what))
}

// openNoLinks opens a clean absolute path from the root without following
// a symbolic link at any component (nor a /proc magic link), as O_PATH:
// the object itself, whatever its permissions, with nothing read.
func openNoLinks(path string, flags int) (int, error) {
	for {
		fd, err := unix.Openat2(unix.AT_FDCWD, path, &unix.OpenHow{
			Flags:   uint64(unix.O_PATH | unix.O_CLOEXEC | flags),
			Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
			continue // a rename raced the walk; the kernel asks to retry
		}
		return fd, err
	}
}

// hold opens a decided path. A missing object is (nil, fs.ErrNotExist); a
// path that now runs through a link is target-changed.
func hold(path string) (*held, error) {
	fd, err := openNoLinks(path, 0)
	switch {
	case errors.Is(err, unix.ELOOP):
		return nil, targetChanged(path, "now runs through a symbolic link, or is one")
	case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENOTDIR):
		return nil, fs.ErrNotExist
	case err != nil:
		return nil, fmt.Errorf("cannot open %s: %w", path, err)
	}
	h := &held{path: path, fd: fd}
	if err := unix.Fstat(fd, &h.st); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("cannot stat %s: %w", path, err)
	}
	return h, nil
}

func (h *held) close() {
	if h != nil && h.fd >= 0 {
		unix.Close(h.fd)
		h.fd = -1
	}
}

func (h *held) isDir() bool     { return h.st.Mode&unix.S_IFMT == unix.S_IFDIR }
func (h *held) isRegular() bool { return h.st.Mode&unix.S_IFMT == unix.S_IFREG }

// created is a file write_file created on the host so that it alone can
// be mounted: its directory, held open, its name there and what it is, so
// that a call that did not run removes it by descriptor, and only if the
// name still holds that very file.
type created struct {
	dir  *held
	name string
	id   objectID
}

// remove unlinks the created file if its name in the held directory still
// names it.
func (c *created) remove() {
	var st unix.Stat_t
	if unix.Fstatat(c.dir.fd, c.name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || (objectID{st.Dev, st.Ino}) != c.id {
		return
	}
	unix.Unlinkat(c.dir.fd, c.name, 0)
}

// createTarget makes write_file's new file in its decided directory,
// opened without links, as the owner's, and holds it. exists reports a
// file that appeared meanwhile: the caller holds that one instead.
func createTarget(path string, uid, gid int) (h *held, c *created, exists bool, err error) {
	dirPath, name := filepath.Split(path)
	dir, err := hold(filepath.Clean(dirPath))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, false, targetChanged(path, "has no directory any more")
	}
	if err != nil {
		return nil, nil, false, err
	}
	if !dir.isDir() {
		dir.close()
		return nil, nil, false, targetChanged(path, "has no directory any more")
	}
	fd, err := unix.Openat(dir.fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
	if errors.Is(err, unix.EEXIST) {
		dir.close()
		return nil, nil, true, nil
	}
	if err != nil {
		dir.close()
		return nil, nil, false, fmt.Errorf("cannot create %s to write it: %w", path, err)
	}
	h = &held{path: path, fd: fd}
	c = &created{dir: dir, name: name}
	if err := unix.Fstat(fd, &h.st); err != nil {
		unix.Close(fd)
		dir.close()
		return nil, nil, false, err
	}
	c.id = h.id()
	// The owner's file, as if the owner had made it; the tool writes it
	// through the idmapped mount.
	if err := unix.Fchown(fd, uid, gid); err != nil {
		unix.Close(fd)
		c.remove()
		dir.close()
		return nil, nil, false, fmt.Errorf("cannot give %s to the owner: %w", path, err)
	}
	return h, c, false, nil
}

// idmapUserns makes a user namespace whose one mapping is the owner's uid
// and gid to the tool's, and returns a descriptor of it: the idmapping of
// every staged mount. Through such a mount the tool (running as tool)
// sees the owner's files as its own, and what it creates is stored as the
// owner's; every other owner on disk is unmapped to it, and it can create
// nothing as anyone else. The namespace needs a process to be made: one
// is started in it stopped at its exec (ptrace), never runs, and is
// killed once the namespace is held.
func idmapUserns(owner, ownerGID, tool int) (int, error) {
	// The process never runs; it stops at its exec. It execs this binary
	// through /proc/self/exe, not by its path: in the new namespace root
	// is unmapped and has no right to search the directories above a
	// binary in its owner's 0700 home (issue 25 item 1, D883).
	cmd := exec.Command("/proc/self/exe")
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER,
		Ptrace:      true,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: owner, HostID: tool, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: ownerGID, HostID: tool, Size: 1}},
	}
	if err := cmd.Start(); err != nil {
		return -1, fmt.Errorf("cannot make the tools' user namespace: %v", err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	fd, err := unix.Open("/proc/"+strconv.Itoa(cmd.Process.Pid)+"/ns/user", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("cannot hold the tools' user namespace: %v", err)
	}
	return fd, nil
}

// stage is one call's staging directory and what is attached in it.
type stage struct {
	idmap    int   // the owner-to-tool user namespace
	trees    []int // the attached clones' roots, for masks; closed at release
	empty    int   // an empty root-only file, what a hidden file shows (-1: none yet)
	dir      string
	attached []string // staging paths with a mount on them, in order
	held     []*held
	created  *created
	mounts   []Mount
	// Mounted says what each mount is, for the result record.
	mounted []string
}

// newStage makes the call's staging directory, root-only.
func (r *Runner) newStage(name string) (*stage, error) {
	if r.cfg.StageDir == "" {
		return nil, unavailable(nil, "the runner has no staging directory")
	}
	if err := os.MkdirAll(r.cfg.StageDir, 0o700); err != nil {
		return nil, unavailable(nil, fmt.Sprintf("cannot prepare the staging directory: %v", err))
	}
	// Each directory brokerd made, its own and 0700: nothing else may
	// reach a staging path.
	if err := os.Chmod(r.cfg.StageDir, 0o700); err != nil {
		return nil, unavailable(nil, fmt.Sprintf("cannot prepare the staging directory: %v", err))
	}
	dir := filepath.Join(r.cfg.StageDir, name)
	cleanStageDir(dir) // a killed brokerd's, for a call of the same id
	userns, err := r.idmap()
	if err != nil {
		return nil, unavailable(nil, err.Error())
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, unavailable(nil, fmt.Sprintf("cannot prepare the staging directory: %v", err))
	}
	return &stage{dir: dir, idmap: userns, empty: -1}, nil
}

// attach mounts a clone of exactly the held object at a fresh name in the
// staging directory and records the mount the container gets at dest.
func (s *stage) attach(h *held, dest string, readOnly bool) error {
	src := filepath.Join(s.dir, "m"+strconv.Itoa(len(s.attached)))
	var err error
	if h.isDir() {
		err = os.Mkdir(src, 0o700)
	} else {
		var f *os.File
		if f, err = os.OpenFile(src, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
			err = f.Close()
		}
	}
	if err != nil {
		return unavailable(nil, fmt.Sprintf("cannot prepare the staging directory: %v", err))
	}
	tree, err := unix.OpenTree(h.fd, "", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_EMPTY_PATH)
	if err != nil {
		return unavailable(nil, fmt.Sprintf("cannot clone the mount of %s: %v", h.path, err))
	}
	s.trees = append(s.trees, tree)
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV | unix.MOUNT_ATTR_IDMAP, Userns_fd: uint64(s.idmap)}
	if readOnly {
		attr.Attr_set |= unix.MOUNT_ATTR_RDONLY
	}
	if err := unix.MountSetattr(tree, "", unix.AT_EMPTY_PATH, &attr); err != nil {
		if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EPERM) {
			return unavailable(nil, fmt.Sprintf("cannot give the tool %s as the owner's: its file system does not take idmapped mounts (%v)", h.path, err))
		}
		return unavailable(nil, fmt.Sprintf("cannot set the mount of %s: %v", h.path, err))
	}
	if err := unix.MoveMount(tree, "", unix.AT_FDCWD, src, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
		return unavailable(nil, fmt.Sprintf("cannot attach the mount of %s: %v", h.path, err))
	}
	s.attached = append(s.attached, src)
	s.mounts = append(s.mounts, Mount{Source: src, Dest: dest, ReadOnly: readOnly})
	mode := "rw"
	if readOnly {
		mode = "ro"
	}
	s.mounted = append(s.mounted, fmt.Sprintf("%s (%s, %s)", dest, mode, h.id()))
	return nil
}

// release detaches every mount of the stage, removes the staging
// directory and closes what it held. Only brokerd can reach the staging
// directory, so its paths are its own.
func (s *stage) release() {
	for i := len(s.attached) - 1; i >= 0; i-- {
		unix.Unmount(s.attached[i], unix.MNT_DETACH)
	}
	os.RemoveAll(s.dir)
	for _, h := range s.held {
		h.close()
	}
	for _, t := range s.trees {
		unix.Close(t)
	}
	if s.empty >= 0 {
		unix.Close(s.empty)
	}
	if s.created != nil {
		s.created.dir.close()
	}
}

// cleanStageDir detaches whatever is mounted in a staging directory and
// removes it: a killed brokerd's leftovers.
func cleanStageDir(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		for unix.Unmount(p, unix.MNT_DETACH) == nil {
		}
		os.Remove(p)
	}
	os.Remove(dir)
}

// cleanStage removes every staging directory a killed brokerd left, with
// what is mounted in them, and returns their names.
func (r *Runner) cleanStage() []string {
	entries, err := os.ReadDir(r.cfg.StageDir)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		cleanStageDir(filepath.Join(r.cfg.StageDir, e.Name()))
		names = append(names, e.Name())
	}
	return names
}

// mountRoots are the paths that need a mount of their own: a path given
// twice, or lying inside another path of the call, is seen through that
// one (run's working directory, the first path, included).
func mountRoots(paths []string) []string {
	var roots []string
	for i, p := range paths {
		inside := false
		for j, q := range paths {
			if i != j && (q == p && j < i || q != p && strings.HasPrefix(p, q+"/")) {
				inside = true
			}
		}
		if !inside {
			roots = append(roots, p)
		}
	}
	return roots
}

// stageCall opens every decided path of c and attaches it in a new stage.
// A non-nil result is the tool's own answer with no container needed (a
// target that does not exist).
func (r *Runner) stageCall(c Call, name string) (*stage, *Result, error) {
	s, err := r.newStage(name)
	if err != nil {
		return nil, nil, err
	}
	ok := false
	defer func() {
		if !ok {
			s.release()
		}
	}()
	readOnly := c.Tool == string(policy.ReadFile) || c.Tool == string(policy.ListDir)
	for _, p := range mountRoots(c.Paths) {
		h, err := hold(p)
		if errors.Is(err, fs.ErrNotExist) && c.Tool == string(policy.WriteFile) {
			var exists bool
			var cr *created
			h, cr, exists, err = createTarget(p, r.cfg.OwnerUID, r.cfg.OwnerGID)
			if exists {
				h, err = hold(p)
			}
			if cr != nil {
				s.created = cr
			}
		}
		if errors.Is(err, fs.ErrNotExist) {
			// Podman cannot mount what is not there; that is the tool's
			// answer, not the runner's failure.
			return nil, &Result{Tool: c.Tool, Path: c.Paths[0], Error: fmt.Sprintf("open %s: no such file or directory", p)}, nil
		}
		if err != nil {
			return nil, nil, err
		}
		s.held = append(s.held, h)
		switch {
		case c.Tool == string(policy.WriteFile) && !h.isRegular():
			return nil, nil, fmt.Errorf("%s is not a regular file; write_file writes regular files only", p)
		case c.Tool == string(policy.YaagSetupWorkspace) && !h.isDir():
			return nil, &Result{Tool: c.Tool, Path: c.Paths[0], Error: fmt.Sprintf("%s is not a directory", p)}, nil
		case !h.isRegular() && !h.isDir():
			// A FIFO would block the tool, a device is not the owner's data.
			return nil, &Result{Tool: c.Tool, Path: c.Paths[0], Error: fmt.Sprintf("%s is not a regular file or a directory", p)}, nil
		}
		if err := r.checkHarness(h); err != nil {
			return nil, nil, err
		}
		if (c.Tool == string(policy.ReadFile) || c.Tool == string(policy.WriteFile)) && h.isRegular() && h.st.Nlink > 1 && !c.AllowHardLinks {
			return nil, nil, runbook.WithCause(runbook.HardLinkRefused, HardLinkedText, fmt.Errorf("%s has %d links now; the call was not run", p, h.st.Nlink))
		}
		if err := s.attach(h, p, readOnly); err != nil {
			return nil, nil, err
		}
		if c.Tool == string(policy.Run) && h.isDir() {
			if err := s.maskUnder(s.trees[len(s.trees)-1], p, c.Masks); err != nil {
				return nil, nil, err
			}
		}
	}
	ok = true
	return s, nil, nil
}
