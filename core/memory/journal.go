package memory

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// Outcome is what became of an edit.
type Outcome string

// The outcomes of edits, as the journal and `bxctl memory log` write them.
const (
	Updated   Outcome = "updated"   // memory.md or user.md changed
	Noted     Outcome = "noted"     // only notes were written
	Staged    Outcome = "staged"    // waiting for the owner's review
	Accepted  Outcome = "accepted"  // a staged edit the owner accepted (and applied)
	Rejected  Outcome = "rejected"  // a staged edit the owner rejected
	Flagged   Outcome = "flagged"   // a flag rule fired: kept as untrusted notes
	Refused   Outcome = "refused"   // a refuse rule fired: nothing was written
	Untrusted Outcome = "untrusted" // the session is untrusted: kept as untrusted notes
	// Invalid is an answer to a call that could not be done (unknown
	// action, no such entry, over a limit). It is not an edit: nothing is
	// journalled.
	Invalid Outcome = "invalid"
)

// LogEntry is one line of the journal: an edit and its outcome. It never
// holds the text of the edit.
type LogEntry struct {
	Edit    string    `json:"edit"`
	Time    time.Time `json:"time"`
	Session string    `json:"session,omitempty"`
	Outcome Outcome   `json:"outcome"`
	Rule    string    `json:"rule,omitempty"`
	Files   []string  `json:"files,omitempty"`
}

// String is the outcome as `bxctl memory log` shows it: "flagged <rule>",
// "refused <rule>", "updated", ...
func (e LogEntry) String() string {
	if e.Rule != "" {
		return string(e.Outcome) + " " + e.Rule
	}
	return string(e.Outcome)
}

func journalLine(e LogEntry) string {
	b, err := json.Marshal(e)
	if err != nil {
		panic(err) // a struct of strings and a time always marshals
	}
	return string(b) + "\n"
}

// Log lists the journal's edits, oldest first. A staged edit appears once
// as staged and again when it is accepted or rejected.
func (s *Store) Log() ([]LogEntry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readJournal()
}

// readJournal reads journal.jsonl. Lines are appended through redo
// records, so a line cut off by a crash is finished by Open; a damaged
// line is an error.
func (s *Store) readJournal() ([]LogEntry, error) {
	p := s.path(JournalFile)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", p, err)
	}
	var out []LogEntry
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	line := 0
	for sc.Scan() {
		line++
		var e LogEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", p, line, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", p, err)
	}
	return out, nil
}
