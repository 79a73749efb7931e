package honchosync

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"boxmaker/core/home"
	"boxmaker/core/honcho"
	"boxmaker/core/memory"
	"boxmaker/core/policy"
	"boxmaker/core/regularfile"
	"boxmaker/core/sessionid"
	"boxmaker/core/sessionlog"
)

// FleetFile is the owner's list of what this agent shares with every
// agent of the fleet: entries separated by a line holding only §, as in
// memory.md. Only the owner writes it; the memory tool cannot.
const FleetFile = "fleet.md"

// Feed reads what the sources gained since the last pass into the
// outbox, as one commit. A session brokerd cannot be asked about is left
// for the next pass; so is everything when memory/ cannot be read.
func (o *Outbox) Feed(ctx context.Context) error {
	o.work.Lock()
	defer o.work.Unlock()
	return o.feed(ctx)
}

func (o *Outbox) feed(ctx context.Context) error {
	o.mu.Lock()
	next := o.cur
	o.mu.Unlock()
	next.Logs = copyLogs(next.Logs)
	next.Entries = copyEntries(next.Entries)
	var items []Item
	logItems, err := o.feedLogs(ctx, &next)
	items = append(items, logItems...)
	var identity []Entry
	var memErr error
	if o.opts.Identity != nil {
		identity, memErr = o.opts.Identity()
	}
	hold := o.opts.Hold
	if hold == nil {
		hold = func(f func() error) error { return f() }
	}
	if memErr == nil {
		memErr = hold(func() error {
			more, err := o.feedMemory(&next, identity)
			items = append(items, more...)
			return err
		})
	}
	if o.cur.Logs == nil && o.cur.Notes == (fileCursor{}) && o.cur.Entries == nil {
		// Nothing was ever fed: this is a new outbox, reading every
		// source from its start.
		for i := range items {
			items[i].Verify = true
		}
	}
	if cerr := o.commit(items, next); cerr != nil {
		return cerr
	}
	return errors.Join(err, memErr)
}

func copyLogs(m map[string]logCursor) map[string]logCursor {
	out := make(map[string]logCursor, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func copyEntries(m map[string][]entryMark) map[string][]entryMark {
	out := make(map[string][]entryMark, len(m))
	for k, v := range m {
		out[k] = append([]entryMark(nil), v...)
	}
	return out
}

// feedLogs reads the session logs' new records.
func (o *Outbox) feedLogs(ctx context.Context, next *cursor) ([]Item, error) {
	root := filepath.Join(o.opts.Home, home.DirSessions)
	dirs, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", root, err)
	}
	type logPart struct {
		key   string
		epoch int64
		recs  []sessionlog.TextRecord
		end   logCursor
	}
	var items []Item
	var problems []error
	for _, d := range dirs {
		sid := d.Name()
		if !d.IsDir() || !sessionid.Valid(sid) {
			continue
		}
		files, err := os.ReadDir(filepath.Join(root, sid))
		if err != nil {
			problems = append(problems, err)
			continue
		}
		var parts []logPart
		text := false
		for _, f := range files {
			epoch, ok := sessionlog.Epoch(f.Name())
			if !ok {
				continue
			}
			key := sid + "/" + f.Name()
			recs, end, err := readLog(filepath.Join(root, key), next.Logs[key])
			if err != nil {
				problems = append(problems, err)
				continue
			}
			if end != next.Logs[key] {
				parts = append(parts, logPart{key, epoch, recs, end})
				text = text || hasText(recs)
			}
		}
		sort.Slice(parts, func(i, j int) bool { return parts[i].epoch < parts[j].epoch })
		ws, withheld := Trusted, false
		if text {
			taint, untrusted, err := o.opts.State(ctx, sid)
			if err != nil {
				// Nothing is sent without brokerd's word: the records
				// wait for the next pass.
				problems = append(problems, fmt.Errorf("cannot ask brokerd about session %s: %w", sid, err))
				continue
			}
			if untrusted {
				ws = Untrusted
			}
			withheld = taint > o.opts.Config.MaxClass
		}
		for _, p := range parts {
			next.Logs[p.key] = p.end
			for _, r := range p.recs {
				if !sendable(r) {
					continue
				}
				if withheld {
					next.Withheld++
					continue
				}
				peer := PeerOwner
				if r.Type == sessionlog.TypeAssistant {
					peer = PeerAgent
				}
				items = append(items, split(Item{ID: fmt.Sprintf("%s:%d:%d", sid, p.epoch, r.Seq), Workspace: ws, Session: sid,
					Peer: peer, Kind: r.Type, Source: sid, Content: r.Text, At: r.Time})...)
			}
		}
	}
	return items, errors.Join(problems...)
}

// sendable: the text of user and assistant records is synced; tool
// results, baselines and loopd's notes are not, nor empty text (an
// assistant record that only calls tools).
func sendable(r sessionlog.TextRecord) bool {
	return (r.Type == sessionlog.TypeUser || r.Type == sessionlog.TypeAssistant) && strings.TrimSpace(r.Text) != ""
}

func hasText(recs []sessionlog.TextRecord) bool {
	for _, r := range recs {
		if sendable(r) {
			return true
		}
	}
	return false
}

// readLog reads the whole lines of a log after c. A log that is shorter
// than c's offset, or another file, is read from its start, its records
// after c's seq only.
func readLog(path string, c logCursor) ([]sessionlog.TextRecord, logCursor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, c, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, c, err
	}
	ino := uint64(0)
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		ino = st.Ino
	}
	if ino != c.Ino || fi.Size() < c.Offset {
		c = logCursor{fileCursor: fileCursor{Ino: ino}, Seq: c.Seq}
	}
	if fi.Size() == c.Offset {
		return nil, c, nil
	}
	data, err := io.ReadAll(io.NewSectionReader(f, c.Offset, fi.Size()-c.Offset))
	if err != nil {
		return nil, c, err
	}
	whole := bytes.LastIndexByte(data, '\n') + 1
	var recs []sessionlog.TextRecord
	for _, line := range bytes.Split(data[:whole], []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var r sessionlog.TextRecord
		if json.Unmarshal(line, &r) != nil || r.Seq <= c.Seq {
			continue // a damaged line is loopd's to report; a record read before is skipped
		}
		c.Seq = r.Seq
		recs = append(recs, r)
	}
	c.Offset += int64(whole)
	return recs, c, nil
}

// split makes one item per part of at most honcho.MaxContent characters.
func split(it Item) []Item {
	if utf8.RuneCountInString(it.Content) <= honcho.MaxContent {
		return []Item{it}
	}
	var parts []string
	r := []rune(it.Content)
	for len(r) > 0 {
		n := min(len(r), honcho.MaxContent)
		parts = append(parts, string(r[:n]))
		r = r[n:]
	}
	out := make([]Item, len(parts))
	for i, p := range parts {
		out[i] = it
		out[i].ID = fmt.Sprintf("%s:p%d", it.ID, i+1)
		out[i].Part = fmt.Sprintf("%d/%d", i+1, len(parts))
		out[i].Content = p
	}
	return out
}

// feedMemory reads notes.md's new notes and the identity and fleet
// entries added. The caller holds memoryd's store (Hold). identity is the
// store's snapshot of memory.md and user.md with their classes, or nil
// when there is none (the files are read, every entry of no known class).
func (o *Outbox) feedMemory(next *cursor, identity []Entry) ([]Item, error) {
	dir := filepath.Join(o.opts.Home, home.DirMemory)
	items, err := o.feedNotes(filepath.Join(dir, memory.NotesFile), next)
	if err != nil {
		return nil, err
	}
	for _, file := range []string{memory.MemoryFile, memory.UserFile, FleetFile} {
		var entries []Entry
		if file == FleetFile || o.opts.Identity == nil {
			b, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return items, err
			}
			for _, e := range memory.ParseEntries(string(b)) {
				entries = append(entries, Entry{File: file, Text: e})
			}
		} else {
			for _, e := range identity {
				if e.File == file {
					entries = append(entries, e)
				}
			}
		}
		items = append(items, o.feedEntries(file, entries, next)...)
	}
	return items, nil
}

// feedNotes reads notes.md's notes after the cursor. Only a regular file
// is read: a FIFO put in its place must not hang the sync.
func (o *Outbox) feedNotes(path string, next *cursor) ([]Item, error) {
	f, fi, err := regularfile.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ino := uint64(0)
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		ino = st.Ino
	}
	c := next.Notes
	if c.Ino != 0 && (ino != c.Ino || fi.Size() < c.Offset) {
		// notes.md is only appended to; another file, or a shorter one,
		// was put there by hand: its notes are read from the start
		// again, and a note fed before gets the same id and is found in
		// Honcho if it is among the session's latest messages.
		c = fileCursor{}
	}
	c.Ino = ino
	if fi.Size() == c.Offset {
		next.Notes = c
		return nil, nil
	}
	data, err := io.ReadAll(io.NewSectionReader(f, c.Offset, fi.Size()-c.Offset))
	if err != nil {
		return nil, err
	}
	whole := bytes.LastIndexByte(data, '\n') + 1
	var items []Item
	for _, n := range memory.ParseNotes(string(data[:whole])) {
		if strings.TrimSpace(n.Text) == "" {
			continue
		}
		class, err := policy.ParseTaint(n.Class)
		if err != nil {
			class = policy.Secret // a note memoryd did not write: nothing says where it came from
		}
		if class > o.opts.Config.MaxClass {
			next.Withheld++
			continue
		}
		ws := Trusted
		if n.Untrusted {
			ws = Untrusted
		}
		at := ""
		if !n.Time.IsZero() {
			at = n.Time.UTC().Format(time.RFC3339)
		}
		items = append(items, split(Item{ID: fmt.Sprintf("note:%d", c.Offset+n.Offset), Workspace: ws, Session: MemorySession,
			Peer: PeerAgent, Kind: "note", Source: n.Session, Content: n.Text, At: at})...)
	}
	c.Offset += int64(whole)
	next.Notes = c
	return items, nil
}

func entryHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:12])
}

// feedEntries compares a file's entries with those fed before: each new
// entry is an item. An entry removed from the file is not sent: Honcho
// keeps what it was told (docs/specs/honcho.md, section 2). An identity
// entry above max_class, or of no known class, is withheld; fleet.md's
// entries are the owner's to share.
func (o *Outbox) feedEntries(file string, entries []Entry, next *cursor) []Item {
	had := map[string]bool{}
	for _, m := range next.Entries[file] {
		had[m.Hash] = true
	}
	var marks []entryMark
	var items []Item
	for _, e := range entries {
		h := entryHash(e.Text)
		if had[h] {
			marks = append(marks, entryMark{Hash: h})
			continue
		}
		had[h] = true
		marks = append(marks, entryMark{Hash: h})
		if file != FleetFile {
			class, err := policy.ParseTaint(e.Class)
			if err != nil || class > o.opts.Config.MaxClass {
				next.Withheld++
				continue
			}
		}
		it := o.entryItem(file, e.Text)
		it.ID = file + ":" + h
		items = append(items, split(it)...)
	}
	if marks == nil {
		delete(next.Entries, file)
	} else {
		next.Entries[file] = marks
	}
	return items
}

// entryItem is an identity entry (to boxmaker_memory in the trusted
// workspace, as the agent's) or a fleet entry (to the fleet workspace,
// as the owner's, in a session named after this agent).
func (o *Outbox) entryItem(file, text string) Item {
	it := Item{Workspace: Trusted, Session: MemorySession, Peer: PeerAgent, Kind: file, Content: text}
	if file == FleetFile {
		it.Workspace, it.Session, it.Peer = Fleet, o.opts.Config.Agent, PeerOwner
	}
	return it
}
