package memory

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"boxmaker/core/patherror"
	"boxmaker/runbook"
	"boxmaker/sanitize"
)

// Block is the memory a new session starts with.
type Block struct {
	// Text goes into the session's baseline as it is.
	Text string
	// Class is the highest class among the entries in Text (public for
	// soul.md and for entries the owner wrote by hand): the taint a
	// session that starts with this block starts at.
	Class string
	// Excluded are the entries left out because a refuse rule fires on
	// them; memoryd logs each (Excluded.Event).
	Excluded []Excluded
}

// Excluded is one entry left out of the block: its file, its place among
// the file's entries (from 1), and the rule. Never the text.
type Excluded struct {
	File  string
	Entry int
	Rule  string
}

// Event is the line memoryd logs for the left-out entry.
func (e Excluded) Event() error {
	return runbook.Refuse(runbook.MemoryEntryExcluded,
		"an entry of %s was left out of the block by the rule %s", e.File, e.Rule)
}

// Block builds the memory block: soul.md as the owner wrote it, then the
// entries of memory.md and user.md that no refuse rule fires on. A file
// that cannot be read or is over its limit refuses the whole block
// (memory-unavailable): a session must not start without the memory the
// agent is, and without anyone being told.
func (s *Store) Block() (Block, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	texts := map[string]string{}
	for _, f := range []string{SoulFile, MemoryFile, UserFile} {
		p := s.path(f)
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) && f != SoulFile {
			continue
		}
		if err != nil {
			return Block{}, runbook.Refuse(runbook.MemoryUnavailable, "cannot read %s: %v", p, patherror.Reason(err))
		}
		if n := Chars(string(b)); n > Limit(f) {
			return Block{}, runbook.Refuse(runbook.MemoryUnavailable,
				"%s is %s characters, over its limit of %s", p, count(n), count(Limit(f)))
		}
		texts[f] = string(b)
	}
	cls, err := s.readClasses()
	if err != nil {
		return Block{}, runbook.Refuse(runbook.MemoryUnavailable, "%v", err)
	}
	blk := Block{Class: ownerClass}
	var b strings.Builder
	b.WriteString(strings.TrimSpace(texts[SoulFile]))
	b.WriteString("\n")
	for _, f := range []string{MemoryFile, UserFile} {
		var kept []string
		for i, e := range ParseEntries(texts[f]) {
			if r := sanitize.Refusals(e); len(r) > 0 {
				blk.Excluded = append(blk.Excluded, Excluded{File: f, Entry: i + 1, Rule: r[0].Rule})
				continue
			}
			kept = append(kept, e)
			blk.Class = JoinClass(blk.Class, cls.classOf(f, e))
		}
		text := FormatEntries(kept)
		what := "what you have learnt, kept by you with the memory tool"
		if f == UserFile {
			what = "what you know of the owner, kept by you with the memory tool"
		}
		fmt.Fprintf(&b, "\n# %s: %s (%s of %s characters; entries separated by §)\n", f, what, count(Chars(text)), count(Limit(f)))
		if text == "" {
			b.WriteString("(empty)\n")
		}
		b.WriteString(text)
	}
	blk.Text = b.String()
	return blk, nil
}
