package runs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"boxmaker/core/loopwire"
	"boxmaker/core/yaag/agent"
	"boxmaker/core/yaag/cassette"
	"boxmaker/core/yaag/engine"
	"boxmaker/runbook"
)

// A Checkpoint, a Cassette and a journal are files the Run's Agents may
// have written. What they say is checked against what the home recorded,
// which no Agent can write: the record of the Run that left the document
// (it must exist, and the document must be the one it left), the answers
// the person gave (yaag answer records them there), and the one resume
// it allows (the record's resumedBy, set under its lock).

// Texts the troubleshooting page quotes.
const (
	textNotRecorded     runbook.Quoted = "which this home has no record of"
	textNotTheRunsLeft  runbook.Quoted = "is not the document that Run left"
	textOnlyInDocument  runbook.Quoted = "was not given by you"
	textAnswersCountFor runbook.Quoted = "answers count only when you give them"
)

// notRecorded refuses a document whose Run this home never recorded.
func notRecorded(path string, d *cassette.Doc) error {
	return runbook.Refuse(runbook.YaagNotRecorded, "%s continues Run %s, %s: a Checkpoint or journal resumes, and takes answers, only in the home whose Run wrote it (yaag runs lists this home's Runs)",
		path, d.Run.ID, textNotRecorded)
}

// notTheRunsDocument refuses a document that names a Run this home
// recorded but is not what that Run left.
func notTheRunsDocument(path string, d *cassette.Doc, why string) error {
	return runbook.Refuse(runbook.YaagNotRecorded, "%s names Run %s but %s: %s; resume the document the Run wrote (yaag status %s names it), or record the Run again",
		path, d.Run.ID, textNotTheRunsLeft, why, d.Run.ID)
}

// lockPath is the lock every writer of a Run's record takes once the
// Run has ended: an answer, a claim.
func lockPath(s Store, id string) string { return filepath.Join(s.Dir(), id+".lock") }

// Update changes the record of the ended Run id under its lock: f is
// given the record as read and may change it; it is written when f
// returns nil and changed it. A missing record is NoRunError.
func Update(s Store, id string, f func(r *Record) error) error {
	if !cassette.ValidRunID(id) {
		return &NoRunError{ID: id}
	}
	if _, err := os.Stat(s.Path(id)); err != nil {
		return &NoRunError{ID: id}
	}
	lf, err := os.OpenFile(lockPath(s, id), os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return fmt.Errorf("cannot lock the record of %s: %v", id, err)
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("cannot lock the record of %s: %v", id, err)
	}
	defer syscall.Flock(int(lf.Fd()), syscall.LOCK_UN)
	r, err := s.Read(id)
	if err != nil {
		return err
	}
	before, _ := json.Marshal(r)
	if err := f(&r); err != nil {
		return err
	}
	if after, _ := json.Marshal(r); bytes.Equal(before, after) {
		return nil // unchanged: a Run still writing its own record is left alone
	}
	if r.Status == StatusLost {
		r.Status = StatusRunning // as written: Read derives lost again
	}
	return s.Write(r)
}

// maxLineage bounds the Runs checkLeft walks back from a lost Run: the
// Runs it continued, one resume each.
const maxLineage = 4096

// checkLeft says whether d, read from path, is the document the Run of
// rec left: the one it published when it ended (the identity its record
// keeps), or, for a Run killed before it published (lost) or whose
// publish failed (its record names no Cassette), its journal, which may
// name only that Run's sessions and those of the Runs it continued (see
// lineage). A completed Run's Cassette is a recording and is not
// checked, unless its record says the Run left a document to continue
// (a Checkpoint rewritten as completed).
func checkLeft(s Store, path string, d *cassette.Doc, rec Record) error {
	if rec.Identity != "" {
		switch {
		case cassette.Identity(d) == rec.Identity:
			return nil
		case rec.Status != StatusLost || d.End.Status != cassette.EndInterrupted:
			return notTheRunsDocument(path, d, fmt.Sprintf("its status, sessions or questions are not those this home recorded when the Run %s", rec.Status))
		}
		// Killed between keeping the identity and publishing: its journal.
	} else if !d.Resumable() {
		return nil
	}
	switch {
	case rec.Status != StatusLost && rec.Cassette != "":
		return notTheRunsDocument(path, d, fmt.Sprintf("this home recorded that Run %s, with no document to continue", rec.Status))
	case d.End.Status != cassette.EndInterrupted:
		return notTheRunsDocument(path, d, fmt.Sprintf("the Run left no document, only its journal, and this one says the Run %s", d.End.Status))
	}
	own := lineage(s, rec)
	for _, sess := range cassette.Sessions(d) {
		if !own[sess] {
			return notTheRunsDocument(path, d, fmt.Sprintf("it names session %s, which is none of that Run's", sess))
		}
	}
	return nil
}

// lineage is the sessions a lost Run's journal may name: the Run's own
// (its record's Agents) and those of each Run it continued, walking its
// record's predecessor back while that Run's record says it was resumed
// by the Run after it. A resumed Run carries its predecessor's sessions
// from its start, and its record learns them only as the engine plays
// them back: killed before that, its journal names sessions its
// predecessor's record has. Only the home's records are read, which no
// Agent writes; the walk stops at a Run the next one did not claim.
func lineage(s Store, rec Record) map[string]bool {
	own := map[string]bool{}
	seen := map[string]bool{}
	for range maxLineage {
		seen[rec.ID] = true
		for _, a := range rec.Agents {
			if a.Session != "" {
				own[a.Session] = true
			}
		}
		if rec.Predecessor == "" || seen[rec.Predecessor] {
			break
		}
		prev, err := s.Read(rec.Predecessor)
		if err != nil || prev.ResumedBy != rec.ID {
			break
		}
		rec = prev
	}
	return own
}

// ownersAnswers is the answers a resume gives: those the home recorded
// (yaag answer) and those given now (--answers FILE), checked as
// cassette.CheckAnswers checks them. An answer the document holds that is
// neither is refused: whoever wrote the file may have put it there.
func ownersAnswers(path string, d *cassette.Doc, recorded, given map[string]string) (map[string]string, error) {
	home := *d
	home.Answers = recorded
	answers, err := cassette.CheckAnswers(path, &home, given)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(d.Answers))
	for k := range d.Answers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if v, ok := answers[k]; !ok || v != d.Answers[k] {
			return nil, runbook.Refuse(runbook.YaagAnswerNotGiven, "the answer %q to %s in %s %s: %s (yaag answer %s %s TEXT, or --answers FILE)",
				clip(d.Answers[k]), k, path, textOnlyInDocument, textAnswersCountFor, path, k)
		}
	}
	return answers, nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// Answer records answers to the Checkpoint at path (yaag answer): in the
// home's record of its Run, where a resume takes them from, and in the
// document, for the person to read. The Checkpoint must be one a Run of
// this home left, not resumed yet.
func Answer(s Store, path string, given map[string]string) (*cassette.Doc, error) {
	return cassette.RecordAnswers(path, func(d *cassette.Doc) (map[string]string, error) {
		var answers map[string]string
		err := Update(s, d.Run.ID, func(rec *Record) error {
			if err := checkLeft(s, path, d, *rec); err != nil {
				return err
			}
			if rec.ResumedBy != "" {
				return cassette.ResumedByError("the Checkpoint "+path, rec.ResumedBy)
			}
			home := *d
			home.Answers = rec.Answers
			var err error
			if answers, err = cassette.CheckAnswers(path, &home, given); err != nil {
				return err
			}
			rec.Answers = answers
			return nil
		})
		var nr *NoRunError
		if errors.As(err, &nr) {
			return nil, notRecorded(path, d)
		}
		return answers, err
	})
}

// claim continues the resumed document's Run, one time. Under the
// document's lock, and then under the lock of the home's record of its
// Run: the document must be what that Run left, not resumed before (by
// the record, whatever the document says), and its answers the person's;
// the record then names this Run as the one that continued it, and the
// answers are appended to the sessions that asked (before the program
// runs). A refusal consumes nothing: an append that fails gives the claim
// back.
func (r *run) claim(ctx context.Context, path string) error {
	forker, _ := r.spec.Engine.Agents.(agent.Forker)
	answered := map[string]*loopwire.SessionAt{}
	d, err := cassette.Claim(path, r.id, func(d *cassette.Doc) error {
		claimed := false
		err := Update(r.store, d.Run.ID, func(rec *Record) error {
			if err := checkLeft(r.store, path, d, *rec); err != nil {
				return err
			}
			if !d.Resumable() {
				return nil // a recording: resumed any number of times
			}
			if rec.ResumedBy != "" {
				return cassette.ResumedByError("the document "+path, rec.ResumedBy)
			}
			answers, err := ownersAnswers(path, d, rec.Answers, r.spec.Answers)
			if err != nil {
				return err
			}
			d.Answers = answers
			var missing []string
			for _, q := range d.Questions {
				if _, ok := d.Answers[q.Key]; !ok {
					missing = append(missing, q.Key)
				}
			}
			if len(missing) > 0 {
				return runbook.Refuse(runbook.YaagAnswerRefused, "%s waits for answers to %s: give them with --answers FILE (its resume.answersTemplate is the form) or yaag answer %s KEY TEXT",
					path, strings.Join(missing, ", "), path)
			}
			rec.ResumedBy, claimed = r.id, true
			return nil
		})
		var nr *NoRunError
		switch {
		case errors.As(err, &nr) && d.Resumable():
			return notRecorded(path, d)
		case errors.As(err, &nr):
			// A completed Run's Cassette from elsewhere: a recording,
			// which takes no answers (it has no questions).
		case err != nil:
			return err
		}
		if err := r.answer(ctx, path, d, forker, answered); err != nil {
			if claimed {
				Update(r.store, d.Run.ID, func(rec *Record) error {
					if rec.ResumedBy != r.id {
						return errors.New("not ours")
					}
					rec.ResumedBy = ""
					return nil
				})
			}
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	r.tape, r.spec.Engine.Tape, r.spec.Engine.Answered = d, d, answered
	return nil
}

// answer appends d's answers to the sessions whose Asks asked, and
// notes where each session then stands.
func (r *run) answer(ctx context.Context, path string, d *cassette.Doc, forker agent.Forker, answered map[string]*loopwire.SessionAt) error {
	if len(d.Questions) == 0 {
		return nil
	}
	if forker == nil {
		return errors.New("this Run's loopd cannot take answers")
	}
	byAsk := map[string][]cassette.Question{}
	var asks []string
	for _, q := range d.Questions {
		k := fmt.Sprintf("%s/%d", q.Agent, q.N)
		if byAsk[k] == nil {
			asks = append(asks, k)
		}
		byAsk[k] = append(byAsk[k], q)
	}
	sort.Strings(asks)
	for _, k := range asks {
		qs := byAsk[k]
		step := d.Ask(qs[0].Agent, qs[0].N)
		if step == nil || step.Session == nil {
			return fmt.Errorf("%s: the questions of ask %s have no recorded session", path, k)
		}
		var answers []loopwire.CallAnswer
		for _, q := range qs {
			answers = append(answers, loopwire.CallAnswer{CallID: q.CallID, Text: d.Answers[q.Key]})
		}
		at, err := forker.Answer(ctx, *step.Session, answers)
		var se *agent.SessionError
		if errors.As(err, &se) {
			name := qs[0].Agent
			if a := d.AgentOf(name); a != nil {
				name = a.Definition
			}
			return engine.SessionProblem(qs[0].Agent, name, se)
		}
		if err != nil {
			return err
		}
		answered[qs[0].Agent] = &at
	}
	return nil
}
