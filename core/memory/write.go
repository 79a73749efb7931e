package memory

import (
	"fmt"
	"slices"
	"strings"

	"boxmaker/core/memorywire"
	"boxmaker/core/policy"
	"boxmaker/core/sessionid"
	"boxmaker/runbook"
	"boxmaker/sanitize"
)

// Action is one step of a `memory` tool call, as the model writes it
// (the tool's parameters are defined with loopd's tools, core/loop).
type Action struct {
	// Action is add, replace, remove or note (ActionAdd...).
	Action string `json:"action"`
	// File is the file add, replace and remove change: FileMemory
	// (memory.md) or FileUser (user.md).
	File string `json:"file,omitempty"`
	// Text is the new entry (add, replace) or the note (note).
	Text string `json:"text,omitempty"`
	// Old is a short piece of the entry to replace or remove, found in
	// that entry only.
	Old string `json:"old,omitempty"`
}

// Call is one `memory` tool call: a batch of actions done all together or
// not at all.
type Call struct {
	Session string // the session that made the call, [a-z0-9-]{1,64}
	// Class is the session's taint (public, private or secret); notes
	// carry it in their header.
	Class string
	// Untrusted is brokerd's word that the session is untrusted: its
	// writes never reach memory.md or user.md, not even staged.
	Untrusted bool
	Actions   []Action
}

// Result is the answer to a call.
type Result struct {
	Edit    string // the edit's id; empty when Outcome is Invalid
	Session string
	Outcome Outcome
	Rule    string   // the refuse or flag rule that fired
	Files   []string // the files the edit changed (or would have)
	Answer  string   // the tool result the model reads
	// Held says why a staged write waits for the owner: review is on, or
	// the session's taint is above public.
	Held string
	// Shown is the highest class of the entries Answer quotes or confirms
	// (a message listing a file's entries, or saying the file already
	// holds a text); empty when it shows none. brokerd raises the session
	// to it, as for recall: a session that started before a private entry
	// was written must not read it in an answer.
	Shown string
}

// Event is the line memoryd logs for a refused, flagged or staged write,
// as a refusal carrying its runbook entry; nil for other outcomes.
func (r Result) Event() error {
	switch r.Outcome {
	case Staged:
		return runbook.Refuse(runbook.MemoryWriteStaged,
			"a memory write from session %s waits for the owner's review as edit %s (%s): bxctl memory review shows it", r.Session, r.Edit, r.Held)
	case Refused:
		return runbook.Refuse(runbook.MemoryWriteRefused,
			"a memory write from session %s was refused by the rule %s", r.Session, r.Rule)
	case Flagged:
		return runbook.Refuse(runbook.MemoryWriteFlagged,
			"a memory write from session %s matches the rule %s; it was saved in notes.md as an untrusted note (edit %s)", r.Session, r.Rule, r.Edit)
	}
	return nil
}

// MaxActions is the most actions one call may hold.
const MaxActions = 32

// The actions of a memory call and the files an action's File names, as
// the tool names them: memoryd's wire declares the words.
const (
	ActionAdd     = memorywire.ActionAdd
	ActionReplace = memorywire.ActionReplace
	ActionRemove  = memorywire.ActionRemove
	ActionNote    = memorywire.ActionNote

	FileMemory = memorywire.FileMemory // memory.md
	FileUser   = memorywire.FileUser   // user.md
)

// Write does one `memory` call. Its error is for the caller (a bad session
// id or class, a disk failure); what the model did wrong is an answer with
// Outcome Invalid.
func (s *Store) Write(c Call) (Result, error) {
	if !sessionid.Valid(c.Session) {
		return Result{}, fmt.Errorf("memory write: session id %q is not [a-z0-9-]{1,64}", c.Session)
	}
	if !policy.IsTaint(c.Class) {
		return Result{}, fmt.Errorf("memory write: class %q is not public, private or secret", c.Class)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lock == nil {
		return Result{}, fmt.Errorf("memory write: the store is closed")
	}

	invalid := func(format string, args ...any) (Result, error) {
		return Result{Session: c.Session, Outcome: Invalid, Answer: fmt.Sprintf(format, args...)}, nil
	}
	if len(c.Actions) == 0 {
		return invalid("nothing to do: give at least one action (add, replace, remove or note)")
	}
	if len(c.Actions) > MaxActions {
		return invalid("too many actions in one call (%d): at most %d", len(c.Actions), MaxActions)
	}
	acts := make([]Action, len(c.Actions))
	var files []string
	identity := false
	for i, a := range c.Actions {
		a, msg := cleanAction(a)
		if msg != "" {
			if len(c.Actions) > 1 {
				msg = fmt.Sprintf("action %d: %s", i+1, msg)
			}
			return invalid("%s; nothing was changed", msg)
		}
		acts[i] = a
		f := a.Target()
		if a.Action != ActionNote {
			identity = true
		}
		if !slices.Contains(files, f) {
			files = append(files, f)
		}
	}

	// Refuse rules first: a refused text is never stored anywhere.
	for _, a := range acts {
		if a.Text == "" {
			continue
		}
		if f := sanitize.Refusals(a.Text); len(f) > 0 {
			return s.journalOnly(c, files, Refused, f[0].Rule,
				"memory refused this entry: it contains "+f[0].Reason)
		}
	}
	for i := range acts {
		acts[i].Text = sanitize.Neutralise(acts[i].Text)
		acts[i].Old = sanitize.Neutralise(acts[i].Old)
	}

	// Flagged or from an untrusted session: every text becomes an
	// untrusted note, and memory.md and user.md are not touched.
	rule := ""
	var texts []string
	for _, a := range acts {
		if f := sanitize.Flags(a.Text); a.Text != "" && len(f) > 0 {
			rule = f[0].Rule
			break
		}
		if a.Text != "" {
			texts = append(texts, a.Text)
		}
	}
	// An instruction spread over the entries of one write.
	if f := sanitize.FlagsAcross(texts); rule == "" && len(f) > 0 {
		rule = f[0].Rule
	}
	if rule != "" || c.Untrusted {
		return s.demote(c, acts, files, identity, rule)
	}

	p, msg, err := s.plan(acts)
	if err != nil {
		return Result{}, err
	}
	if msg != "" {
		r, err := invalid("%s", msg)
		r.Shown = p.shown
		return r, err
	}
	// Identity is the owner's: a write waits for the owner's review when
	// review is on, and always when the session holds data above public,
	// whatever the switch (decision D831). Only a public, trusted
	// session's write lands directly, and only with review off.
	if identity && (s.review || c.Class != policy.Public.String()) {
		held := "review is on"
		if c.Class != policy.Public.String() {
			held = "the session's taint is " + c.Class + ", above public"
		}
		return s.stage(c, acts, files, held)
	}
	return s.apply1(c, acts, p, files, identity)
}

// cleanAction checks one action's shape and trims its texts. A message
// says what is wrong.
func cleanAction(a Action) (Action, string) {
	a.Text = strings.TrimSpace(a.Text)
	a.Old = strings.TrimSpace(a.Old)
	needTarget := func() string {
		if a.File != FileMemory && a.File != FileUser {
			return fmt.Sprintf("%s needs a file: memory (memory.md) or user (user.md)", a.Action)
		}
		return ""
	}
	switch a.Action {
	case ActionAdd, ActionReplace, ActionRemove:
		if m := needTarget(); m != "" {
			return a, m
		}
	case ActionNote:
		a.File = ""
		a.Old = ""
	default:
		return a, fmt.Sprintf("unknown action %q: use add, replace, remove or note", a.Action)
	}
	if a.Action != ActionRemove && a.Text == "" {
		return a, a.Action + " needs text"
	}
	if (a.Action == ActionReplace || a.Action == ActionRemove) && a.Old == "" {
		return a, a.Action + " needs old: a short piece of the entry's text"
	}
	if a.Action == ActionRemove {
		a.Text = ""
	}
	if a.Action != ActionNote {
		for _, line := range strings.Split(a.Text, "\n") {
			if isSeparator(line) {
				return a, "an entry cannot hold a line with only § (it separates entries): write two entries"
			}
		}
	}
	return a, ""
}

// Target is the file the action changes: memory.md, user.md or, for a
// note, notes.md.
func (a Action) Target() string { return memorywire.Action(a).Target() }

// planned is what a call will do to the identity files: the new text of
// each changed file, and what it wrote into each.
type planned struct {
	changes map[string]string
	wrote   written
	shown   string // the highest class of the entries a message quotes
}

// plan applies the identity actions to the entries read from disk and
// returns the new text of each changed file, or a message for the model.
func (s *Store) plan(acts []Action) (planned, string, error) {
	wrote := written{}
	cls, err := s.readClasses()
	if err != nil {
		return planned{}, "", err
	}
	// shows is a message that quotes or confirms entries of f: it carries
	// their highest class.
	shows := func(f string, entries []string, msg string) (planned, string, error) {
		p := planned{shown: ownerClass}
		for _, e := range entries {
			p.shown = JoinClass(p.shown, cls.classOf(f, e))
		}
		return p, msg, nil
	}
	entries := map[string][]string{}
	before := map[string]string{}
	for _, a := range acts {
		if a.Action == ActionNote {
			continue
		}
		f := a.Target()
		if _, ok := entries[f]; ok {
			continue
		}
		text, err := s.readIdentity(f)
		if err != nil {
			return planned{}, "", err
		}
		before[f] = text
		entries[f] = ParseEntries(text)
	}
	for i, a := range acts {
		if a.Action == ActionNote {
			continue
		}
		f := a.Target()
		es := entries[f]
		prefix := ""
		if len(acts) > 1 {
			prefix = fmt.Sprintf("action %d: ", i+1)
		}
		switch a.Action {
		case ActionAdd:
			if slices.Contains(es, a.Text) {
				return shows(f, []string{a.Text}, prefix+f+" already holds this entry; nothing was changed")
			}
			es = append(append([]string(nil), es...), a.Text)
			wrote.add(f, a.Text)
		case ActionReplace, ActionRemove:
			var at []int
			for j, e := range es {
				if strings.Contains(e, a.Old) {
					at = append(at, j)
				}
			}
			switch {
			case len(at) == 0:
				return planned{}, fmt.Sprintf("%sno entry of %s holds %q; nothing was changed", prefix, f, a.Old), nil
			case len(at) > 1:
				var shown []string
				for _, j := range at {
					shown = append(shown, es[j])
				}
				return shows(f, shown, fmt.Sprintf("%s%q is in %d entries of %s; give a piece found in one only. Nothing was changed. The entries:\n%s",
					prefix, a.Old, len(at), f, strings.TrimSuffix(FormatEntries(shown), "\n")))
			}
			j := at[0]
			es = append([]string(nil), es...)
			if a.Action == ActionReplace {
				wrote.add(f, a.Text, es[j])
				es[j] = a.Text
			} else {
				es = append(es[:j], es[j+1:]...)
			}
		}
		entries[f] = es
	}
	changes := map[string]string{}
	for _, f := range []string{MemoryFile, UserFile} {
		es, ok := entries[f]
		if !ok {
			continue
		}
		text := FormatEntries(es)
		if n, lim := Chars(text), Limit(f); n > lim {
			cur := ParseEntries(before[f])
			return shows(f, cur, fmt.Sprintf("%s would hold %s characters, over its limit of %s, so nothing was changed. "+
				"It holds %s of %s characters now; make room by replacing entries with shorter ones or removing some, in the same call if you like. Its entries:\n%s",
				f, count(n), count(lim), count(Chars(FormatEntries(cur))), count(lim), strings.TrimSuffix(FormatEntries(cur), "\n")))
		}
		changes[f] = text
	}
	return planned{changes: changes, wrote: wrote}, "", nil
}

// count writes n with thousands separated by commas, as the limits are
// written in the docs.
func count(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// journalOnly records an edit that changed no file (refused).
func (s *Store) journalOnly(c Call, files []string, o Outcome, rule, answer string) (Result, error) {
	r := Result{Edit: s.newID(), Session: c.Session, Outcome: o, Rule: rule, Files: files, Answer: answer}
	if err := s.commitWith(redoRecord{}, r); err != nil {
		return Result{}, err
	}
	return r, nil
}

// commitWith commits rec with r's journal line as its last append: an
// edit and its journal line are one redo record.
func (s *Store) commitWith(rec redoRecord, r Result) error {
	j, err := s.appendAt(JournalFile, journalLine(s.logEntry(r)))
	if err != nil {
		return err
	}
	rec.Append = append(rec.Append, j)
	return s.commit(rec)
}

func (s *Store) logEntry(r Result) LogEntry {
	return LogEntry{Edit: r.Edit, Time: s.now().UTC(), Session: r.Session, Outcome: r.Outcome, Rule: r.Rule, Files: r.Files}
}

// demote saves every text of the call as an untrusted note.
func (s *Store) demote(c Call, acts []Action, files []string, identity bool, rule string) (Result, error) {
	var notes strings.Builder
	for _, a := range acts {
		if a.Text != "" {
			notes.WriteString(FormatNote(s.now(), c.Session, c.Class, true, a.Text))
		}
	}
	var idFiles []string
	for _, f := range files {
		if f != NotesFile {
			idFiles = append(idFiles, f)
		}
	}
	why := "this session is untrusted"
	o := Untrusted
	if rule != "" {
		why = "it matches the rule " + rule
		o = Flagged
	}
	var answer string
	switch {
	case notes.Len() == 0:
		answer = fmt.Sprintf("%s not changed: %s, so it cannot change %s", strings.Join(idFiles, " and "), why, strings.Join(idFiles, " or "))
	case identity:
		answer = fmt.Sprintf("not added to %s: %s, so it was saved in notes.md as an untrusted note", strings.Join(idFiles, " and "), why)
	default:
		answer = "saved in notes.md, marked untrusted: " + why
	}
	r := Result{Edit: s.newID(), Session: c.Session, Outcome: o, Rule: rule, Answer: answer}
	var rec redoRecord
	if notes.Len() > 0 {
		r.Files = []string{NotesFile}
		n, err := s.appendAt(NotesFile, notes.String())
		if err != nil {
			return Result{}, err
		}
		rec.Append = append(rec.Append, n)
	}
	if err := s.commitWith(rec, r); err != nil {
		return Result{}, err
	}
	return r, nil
}

// apply1 writes a checked call: the identity files replaced, the notes
// appended, the journal line, in one redo record.
func (s *Store) apply1(c Call, acts []Action, p planned, files []string, identity bool) (Result, error) {
	r := Result{Edit: s.newID(), Session: c.Session, Outcome: Noted, Files: files}
	if identity {
		r.Outcome = Updated
	}
	rec, err := s.record(c.Session, c.Class, r.Edit, acts, p)
	if err != nil {
		return Result{}, err
	}
	if err := s.commitWith(rec, r); err != nil {
		return Result{}, err
	}
	r.Answer = successAnswer(files)
	return r, nil
}

func (s *Store) record(session, class, edit string, acts []Action, p planned) (redoRecord, error) {
	var rec redoRecord
	for _, f := range []string{MemoryFile, UserFile} {
		if text, ok := p.changes[f]; ok {
			rec.Replace = append(rec.Replace, replaceOp{File: f, Data: text})
		}
	}
	if len(p.changes) > 0 {
		// Each entry's class, replaced with the files in one record.
		cls, err := s.readClasses()
		if err != nil {
			return rec, err
		}
		after := cls.after(p.changes, p.wrote, class, session, edit)
		rec.Replace = append(rec.Replace, replaceOp{File: ClassesFile, Data: after.encode()})
	}
	var notes strings.Builder
	for _, a := range acts {
		if a.Action == ActionNote {
			notes.WriteString(FormatNote(s.now(), session, class, false, a.Text))
		}
	}
	if notes.Len() > 0 {
		n, err := s.appendAt(NotesFile, notes.String())
		if err != nil {
			return rec, err
		}
		rec.Append = append(rec.Append, n)
	}
	return rec, nil
}

func successAnswer(files []string) string {
	var id []string
	notes := false
	for _, f := range files {
		if f == NotesFile {
			notes = true
		} else {
			id = append(id, f)
		}
	}
	var parts []string
	if len(id) > 0 {
		parts = append(parts, strings.Join(id, " and ")+" updated")
	}
	if notes {
		parts = append(parts, "saved in notes.md")
	}
	return strings.Join(parts, "; ")
}
