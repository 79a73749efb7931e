package policy

import (
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"boxmaker/core/patherror"
)

// resolved is a call's target after cleaning and resolution.
type resolved struct {
	target string // what the runner acts on; "" when the call must be denied
	// match is what grants are matched against: the target, or when it
	// could not be resolved, the best approximation (so that the reason
	// given does not reveal whether an ungranted path exists).
	match  string
	reason string // why target is "", in words for the model
}

// resolvePath cleans a path target and resolves every symlink with the
// host's file system. For write_file a file that does not exist yet
// resolves through its directory; a dangling link in its place does not.
func resolvePath(tool Tool, raw string) resolved {
	switch {
	case raw == "":
		return resolved{reason: "the target is empty"}
	case strings.IndexByte(raw, 0) >= 0:
		return resolved{reason: "the target has a NUL byte"}
	case !utf8.ValidString(raw):
		return resolved{reason: "the target is not valid UTF-8"}
	case !strings.HasPrefix(raw, "/"):
		return resolved{reason: "the target is not an absolute path"}
	}
	clean := filepath.Clean(raw)
	real, err := realPath(clean)
	if err == nil {
		return resolved{target: real, match: real}
	}
	partial := resolveExisting(clean)
	if !missing(err) {
		return resolved{match: partial, reason: "the target cannot be resolved: " + patherror.Reason(err).Error()}
	}
	if tool == WriteFile {
		dir, base := filepath.Split(clean)
		realDir, derr := realPath(dir)
		if derr == nil {
			target := filepath.Join(realDir, base)
			_, lerr := os.Lstat(target)
			switch {
			case errors.Is(lerr, fs.ErrNotExist):
				return resolved{target: target, match: target}
			case lerr == nil:
				return resolved{match: target, reason: "the target is a symbolic link that leads nowhere"}
			}
		}
		return resolved{match: partial, reason: "the target's directory does not exist"}
	}
	return resolved{match: partial, reason: "the target does not exist"}
}

// realPath resolves every symlink of a clean absolute path, as
// filepath.EvalSymlinks does, in a constant number of system calls
// whatever the depth (system calls are the whole cost of a decision).
// First the kernel opens the path refusing any symlink on the way
// (openat2 RESOLVE_NO_SYMLINKS): if that works the path is its own
// resolution, which is the common case. Otherwise it opens the path
// following links (O_PATH: no permission on the file itself is needed,
// and a FIFO does not block) and /proc names what it opened. Without
// openat2 or /proc it walks the path as EvalSymlinks does.
func realPath(p string) (string, error) {
	if !noOpenat2.Load() {
		fd, err := unix.Openat2(unix.AT_FDCWD, p, &unix.OpenHow{
			Flags:   unix.O_PATH | unix.O_CLOEXEC,
			Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
		switch {
		case err == nil:
			unix.Close(fd)
			return p, nil
		case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENOTDIR):
			// Missing, unless a link on the way leads elsewhere: the
			// walk below tells.
		case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EPERM):
			noOpenat2.Store(true) // an old kernel, or a seccomp filter
		}
	}
	procFD := procSelfFD()
	if procFD < 0 {
		return filepath.EvalSymlinks(p)
	}
	fd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", &fs.PathError{Op: "open", Path: p, Err: err}
	}
	defer unix.Close(fd)
	var buf [unix.PathMax]byte
	n, err := unix.Readlinkat(procFD, strconv.Itoa(fd), buf[:])
	if err != nil || n == 0 || n == len(buf) || buf[0] != '/' {
		return filepath.EvalSymlinks(p)
	}
	return string(buf[:n]), nil
}

var noOpenat2 atomic.Bool

var procSelfFD = sync.OnceValue(func() int {
	fd, err := unix.Open("/proc/self/fd", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1
	}
	return fd
})

// resolveExisting resolves the longest part of p that exists and appends
// the rest as written.
func resolveExisting(p string) string {
	rest := ""
	for dir := p; ; {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return p
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}

func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// underPath reports whether target is the grant path or inside it,
// component by component: /src covers /src and /src/a, not /src-evil.
func underPath(target, grant string) bool {
	return target == grant || (len(target) > len(grant) && target[len(grant)] == '/' && target[:len(grant)] == grant)
}

// resolveURL normalises an http_fetch target: http or https, a DNS host in
// ASCII (lower-cased: DNS names are not case-sensitive), no user info, no
// port but the scheme's own. The host is what grants match.
func resolveURL(raw string) resolved {
	if strings.IndexByte(raw, 0) >= 0 || !utf8.ValidString(raw) {
		return resolved{reason: "the URL is not valid text"}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return resolved{reason: "the URL cannot be parsed"}
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return resolved{reason: "only http and https URLs can be fetched"}
	}
	if u.User != nil {
		return resolved{reason: "the URL has user information"}
	}
	host := u.Hostname()
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			return resolved{reason: "the URL's host is not ASCII: write it in its xn-- form"}
		}
	}
	host = asciiLower(host)
	if hostProblem(host) != "" {
		return resolved{reason: "the URL's host is not a DNS name"}
	}
	switch port := u.Port(); {
	case port == "":
	case u.Scheme == "http" && port == "80", u.Scheme == "https" && port == "443":
	default:
		return resolved{reason: "grants cover a host's default port only"}
	}
	u.Host = host
	return resolved{target: u.String(), match: host}
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
