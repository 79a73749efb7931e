package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// MaxSocketPath is the longest unix socket path the kernel takes: sun_path
// holds 108 bytes with the final NUL.
const MaxSocketPath = 107

// Listen prepares a socket's directory and binds the socket. Holding lock
// is the proof that this process may remove a stale socket at path: only
// the lock holder does. The directory is the socket's own, made 0700; the
// socket is made 0600. Errors are the texts of the start-failed entries,
// for the role to wrap with its own entry.
func Listen(lock *Lock, path string) (*net.UnixListener, error) {
	return listen(lock, path, false)
}

// ListenShared is Listen for a socket whose daemon's config allows other
// users (allow_uids): the directory is 0711 and the socket 0666, so that
// those users can connect at all, and the peer check (SO_PEERCRED) is what
// admits them. What keeps everyone else from the door is the directory
// above, the home's run/, which init makes 0750 for the owner's group
// (D880); a peer that gets in anyway is refused by uid.
func ListenShared(lock *Lock, path string) (*net.UnixListener, error) {
	return listen(lock, path, true)
}

func listen(lock *Lock, path string, shared bool) (*net.UnixListener, error) {
	dirMode, sockMode := os.FileMode(0o700), os.FileMode(0o600)
	if shared {
		dirMode, sockMode = 0o711, 0o666
	}
	if lock == nil {
		return nil, errors.New("daemon.Listen needs the daemon's lock")
	}
	if len(path) > MaxSocketPath {
		return nil, fmt.Errorf("cannot listen on %s: path must be shorter than SUN_LEN (%d bytes, at most %d)", path, len(path), MaxSocketPath)
	}
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("cannot prepare %s: a socket path must be absolute", path)
	}
	if err := prepareDir(path, dirMode); err != nil {
		return nil, err
	}
	if err := removeStale(path); err != nil {
		return nil, err
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("cannot listen on %s: %w", path, syscallError(err))
	}
	// Close must not unlink: a later lock holder removes what is stale, and
	// unlinking here could remove a socket a newer daemon bound meanwhile.
	ln.SetUnlinkOnClose(false)
	if err := os.Chmod(path, sockMode); err != nil {
		ln.Close()
		return nil, fmt.Errorf("cannot listen on %s: %w", path, syscallError(err))
	}
	return ln, nil
}

// prepareDir makes the socket's directory, or checks the existing one, and
// sets it to 0700. The directory must be the socket's own and real.
func prepareDir(path string, mode os.FileMode) error {
	dir := filepath.Dir(path)
	if dir == "/" {
		return fmt.Errorf("cannot prepare %s: a socket needs a directory of its own, not /", path)
	}
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("cannot prepare %s: %w", dir, syscallError(err))
		}
		fi, err = os.Lstat(dir)
		if err != nil {
			return fmt.Errorf("cannot prepare %s: %w", dir, syscallError(err))
		}
	case err != nil:
		return fmt.Errorf("cannot prepare %s: %w", dir, syscallError(err))
	}
	if !fi.IsDir() {
		return fmt.Errorf("cannot prepare %s: is a symbolic link or not a directory", dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("cannot prepare %s: it is owned by uid %d, not by uid %d that this daemon runs as", dir, st.Uid, os.Geteuid())
	}
	if err := os.Chmod(dir, mode); err != nil {
		return fmt.Errorf("cannot prepare %s: %w", dir, syscallError(err))
	}
	return nil
}

// removeStale removes a socket left behind by a daemon that is gone. A
// socket something still answers on is in use; anything that is not a
// socket is not ours to remove.
func removeStale(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", path, syscallError(err))
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("cannot listen on %s: a file that is not a socket is in the way", path)
	}
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return fmt.Errorf("cannot listen on %s: address already in use (something still listens there)", path)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot listen on %s: removing the stale socket: %w", path, syscallError(err))
	}
	return nil
}

// syscallError strips Go's op and path decoration, which the message
// already says, and keeps the system's words.
func syscallError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		var se *os.SyscallError
		if errors.As(oe.Err, &se) {
			return se.Err
		}
		return oe.Err
	}
	return err
}
