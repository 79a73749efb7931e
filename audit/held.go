package audit

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// held is what the ledger knows of the file it appends to, as it was after
// its own last write: which object it is and how it looked. Before every
// batch (and after writing it) the ledger checks that the log's path still
// names that object, with one link, the size the ledger made it and the
// same change time: anything else means something other than brokerd
// changed, replaced, linked, moved or removed the file, and a record
// written now could end up where no reader looks (a `cp` + `mv` of
// identical bytes, `sed -i` and most editors' saves make a new file at the
// path and leave brokerd holding the old one).
type held struct {
	dev, ino uint64
	ctime    unix.Timespec
}

// remember notes the held file as it is after a write of the ledger's.
func (l *Ledger) remember() error {
	var st unix.Stat_t
	if err := unix.Fstat(int(l.f.Fd()), &st); err != nil {
		return fmt.Errorf("stat %s: %w", l.f.Name(), err)
	}
	l.held = held{dev: st.Dev, ino: st.Ino, ctime: st.Ctim}
	return nil
}

// checkHeld reports how the log's current file is no longer what the
// ledger left: nil when its path names the file the ledger holds, with
// one link and the size the ledger wrote; and, when unchanged is set
// (before a write), with no change since the ledger's last write.
func (l *Ledger) checkHeld(unchanged bool) error {
	name := fileName(l.fileNum)
	var fst, pst unix.Stat_t
	if err := unix.Fstat(int(l.f.Fd()), &fst); err != nil {
		return fmt.Errorf("stat %s: %w", name, err)
	}
	err := unix.Lstat(logPath(l.dir, l.fileNum), &pst)
	switch {
	case err != nil && fst.Nlink == 0:
		return fmt.Errorf("%s was removed while brokerd held it open", name)
	case err != nil:
		return fmt.Errorf("%s is gone from %s (moved away?): %v; brokerd holds inode %d", name, l.dir, err, fst.Ino)
	case pst.Mode&unix.S_IFMT == unix.S_IFLNK:
		return fmt.Errorf("%s was replaced by a symbolic link", name)
	case pst.Dev != l.held.dev || pst.Ino != l.held.ino:
		return fmt.Errorf("%s was replaced: the path names inode %d now, brokerd holds inode %d, which has %d %s (a copy moved over it, sed -i or an editor's save)",
			name, pst.Ino, l.held.ino, fst.Nlink, plural(int(fst.Nlink), "link", "links"))
	case fst.Nlink != 1:
		return fmt.Errorf("%s has %d links: another name was made for the file brokerd writes", name, fst.Nlink)
	case fst.Size != l.size:
		how := "cut short"
		if fst.Size > l.size {
			how = "written to by something else"
		}
		return fmt.Errorf("%s is %d bytes, brokerd made it %d: it was %s", name, fst.Size, l.size, how)
	case unchanged && fst.Ctim != l.held.ctime:
		return fmt.Errorf("%s was changed by something else at %s (after brokerd's last write at %s): written in place, or its mode, owner or attributes set",
			name, timespec(fst.Ctim), timespec(l.held.ctime))
	}
	return nil
}

func timespec(ts unix.Timespec) string {
	return time.Unix(ts.Sec, ts.Nsec).UTC().Format(time.RFC3339Nano)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
