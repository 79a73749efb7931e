package memory

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"boxmaker/sanitize"
)

// StagedEdit is an identity write waiting for the owner: `bxctl memory
// review` shows it (text included: the owner reviews the text), `bxctl
// memory accept EDIT` applies it and `bxctl memory reject EDIT` drops it.
type StagedEdit struct {
	Edit    string    `json:"edit"`
	Time    time.Time `json:"time"`
	Session string    `json:"session"`
	Class   string    `json:"class"`
	Actions []Action  `json:"actions"`
}

func stagedName(edit string) string { return filepath.Join("staged", edit+".json") }

// stage keeps a checked call for review. The call passed every check
// against the files as they are now; Accept checks again.
func (s *Store) stage(c Call, acts []Action, files []string, held string) (Result, error) {
	r := Result{Edit: s.newID(), Session: c.Session, Outcome: Staged, Files: files, Held: held}
	b, err := json.MarshalIndent(StagedEdit{Edit: r.Edit, Time: s.now().UTC(), Session: c.Session, Class: c.Class, Actions: acts}, "", "  ")
	if err != nil {
		return Result{}, err
	}
	if err := s.commitWith(redoRecord{Replace: []replaceOp{{File: stagedName(r.Edit), Data: string(b) + "\n"}}}, r); err != nil {
		return Result{}, err
	}
	r.Answer = fmt.Sprintf("staged for the owner's review as edit %s: %s will change when the owner accepts it", r.Edit, joinIdentity(files))
	return r, nil
}

func joinIdentity(files []string) string {
	var id []string
	for _, f := range files {
		if f != NotesFile {
			id = append(id, f)
		}
	}
	if len(id) == 2 {
		return id[0] + " and " + id[1]
	}
	if len(id) == 1 {
		return id[0]
	}
	return NotesFile
}

// Review lists the staged edits, oldest first.
func (s *Store) Review() ([]StagedEdit, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids, err := s.stagedIDs()
	if err != nil {
		return nil, err
	}
	var out []StagedEdit
	for _, id := range ids {
		e, err := s.readStaged(id)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

func (s *Store) readStaged(edit string) (StagedEdit, error) {
	if editNumber(edit) < 0 {
		return StagedEdit{}, fmt.Errorf("%q is not an edit id (they look like e12)", edit)
	}
	p := s.path(stagedName(edit))
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return StagedEdit{}, fmt.Errorf("no staged edit %s: bxctl memory review lists them", edit)
	}
	if err != nil {
		return StagedEdit{}, fmt.Errorf("cannot read %s: %w", p, err)
	}
	var e StagedEdit
	if err := json.Unmarshal(b, &e); err != nil {
		return StagedEdit{}, fmt.Errorf("%s is damaged: %v", p, err)
	}
	return e, nil
}

// Accept applies a staged edit to the files as they are now. It fails,
// leaving the edit staged, when the edit no longer applies (an entry it
// replaces is gone, a file would go over its limit) or when a refuse rule
// added since fires; reject it then.
func (s *Store) Accept(edit string) (Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.readStaged(edit)
	if err != nil {
		return Result{}, err
	}
	for _, a := range e.Actions {
		if f := sanitize.Refusals(a.Text); a.Text != "" && len(f) > 0 {
			return Result{}, fmt.Errorf("edit %s breaks the refuse rule %s now: reject it", edit, f[0].Rule)
		}
	}
	p, msg, err := s.plan(e.Actions)
	if err != nil {
		return Result{}, err
	}
	if msg != "" {
		return Result{}, fmt.Errorf("edit %s no longer applies: %s", edit, msg)
	}
	var files []string
	for _, a := range e.Actions {
		if f := a.Target(); !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	rec, err := s.record(e.Session, e.Class, edit, e.Actions, p)
	if err != nil {
		return Result{}, err
	}
	r := Result{Edit: edit, Session: e.Session, Outcome: Accepted, Files: files, Answer: successAnswer(files)}
	rec.Delete = []string{stagedName(edit)}
	if err := s.commitWith(rec, r); err != nil {
		return Result{}, err
	}
	return r, nil
}

// Reject drops a staged edit; the files are not changed.
func (s *Store) Reject(edit string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.readStaged(edit)
	if err != nil {
		return err
	}
	r := Result{Edit: edit, Session: e.Session, Outcome: Rejected}
	return s.commitWith(redoRecord{Delete: []string{stagedName(edit)}}, r)
}
