package honchosync

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"boxmaker/core/atomicfile"
	"boxmaker/core/honcho"
	"boxmaker/core/policy"
	"boxmaker/core/secrets"
)

// Dir is the outbox's directory under the home.
const Dir = "memory/outbox"

const (
	queueFile  = "queue.jsonl"
	cursorFile = "cursor.json"
	sentFile   = "sent.json"
	failedFile = "failed.jsonl"
)

// The workspaces and peers an item names, by role: the names are
// [honcho]'s, looked up when the item is sent.
const (
	Trusted   = "trusted"
	Untrusted = "untrusted"
	Fleet     = "fleet"

	PeerAgent = "agent"
	PeerOwner = "owner"
)

// MemorySession is the Honcho session of identity entries and notes in
// the trusted and untrusted workspaces. A Boxmaker session id is
// [a-z0-9-], so no conversation can have this name.
const MemorySession = "boxmaker_memory"

// Item is one message waiting in the outbox.
type Item struct {
	N         int64  `json:"n"`
	ID        string `json:"id"`        // boxmaker_id in the message's metadata
	Workspace string `json:"workspace"` // Trusted, Untrusted or Fleet
	Session   string `json:"session"`   // the Honcho session
	Peer      string `json:"peer"`      // PeerAgent or PeerOwner
	Kind      string `json:"kind"`      // user, assistant, note, memory.md, user.md, fleet.md
	Source    string `json:"source,omitempty"`
	Part      string `json:"part,omitempty"` // "2/3" for text sent in parts
	Content   string `json:"content"`
	At        string `json:"at,omitempty"` // the message's created_at, RFC 3339
	// Verify: fed by the first pass of a new outbox, which reads every
	// source from its start; Honcho may have it from an outbox before.
	Verify bool `json:"verify,omitempty"`
}

// Entry is an identity entry and its class ("" when unknown: withheld).
type Entry struct {
	File  string // memory.md or user.md
	Text  string
	Class string
}

// SessionState is brokerd's word on a session: its taint and trust now.
type SessionState func(ctx context.Context, session string) (policy.Taint, bool, error)

// Options are what an Outbox needs from memoryd.
type Options struct {
	Home   string
	Config *honcho.Config
	Client *honcho.Client
	// Key reads the secret of that name where it is used (nil, or a
	// secret the config does not name: no key).
	Key func(name string) (secrets.Value, error)
	// State asks brokerd's state socket.
	State SessionState
	// Hold runs f while memoryd writes nothing to memory/ (Store.Hold).
	Hold func(f func() error) error
	// Identity gives the entries of memory.md and user.md with the class
	// memoryd keeps for each (the store's own snapshot, taken outside
	// Hold). Nil: the files are read as they are and every entry is of no
	// known class, so withheld.
	Identity func() ([]Entry, error)
	Now      func() time.Time
	Log      func(format string, args ...any)
}

// Status is the outbox's state, as `bxctl memory sync` shows it.
type Status struct {
	Waiting   int    `json:"waiting"`  // committed items not yet in Honcho
	Sent      int64  `json:"sent"`     // items Honcho took
	Failed    int64  `json:"failed"`   // items Honcho refused for good (failed.jsonl)
	Withheld  int64  `json:"withheld"` // records above max_class, never sent
	LastError string `json:"last_error"`
	// LastErrorEntry and LastErrorText are the last error's runbook entry
	// and its text without the link, when it was a refusal
	// (runbook.Public), so that a client makes it again without reading
	// the link out of LastError.
	LastErrorEntry string `json:"last_error_entry,omitempty"`
	LastErrorText  string `json:"last_error_text,omitempty"`
	// LastErrorAt, LastSentAt and NextAttempt are RFC 3339, or "".
	LastErrorAt string `json:"last_error_at"`
	LastSentAt  string `json:"last_sent_at"`
	NextAttempt string `json:"next_attempt"`
}

// cursor is cursor.json.
type cursor struct {
	Version  int                    `json:"version"`
	Outbox   string                 `json:"outbox"` // this outbox's random id, in identity items' ids
	N        int64                  `json:"n"`      // the last committed item
	Withheld int64                  `json:"withheld"`
	Logs     map[string]logCursor   `json:"logs"`  // by "<session>/<epoch>.jsonl"
	Notes    fileCursor             `json:"notes"` // notes.md
	Entries  map[string][]entryMark `json:"entries"`
}

type fileCursor struct {
	Offset int64  `json:"offset"`
	Ino    uint64 `json:"ino"`
}

type logCursor struct {
	fileCursor
	Seq int64 `json:"seq"` // the last record read
}

// entryMark is an identity or fleet entry fed already (sent or
// withheld): a hash of its text, never the text.
type entryMark struct {
	Hash string `json:"hash"`
}

// sent is sent.json.
type sentState struct {
	N      int64  `json:"n"` // the last item delivered or set aside
	Sent   int64  `json:"sent"`
	Failed int64  `json:"failed"`
	LastAt string `json:"last_at,omitempty"`
}

// Outbox is an open outbox. Its methods are safe for concurrent use.
type Outbox struct {
	opts Options
	dir  string

	work sync.Mutex // one Feed or Drain at a time

	mu       sync.Mutex
	queue    *os.File // open for appending
	size     int64    // queue.jsonl's length
	done     int64    // bytes of queue.jsonl at its start that hold done items
	cur      cursor
	sent     sentState
	waiting  []Item
	offsets  []int64 // end offset in queue.jsonl of each waiting item
	lastErr  string
	lastPub  lastRefusal // lastErr's entry and public text, when a refusal
	lastErrT time.Time
	next     time.Time // no attempt before this (backoff)
	failures int
	wake     chan struct{}
	// uncertain are the Honcho sessions ("<workspace>/<session>") where
	// a batch may have been stored without an answer: checked before the
	// next send. Every session is uncertain after Open.
	certain map[string]bool
	ensured map[string]bool
}

// DamagedError says the outbox's files are not what this package wrote.
type DamagedError struct {
	Path string
	Line int
	Err  error
}

func (e *DamagedError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("the outbox is damaged: %s:%d: %v", e.Path, e.Line, e.Err)
	}
	return fmt.Sprintf("the outbox is damaged: %s: %v", e.Path, e.Err)
}

// Open opens (creating it 0700) the outbox of opts.Home and finishes what
// a crash cut short: items that were appended but not committed and a
// torn last line are cut from queue.jsonl.
func Open(opts Options) (*Outbox, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = func(string, ...any) {}
	}
	dir := filepath.Join(opts.Home, Dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", dir, err)
	}
	o := &Outbox{opts: opts, dir: dir, wake: make(chan struct{}, 1), certain: map[string]bool{}, ensured: map[string]bool{}}
	if err := readJSON(o.path(cursorFile), &o.cur); err != nil {
		return nil, err
	}
	if o.cur.Outbox == "" {
		b := make([]byte, 6)
		rand.Read(b)
		o.cur = cursor{Version: 1, Outbox: hex.EncodeToString(b)}
		if err := o.writeCursor(o.cur); err != nil {
			return nil, err
		}
	}
	if err := readJSON(o.path(sentFile), &o.sent); err != nil {
		return nil, err
	}
	if err := o.loadQueue(); err != nil {
		return nil, err
	}
	return o, nil
}

func (o *Outbox) path(name string) string { return filepath.Join(o.dir, name) }

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &DamagedError{Path: path, Err: err}
	}
	return nil
}

// loadQueue reads queue.jsonl: the committed items after sent.n wait;
// what follows the cursor's n is cut off.
func (o *Outbox) loadQueue() error {
	p := o.path(queueFile)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("cannot open %s: %w", p, err)
	}
	keep, err := o.scanQueue(f)
	if err != nil {
		f.Close()
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	if fi.Size() != keep {
		if err := f.Truncate(keep); err != nil {
			f.Close()
			return fmt.Errorf("cannot cut %s to its committed items: %w", p, err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return err
		}
	}
	if _, err := f.Seek(keep, io.SeekStart); err != nil {
		f.Close()
		return err
	}
	o.queue, o.size = f, keep
	if o.sent.N > o.cur.N {
		return &DamagedError{Path: o.path(sentFile), Err: fmt.Errorf("it says item %d was sent, but the last committed is %d", o.sent.N, o.cur.N)}
	}
	if n := int64(len(o.waiting)); o.cur.N-o.sent.N != n {
		return &DamagedError{Path: p, Err: fmt.Errorf("items %d to %d are committed but %d of them are in the file", o.sent.N+1, o.cur.N, n)}
	}
	return nil
}

// scanQueue reads the items of f and returns the length of its committed
// part.
func (o *Outbox) scanQueue(f *os.File) (int64, error) {
	r := bufio.NewReaderSize(f, 1<<16)
	var off int64
	line := 0
	prev := int64(-1)
	for {
		b, err := r.ReadBytes('\n')
		if err == io.EOF {
			return off, nil // a torn last line (or none) is not kept
		}
		if err != nil {
			return 0, fmt.Errorf("cannot read %s: %w", o.path(queueFile), err)
		}
		line++
		var it Item
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&it); err != nil {
			return 0, &DamagedError{Path: o.path(queueFile), Line: line, Err: err}
		}
		switch {
		case prev >= 0 && it.N != prev+1:
			return 0, &DamagedError{Path: o.path(queueFile), Line: line, Err: fmt.Errorf("item %d follows item %d", it.N, prev)}
		case prev < 0 && it.N > o.sent.N+1:
			return 0, &DamagedError{Path: o.path(queueFile), Line: line, Err: fmt.Errorf("the first item is %d, but item %d has not been sent", it.N, o.sent.N+1)}
		}
		prev = it.N
		if it.N > o.cur.N {
			return off, nil // appended by a pass that did not commit
		}
		end := off + int64(len(b))
		if it.N <= o.sent.N {
			o.done = end
		} else {
			o.waiting = append(o.waiting, it)
			o.offsets = append(o.offsets, end)
		}
		off = end
	}
}

func (o *Outbox) writeCursor(c cursor) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(o.path(cursorFile), b, 0o600)
}

func (o *Outbox) writeSent(s sentState) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(o.path(sentFile), b, 0o600)
}

// commit appends items (numbered from the cursor's n) and then writes
// the cursor next: the items and the sources' new positions become one
// step. The caller holds o.work.
func (o *Outbox) commit(items []Item, next cursor) error {
	o.mu.Lock()
	base := o.cur.N
	o.mu.Unlock()
	var buf bytes.Buffer
	var ends []int64
	o.mu.Lock()
	size := o.size
	o.mu.Unlock()
	for i := range items {
		items[i].N = base + int64(i) + 1
		b, err := json.Marshal(items[i])
		if err != nil {
			return err
		}
		buf.Write(b)
		buf.WriteByte('\n')
		ends = append(ends, size+int64(buf.Len()))
	}
	next.N = base + int64(len(items))
	if buf.Len() > 0 {
		if _, err := o.queue.WriteAt(buf.Bytes(), size); err != nil {
			return fmt.Errorf("cannot append to %s: %w", o.path(queueFile), err)
		}
		if err := o.queue.Sync(); err != nil {
			return fmt.Errorf("cannot sync %s: %w", o.path(queueFile), err)
		}
	}
	if err := o.writeCursor(next); err != nil {
		return err
	}
	o.mu.Lock()
	o.size += int64(buf.Len())
	o.cur = next
	o.waiting = append(o.waiting, items...)
	o.offsets = append(o.offsets, ends...)
	o.mu.Unlock()
	return nil
}

// delivered marks the first k waiting items done (failed of them set
// aside) and compacts queue.jsonl when done items fill most of it. The
// caller holds o.work.
func (o *Outbox) delivered(k int, failed int64) error {
	o.mu.Lock()
	s := o.sent
	s.N = o.waiting[k-1].N
	s.Sent += int64(k) - failed
	s.Failed += failed
	if int64(k) > failed {
		s.LastAt = o.opts.Now().UTC().Format(time.RFC3339)
	}
	o.mu.Unlock()
	if err := o.writeSent(s); err != nil {
		return err
	}
	o.mu.Lock()
	o.sent = s
	o.done = o.offsets[k-1]
	o.waiting = o.waiting[k:]
	o.offsets = o.offsets[k:]
	compact := o.done > 1<<20 && o.done*2 > o.size
	o.mu.Unlock()
	if compact {
		return o.compact()
	}
	return nil
}

// compact rewrites queue.jsonl with the waiting items only.
func (o *Outbox) compact() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	tmp := o.path(queueFile + ".new")
	var buf bytes.Buffer
	ends := make([]int64, len(o.waiting))
	for i, it := range o.waiting {
		b, err := json.Marshal(it)
		if err != nil {
			return err
		}
		buf.Write(b)
		buf.WriteByte('\n')
		ends[i] = int64(buf.Len())
	}
	if err := atomicfile.WriteFile(tmp, buf.Bytes(), 0o600); err != nil {
		return err
	}
	f, err := os.OpenFile(tmp, os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, o.path(queueFile)); err != nil {
		f.Close()
		return err
	}
	if err := atomicfile.SyncDir(o.dir); err != nil {
		f.Close()
		return err
	}
	o.queue.Close()
	o.queue, o.size, o.done, o.offsets = f, int64(buf.Len()), 0, ends
	return nil
}

// setAside appends an item Honcho refused for good to failed.jsonl.
func (o *Outbox) setAside(it Item, why error) error {
	f, err := os.OpenFile(o.path(failedFile), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	b, err := json.Marshal(struct {
		Item
		Error string `json:"error"`
		Time  string `json:"time"`
	}{it, why.Error(), o.opts.Now().UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		return err
	}
	return f.Sync()
}

// Status is the outbox's state now.
func (o *Outbox) Status() Status {
	o.mu.Lock()
	defer o.mu.Unlock()
	st := Status{Waiting: len(o.waiting), Sent: o.sent.Sent, Failed: o.sent.Failed, Withheld: o.cur.Withheld,
		LastError: o.lastErr, LastErrorEntry: o.lastPub.entry, LastErrorText: o.lastPub.text, LastSentAt: o.sent.LastAt}
	if !o.lastErrT.IsZero() {
		st.LastErrorAt = o.lastErrT.UTC().Format(time.RFC3339)
	}
	if len(o.waiting) > 0 && !o.next.IsZero() {
		st.NextAttempt = o.next.UTC().Format(time.RFC3339)
	}
	return st
}

// Close closes the queue file.
func (o *Outbox) Close() error {
	o.work.Lock()
	defer o.work.Unlock()
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.queue == nil {
		return nil
	}
	err := o.queue.Close()
	o.queue = nil
	return err
}
