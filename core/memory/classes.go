package memory

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"boxmaker/core/policy"
)

// ClassesFile holds the class of every entry of memory.md and user.md
// that memoryd wrote, beside the files, whose format it leaves as it is:
//
//	{"memory.md":[{"sha256":"<entry>","class":"private","session":"<id>","edit":"e7"}],
//	 "user.md":[...]}
//
// sha256 is the SHA-256, in hex, of the entry's text as the file holds it
// (ParseEntries' text: trimmed, without its separators). class is the taint
// of the session that wrote the entry (for a replace, the higher of that
// and the replaced entry's class). An entry the file holds that
// classes.json does not name was written by the owner, by hand: it counts
// as public, the owner's own words to every session. A record whose entry
// is no longer in its file is dropped at the next write. The file is
// replaced in the same redo record as memory.md and user.md, so the two
// always agree.
const ClassesFile = "classes.json"

// ownerClass is the class of an entry the owner wrote by hand.
var ownerClass = policy.Public.String()

// EntryClass is what classes.json says of one entry.
type EntryClass struct {
	SHA256  string `json:"sha256"`
	Class   string `json:"class"`
	Session string `json:"session"`
	Edit    string `json:"edit"`
}

// IdentityEntry is one entry of memory.md or user.md with its class.
type IdentityEntry struct {
	File    string // MemoryFile or UserFile
	Text    string
	Class   string // public, private or secret
	Session string // the session that wrote it; empty when the owner did
	Edit    string // the edit that wrote it; empty when the owner did
}

// classFiles is classes.json: per identity file, its entries' records.
type classFiles map[string][]EntryClass

func entryHash(text string) string {
	h := sha256.Sum256([]byte(text))
	return hex.EncodeToString(h[:])
}

// classRank orders the classes; an unknown one ranks highest.
func classRank(c string) policy.Taint {
	t, err := policy.ParseTaint(c)
	if err != nil {
		return policy.Secret
	}
	return t
}

// JoinClass is the higher of two classes.
func JoinClass(a, b string) string {
	if classRank(b) > classRank(a) {
		return b
	}
	return a
}

// readClasses reads classes.json strictly; a missing file names no entry.
func (s *Store) readClasses() (classFiles, error) {
	p := s.path(ClassesFile)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return classFiles{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", p, err)
	}
	return parseClasses(b, p)
}

// parseClasses reads the text of classes.json (at path p, for messages).
func parseClasses(b []byte, p string) (classFiles, error) {
	var raw struct {
		Memory []EntryClass `json:"memory.md"`
		User   []EntryClass `json:"user.md"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%s is damaged: %v", p, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s is damaged: something follows the object", p)
	}
	for _, list := range [][]EntryClass{raw.Memory, raw.User} {
		for _, e := range list {
			if !policy.IsTaint(e.Class) || len(e.SHA256) != 64 {
				return nil, fmt.Errorf("%s is damaged: an entry with class %q and sha256 %q", p, e.Class, e.SHA256)
			}
		}
	}
	return classFiles{MemoryFile: raw.Memory, UserFile: raw.User}, nil
}

// lookup is the record of the entry text of file, if any.
func (c classFiles) lookup(file, text string) (EntryClass, bool) {
	h := entryHash(text)
	for _, e := range c[file] {
		if e.SHA256 == h {
			return e, true
		}
	}
	return EntryClass{}, false
}

// classOf is the class of the entry text of file: its record's, else the
// owner's.
func (c classFiles) classOf(file, text string) string {
	if e, ok := c.lookup(file, text); ok {
		return e.Class
	}
	return ownerClass
}

// written is what one edit wrote into an identity file: each new entry's
// text, with the texts of the entries it replaced.
type written map[string]map[string][]string

func (w written) add(file, text string, replaced ...string) {
	if w[file] == nil {
		w[file] = map[string][]string{}
	}
	w[file][text] = append(w[file][text], replaced...)
}

// after is classes.json once the changed files hold their new text: every
// entry keeps its class, and an entry this edit wrote gets the writing
// session's class joined with those of the entries it replaced (and of
// the same text, if the file held it already).
func (c classFiles) after(changes map[string]string, w written, class, session, edit string) classFiles {
	out := classFiles{}
	for _, f := range []string{MemoryFile, UserFile} {
		text, changed := changes[f]
		if !changed {
			out[f] = c[f]
			continue
		}
		list := []EntryClass{}
		for _, e := range ParseEntries(text) {
			rec, known := c.lookup(f, e)
			replaced, wrote := w[f][e]
			if !wrote {
				if known {
					list = append(list, rec)
				}
				continue
			}
			cl := class
			if known {
				cl = JoinClass(cl, rec.Class)
			}
			for _, old := range replaced {
				cl = JoinClass(cl, c.classOf(f, old))
			}
			list = append(list, EntryClass{SHA256: entryHash(e), Class: cl, Session: session, Edit: edit})
		}
		out[f] = list
	}
	return out
}

func (c classFiles) encode() string {
	b, _ := json.Marshal(struct {
		Memory []EntryClass `json:"memory.md"`
		User   []EntryClass `json:"user.md"`
	}{orEmpty(c[MemoryFile]), orEmpty(c[UserFile])})
	return string(b) + "\n"
}

func orEmpty(l []EntryClass) []EntryClass {
	if l == nil {
		return []EntryClass{}
	}
	return l
}

// IdentityEntries are the entries of memory.md and user.md, in file order,
// each with its class and who wrote it (Honcho's sync reads them).
func (s *Store) IdentityEntries() ([]IdentityEntry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cls, err := s.readClasses()
	if err != nil {
		return nil, err
	}
	var out []IdentityEntry
	for _, f := range []string{MemoryFile, UserFile} {
		text, err := s.readIdentity(f)
		if err != nil {
			return nil, err
		}
		for _, e := range ParseEntries(text) {
			ie := IdentityEntry{File: f, Text: e, Class: ownerClass}
			if rec, ok := cls.lookup(f, e); ok {
				ie.Class, ie.Session, ie.Edit = rec.Class, rec.Session, rec.Edit
			}
			out = append(out, ie)
		}
	}
	return out, nil
}
