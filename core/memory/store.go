package memory

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"boxmaker/core/atomicfile"
	"boxmaker/core/memorywire"
)

// The files and their limits in characters.
const (
	SoulFile    = "soul.md"
	MemoryFile  = memorywire.MemoryFile // the files an action names are the wire's words
	UserFile    = memorywire.UserFile
	NotesFile   = memorywire.NotesFile
	JournalFile = "journal.jsonl"

	SoulLimit   = 4000
	MemoryLimit = 2200
	UserLimit   = 1375
)

// Limit is the limit of an identity file, 0 for notes.md.
func Limit(file string) int {
	switch file {
	case SoulFile:
		return SoulLimit
	case MemoryFile:
		return MemoryLimit
	case UserFile:
		return UserLimit
	}
	return 0
}

//go:embed soul-starter.md
var starterSoul string

// StarterSoul is the soul.md written when the file is missing.
func StarterSoul() string { return starterSoul }

// Options are what Open needs besides the directory.
type Options struct {
	// Review stages identity writes (memory.md, user.md) until the owner
	// accepts or rejects them. Without it, a write from a public, trusted
	// session is applied at once; one from a session above public is
	// staged all the same.
	Review bool
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// Store is the memory directory of one home. Its methods are safe for
// concurrent use; one process at a time may hold it (an flock on
// <dir>/.lock), because memoryd is the only writer and a second one would
// interleave redo records.
type Store struct {
	dir    string
	review bool
	now    func() time.Time

	mu     sync.Mutex
	lock   *os.File
	nextID int
}

// Open opens (creating it 0700 when missing) the memory directory dir,
// seeds soul.md from the starter when it is missing, takes the directory's
// lock, and finishes a write that a crash interrupted.
func Open(dir string, opts Options) (*Store, error) {
	if err := os.MkdirAll(filepath.Join(dir, "staged"), 0o700); err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", dir, err)
	}
	lockPath := filepath.Join(dir, ".lock")
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot open %s: %w", lockPath, err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if err == unix.EWOULDBLOCK {
			return nil, fmt.Errorf("%s is in use by another process (it holds %s)", dir, lockPath)
		}
		return nil, fmt.Errorf("cannot lock %s: %w", lockPath, err)
	}
	s := &Store{dir: dir, review: opts.Review, now: opts.Now, lock: f}
	if s.now == nil {
		s.now = time.Now
	}
	if err := s.open(); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) open() error {
	soul := s.path(SoulFile)
	if _, err := os.Lstat(soul); errors.Is(err, fs.ErrNotExist) {
		if err := atomicfile.WriteFile(soul, []byte(starterSoul), 0o600); err != nil {
			return fmt.Errorf("cannot write the starter %s: %w", soul, err)
		}
	} else if err != nil {
		return fmt.Errorf("cannot read %s: %w", soul, err)
	}
	if err := s.redo(); err != nil {
		return err
	}
	ids, err := s.knownIDs()
	if err != nil {
		return err
	}
	for _, id := range ids {
		if n := editNumber(id); n >= s.nextID {
			s.nextID = n + 1
		}
	}
	if s.nextID == 0 {
		s.nextID = 1
	}
	return nil
}

// Close lets the directory's lock go.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lock == nil {
		return nil
	}
	err := s.lock.Close()
	s.lock = nil
	return err
}

// Dir is the memory directory.
func (s *Store) Dir() string { return s.dir }

// Hold runs f while the store applies no write, so that f reads the files
// of memory/ whole (the Honcho outbox's feed does).
func (s *Store) Hold(f func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return f()
}

func (s *Store) path(name string) string { return filepath.Join(s.dir, name) }

// Compiled at its first use, not at package init: a counted repetition
// compiles to a copy of its class per count, and every role's start paid
// for it (D362).
var editRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^e([1-9][0-9]{0,17})$`) })

func editNumber(id string) int {
	m := editRE().FindStringSubmatch(id)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func (s *Store) newID() string {
	id := "e" + strconv.Itoa(s.nextID)
	s.nextID++
	return id
}

// knownIDs are the edit ids in the journal and in staged/.
func (s *Store) knownIDs() ([]string, error) {
	lines, err := s.readJournal()
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, l := range lines {
		ids = append(ids, l.Edit)
	}
	staged, err := s.stagedIDs()
	if err != nil {
		return nil, err
	}
	return append(ids, staged...), nil
}

func (s *Store) stagedIDs() ([]string, error) {
	ents, err := os.ReadDir(s.path("staged"))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", s.path("staged"), err)
	}
	var ids []string
	for _, e := range ents {
		if id, ok := strings.CutSuffix(e.Name(), ".json"); ok && editNumber(id) > 0 {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return editNumber(ids[i]) < editNumber(ids[j]) })
	return ids, nil
}

// readIdentity reads memory.md or user.md; a missing file has no entries.
func (s *Store) readIdentity(file string) (string, error) {
	b, err := os.ReadFile(s.path(file))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", s.path(file), err)
	}
	return string(b), nil
}

// A redo record: what one write does to the directory.
type redoRecord struct {
	Replace []replaceOp `json:"replace,omitempty"`
	Append  []appendOp  `json:"append,omitempty"`
	Delete  []string    `json:"delete,omitempty"`
}

type replaceOp struct {
	File string `json:"file"` // relative to the memory directory
	Data string `json:"data"`
}

type appendOp struct {
	File   string `json:"file"`
	Offset int64  `json:"offset"`
	Data   string `json:"data"`
}

const pendingFile = "pending.json"

// appendAt builds the append of data at the current end of file.
func (s *Store) appendAt(file, data string) (appendOp, error) {
	fi, err := os.Stat(s.path(file))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return appendOp{File: file, Data: data}, nil
	case err != nil:
		return appendOp{}, fmt.Errorf("cannot read %s: %w", s.path(file), err)
	}
	return appendOp{File: file, Offset: fi.Size(), Data: data}, nil
}

// commit makes rec durable, applies it and removes it.
func (s *Store) commit(rec redoRecord) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(s.path(pendingFile), b, 0o600); err != nil {
		return fmt.Errorf("cannot write %s: %w", s.path(pendingFile), err)
	}
	return s.apply(rec)
}

// redo applies a record left by a write that did not finish.
func (s *Store) redo() error {
	b, err := os.ReadFile(s.path(pendingFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", s.path(pendingFile), err)
	}
	var rec redoRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return fmt.Errorf("%s is damaged: %w", s.path(pendingFile), err)
	}
	return s.apply(rec)
}

func (s *Store) apply(rec redoRecord) error {
	for _, r := range rec.Replace {
		if err := atomicfile.WriteFile(s.path(r.File), []byte(r.Data), 0o600); err != nil {
			return fmt.Errorf("cannot write %s: %w", s.path(r.File), err)
		}
	}
	for _, a := range rec.Append {
		if err := s.applyAppend(a); err != nil {
			return err
		}
	}
	for _, d := range rec.Delete {
		if err := os.Remove(s.path(d)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot remove %s: %w", s.path(d), err)
		}
	}
	if err := os.Remove(s.path(pendingFile)); err != nil {
		return fmt.Errorf("cannot remove %s: %w", s.path(pendingFile), err)
	}
	return atomicfile.SyncDir(s.dir)
}

// applyAppend writes a.Data at a.Offset. Applied again after a crash it
// finds the data (or a prefix of it) already there and finishes it; any
// other bytes at the offset mean someone else changed the file, and
// nothing is overwritten.
func (s *Store) applyAppend(a appendOp) error {
	p := s.path(a.File)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return fmt.Errorf("cannot open %s: %w", p, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", p, err)
	}
	size, end := fi.Size(), a.Offset+int64(len(a.Data))
	if size < a.Offset {
		return fmt.Errorf("cannot append to %s: it is shorter (%d bytes) than when the write began (%d)", p, size, a.Offset)
	}
	have := make([]byte, min(size, end)-a.Offset)
	if _, err := f.ReadAt(have, a.Offset); err != nil && len(have) > 0 {
		return fmt.Errorf("cannot read %s: %w", p, err)
	}
	if string(have) != a.Data[:len(have)] {
		return fmt.Errorf("cannot append to %s: it was changed at byte %d while a write was unfinished", p, a.Offset)
	}
	if rest := a.Data[len(have):]; rest != "" {
		if _, err := f.WriteAt([]byte(rest), a.Offset+int64(len(have))); err != nil {
			return fmt.Errorf("cannot write %s: %w", p, err)
		}
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("cannot sync %s: %w", p, err)
	}
	if a.Offset == 0 {
		return atomicfile.SyncDir(s.dir) // the file may be new
	}
	return nil
}
