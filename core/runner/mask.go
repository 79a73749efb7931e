package runner

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"boxmaker/core/policy"
	"boxmaker/runbook"
)

// UnmaskableText is what the model is told when a path a deny grant covers
// below run's directory cannot be kept from the tool.
const UnmaskableText = "a path a grant denies below this directory cannot be kept from the tool"

func unmaskable(m policy.Mask, what string) error {
	return runbook.WithCause(runbook.DenyUnmaskable, UnmaskableText, fmt.Errorf("%s (denied to %s by %s) %s; the call was not run", m.Path, m.Tool, m.Grant, what))
}

// openBeneath opens rel below the directory open as dir, refusing links
// and any way out of it.
func openBeneath(dir int, rel string, flags int) (int, error) {
	for {
		fd, err := unix.Openat2(dir, rel, &unix.OpenHow{
			Flags:   uint64(unix.O_PATH | unix.O_CLOEXEC | flags),
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
			continue
		}
		return fd, err
	}
}

// maskUnder keeps the masked paths below one attached run mount (tree, at
// dest) from the tool, in the staging clone itself and by descriptor, so
// no path is looked up again by Podman or the runtime: a hidden directory
// gets an empty read-only tmpfs over it, a hidden file an empty unreadable
// file, a path denied only to write_file a read-only clone of itself. Each
// directory between dest and a mask is bound onto itself first, so that
// in the container it is a mount point, which cannot be renamed away from
// the mask. A hidden path that does not exist has nothing to hide; one
// that must stay read-only and does not exist could be created, and the
// call is refused, as it is when the path runs through a link.
func (s *stage) maskUnder(tree int, dest string, masks []policy.Mask) error {
	pinned := map[string]bool{}
	var hidden []string
	for _, m := range masks {
		if m.Path == dest || !strings.HasPrefix(m.Path, dest+"/") {
			continue
		}
		covered := false
		for _, h := range hidden {
			covered = covered || strings.HasPrefix(m.Path, h+"/")
		}
		if covered {
			continue
		}
		rel := m.Path[len(dest)+1:]
		parts := strings.Split(rel, "/")
		absent := false
		for i := 1; i < len(parts) && !absent; i++ {
			a := strings.Join(parts[:i], "/")
			if pinned[a] {
				continue
			}
			fd, err := openBeneath(tree, a, unix.O_DIRECTORY)
			switch {
			case errors.Is(err, unix.ENOENT):
				absent = true
				continue
			case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR), errors.Is(err, unix.EXDEV):
				return unmaskable(m, "runs through a symbolic link or a file")
			case err != nil:
				return unmaskable(m, fmt.Sprintf("cannot be opened (%v)", err))
			}
			err = s.bindOnto(fd, fd, 0)
			unix.Close(fd)
			if err != nil {
				return unmaskable(m, fmt.Sprintf("cannot be pinned (%v)", err))
			}
			pinned[a] = true
		}
		fd := -1
		if !absent {
			var err error
			fd, err = openBeneath(tree, rel, 0)
			switch {
			case errors.Is(err, unix.ENOENT):
				absent = true
			case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR), errors.Is(err, unix.EXDEV):
				return unmaskable(m, "runs through a symbolic link, or is one")
			case err != nil:
				return unmaskable(m, fmt.Sprintf("cannot be opened (%v)", err))
			}
		}
		if absent {
			if !m.Hide {
				return unmaskable(m, "does not exist, so run could create it")
			}
			s.mounted = append(s.mounted, fmt.Sprintf("%s absent (%s: %s)", m.Path, m.Grant, m.Tool))
			continue
		}
		err := s.maskOne(fd, m)
		unix.Close(fd)
		if err != nil {
			return err
		}
		if m.Hide {
			hidden = append(hidden, m.Path)
		}
	}
	return nil
}

// maskOne puts one mask on the object open as fd.
func (s *stage) maskOne(fd int, m policy.Mask) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return unmaskable(m, fmt.Sprintf("cannot be looked at (%v)", err))
	}
	isDir := st.Mode&unix.S_IFMT == unix.S_IFDIR
	var err error
	what := "read-only"
	switch {
	case !m.Hide:
		err = s.bindOnto(fd, fd, unix.MOUNT_ATTR_RDONLY)
	case isDir:
		what = "hidden"
		err = hideDir(fd)
	case st.Mode&unix.S_IFMT == unix.S_IFREG:
		what = "hidden"
		var empty int
		if empty, err = s.emptyFile(); err == nil {
			err = s.bindOnto(empty, fd, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOEXEC)
		}
	default:
		return unmaskable(m, "is neither a file nor a directory")
	}
	if err != nil {
		return unmaskable(m, fmt.Sprintf("cannot be masked (%v)", err))
	}
	s.mounted = append(s.mounted, fmt.Sprintf("%s %s (%s: %s)", m.Path, what, m.Grant, m.Tool))
	return nil
}

// bindOnto clones the mount of the object open as from onto the object
// open as onto, with attrs set on the clone (on top of what it inherits:
// idmapping, nosuid, nodev).
func (s *stage) bindOnto(from, onto int, attrs uint64) error {
	t, err := unix.OpenTree(from, "", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_EMPTY_PATH)
	if err != nil {
		return err
	}
	defer unix.Close(t)
	if attrs != 0 {
		if err := unix.MountSetattr(t, "", unix.AT_EMPTY_PATH, &unix.MountAttr{Attr_set: attrs}); err != nil {
			return err
		}
	}
	return unix.MoveMount(t, "", onto, "", unix.MOVE_MOUNT_F_EMPTY_PATH|unix.MOVE_MOUNT_T_EMPTY_PATH)
}

// hideDir mounts an empty read-only tmpfs on the directory open as fd.
func hideDir(fd int) error {
	fs, err := unix.Fsopen("tmpfs", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return err
	}
	defer unix.Close(fs)
	for k, v := range map[string]string{"mode": "0555", "size": "4k", "nr_inodes": "1"} {
		if err := unix.FsconfigSetString(fs, k, v); err != nil {
			return err
		}
	}
	if err := unix.FsconfigCreate(fs); err != nil {
		return err
	}
	m, err := unix.Fsmount(fs, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV|unix.MOUNT_ATTR_NOEXEC)
	if err != nil {
		return err
	}
	defer unix.Close(m)
	return unix.MoveMount(m, "", fd, "", unix.MOVE_MOUNT_F_EMPTY_PATH|unix.MOVE_MOUNT_T_EMPTY_PATH)
}

// emptyFile is an empty file of the stage's, mode 0: what a hidden file
// is in the container (it cannot even be read).
func (s *stage) emptyFile() (int, error) {
	if s.empty >= 0 {
		return s.empty, nil
	}
	fd, err := unix.Open(filepath.Join(s.dir, "empty"), unix.O_RDONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	s.empty = fd
	return fd, nil
}
