// Package snapshot reads the files of a confined Run (brokerd's yaag_run,
// `yaag run --root DIR`) once, beneath the decided directory, and keeps
// them in memory: the program, every module it imports, .yaag/config.toml,
// .yaag/registry.toml and the modules the Registry File names. Nothing of
// the Run opens a path of the directory any other way: esbuild is given
// the contents (core/yaag/program), the config and the Catalog read from
// the Tree.
//
// A file is opened with openat2 beneath a descriptor of the directory,
// refusing every symbolic and magic link on the way
// (RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|RESOLVE_NO_MAGICLINKS), without
// blocking (O_NONBLOCK), and read only when fstat says it is a regular
// file with one name, within the limits (Limits). What was found absent
// or a directory is remembered too, so that the Run, once Sealed, answers
// every question from memory the way it answered it first.
//
// The Manifest is what was read: each file's path and SHA-256, and one
// SHA-256 over them all. brokerd shows it in an approval, and the
// approved Run refuses to go on when the files it read differ from it.
package snapshot

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"golang.org/x/sys/unix"

	"boxmaker/core/openat2"
	"boxmaker/core/yaagwire"
	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const (
	textRefused  runbook.Quoted = "is not a file this Run may read"
	textTooLarge runbook.Quoted = "over a confined Run's limit"
)

// Limits bound what a Run reads: each file, all files together, and how
// many files and lookups there are.
type Limits struct {
	File  int64 // bytes of one file
	Total int64 // bytes of all files
	Count int   // files, directories and absent names looked up
}

// DefaultLimits are a confined Run's limits.
var DefaultLimits = Limits{File: 4 << 20, Total: 16 << 20, Count: 4096}

// Kind is what a name of the directory is.
type Kind int

const (
	Absent Kind = iota
	Dir
	File
)

type node struct {
	kind Kind
	data []byte
	sum  [sha256.Size]byte
}

// Tree is the files of one decided directory, read once.
type Tree struct {
	root   string // the directory, absolute and clean, as decided
	limits Limits

	mu      sync.Mutex
	dir     int // O_PATH descriptor of root; -1 once Sealed
	nodes   map[string]*node
	total   int64
	refusal *runbook.Refusal // the first file refused
}

// Open opens the decided directory root (absolute, clean) from / refusing
// any link on the way: a directory swapped for a link since the decision
// is not followed.
func Open(root string, l Limits) (*Tree, error) {
	if !filepath.IsAbs(root) || filepath.Clean(root) != root {
		return nil, fmt.Errorf("the Run's directory %q is not an absolute, clean path", root)
	}
	fd, err := openat2.Open(unix.AT_FDCWD, root, unix.O_PATH|unix.O_DIRECTORY, unix.RESOLVE_NO_SYMLINKS|unix.RESOLVE_NO_MAGICLINKS)
	if err != nil {
		return nil, runbook.WithCause(runbook.YaagProgramFileRefused,
			fmt.Sprintf("the Run's directory %s %s (%s)", root, textRefused, why(err)), err)
	}
	return &Tree{root: root, limits: l, dir: fd, nodes: map[string]*node{}}, nil
}

// why is an open's failure in words.
func why(err error) string {
	switch {
	case errors.Is(err, unix.ELOOP):
		return "a symbolic link is on the way"
	case errors.Is(err, unix.EXDEV):
		return "the path leads out of the directory"
	case errors.Is(err, unix.ENOTDIR):
		return "a part of the path is not a directory"
	}
	return err.Error()
}

// Root is the decided directory.
func (t *Tree) Root() string { return t.root }

// Rel is path (absolute, or relative to the root) as a name beneath the
// root; ok is false for a path outside it.
func (t *Tree) Rel(path string) (rel string, ok bool) {
	if filepath.IsAbs(path) {
		r, err := filepath.Rel(t.root, filepath.Clean(path))
		if err != nil {
			return "", false
		}
		path = r
	}
	path = filepath.Clean(path)
	if path == "." {
		return ".", true
	}
	return path, filepath.IsLocal(path)
}

// Abs is the absolute path of a name beneath the root.
func (t *Tree) Abs(rel string) string { return filepath.Join(t.root, rel) }

// Err is the first file the Tree refused, or nil: a Run stops on it even
// when the reader that met it (esbuild) reported something else.
func (t *Tree) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.refusal == nil {
		return nil
	}
	return t.refusal
}

func (t *Tree) refuse(e runbook.Entry, cause error, format string, args ...any) error {
	r := runbook.WithCause(e, fmt.Sprintf(format, args...), cause)
	if t.refusal == nil {
		t.refusal = r
	}
	return r
}

// Kind says what path (see Rel) is: a regular file (read now, if it was
// not), a directory, or absent. Anything else, and a file over a limit,
// is refused (Err).
func (t *Tree) Kind(path string) (Kind, error) {
	n, err := t.lookup(path)
	if err != nil {
		return Absent, err
	}
	return n.kind, nil
}

// ReadFile is the contents of the regular file path (see Rel). An absent
// file's error is os.ErrNotExist (errors.Is); a directory's says so.
func (t *Tree) ReadFile(path string) ([]byte, error) {
	n, err := t.lookup(path)
	switch {
	case err != nil:
		return nil, err
	case n.kind == Absent:
		return nil, &os.PathError{Op: "read", Path: path, Err: os.ErrNotExist}
	case n.kind == Dir:
		return nil, &os.PathError{Op: "read", Path: path, Err: errors.New("is a directory")}
	}
	return n.data, nil
}

func (t *Tree) lookup(path string) (*node, error) {
	rel, ok := t.Rel(path)
	t.mu.Lock()
	defer t.mu.Unlock()
	if !ok {
		return nil, t.refuse(runbook.YaagProgramFileRefused, nil, "%s %s: it is outside %s, the directory this Run may read", path, textRefused, t.root)
	}
	if n, ok := t.nodes[rel]; ok {
		return n, nil
	}
	if t.dir < 0 {
		// Sealed: every name the Run looks up was looked up before the
		// manifest was made; another one is not read from the disk.
		return nil, fmt.Errorf("%s was not read when the Run began, and a Run reads its files only then", t.Abs(rel))
	}
	if len(t.nodes) >= t.limits.Count {
		return nil, t.refuse(runbook.YaagProgramTooLarge, nil, "%s: %s of %d files and names looked up (the program, its imports, .yaag/)",
			t.Abs(rel), textTooLarge, t.limits.Count)
	}
	n, err := t.read(rel)
	if err != nil {
		return nil, err
	}
	t.nodes[rel] = n
	return n, nil
}

// read opens rel beneath the root and reads it when it is a regular file.
// It holds t.mu.
func (t *Tree) read(rel string) (*node, error) {
	abs := t.Abs(rel)
	fd, err := openat2.Open(t.dir, rel, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY, unix.RESOLVE_BENEATH|unix.RESOLVE_NO_SYMLINKS|unix.RESOLVE_NO_MAGICLINKS)
	switch {
	case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENOTDIR):
		return &node{kind: Absent}, nil
	case err != nil:
		return nil, t.refuse(runbook.YaagProgramFileRefused, err, "%s %s: %s", abs, textRefused, why(err))
	}
	f := os.NewFile(uintptr(fd), abs)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, t.refuse(runbook.YaagProgramFileRefused, err, "%s %s: %v", abs, textRefused, err)
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return &node{kind: Dir}, nil
	case unix.S_IFREG:
	default:
		return nil, t.refuse(runbook.YaagProgramFileRefused, nil, "%s %s: it is not a regular file (%s)", abs, textRefused, fileType(st.Mode))
	}
	if st.Nlink > 1 {
		// Another name of the same file may be outside the directory:
		// the object is not only the directory's.
		return nil, t.refuse(runbook.YaagProgramFileRefused, nil, "%s %s: it has %d hard links, and another name of it may be outside the directory", abs, textRefused, st.Nlink)
	}
	if err := t.within(abs, st.Size); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, t.limits.File+1))
	if err != nil {
		return nil, t.refuse(runbook.YaagProgramFileRefused, err, "%s %s: %v", abs, textRefused, err)
	}
	if err := t.within(abs, int64(len(data))); err != nil { // it grew as it was read
		return nil, err
	}
	t.total += int64(len(data))
	return &node{kind: File, data: data, sum: sha256.Sum256(data)}, nil
}

// within refuses a file of size bytes over a limit. It holds t.mu.
func (t *Tree) within(abs string, size int64) error {
	switch {
	case size > t.limits.File:
		return t.refuse(runbook.YaagProgramTooLarge, nil, "%s has %d bytes, %s of %d bytes for one file", abs, size, textTooLarge, t.limits.File)
	case t.total+size > t.limits.Total:
		return t.refuse(runbook.YaagProgramTooLarge, nil, "%s would bring the files read to %d bytes, %s of %d bytes for all files (the program, its imports, .yaag/)",
			abs, t.total+size, textTooLarge, t.limits.Total)
	}
	return nil
}

func fileType(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFIFO:
		return "a FIFO"
	case unix.S_IFCHR:
		return "a character device"
	case unix.S_IFBLK:
		return "a block device"
	case unix.S_IFSOCK:
		return "a socket"
	case unix.S_IFLNK:
		return "a symbolic link"
	}
	return fmt.Sprintf("mode %o", mode&unix.S_IFMT)
}

// Seal closes the directory: from now on the Tree answers only what it
// answered before, and reads nothing more.
func (t *Tree) Seal() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dir >= 0 {
		unix.Close(t.dir)
		t.dir = -1
	}
}

// Manifest is what a Run read: its files, each with its SHA-256, and one
// SHA-256 over the list.
type Manifest = yaagwire.Manifest

// FileSum is one file a Run read.
type FileSum = yaagwire.FileSum

// Manifest is the files read so far, by path. Its SHA-256 is of the
// lines "<sha256>  <path>\n" in that order (sha256sum's form, so that an
// owner can check it with sha256sum in the directory).
func (t *Tree) Manifest() Manifest {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := Manifest{Dir: t.root, Files: []FileSum{}}
	for rel, n := range t.nodes {
		if n.kind == File {
			m.Files = append(m.Files, FileSum{Path: rel, Size: int64(len(n.data)), SHA256: hex.EncodeToString(n.sum[:])})
		}
	}
	sort.Slice(m.Files, func(i, j int) bool { return m.Files[i].Path < m.Files[j].Path })
	m.SHA256 = m.Sum()
	return m
}
