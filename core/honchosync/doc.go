// Package honchosync is memoryd's durable sync to Honcho: an outbox on
// disk fed from the session logs and the memory files, drained to Honcho
// in order, in batches, with retries, and without sending a message twice
// (docs/specs/honcho.md, sections 3 to 6).
//
// # What is fed
//
// Each pass (Feed) reads what was added since the last one:
//
//   - sessions/<id>/<epoch>.jsonl: the text of `user` records (the owner's
//     peer) and `assistant` records (the agent's peer); tool results,
//     reasoning, baselines and notes are not sent. Only whole lines.
//     brokerd's state socket is asked, once per session per pass, for the
//     session's taint and trust now: above MaxClass the records are
//     withheld for good; an untrusted session's records go to the
//     untrusted workspace; the rest to the trusted one. A session's
//     current taint bounds every record it wrote (taint only rises).
//   - memory/notes.md (append-only): each whole note, by its header's
//     class and trust, to the Honcho session `boxmaker_memory`.
//   - memory/memory.md and memory/user.md: entries added since the last
//     pass (by the entries' text), each with the class memoryd keeps for
//     it (Options.Identity), to `boxmaker_memory` in the trusted
//     workspace; an entry of no known class is withheld. Removals are not
//     sent.
//   - memory/fleet.md (the owner's, never the model's): its entries, to
//     the fleet workspace, in a Honcho session named after this agent.
//
// Text longer than Honcho's 25,000 characters is sent in parts, each a
// message of its own.
//
// # Files, under <home>/memory/outbox/
//
//	queue.jsonl    one Item per line, appended and fsynced; n counts up by one
//	cursor.json    written atomically after each append: the last n that is
//	               committed, and how far each source has been read
//	sent.json      written atomically after each batch Honcho took: the last
//	               n delivered or set aside, and the counts
//	failed.jsonl   items Honcho refused for good, with its answer
//
// An item is committed once cursor.json names its n; only committed items
// are sent. At Open, items after the cursor's n (appended by a pass that
// did not finish) and a last line without its newline are cut off: the
// next pass reads their sources again and makes them anew. Items at or
// below sent.json's n are done. queue.jsonl is rewritten without the done
// items when they are more than half of it and over 1 MiB.
//
// # Delivery
//
// Drain sends the queue in its order: a batch is the longest run at the
// head of the queue that goes to one Honcho session, at most 100 items.
// Every message carries its item's id in metadata (`boxmaker_id`). When it
// is not known whether Honcho stored a batch (memoryd started since, or no
// answer came), the session's latest 100 messages are listed first and
// the items already there are counted as sent, not sent again. A batch
// Honcho refuses for good (a 4xx other than 401, 403, 404, 408, 409, 429)
// is sent again one item at a time, and the item it refuses is set aside
// in failed.jsonl; everything else is tried again after a wait that
// doubles from RetryMin to RetryMax.
package honchosync
