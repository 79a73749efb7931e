package recall

import (
	"errors"
	"path/filepath"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	homepkg "boxmaker/core/home"
	"boxmaker/core/memory"
	"boxmaker/core/sessionid"
	"boxmaker/core/sessionlog"
)

// watcher tells a Sync what changed since the last one, from inotify, so
// that a Sync with nothing new lists no directory and stats no file, and
// one after a turn looks at that session's directory only.
//
// It watches the home (for sessions/ and memory/ made or replaced), the
// sessions directory, each session's directory (logs made, removed,
// renamed), memory/, and every log and notes.md themselves: a watch on
// the file is on its inode, so a write through any name of it (a hard
// link elsewhere) is seen, which a directory's watch alone would miss.
// Every watch is added before what it watches is listed or read, so a
// change is either read now or queued for the next Sync.
//
// Anything it cannot vouch for makes the next Sync a full one, as every
// Sync was before: the first, a queue that overflowed, a watched
// directory of the layout removed or moved, a watch that could not be
// added (the user's max_user_watches reached), a Sync that failed, an
// index file other than the last Sync's (replaced, restored, rebuilt). A
// watcher that cannot be made at all leaves every Sync full, and is
// tried again after retryAfter.
type watcher struct {
	home  string
	fd    int // inotify, non-blocking; -1 when there is none
	wds   map[int32]watched
	all   bool            // the next Sync looks at everything
	dirty map[string]bool // sessions whose directory and logs the next Sync looks at
	notes bool            // the next Sync looks at notes.md
	retry time.Time       // when a watcher that failed is made again
	index fileID          // the index file the last Sync brought up to date

	buf       []byte // events are read into it
	overflows int    // queues that overflowed (tests check the fallback ran)
}

// watched is what one watch descriptor is on.
type watched struct {
	kind     watchKind
	sessions []string // the sessions a session directory or log belongs to
}

type watchKind int

const (
	watchHome watchKind = iota
	watchSessions
	watchMemory
	watchSessionDir
	watchLog
	watchNotes
)

const (
	retryAfter = 10 * time.Second
	dirMask    = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_MODIFY |
		unix.IN_ATTRIB | unix.IN_CLOSE_WRITE | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF
	fileMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF
	// Events that say a watched thing itself is gone or elsewhere.
	selfMask = unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_IGNORED | unix.IN_UNMOUNT
)

func newWatcher(home string) *watcher {
	return &watcher{home: home, fd: -1, all: true, dirty: map[string]bool{}}
}

// close lets the inotify descriptor go.
func (w *watcher) close() {
	if w.fd >= 0 {
		unix.Close(w.fd)
	}
	w.fd, w.wds = -1, nil
}

// broken gives up the watches after an error: every Sync is full until
// a new watcher is made.
func (w *watcher) broken() {
	w.close()
	w.all = true
	w.retry = time.Now().Add(retryAfter)
}

// start makes a new inotify instance with the watches of the layout (the
// home, sessions/, memory/), dropping the old one and its queue, for a
// full Sync, which adds the others as it lists. It reports whether the
// watcher is set; when not, the Sync is full all the same.
func (w *watcher) start() bool {
	w.close()
	if time.Now().Before(w.retry) {
		return false
	}
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		w.broken()
		return false
	}
	w.fd, w.wds = fd, map[int32]watched{}
	for _, a := range []struct {
		path string
		kind watchKind
	}{
		{w.home, watchHome},
		{filepath.Join(w.home, homepkg.DirSessions), watchSessions},
		{filepath.Join(w.home, homepkg.DirMemory), watchMemory},
	} {
		// A sessions/ or memory/ not made yet is seen made by the home's.
		if err := w.add(a.path, a.kind, ""); err != nil && !gone(err) {
			w.broken()
			return false
		}
	}
	return true
}

// gone is an error of a path that is not there (or not a directory).
func gone(err error) bool {
	return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR)
}

// add watches path, of session when it is a session's directory or log.
// Without a watcher it does nothing; a failure other than the path being
// gone breaks the watcher (the caller's Sync is full anyway).
func (w *watcher) add(path string, kind watchKind, session string) error {
	if w == nil || w.fd < 0 {
		return nil
	}
	mask := uint32(dirMask)
	if kind == watchLog || kind == watchNotes {
		mask = fileMask
	}
	wd, err := unix.InotifyAddWatch(w.fd, path, mask)
	if err != nil {
		if !gone(err) {
			w.broken()
		}
		return err
	}
	x := w.wds[int32(wd)]
	x.kind = kind
	if session != "" && !contains(x.sessions, session) {
		x.sessions = append(x.sessions, session)
	}
	w.wds[int32(wd)] = x
	return nil
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// drain reads the queued events and marks what they name.
func (w *watcher) drain() {
	if w.fd < 0 {
		w.all = true
		return
	}
	if w.buf == nil {
		w.buf = make([]byte, 64<<10)
	}
	buf := w.buf
	for {
		n, err := unix.Read(w.fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if errors.Is(err, unix.EAGAIN) {
			return
		}
		if err != nil || n <= 0 {
			w.broken()
			return
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			end := off + unix.SizeofInotifyEvent + int(ev.Len)
			if end > n {
				w.broken() // the kernel writes whole events: never seen
				return
			}
			name := cString(buf[off+unix.SizeofInotifyEvent : end])
			w.mark(ev.Wd, ev.Mask, name)
			off = end
		}
	}
}

func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// mark notes what one event says must be looked at.
func (w *watcher) mark(wd int32, mask uint32, name string) {
	if mask&unix.IN_Q_OVERFLOW != 0 {
		w.overflows++
		w.all = true
		return
	}
	x, ok := w.wds[wd]
	if !ok {
		return // a watch already removed
	}
	if mask&unix.IN_IGNORED != 0 {
		delete(w.wds, wd)
	}
	self := mask&selfMask != 0
	switch x.kind {
	case watchHome:
		if self || name == homepkg.DirSessions || name == homepkg.DirMemory {
			w.all = true
		}
	case watchSessions:
		switch {
		case self:
			w.all = true
		case sessionid.Valid(name):
			w.dirty[name] = true
		}
	case watchMemory:
		switch {
		case self:
			w.all = true
		case name == memory.NotesFile:
			w.notes = true
		}
	case watchSessionDir, watchLog:
		for _, s := range x.sessions {
			w.dirty[s] = true
		}
	case watchNotes:
		w.notes = true
	}
}

// clean reports whether nothing is to be looked at.
func (w *watcher) clean() bool {
	return w.fd >= 0 && !w.all && !w.notes && len(w.dirty) == 0
}

// done forgets what a Sync that succeeded has looked at.
func (w *watcher) done() {
	w.all = w.fd < 0
	w.notes = false
	clear(w.dirty)
}

// isLog reports whether a name in a session's directory is a log.
func isLog(name string) bool {
	_, ok := sessionlog.Epoch(name)
	return ok
}
