package policy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"

	"boxmaker/core/patherror"
	"boxmaker/runbook"
)

// maxGrantSize bounds one grant file: a grant is a few lines, and a huge
// file in the grants directory is a mistake, not a grant.
const maxGrantSize = 64 << 10

// Grants is the grants directory, as Decide sees it at each call. Open it
// once; it is safe for concurrent use.
//
// Nothing is ever decided on a stale read. An inotify watch on the
// directory queues an event in the same system call that changes an entry,
// so draining the queue (without blocking) at the start of every call sees
// every change finished before the call; the files it names are read
// again. The directory's path is checked against the watched directory's
// identity at every call too, so replacing the whole directory (or a
// symlink to it) is seen as well. Without inotify, every file is read
// again at every call: file times alone cannot prove a file unchanged,
// since two writes within one clock tick leave the same size and times.
type Grants struct {
	dir     string
	harness *Protected // no grant may touch these

	mu      sync.Mutex
	watch   *watch          // nil when inotify is unavailable
	dirID   dirID           // the directory the watch is on (and was read)
	all     bool            // read everything again: the start, an overflow, another directory
	changed map[string]bool // entries named by events since the last read
	files   map[string]*cached
	snap    *snapshot
}

type dirID struct{ dev, ino uint64 }

// fileID is what stat says about a file; a changed one is read again even
// when no event named it.
type fileID struct {
	dev, ino, size uint64
	mtime, ctime   unix.Timespec
}

type cached struct {
	id       fileID
	data     []byte
	grant    Grant
	problems []Problem
}

// snapshot is one consistent reading of the directory.
type snapshot struct {
	byTool   map[Tool][]Grant // each in file name order
	problems []Problem
	err      error // grants-invalid, when problems is not empty
}

// Open watches the grants directory dir. A directory that is missing or
// invalid is no error here: every call is then denied, with the problems
// named, until it is fixed. A grant whose path is, contains or lies
// inside one of the harness's directories is invalid. Close releases the
// watch.
func Open(dir string, harness ...Harness) *Grants {
	g := openUnwatched(dir, harness...)
	if w, err := newWatch(); err == nil {
		g.watch = w
	}
	return g
}

// openUnwatched is Open without inotify, as on a system that refuses one.
func openUnwatched(dir string, harness ...Harness) *Grants {
	return &Grants{dir: dir, harness: Protect(harness), all: true, changed: map[string]bool{}, files: map[string]*cached{}}
}

// Close releases the inotify watch.
func (g *Grants) Close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.watch == nil {
		return nil
	}
	err := g.watch.close()
	g.watch = nil
	return err
}

// Watched reports whether changes are seen through inotify (true) or by
// reading every file at every call (false).
func (g *Grants) Watched() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.watch != nil
}

// Check reads the grants directory dir once and returns every problem, in
// file name order; none means the grants are valid.
func Check(dir string, harness ...Harness) []Problem {
	g := openUnwatched(dir, harness...)
	return g.current().problems
}

// Problems returns every problem of the grants as they are now.
func (g *Grants) Problems() []Problem { return slices.Clone(g.current().problems) }

// Decide decides a call for a session in state. See docs/specs/grants.md.
func (g *Grants) Decide(call Call, state State) Decision {
	return g.current().decide(call, state)
}

// current brings the reading up to date and returns it. The path is
// looked up before the lock is taken (it is a system call, and calls
// should not queue behind each other's); it is still after the call began,
// which is all freshness asks.
// Granted lists the tools that at least one allow or ask grant names, in
// the order of Tools; none while the grants are invalid. It is what loopd
// may offer a new session, not a decision: every call is still decided.
func (g *Grants) Granted() []Tool {
	snap := g.current()
	if snap.err != nil {
		return nil
	}
	var out []Tool
	for _, t := range Tools {
		for _, gr := range snap.byTool[t] {
			if gr.Effect != Deny {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

func (g *Grants) current() *snapshot {
	var st unix.Stat_t
	statErr := unix.Stat(g.dir, &st)
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.watch == nil {
		g.all = true
	} else if !g.all {
		if all, err := g.watch.drain(g.changed); all || err != nil {
			g.all = true
		} else if statErr != nil || (dirID{st.Dev, st.Ino}) != g.dirID {
			g.all = true
		}
	}
	if g.all || len(g.changed) > 0 || g.snap == nil {
		g.read()
	}
	return g.snap
}

// read reads the directory again: every file when g.all, else the files
// events named and any whose identity changed. It runs under g.mu.
func (g *Grants) read() {
	all := g.all
	g.all = false
	changed := g.changed
	g.changed = map[string]bool{}
	if all && g.watch != nil {
		// Events queued until now are covered by this reading.
		g.watch.drain(map[string]bool{})
	}

	d, err := os.Open(g.dir)
	if err != nil {
		g.files = map[string]*cached{}
		g.dirID = dirID{}
		g.all = true // try again at the next call
		g.setSnapshot(nil, []Problem{{File: g.dir, Text: "cannot read the grants directory: " + patherror.Reason(err).Error()}})
		return
	}
	defer d.Close()
	fd := int(d.Fd())
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		g.files = map[string]*cached{}
		g.all = true
		g.setSnapshot(nil, []Problem{{File: g.dir, Text: "the grants directory is not a directory"}})
		return
	}
	id := dirID{st.Dev, st.Ino}
	if g.watch != nil && (all || id != g.dirID) {
		// Watch the very directory opened, not whatever the path names
		// by now; events from then on cover what is read below.
		if err := g.watch.add(fd); err != nil {
			g.watch.close()
			g.watch = nil
		}
		all = true
	}
	if id != g.dirID {
		all = true
	}
	g.dirID = id

	names, err := d.Readdirnames(-1)
	if err != nil {
		g.all = true
		g.setSnapshot(nil, []Problem{{File: g.dir, Text: "cannot list the grants directory: " + patherror.Reason(err).Error()}})
		return
	}
	slices.Sort(names)
	files := make(map[string]*cached, len(names))
	var grants []Grant
	var problems []Problem
	for _, name := range names {
		if ignoredName(name) {
			continue
		}
		c, p := g.readEntry(fd, name, all || changed[name])
		if p != nil {
			problems = append(problems, p...)
			continue
		}
		files[name] = c
		if len(c.problems) > 0 {
			problems = append(problems, c.problems...)
		} else if hp := g.harnessProblems(c.grant, c.data); len(hp) > 0 {
			problems = append(problems, hp...)
		} else {
			grants = append(grants, c.grant)
		}
	}
	g.files = files
	g.setSnapshot(grants, problems)
}

// readEntry reads one entry of the directory. A problem that is not the
// file's content (a directory, a link) comes back as entryProblems and is
// not cached, so it is looked at again at the next reading.
func (g *Grants) readEntry(dirfd int, name string, reread bool) (c *cached, entryProblems []Problem) {
	bad := func(format string, args ...any) []Problem {
		return []Problem{{File: name, Text: fmt.Sprintf(format, args...)}}
	}
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nil, bad("cannot read it: %v", err)
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFDIR:
		return nil, bad("a directory: grants are read from the grants directory itself, not from directories in it; move it out")
	case unix.S_IFLNK:
		return nil, bad("a symbolic link: a grant must be a regular file in the grants directory, so that a change to it is always seen")
	default:
		return nil, bad("not a regular file: only grant files belong in the grants directory")
	}
	if !strings.HasSuffix(name, ".toml") {
		return nil, bad("not a grant file: grant files are named [a-z0-9-]+.toml, and other files do not belong in the grants directory")
	}
	if st.Nlink > 1 {
		return nil, bad("has %d hard links: a grant changed through another link could go unseen; copy it instead", st.Nlink)
	}
	id := statID(&st)
	old := g.files[name]
	if !reread && old != nil && old.id == id {
		return old, nil
	}
	ffd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, bad("cannot read it: %v", err)
	}
	f := os.NewFile(uintptr(ffd), name)
	defer f.Close()
	if err := unix.Fstat(ffd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, bad("changed while being read; it is read again at the next call")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxGrantSize+1))
	if err != nil {
		return nil, bad("cannot read it: %v", err)
	}
	if len(data) > maxGrantSize {
		return nil, bad("larger than %d KiB: not a grant", maxGrantSize>>10)
	}
	c = &cached{id: statID(&st), data: data}
	if old != nil && bytes.Equal(old.data, data) {
		c.grant, c.problems = old.grant, old.problems
	} else {
		c.grant, c.problems = Parse(name, data)
	}
	return c, nil
}

func statID(st *unix.Stat_t) fileID {
	return fileID{dev: st.Dev, ino: st.Ino, size: uint64(st.Size), mtime: st.Mtim, ctime: st.Ctim}
}

// ignoredName reports the entries that are not grants by any reading:
// hidden files (editors' swap files, a .git directory) and editor
// leftovers (foo.toml~, #foo.toml#).
func ignoredName(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "#") || strings.HasSuffix(name, "~")
}

func (g *Grants) setSnapshot(grants []Grant, problems []Problem) {
	s := &snapshot{byTool: map[Tool][]Grant{}, problems: problems}
	for _, gr := range grants {
		s.byTool[gr.Tool] = append(s.byTool[gr.Tool], gr)
	}
	if len(problems) > 0 {
		s.byTool = nil
		s.err = runbook.WithCause(runbook.GrantsInvalid, GrantsErrorText, &InvalidError{Problems: problems})
	}
	g.snap = s
}

// GrantsErrorText is what the model is told when the grant files have an
// error.
const GrantsErrorText = "the grant files have an error"

// The inotify watch. Each event names the entry it concerns; events about
// the directory itself, an overflowed queue or another watch ask for
// everything to be read again.

const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MODIFY | unix.IN_CLOSE_WRITE |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_ATTRIB | unix.IN_DELETE_SELF |
	unix.IN_MOVE_SELF | unix.IN_ONLYDIR

type watch struct {
	fd  int
	wd  int
	buf []byte
}

func newWatch() (*watch, error) {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, err
	}
	return &watch{fd: fd, wd: -1, buf: make([]byte, 64<<10)}, nil
}

// add watches the directory open as dirfd. Through /proc the watch lands
// on that very inode even if the path was changed meanwhile. The same
// directory keeps its watch descriptor; another one replaces the old watch,
// whose last events (IN_IGNORED) drain then skips.
func (w *watch) add(dirfd int) error {
	wd, err := unix.InotifyAddWatch(w.fd, "/proc/self/fd/"+strconv.Itoa(dirfd), watchMask)
	if err != nil {
		return err
	}
	if w.wd >= 0 && w.wd != wd {
		unix.InotifyRmWatch(w.fd, uint32(w.wd))
	}
	w.wd = wd
	return nil
}

// drain reads every queued event without blocking, adding the names of
// changed entries to changed. all reports an event that calls for reading
// everything again.
func (w *watch) drain(changed map[string]bool) (all bool, err error) {
	for {
		n, err := unix.Read(w.fd, w.buf)
		if errors.Is(err, unix.EAGAIN) {
			return all, nil
		}
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return true, err
		}
		if n <= 0 {
			return true, io.ErrUnexpectedEOF
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&w.buf[off]))
			nameLen := int(ev.Len)
			start := off + unix.SizeofInotifyEvent
			off = start + nameLen
			if off > n {
				return true, io.ErrUnexpectedEOF
			}
			switch {
			case ev.Mask&unix.IN_Q_OVERFLOW != 0:
				all = true
				continue
			case int(ev.Wd) != w.wd:
				continue // a directory watched before: no longer read
			case ev.Mask&(unix.IN_IGNORED|unix.IN_DELETE_SELF|unix.IN_MOVE_SELF|unix.IN_UNMOUNT) != 0 || nameLen == 0:
				all = true
				continue
			}
			changed[string(bytes.TrimRight(w.buf[start:off], "\x00"))] = true
		}
	}
}

func (w *watch) close() error { return unix.Close(w.fd) }
