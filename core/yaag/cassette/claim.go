package cassette

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"sort"
	"strings"
	"syscall"

	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const (
	textNoOpenQuestion runbook.Quoted = "names no open question of this checkpoint"
	textAnsweredWith   runbook.Quoted = "it cannot be answered with"
	textResumedBy      runbook.Quoted = "was already resumed by"
)

// ResumedByError is the refusal of a second resume (or reattach) of a
// document whose Run was continued already.
func ResumedByError(what, run string) error {
	return runbook.Refuse(runbook.YaagReattachRefused, "%s %s %s: one Checkpoint resumes one time; follow that Run (yaag reattach %s), or start a fresh Run",
		what, textResumedBy, run, run)
}

// Locked runs f holding an exclusive lock on path's lock file, which
// every writer of the document takes: a resume's claim and the answer
// command.
func Locked(path string, f func() error) error {
	// Never through a link: whoever wrote the directory may have put one
	// there, aiming at a file yaag would create.
	lf, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return fmt.Errorf("cannot lock %s: %v", path, unwrapPath(err))
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("cannot lock %s: %v", path, err)
	}
	defer syscall.Flock(int(lf.Fd()), syscall.LOCK_UN)
	return f()
}

// CheckAnswers refuses answers that name no question of d, and an answer
// that differs from one the question already holds; the same answer again
// is accepted. It returns d's answers with the new ones added.
func CheckAnswers(path string, d *Doc, given map[string]string) (map[string]string, error) {
	open := map[string]bool{}
	var keys []string
	for _, q := range d.Questions {
		open[q.Key] = true
		keys = append(keys, q.Key)
	}
	out := map[string]string{}
	for k, v := range d.Answers {
		out[k] = v
	}
	names := make([]string, 0, len(given))
	for k := range given {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := given[k]
		if !open[k] {
			list := "it has none"
			if len(keys) > 0 {
				list = "its questions: " + strings.Join(keys, ", ")
			}
			return nil, runbook.Refuse(runbook.YaagAnswerRefused, "the answer key %q %s %s (%s)", k, textNoOpenQuestion, path, list)
		}
		if old, ok := out[k]; ok && old != v {
			return nil, runbook.Refuse(runbook.YaagAnswerRefused, "question %s of %s was answered %q; %s %q", k, path, clip(old), textAnsweredWith, clip(v))
		}
		out[k] = v
	}
	return out, nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// RecordAnswers writes answers into the Checkpoint at path (the answer
// command), under its lock. record is given the document as read, once
// it is known not to have been resumed: it records the answers where they
// count (the home's record of the Run, runs.Store.Answer) and returns
// every answer recorded there, which the document is then written with,
// for the person to read.
func RecordAnswers(path string, record func(d *Doc) (map[string]string, error)) (*Doc, error) {
	var d *Doc
	err := Locked(path, func() error {
		data, err := ReadFile(path, MaxDocument)
		if err != nil {
			return fmt.Errorf("cannot read %s: %v", path, unwrapPath(err))
		}
		if d, err = Parse(path, data); err != nil {
			return err
		}
		if d.ResumedBy != nil {
			return ResumedByError("the Checkpoint "+path, *d.ResumedBy)
		}
		answers, err := record(d)
		if err != nil {
			return err
		}
		d.Answers = answers
		return Publish(path, d)
	})
	return d, err
}

// Claim continues the Run of the document at path as run, one time.
// Under the document's lock it reads it again, refuses it when resumedBy
// is set, calls before (which decides the answers, d.Answers, and checks
// and appends what must be in place before the Run starts: a refusal
// there consumes nothing), then writes the document with resumedBy set. A
// completed Run's Cassette is a recording, resumed any number of times:
// it is read and checked, never claimed.
func Claim(path, run string, before func(d *Doc) error) (*Doc, error) {
	var d *Doc
	err := Locked(path, func() error {
		var err error
		if d, _, err = Read(path); err != nil {
			return err
		}
		if d.ResumedBy != nil {
			return ResumedByError("the document "+path, *d.ResumedBy)
		}
		if before != nil {
			if err := before(d); err != nil {
				return err
			}
		}
		if !d.Resumable() {
			return nil
		}
		claimed := *d
		claimed.ResumedBy = &run
		if err := Publish(path, &claimed); err != nil {
			return err
		}
		d = &claimed
		return nil
	})
	return d, err
}

// Identity is what a Run's document continues, as the home records it
// when the Run ends: "sha256:" and the hash of its end's status, every
// session boundary it names (each Agent's spawn and fork, each step's
// session: id, epoch, length, SHA-256) and its questions (key and call
// id), in the document's order. It leaves out what the document may say
// without changing what a resume does to those sessions (run.id, the
// answers, resumedBy), so a copy that renames or resets them is the same
// Checkpoint, and one whose sessions or questions differ is not the one
// the Run left.
func Identity(d *Doc) string {
	h := sha256.New()
	at := func(what string, s *SessionAt) {
		if s != nil {
			fmt.Fprintf(h, "%s %q %d %d %s\n", what, s.ID, s.Epoch, s.Bytes, s.SHA256)
		}
	}
	fmt.Fprintf(h, "status %q\n", d.End.Status)
	for _, a := range d.Agents {
		fmt.Fprintf(h, "agent %q\n", a.Agent)
		at("session", a.Session)
		at("forkOf", a.ForkOf)
	}
	for _, st := range d.Steps {
		fmt.Fprintf(h, "step %d %q %q %d\n", st.Seq, st.Kind, st.Agent, st.N)
		at("session", st.Session)
	}
	for _, q := range d.Questions {
		fmt.Fprintf(h, "question %q %q\n", q.Key, q.CallID)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// Sessions is every session id d names (its Agents' and its steps').
func Sessions(d *Doc) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s *SessionAt) {
		if s != nil && !seen[s.ID] {
			seen[s.ID] = true
			out = append(out, s.ID)
		}
	}
	for _, a := range d.Agents {
		add(a.Session)
	}
	for _, st := range d.Steps {
		add(st.Session)
	}
	return out
}
