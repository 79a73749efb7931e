package broker

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"boxmaker/core/approval"
	"boxmaker/core/brokerwire"
	"boxmaker/core/openat2"
)

// maxHashed bounds how much of a file brokerd reads to hash it for an
// approval: a larger file is shown by its size alone.
const maxHashed = 64 << 20

// writeChange is what an asked write_file changes at its decided target,
// for the owner's approval (brokerwire.Change): brokerd reads the file
// there now as the runner opens targets (D100): its directory from the
// root with no symbolic link at any component, then the file beneath
// that descriptor, again with no link, never by a name the model could
// swap meanwhile. What it reads goes to the owner and the approvers
// only (bxctl, gatewayd's box), never to the model: the call's result
// is the runner's as before. A file that is not the owner's to read,
// not a regular file, or linked more than once is summarised, not shown.
func (b *Broker) writeChange(target string, arguments []byte) *brokerwire.Change {
	var a struct {
		Content *string `json:"content"`
	}
	json.Unmarshal(arguments, &a)
	content := ""
	if a.Content != nil {
		content = *a.Content
	}
	note := func(format string, args ...any) *brokerwire.Change {
		return &brokerwire.Change{Note: fmt.Sprintf(format, args...)}
	}
	if target == "" || !filepath.IsAbs(target) || filepath.Clean(target) != target {
		return note("brokerd has no decided path to read the file at")
	}
	dir, err := openat2.Open(unix.AT_FDCWD, filepath.Dir(target), unix.O_PATH|unix.O_DIRECTORY, unix.RESOLVE_NO_SYMLINKS|unix.RESOLVE_NO_MAGICLINKS)
	if errors.Is(err, unix.ENOENT) {
		return &brokerwire.Change{Creates: true} // the runner makes the directory's absence its refusal
	}
	if err != nil {
		return note("brokerd could not open the file's directory to compare: %s", openWhy(err))
	}
	defer unix.Close(dir)
	fd, err := openat2.Open(dir, filepath.Base(target), unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_NOFOLLOW,
		unix.RESOLVE_BENEATH|unix.RESOLVE_NO_SYMLINKS|unix.RESOLVE_NO_MAGICLINKS)
	if errors.Is(err, unix.ENOENT) {
		return &brokerwire.Change{Creates: true}
	}
	if err != nil {
		return note("brokerd could not open the file to compare: %s", openWhy(err))
	}
	f := os.NewFile(uintptr(fd), target)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return note("brokerd could not stat the file to compare: %v", err)
	}
	switch {
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		return note("what is at the path is not a regular file: the runner will refuse to write it")
	case st.Nlink > 1:
		return &brokerwire.Change{Size: st.Size, Note: fmt.Sprintf("the file has %d links: the runner will refuse to write it (its content is not shown)", st.Nlink)}
	case !b.ownerMayRead(st):
		return &brokerwire.Change{Size: st.Size, Note: "the file is not the owner's to read: only its size is shown"}
	}
	// At most MaxDiffBytes for the diff, and the rest hashed up to
	// maxHashed: what a hostile model's huge file costs is bounded.
	h := sha256.New()
	head, err := io.ReadAll(io.LimitReader(f, approval.MaxDiffBytes+1))
	if err != nil {
		return note("brokerd could not read the file to compare: %v", err)
	}
	h.Write(head)
	n := int64(len(head))
	if n > approval.MaxDiffBytes {
		m, err := io.Copy(h, io.LimitReader(f, maxHashed-n+1))
		n += m
		if err != nil {
			return note("brokerd could not read the file to compare: %v", err)
		}
		if n > maxHashed {
			return &brokerwire.Change{Size: st.Size, Note: fmt.Sprintf("the file is over %d MiB: only its size is shown", maxHashed>>20)}
		}
		head = nil
	}
	return approval.NewChange(target, head, n, hex.EncodeToString(h.Sum(nil)), content)
}

// ownerMayRead says whether the owner's uid may read a file of st by its
// mode: an approval shows the owner nothing it could not read itself.
// With no owner named (owner_uid 0) brokerd acts for root.
func (b *Broker) ownerMayRead(st unix.Stat_t) bool {
	uid, gid := uint32(b.cfg.OwnerUID), uint32(b.cfg.OwnerGID)
	switch {
	case uid == 0:
		return true
	case st.Uid == uid:
		return st.Mode&unix.S_IRUSR != 0
	case st.Gid == gid:
		return st.Mode&unix.S_IRGRP != 0
	}
	return st.Mode&unix.S_IROTH != 0
}

// openWhy is an open's failure in words.
func openWhy(err error) string {
	switch {
	case errors.Is(err, unix.ELOOP):
		return "a symbolic link is on the way (the runner will refuse the call: target-changed)"
	case errors.Is(err, unix.ENOTDIR):
		return "a part of the path is not a directory"
	case errors.Is(err, unix.EACCES):
		return "permission denied"
	}
	return err.Error()
}
