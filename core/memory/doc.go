// Package memory is the agent's identity memory and its notes: the files
// under <home>/memory/, the `memory` tool's writes to them, review of those
// writes by the owner, the journal of every edit, and the memory block a new
// session starts with. docs/specs/local-memory.md is its specification.
//
// # Files
//
//	soul.md        the owner's text, at most 4,000 characters; never checked
//	               by the sanitizer; seeded from a starter compiled into the
//	               binary when missing
//	memory.md      what the agent has learnt, at most 2,200 characters
//	user.md        what it knows of the owner, at most 1,375 characters
//	notes.md       append-only notes, found again by recall
//	journal.jsonl  one line per edit: its id, time, session, outcome, rule
//	               and files, never the text
//	staged/<edit>.json  a write waiting for the owner's review
//	pending.json   a write being applied (redo record, see below)
//	.lock          flock held by the one process that writes
//
// Limits count characters (runes) of the whole file as `wc -m` does,
// separators and final newline included.
//
// memory.md and user.md hold entries separated by a line holding only `§`
// (spaces around it are allowed). memoryd writes them as the entries joined
// by "\n§\n", with a final newline.
//
// notes.md is a sequence of notes, each under a header line:
//
//	§ noted 2026-09-24T10:11:12Z in session 4f2a · private · untrusted
//	the note's text
//
// A trusted note's header ends after the class. The owner moving an entry
// by hand writes `§ moved <time> from memory.md in session owner`. In a
// note's text, a line that begins with `§` after any number of `\` is
// written with one more `\` in front, and the reader takes one away, so no
// text can forge a header. Any other line beginning with `§`, and text before
// the first header, were not written by memoryd; the reader takes them as
// untrusted notes.
//
// # Durability
//
// Every write is one redo record: pending.json (written atomically) lists
// the files to replace (written with core/atomicfile) and the bytes to
// append at a given offset (notes.md, journal.jsonl, each fsynced). The
// record is applied, then removed. Open applies a record left by a crash
// again; each step is idempotent, so a batch is all-or-nothing across
// files even when the process is killed in the middle. A write is
// acknowledged only after its record was applied.
package memory
