package audit

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"boxmaker/core/atomicfile"
	"boxmaker/core/daemon"
	"boxmaker/runbook"
)

// DefaultMaxFileSize is where a file is closed and the next one begun when
// Options.MaxFileSize is zero.
const DefaultMaxFileSize = 64 << 20

// maxBatch bounds the records one write carries.
const maxBatch = 1024

// Options are Open's settings.
type Options struct {
	// MaxFileSize: once the current file has reached it, the next batch
	// begins a new file. A file may exceed it by one batch.
	MaxFileSize int64
	// AcceptBreak checks the whole log and, if its chain fails, appends an
	// accepted_break record naming the first failure (--accept-break).
	AcceptBreak bool
	// Now stamps records whose Time is zero. Nil: time.Now.
	Now func() time.Time
	// Log receives the description of a panic inside the ledger (the
	// value and the stack), worth keeping for a bug report, and a witness
	// file that cannot be written. Nil: dropped.
	Log io.Writer
	// Heads receives the witness lines, each written whole as it is
	// (brokerd: its standard error, where journald keeps them, without
	// the "brokerd: " its other lines begin with, so that no line of
	// brokerd's that carries the model's text can pass for one). Nil: Log.
	Heads io.Writer
	// WitnessFile is where the head of the log is witnessed besides Heads
	// (brokerd's [audit] witness_file): a file outside dir, appended to.
	// Open first checks the last head it names against the log
	// (audit-witness-mismatch). Empty: heads go to Heads only.
	WitnessFile string
	// WitnessEvery: a head is witnessed once this many records have been
	// appended since the last, or this many seconds have passed with
	// records not yet witnessed; and at Open and Close. 0: 60.
	WitnessEvery int
	// Reserve is how many bytes of disk the ledger keeps allocated beyond
	// the end of its current file (fallocate FALLOC_FL_KEEP_SIZE), so that
	// records go on being written when something else (a tool) has filled
	// the disk. 0: none. ReserveShort tells when it could not be kept.
	Reserve int64

	beforeWrite func() // tests: runs before each batch is written
	afterWrite  func() // tests: runs after a batch is written and synced, before it is checked
}

// The texts of a poisoned ledger: every call after a failure gets one.
const (
	textEarlierFailure = "an earlier audit write failed; every call is denied until brokerd is restarted"
	textPanicked       = "a thread panicked while holding the ledger; every call is denied until brokerd is restarted"
)

// Ledger is the open log: the one writer of dir, holding its lock.
type Ledger struct {
	dir  string
	opts Options
	lock *daemon.Lock

	recovered   *Recovery
	accepted    *Break
	decided     [][2]string
	openedAt    int          // the latest file at Open, whose decisions are decided
	fileNow     atomic.Int64 // fileNum, for File
	unwitnessed bool         // the witness file named no head

	// owned by the writer goroutine (and by Open before it starts)
	f       *os.File
	fileNum int
	size    int64
	lines   int      // complete lines in the current file
	headPos Position // the last record's line
	held    held
	witness *witnesser
	seq     uint64
	hash    [32]byte
	buf     []byte
	// reservedTo is the offset up to which the current file's space is
	// allocated (Options.Reserve); short is set while it could not be.
	reservedTo int64
	short      atomic.Bool

	mu      sync.Mutex
	wake    *sync.Cond
	queue   []*waiter
	spare   []*waiter
	err     error // set once: poisoned or closed; every later Append gets it
	closing bool
	done    chan struct{}
}

type waiter struct {
	rec   *Record
	seq   uint64
	err   error
	ready chan struct{}
}

// Open takes the log in dir for writing; see the package doc for what it
// checks and repairs. The returned ledger holds dir/.lock until Close (or
// the end of the process).
func Open(dir string, opts Options) (*Ledger, error) {
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, unavailable(err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, unavailable(err)
	}
	if opts.WitnessEvery <= 0 {
		opts.WitnessEvery = DefaultWitnessEvery
	}
	lock, err := takeLock(filepath.Join(dir, ".lock"))
	if err != nil {
		return nil, err
	}
	l := &Ledger{dir: dir, opts: opts, lock: lock, done: make(chan struct{})}
	l.wake = sync.NewCond(&l.mu)
	var wf *os.File
	if opts.WitnessFile != "" {
		// Before anything is written: a log that lost what was witnessed
		// must not be continued as if it were whole.
		held, err := checkLastWitness(dir, opts.WitnessFile)
		if err != nil {
			l.closeFiles()
			return nil, err
		}
		l.unwitnessed = !held
		if wf, err = openWitnessFile(dir, opts.WitnessFile); err != nil {
			l.closeFiles()
			return nil, unavailable(fmt.Errorf("witness file: %w", err))
		}
	}
	if err := l.open(); err != nil {
		if wf != nil {
			wf.Close()
		}
		l.closeFiles()
		return nil, err
	}
	heads := opts.Heads
	if heads == nil {
		heads = opts.Log
	}
	l.witness = newWitnesser(heads, opts.Log, wf, opts.WitnessEvery)
	l.witness.start(l.head(), l.seq > 0)
	go l.writer()
	return l, nil
}

// writeNow writes prefix and one record and syncs, outside the writer
// (Open's recovery and break records).
func (l *Ledger) writeNow(prefix []byte, r *Record) error {
	r.Seq, r.Prev = l.seq+1, hashHex(l.hash)
	if r.Time.IsZero() {
		r.Time = l.opts.Now()
	}
	buf := append([]byte(nil), prefix...)
	buf = appendLine(buf, r)
	h := lineHash(buf[len(prefix):])
	buf = append(buf, '\n')
	if _, err := l.f.Write(buf); err != nil {
		return unavailable(err)
	}
	if err := unix.Fdatasync(int(l.f.Fd())); err != nil {
		return unavailable(fmt.Errorf("sync %s: %w", l.f.Name(), err))
	}
	l.seq, l.hash = r.Seq, h
	l.size += int64(len(buf))
	return nil
}

// beginFile creates file n (0600) and makes its name durable.
func (l *Ledger) beginFile(n int) error {
	f, err := os.OpenFile(logPath(l.dir, n), os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_EXCL|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return unavailable(err)
	}
	if err := f.Chmod(0o600); err != nil { // the umask may have narrowed it
		f.Close()
		return unavailable(err)
	}
	if err := atomicfile.SyncDir(l.dir); err != nil {
		f.Close()
		return unavailable(err)
	}
	if l.f != nil {
		// The finished file gives back what was kept beyond its end.
		l.f.Truncate(l.size)
		l.f.Close()
	}
	l.f, l.fileNum, l.size, l.lines, l.reservedTo = f, n, 0, 0, 0
	l.fileNow.Store(int64(n))
	return l.rememberOrFail()
}

// keepReserve allocates Options.Reserve bytes beyond the end of the
// current file once less than half of it is left. Writes into that space
// need no new blocks; when the disk cannot give them, short is set and the
// ledger goes on in what is left.
func (l *Ledger) keepReserve() {
	if l.opts.Reserve <= 0 || l.f == nil {
		return
	}
	if l.reservedTo-l.size >= l.opts.Reserve/2 {
		return
	}
	if err := unix.Fallocate(int(l.f.Fd()), unix.FALLOC_FL_KEEP_SIZE, l.size, l.opts.Reserve); err != nil {
		l.short.Store(true)
		return
	}
	l.reservedTo = l.size + l.opts.Reserve
	l.short.Store(false)
}

// ReserveShort reports that the ledger could not keep its whole reserve
// at its last write: the disk is full, or nearly.
func (l *Ledger) ReserveShort() bool { return l.short.Load() }

// Decided are the (session, call id) pairs of the decision records in the
// latest file, which Open read whole: brokerd denies a call under one of
// them (core/broker's Config.Decided). Older files are not read at start:
// DecidedBefore reads them for one session.
func (l *Ledger) Decided() [][2]string { return l.decided }

// Recovered is the torn final line Open recovered, or nil.
func (l *Ledger) Recovered() *Recovery { return l.recovered }

// AcceptedBreak is the break Open accepted (its Failure and What), or nil.
func (l *Ledger) AcceptedBreak() *Break { return l.accepted }

// Notices are the lines brokerd prints at start about what Open did, each
// ending with its runbook link.
func (l *Ledger) Notices() []string {
	var out []string
	if l.accepted != nil {
		out = append(out, fmt.Sprintf("audit: accepted the break at %s (%s); %s",
			l.accepted.Failure, l.accepted.What, runbook.Link(runbook.AuditChainBroken)))
	}
	if l.recovered != nil {
		out = append(out, "audit: recovered a torn final line; "+runbook.Link(runbook.AuditRecovered))
	}
	if l.unwitnessed && l.seq > 0 {
		// A first start with a witness, or a witness file removed: the
		// operator should know which.
		out = append(out, fmt.Sprintf("audit: the witness file %s names no head: nothing outside the log vouches for its %d records so far; heads are witnessed there from now on; %s",
			l.opts.WitnessFile, l.seq, runbook.Link(runbook.AuditWitnessMismatch)))
	}
	return out
}

// Append writes r (its Seq, Prev and, when zero, Time are filled in) and
// returns its seq once the record is on disk. Concurrent callers share
// one write and one sync. After a failed write or sync, this call and every
// later one fail with the audit-unavailable refusal: the ledger never tries
// again, because a failed write may have left part of a line that only
// Open deals with.
func (l *Ledger) Append(r Record) (uint64, error) {
	if !r.Type.known() || r.Type == TypeRecovery || r.Type == TypeAcceptedBreak {
		return 0, fmt.Errorf("audit: Append cannot write a record of type %q", r.Type)
	}
	if y := r.Time.UTC().Year(); !r.Time.IsZero() && (y < 1 || y > 9999) {
		return 0, fmt.Errorf("audit: Append cannot write the time %v", r.Time)
	}
	w := &waiter{rec: &r, ready: make(chan struct{})}
	l.mu.Lock()
	if l.err != nil {
		err := l.err
		l.mu.Unlock()
		return 0, err
	}
	l.queue = append(l.queue, w)
	l.wake.Signal()
	l.mu.Unlock()
	<-w.ready
	return w.seq, w.err
}

// Close writes what is queued, closes the log and lets the lock go. Appends
// after Close fail.
func (l *Ledger) Close() error {
	l.mu.Lock()
	if l.closing {
		l.mu.Unlock()
		<-l.done
		return nil
	}
	l.closing = true
	l.wake.Signal()
	l.mu.Unlock()
	<-l.done
	l.witness.close()
	return l.closeFiles()
}

func (l *Ledger) closeFiles() error {
	var err error
	if l.f != nil {
		err = l.f.Close()
		l.f = nil
	}
	if l.lock != nil {
		l.lock.Release()
		l.lock = nil
	}
	return err
}

// writer is the one goroutine that writes: it takes everything queued
// since its last write as one batch.
func (l *Ledger) writer() {
	defer close(l.done)
	for {
		l.mu.Lock()
		for len(l.queue) == 0 && !l.closing {
			l.wake.Wait()
		}
		if len(l.queue) == 0 {
			if l.err == nil {
				l.err = runbook.Refuse(runbook.AuditUnavailable, "the audit log is closed")
			}
			l.mu.Unlock()
			return
		}
		batch := l.queue
		if len(batch) > maxBatch {
			batch = batch[:maxBatch:maxBatch]
			l.queue = l.queue[maxBatch:]
		} else {
			l.queue, l.spare = l.spare[:0], batch
		}
		poisoned := l.err
		l.mu.Unlock()

		if poisoned != nil {
			for _, w := range batch {
				w.err = poisoned
				close(w.ready)
			}
			continue
		}
		err, later := l.writeBatch(batch)
		if err != nil {
			l.mu.Lock()
			l.err = later
			l.mu.Unlock()
		}
		for _, w := range batch {
			w.err = err
			if err != nil {
				w.seq = 0
			}
			close(w.ready)
		}
		if err == nil {
			l.witness.appended(l.head(), len(batch))
		}
	}
}

// writeBatch writes and syncs one batch. On failure it returns the error
// for the batch's callers and the one for every later call.
func (l *Ledger) writeBatch(batch []*waiter) (err, later error) {
	defer func() {
		if p := recover(); p != nil {
			if l.opts.Log != nil {
				// One write per line: a daemon's log writer takes each
				// write as one line (core/termsafe).
				fmt.Fprintf(l.opts.Log, "audit: panic while holding the ledger: %v\n", p)
				for _, line := range strings.Split(strings.TrimRight(string(debug.Stack()), "\n"), "\n") {
					fmt.Fprintf(l.opts.Log, "audit: %s\n", line)
				}
			}
			err = runbook.Refuse(runbook.AuditUnavailable, textPanicked)
			later = err
		}
	}()
	if l.opts.beforeWrite != nil {
		l.opts.beforeWrite()
	}
	// The file must still be the one brokerd writes, or what it holds so
	// far and what comes now would be out of every reader's sight.
	if err := l.checkHeld(true); err != nil {
		return unavailable(err), runbook.Refuse(runbook.AuditUnavailable, textEarlierFailure)
	}
	if l.size >= l.opts.MaxFileSize {
		if err := l.beginFile(l.fileNum + 1); err != nil {
			return err, runbook.Refuse(runbook.AuditUnavailable, textEarlierFailure)
		}
	}
	buf := l.buf[:0]
	seq, hash := l.seq, l.hash
	now := l.opts.Now()
	for _, w := range batch {
		seq++
		w.rec.Seq, w.rec.Prev = seq, hashHex(hash)
		if w.rec.Time.IsZero() {
			w.rec.Time = now
		}
		start := len(buf)
		buf = appendLine(buf, w.rec)
		hash = lineHash(buf[start:])
		buf = append(buf, '\n')
		w.seq = seq
	}
	l.buf = buf
	n, werr := l.f.Write(buf)
	l.size += int64(n)
	if werr == nil {
		if serr := unix.Fdatasync(int(l.f.Fd())); serr != nil {
			werr = fmt.Errorf("sync %s: %w", l.f.Name(), serr)
		}
	}
	if werr == nil && l.opts.afterWrite != nil {
		l.opts.afterWrite()
	}
	// A file replaced while this batch was written holds the batch where
	// no reader looks: the calls must not go on.
	if werr == nil {
		werr = l.checkHeld(false)
	}
	if werr == nil {
		// Before remember: allocating changes the file's change time.
		l.keepReserve()
		werr = l.remember()
	}
	if werr != nil {
		return unavailable(werr), runbook.Refuse(runbook.AuditUnavailable, textEarlierFailure)
	}
	l.seq, l.hash = seq, hash
	l.lines += len(batch)
	l.headPos = Position{File: fileName(l.fileNum), Line: l.lines}
	return nil, nil
}
