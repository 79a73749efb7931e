package cassette

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sync"

	"boxmaker/core/atomicfile"
	"boxmaker/core/jsonkeys"
	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const (
	textNoDirectory runbook.Quoted = "cannot create the Cassette directory"
	textPublish     runbook.Quoted = "failed to publish cassette"
)

// JournalPath is the journal of a Cassette destination.
func JournalPath(dest string) string { return dest + ".journal" }

// line is one line of a journal: a Step, or the Run (kind run), or an
// Agent (kind agent).
type line struct {
	Step
	Run     *RunInfo `json:"run,omitempty"`
	Spawned *Agent   `json:"spawned,omitempty"`
}

// Journal is a Run's journal, open for appending. Its methods may be
// called from any goroutine.
type Journal struct {
	Path string
	Dest string

	mu      sync.Mutex
	f       *os.File
	seq     int
	size    int64
	pending []line // clock readings, written with the next step
}

// MakeDir makes the destination's directory when it is missing. It is
// the first thing a recording Run does, before its first Agent.
func MakeDir(dest string) error {
	dir := filepath.Dir(dest)
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return runbook.Refuse(runbook.YaagNoCassetteDir, "%s %s for %s: %v; give --record a path whose directory yaag can make",
			textNoDirectory, dir, dest, unwrapPath(err))
	}
	return nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}

// CreateJournal starts the journal of a Run recording to dest, with its
// first line. A journal already there is an interrupted Run's: it is not
// overwritten. The journal appears with its Run line already in it (a
// file of its own, written and synced, then linked at the journal's
// path, which fails if one is there): a Run killed at any moment leaves
// no journal or one that reads, never an empty one. A kill before the
// link leaves the unlinked file's name (.<journal>.new-*) behind.
func CreateJournal(dest string, run RunInfo) (*Journal, error) {
	if err := MakeDir(dest); err != nil {
		return nil, err
	}
	path := JournalPath(dest)
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".new-*")
	if err != nil {
		return nil, fmt.Errorf("cannot start the journal: %v", unwrapPath(err))
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	j := &Journal{Path: path, Dest: dest, f: f} // writes go to its end: only j writes, in order
	if err := j.write(line{Step: Step{Kind: KindRun}, Run: &run}); err != nil {
		f.Close()
		return nil, err
	}
	err = os.Link(tmp, path)
	if errors.Is(err, fs.ErrExist) {
		f.Close()
		return nil, fmt.Errorf("%s exists: a Run that recorded to %s was interrupted; continue it with --resume %s, or remove the journal", path, dest, dest)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot start the journal: %v", unwrapPath(err))
	}
	if err := atomicfile.SyncDir(filepath.Dir(path)); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	return j, nil
}

// Spawned appends an Agent.
func (j *Journal) Spawned(a Agent) error {
	return j.append(line{Step: Step{Kind: KindAgent}, Spawned: &a})
}

// Clock notes one reading of the program's clock. It is written, without
// a sync of its own, with the next step (or Flush): a reading matters only
// to the steps that follow it.
func (j *Journal) Clock(ms int64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	v := ms
	j.pending = append(j.pending, line{Step: Step{Kind: KindClock, Value: &v}})
}

// Flush writes the clock readings not written yet, and syncs.
func (j *Journal) Flush() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.pending) == 0 || j.f == nil {
		return nil
	}
	return j.writeLocked()
}

// Step appends a step and returns it with its seq.
func (j *Journal) Step(s Step) (Step, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.pending = append(j.pending, line{Step: s})
	if err := j.writeLocked(); err != nil {
		return s, err
	}
	s.Seq = j.seq
	return s, nil
}

func (j *Journal) append(l line) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.pending = append(j.pending, l)
	return j.writeLocked()
}

func (j *Journal) write(l line) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.encodeAndSync([]line{l})
}

// writeLocked numbers the pending lines, writes them in one write and
// syncs: when it returns nil they are on disk.
func (j *Journal) writeLocked() error {
	lines := j.pending
	for i := range lines {
		lines[i].Seq = j.seq + 1 + i
	}
	if err := j.encodeAndSync(lines); err != nil {
		return err
	}
	j.seq += len(lines)
	j.pending = nil
	return nil
}

func (j *Journal) encodeAndSync(lines []line) error {
	if j.f == nil {
		return errors.New("the journal is closed")
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	if _, err := j.f.Write(b.Bytes()); err != nil {
		return fmt.Errorf("cannot write the journal %s: %v", j.Path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("cannot sync the journal %s: %v", j.Path, err)
	}
	j.size += int64(b.Len())
	return nil
}

// Close closes the journal file, leaving it on disk.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil
	}
	var err error
	if len(j.pending) > 0 {
		err = j.writeLocked()
	}
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	j.f = nil
	return err
}

// Contents writes what is pending and closes the journal, and returns
// what this Journal wrote, read back through its own file: not the file
// at Path, which whoever can write the directory may have replaced
// meanwhile (the Cassette is published from what the Run recorded).
func (j *Journal) Contents() ([]byte, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil, errors.New("the journal is closed")
	}
	var err error
	if len(j.pending) > 0 {
		err = j.writeLocked()
	}
	data := make([]byte, j.size)
	if err == nil {
		_, err = j.f.ReadAt(data, 0)
	}
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	j.f = nil
	if err != nil {
		return nil, fmt.Errorf("cannot read the journal %s back: %v", j.Path, err)
	}
	return data, nil
}

// Remove closes and deletes the journal: its Cassette is published.
func (j *Journal) Remove() error {
	j.Close()
	if err := os.Remove(j.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return atomicfile.SyncDir(filepath.Dir(j.Path))
}

// Recorded is what a journal holds.
type Recorded struct {
	Run    RunInfo
	Agents []Agent
	Steps  []Step
	Torn   bool // its last line was cut off, and dropped
}

// ParseJournal reads a journal strictly; file names it in errors. A last
// line without its newline is dropped (Torn).
func ParseJournal(file string, data []byte) (*Recorded, error) {
	var r Recorded
	n := 0
	seen := false
	keys := map[string]bool{}
	agents := map[string]bool{}
	for off := 0; off < len(data); {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			r.Torn = true
			break
		}
		raw := data[off : off+i]
		off += i + 1
		n++
		var l line
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return nil, fmt.Errorf("%s:%d: not a journal line: %s", file, n, jsonError(raw, err))
		}
		if dec.More() {
			return nil, fmt.Errorf("%s:%d: more than one JSON value on the line", file, n)
		}
		if err := jsonkeys.Check(raw, reflect.TypeOf(&l)); err != nil {
			return nil, fmt.Errorf("%s:%d: not a journal line: %v", file, n, err)
		}
		if n == 1 {
			if l.Kind != KindRun || l.Run == nil || l.Seq != 0 || l.Spawned != nil {
				return nil, fmt.Errorf("%s:1: the first line is not the Run", file)
			}
			if err := l.Run.check(); err != nil {
				return nil, fmt.Errorf("%s:1: %v", file, err)
			}
			r.Run, seen = *l.Run, true
			continue
		}
		if l.Seq != n-1 {
			return nil, fmt.Errorf("%s:%d: seq %d on line %d (want %d)", file, n, l.Seq, n, n-1)
		}
		switch l.Kind {
		case KindRun:
			return nil, fmt.Errorf("%s:%d: a second Run line", file, n)
		case KindAgent:
			if l.Spawned == nil || l.Run != nil {
				return nil, fmt.Errorf("%s:%d: an agent line without its Agent", file, n)
			}
			bare := l.Step
			bare.Seq, bare.Kind = 0, ""
			if !stepEmpty(bare) {
				return nil, fmt.Errorf("%s:%d: an agent line with step fields", file, n)
			}
			if err := l.Spawned.check(); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", file, n, err)
			}
			if agents[l.Spawned.Agent] {
				return nil, fmt.Errorf("%s:%d: agent %s spawned twice", file, n, l.Spawned.Agent)
			}
			agents[l.Spawned.Agent] = true
			r.Agents = append(r.Agents, *l.Spawned)
		default:
			if l.Run != nil || l.Spawned != nil {
				return nil, fmt.Errorf("%s:%d: a %s step with a Run or an Agent", file, n, l.Kind)
			}
			if err := l.Step.check(); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", file, n, err)
			}
			if l.Kind == KindAsk {
				key := fmt.Sprintf("%s/%d", l.Agent, l.N)
				if !agents[l.Agent] {
					return nil, fmt.Errorf("%s:%d: ask %s before its Agent's spawn", file, n, key)
				}
				if keys[key] {
					return nil, fmt.Errorf("%s:%d: ask %s is recorded twice", file, n, key)
				}
				keys[key] = true
			}
			r.Steps = append(r.Steps, l.Step)
		}
	}
	if !seen {
		return nil, fmt.Errorf("%s: the journal has no Run line", file)
	}
	return &r, nil
}

func stepEmpty(s Step) bool {
	data, _ := json.Marshal(s)
	return string(data) == `{"seq":0,"kind":""}`
}

// Doc is the document a journal's Run would have published as it stood:
// status interrupted, unless end says otherwise.
func (r *Recorded) Doc(end End) *Doc {
	d := &Doc{Format: Format, Version: Version, Run: r.Run, Agents: r.Agents, Steps: r.Steps, End: &end}
	return d
}

// Publish writes d to dest as one document: a temporary file beside it,
// fsync, rename, fsync of the directory. dest's directory must exist.
func Publish(dest string, d *Doc) error {
	data, err := d.Encode()
	if err != nil {
		return runbook.Refuse(runbook.YaagPublishFailed, "%s %s: %v", textPublish, dest, err)
	}
	if err := atomicfile.WriteFile(dest, data, 0o600); err != nil {
		return runbook.Refuse(runbook.YaagPublishFailed, "%s %s: %v; give a writable path", textPublish, dest, unwrapPath(err))
	}
	return nil
}

// Recording names the Run whose journal is at path's journal when there
// is no document at path yet ("" otherwise): a Run that is recording
// there, or was killed while it did.
func Recording(path string) string {
	if _, err := os.Lstat(path); err == nil {
		return ""
	}
	data, err := ReadFile(JournalPath(path), MaxDocument)
	if err != nil {
		return ""
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		data = data[:i+1]
	}
	rec, err := ParseJournal(JournalPath(path), data)
	if err != nil {
		return ""
	}
	return rec.Run.ID
}

// Read reads the document at path. When there is none but a journal
// (its Run was killed), the journal is read and published there as an
// interrupted Run's document, and the journal removed, so that the Run
// continues from it like from any Cassette. recovered says it happened.
func Read(path string) (d *Doc, recovered bool, err error) {
	data, err := ReadFile(path, MaxDocument)
	if err == nil {
		d, err := Parse(path, data)
		return d, false, err
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, false, fmt.Errorf("cannot read %s: %v", path, unwrapPath(err))
	}
	jpath := JournalPath(path)
	jdata, jerr := ReadFile(jpath, MaxDocument)
	if errors.Is(jerr, fs.ErrNotExist) {
		return nil, false, fmt.Errorf("cannot read %s: there is no such file, nor its journal %s", path, jpath)
	}
	if jerr != nil {
		return nil, false, fmt.Errorf("cannot read %s: %v", jpath, unwrapPath(jerr))
	}
	rec, err := ParseJournal(jpath, jdata)
	if err != nil {
		return nil, false, err
	}
	d = rec.Doc(End{Status: EndInterrupted, Error: "the Run ended before it published its Cassette; this document is its journal"})
	if err := d.Check(); err != nil {
		return nil, false, fmt.Errorf("%s: %v", jpath, err)
	}
	if err := Publish(path, d); err != nil {
		return nil, false, err
	}
	if err := os.Remove(jpath); err != nil {
		return nil, false, err
	}
	return d, true, atomicfile.SyncDir(filepath.Dir(path))
}
