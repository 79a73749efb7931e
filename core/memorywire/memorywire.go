// Package memorywire is the protocol of memoryd's three sockets: the
// request kinds and the bodies that cross them (docs/specs/local-memory.md,
// section 11, and core/brokerwire for brokerd's sockets). memoryd serves
// them; loopd, brokerd and bxctl ask. Every socket uses core/daemon's
// framing: one request line, answer lines, a final {"done":true}; each
// body is read by daemon.DecodeBody (one that is not its kind's is
// socket-forbidden).
//
// The bodies are this package's own, so that a client links no part of
// memoryd's engine: core/memoryd converts core/memory's and
// core/honchosync's values to them at the socket, and core/memory takes
// the memory tool's words (the actions, the files) from here.
package memorywire

import (
	"time"

	"boxmaker/runbook"
)

// The kinds of requests, by socket.
const (
	// Block socket, from loopd: BlockRequest -> BlockAnswer.
	KindBlock = "memory.block"
	// Tool socket, from brokerd: ToolRequest -> ToolAnswer.
	KindMemoryCall = "memory.call"
	KindRecallCall = "recall.call"
	// Admin socket, from bxctl.
	KindLog     = "memory.log"     // -> LogAnswer
	KindReview  = "memory.review"  // -> ReviewAnswer
	KindAccept  = "memory.accept"  // EditRequest -> AcceptAnswer
	KindReject  = "memory.reject"  // EditRequest -> EditRequest (the edit rejected)
	KindReindex = "recall.reindex" // events Progress, then Progress (the totals)
	KindSync    = "memory.sync"    // SyncRequest -> SyncAnswer
)

// BlockRequest asks for a new session's memory block.
type BlockRequest struct {
	Session string `json:"session"`
}

// BlockAnswer is the memory block, the entries left out of it, and its
// class: the highest class among the entries it holds (memory.ClassesFile;
// public for soul.md and entries the owner wrote by hand). A session that
// starts with the block starts at that taint: loopd tells brokerd so
// before the session's first call.
type BlockAnswer struct {
	Block    string          `json:"block"`
	Excluded []ExcludedEntry `json:"excluded"`
	Class    string          `json:"class"`
}

// ExcludedEntry names an entry left out of the block: its file, its place
// among the file's entries (from 1), and the refuse rule. Never the text.
type ExcludedEntry struct {
	File  string `json:"file"`
	Entry int    `json:"entry"`
	Rule  string `json:"rule"`
}

// ToolRequest is a memory or recall call brokerd decided.
type ToolRequest struct {
	Session   string    `json:"session"`
	CallID    string    `json:"call_id"`
	Arguments Arguments `json:"arguments"`
}

// Arguments are the tool's arguments as brokerd forwards them: memory's
// actions, or recall's query and limit.
type Arguments struct {
	Actions []Action `json:"actions"` // the tool's own words: action, file, text, old
	Query   string   `json:"query"`
	Limit   int      `json:"limit"`
}

// Action is one step of a `memory` tool call, as the model writes it (the
// tool's parameters are defined with loopd's tools, core/loop), brokerd
// forwards it and an approval shows it.
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

// The actions of a memory call, as the tool names them.
const (
	ActionAdd     = "add"
	ActionReplace = "replace"
	ActionRemove  = "remove"
	ActionNote    = "note"
)

// The files an action's File names, as the tool names them.
const (
	FileMemory = "memory" // memory.md
	FileUser   = "user"   // user.md
)

// The files an action changes, as the answers name them.
const (
	MemoryFile = "memory.md"
	UserFile   = "user.md"
	NotesFile  = "notes.md"
)

// Target is the file the action changes: memory.md, user.md or, for a
// note, notes.md.
func (a Action) Target() string {
	switch {
	case a.Action == ActionNote:
		return NotesFile
	case a.File == FileUser:
		return UserFile
	}
	return MemoryFile
}

// ToolAnswer is what the model is given. Tainted tells brokerd that a
// recall hit came from an untrusted note: brokerd marks the session
// untrusted. Taint, on every recall answer, is the highest taint of the
// hits' sources ("public" when there are none): brokerd raises the
// session to it as well as to the grant's class. A recall answer without
// it is not given to the model. On a memory answer, Taint is set when the
// answer quotes or confirms identity entries (an ambiguous piece, a file
// over its limit, an entry already there): their highest class, which
// brokerd raises the session to as well.
type ToolAnswer struct {
	Text    string `json:"text"`
	Tainted bool   `json:"tainted"`
	Taint   string `json:"taint,omitempty"`
}

// EditRequest names a staged edit.
type EditRequest struct {
	Edit string `json:"edit"`
}

// LogAnswer is the journal, oldest edit first.
type LogAnswer struct {
	Edits []LogEntry `json:"edits"`
}

// LogEntry is one edit of the journal and its outcome, never its text.
type LogEntry struct {
	Edit    string    `json:"edit"`
	Time    time.Time `json:"time"`
	Session string    `json:"session,omitempty"`
	// Outcome is updated, noted, staged, accepted, rejected, flagged,
	// refused or untrusted; Rule the refuse or flag rule that fired.
	Outcome string   `json:"outcome"`
	Rule    string   `json:"rule,omitempty"`
	Files   []string `json:"files,omitempty"`
}

// String is the outcome as `bxctl memory log` shows it: "flagged <rule>",
// "refused <rule>", "updated", ...
func (e LogEntry) String() string {
	if e.Rule != "" {
		return e.Outcome + " " + e.Rule
	}
	return e.Outcome
}

// ReviewAnswer lists the staged edits, oldest first, with their text.
type ReviewAnswer struct {
	Staged []StagedEdit `json:"staged"`
}

// StagedEdit is a memory call kept for the owner's review: the session
// that made it, the session's taint then, and its actions.
type StagedEdit struct {
	Edit    string    `json:"edit"`
	Time    time.Time `json:"time"`
	Session string    `json:"session"`
	Class   string    `json:"class"`
	Actions []Action  `json:"actions"`
}

// AcceptAnswer says what accepting an edit changed.
type AcceptAnswer struct {
	Edit   string   `json:"edit"`
	Files  []string `json:"files"`
	Answer string   `json:"answer"` // "memory.md updated", ...
}

// Progress is how far a rebuild of the recall index is: an event while it
// runs, and the final answer (the totals, and how long it took).
type Progress struct {
	Files   int     `json:"files"`   // files looked at
	Total   int     `json:"total"`   // files to look at
	Logs    int     `json:"logs"`    // session logs read
	Records int     `json:"records"` // session records indexed
	Notes   int     `json:"notes"`   // notes indexed
	Skipped int     `json:"skipped"` // damaged lines left out
	Seconds float64 `json:"seconds,omitempty"`
}

// SyncRequest asks for the Honcho outbox's state; with Now, memoryd feeds
// and drains it first, without waiting between attempts.
type SyncRequest struct {
	Now bool `json:"now"`
}

// SyncAnswer is the outbox's state. Configured is false when memoryd.toml
// has no [honcho] (nothing else is set then). Error is why the outbox
// cannot be used (damaged), or with Now why it is not empty.
type SyncAnswer struct {
	Configured bool `json:"configured"`
	OutboxStatus
	Error string `json:"error,omitempty"`
	// ErrorEntry and ErrorText are Error's runbook entry and its text
	// without the link, when it is a refusal (runbook.Public).
	ErrorEntry string `json:"error_entry,omitempty"`
	ErrorText  string `json:"error_text,omitempty"`
}

// OutboxStatus is the Honcho outbox's state, as `bxctl memory sync` shows
// it (core/honchosync keeps it).
type OutboxStatus struct {
	Waiting   int    `json:"waiting"`  // committed items not yet in Honcho
	Sent      int64  `json:"sent"`     // items Honcho took
	Failed    int64  `json:"failed"`   // items Honcho refused for good (failed.jsonl)
	Withheld  int64  `json:"withheld"` // records above max_class, never sent
	LastError string `json:"last_error"`
	// LastErrorEntry and LastErrorText are the last error's runbook entry
	// and its text without the link, when it was a refusal
	// (runbook.Public), so that a client makes it again without reading
	// the link out of LastError.
	LastErrorEntry string `json:"last_error_entry,omitempty"`
	LastErrorText  string `json:"last_error_text,omitempty"`
	// LastErrorAt, LastSentAt and NextAttempt are RFC 3339, or "".
	LastErrorAt string `json:"last_error_at"`
	LastSentAt  string `json:"last_sent_at"`
	NextAttempt string `json:"next_attempt"`
}

// WithError is a with err as its Error, entry and public text apart.
func (a SyncAnswer) WithError(err error) SyncAnswer {
	a.Error = err.Error()
	if e, text, ok := runbook.Public(err); ok {
		a.ErrorEntry, a.ErrorText = e.String(), text
	}
	return a
}
