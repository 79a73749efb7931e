package audit

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"boxmaker/core/regularfile"
	"boxmaker/runbook"
)

// Head is the last record of the log at some moment: where it is, its seq
// and the SHA-256 of its line. A witness line names one.
type Head struct {
	Position
	Seq    uint64
	SHA256 string
}

// String is the witness line: "audit: head <file>:<line> seq <n> sha256 <hash>".
func (h Head) String() string {
	return fmt.Sprintf("audit: head %s:%d seq %d sha256 %s", h.File, h.Line, h.Seq, h.SHA256)
}

// Compiled at its first use, not at package init: a counted repetition
// compiles to a copy of its class per count, and every role's start paid
// for it (D362).
var headRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^audit: head ([0-9]{6,}\.jsonl):([0-9]+) seq ([0-9]+) sha256 ([0-9a-f]{64})$`)
})

// ParseHead reads a witness line; ok is false for any other line.
func ParseHead(line string) (Head, bool) {
	m := headRE().FindStringSubmatch(strings.TrimSuffix(line, "\r"))
	if m == nil || fileNumber(m[1]) < 0 {
		return Head{}, false
	}
	n, err1 := strconv.Atoi(m[2])
	seq, err2 := strconv.ParseUint(m[3], 10, 64)
	if err1 != nil || err2 != nil || n < 1 || seq < 1 {
		return Head{}, false
	}
	return Head{Position: Position{File: m[1], Line: n}, Seq: seq, SHA256: m[4]}, true
}

// Witness is a head as a witness saw it, and where the witness said so.
type Witness struct {
	Head
	Source Position // the witness file (or "stdin") and its line
}

// ReadWitnesses takes every witness line of r, which may hold other lines
// too (brokerd's whole journal: journalctl -u brokerd -o cat). A witness
// line is one that is exactly a head line: brokerd writes them whole, and
// its log lines can never begin with text the model chose (core/termsafe
// escapes their line feeds), so a head quoted inside another line is not
// one.
func ReadWitnesses(r io.Reader, source string) ([]Witness, error) {
	var out []Witness
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		line, err := br.ReadString('\n')
		if h, ok := ParseHead(strings.TrimSuffix(line, "\n")); ok {
			out = append(out, Witness{Head: h, Source: Position{File: source, Line: n}})
		}
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

// WitnessFinding is a witnessed head the log does not hold: the log was
// cut below it, or a line at or before it was changed.
type WitnessFinding struct {
	Witness
	Found string // what the log holds instead
}

func (f WitnessFinding) String() string {
	return fmt.Sprintf("%s: witnessed head %s:%d seq %d sha256 %s; %s", f.Source, f.File, f.Line, f.Seq, f.SHA256, f.Found)
}

// DefaultWitnessEvery is Options.WitnessEvery when it is 0.
const DefaultWitnessEvery = 60

// witnesser writes the head out of the log's reach: to the writer given
// (brokerd's standard error, which journald keeps) and to the witness
// file, at start, at stop, and once every records have been appended or
// every seconds have passed with records not yet witnessed.
type witnesser struct {
	out   io.Writer // the head lines (Options.Heads)
	log   io.Writer // the ledger's other lines (Options.Log)
	file  *os.File  // nil: no witness file
	every int

	mu      sync.Mutex
	head    Head
	have    bool
	since   int  // records since the last witnessed head
	failed  bool // the witness file could not be written (said once)
	stop    chan struct{}
	stopped chan struct{}
}

func newWitnesser(out, log io.Writer, file *os.File, every int) *witnesser {
	return &witnesser{out: out, log: log, file: file, every: every, stop: make(chan struct{}), stopped: make(chan struct{})}
}

// start witnesses the head Open found and begins the clock.
func (w *witnesser) start(h Head, have bool) {
	w.mu.Lock()
	w.head, w.have = h, have
	w.mu.Unlock()
	w.flush(true)
	go w.loop()
}

// appended tells of n more records; h is the head after them. It
// witnesses the head at once when every records have come since the last:
// the writer calls it after telling the batch's callers, before it writes
// the next batch.
func (w *witnesser) appended(h Head, n int) {
	w.mu.Lock()
	w.head, w.have = h, true
	w.since += n
	due := w.since >= w.every
	w.mu.Unlock()
	if due {
		w.flush(false)
	}
}

func (w *witnesser) loop() {
	defer close(w.stopped)
	tick := time.NewTicker(time.Duration(w.every) * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-tick.C:
		}
		w.flush(false)
	}
}

// flush writes the head when records came since the last one (or always).
func (w *witnesser) flush(always bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.have || (!always && w.since == 0) {
		return
	}
	w.since = 0
	line := w.head.String() + "\n"
	if w.out != nil {
		io.WriteString(w.out, line)
	}
	if w.file == nil || w.failed {
		return
	}
	_, err := w.file.WriteString(line)
	if err == nil {
		err = unix.Fdatasync(int(w.file.Fd()))
	}
	if err != nil {
		// The log itself is still written and the head still goes to
		// standard error; the witness file is evidence beside them.
		w.failed = true
		if w.log != nil {
			fmt.Fprintf(w.log, "audit: cannot write the witness file %s: %v; heads go on being written here only; %s\n",
				w.file.Name(), err, runbook.Link(runbook.AuditWitnessMismatch))
		}
	}
}

// close witnesses the last head and closes the witness file.
func (w *witnesser) close() {
	close(w.stop)
	<-w.stopped
	w.flush(false)
	if w.file != nil {
		w.file.Close()
	}
}

// openWitnessFile checks that path is outside the log's directory, makes
// its directory (0700) and opens it to append (0600).
func openWitnessFile(dir, path string) (*os.File, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("the witness file %q is not an absolute path", path)
	}
	wdir := filepath.Dir(filepath.Clean(path))
	if err := os.MkdirAll(wdir, 0o700); err != nil {
		return nil, err
	}
	realW, err1 := filepath.EvalSymlinks(wdir)
	realA, err2 := filepath.EvalSymlinks(dir)
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	if realW == realA || strings.HasPrefix(realW, realA+string(filepath.Separator)) {
		return nil, fmt.Errorf("the witness file %s is inside the audit directory %s: it must be kept apart from the log it witnesses", path, dir)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// lastWitness is the last head line of the witness file at path, if any.
// Only a regular file is read: a FIFO there must not hang brokerd's start.
func lastWitness(path string) (*Witness, error) {
	f, _, err := regularfile.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ws, err := ReadWitnesses(f, path)
	if err != nil || len(ws) == 0 {
		return nil, err
	}
	return &ws[len(ws)-1], nil
}

// checkWitness reports how the log in dir does not hold the head w saw,
// or "" when it does.
func checkWitness(dir string, w Witness) (string, error) {
	f, err := os.Open(filepath.Join(dir, w.File))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("the log has no %s", w.File), nil
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	var found *parsedLine
	_, lines, err := eachLine(f, func(n int, raw []byte) {
		if n == w.Line {
			found = new(parsedLine)
			found.parse(raw)
		}
	})
	if err != nil {
		return "", err
	}
	if found == nil {
		return fmt.Sprintf("%s ends at line %d", w.File, lines), nil
	}
	return headDiffers(w.Head, found), nil
}

// headDiffers compares the line at a witnessed head with what the witness
// saw: "" when it is the same line.
func headDiffers(h Head, l *parsedLine) string {
	sum := hashHex(l.hash)
	if sum == h.SHA256 {
		return ""
	}
	what := "a line that is not a record"
	if l.err == nil {
		what = fmt.Sprintf("seq %d", l.rec.Seq)
	}
	return fmt.Sprintf("the log has %s with sha256 %s there", what, sum)
}
