// Package openat2 opens a path with openat2(2), trying again while the
// kernel asks to: the one loop brokerd's write_file diff (core/broker)
// and a confined Run's reads (core/yaag/snapshot) share.
package openat2

import (
	"errors"

	"golang.org/x/sys/unix"
)

// Open opens path relative to the descriptor dir (or unix.AT_FDCWD) with
// flags (O_CLOEXEC is added) and resolve (unix.RESOLVE_*). EAGAIN, which
// openat2 returns when a rename elsewhere raced its walk under
// RESOLVE_BENEATH or RESOLVE_IN_ROOT, and EINTR are tried again.
func Open(dir int, path string, flags, resolve uint64) (int, error) {
	for {
		fd, err := unix.Openat2(dir, path, &unix.OpenHow{Flags: flags | unix.O_CLOEXEC, Resolve: resolve})
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR) {
			continue
		}
		return fd, err
	}
}
