// Package audit is brokerd's audit ledger: a hash-chained log of JSON lines
// that records every decision before the call it allows runs. It appends
// (with group commit), recovers a torn last line at start, accepts a broken
// chain only when told to, and verifies the whole log.
//
// # On disk
//
// The log lives in one directory, <home>/audit (mode 0700):
//
//	.lock          flock'd by the one writer for its whole life (brokerd)
//	000001.jsonl   the first file (mode 0600)
//	000002.jsonl   the next, begun once the one before reached the
//	...            configured size (Options.MaxFileSize, 64 MiB by default)
//
// Files are numbered from 000001 without gaps; names that are not six or
// more digits and ".jsonl" are not part of the log. Each file holds whole
// lines, each ended by "\n" and holding one JSON object, a record. Only the
// latest file may end without "\n": a line being written, or one torn by a
// crash.
//
// Every record has this envelope:
//
//	seq       1 for the first record of the log, then one more than the
//	          record before it, across files
//	prev      the SHA-256, as 64 lower-case hex digits, of the bytes of the
//	          line before it (the whole line without its "\n"); the line
//	          before the first line of a file is the last line of the file
//	          before; for the first record of the log, 64 zeros
//	time      when it was written, RFC 3339 in UTC with nanoseconds
//	type      start, stop, decision, result, approval_requested,
//	          approval_answered, approval_expired, approval_abandoned,
//	          approval_withdrawn (the caller went before an answer),
//	          session_start, recovery or accepted_break
//	call      the tool call's id (decision, result, approvals)
//	approval  the approval's short id (approval records)
//
// and the fields of its type (see Record): a decision's tool, target,
// effect, grant, session and taint; a result's outcome, taint_after and
// untrusted; a session_start's session and taint (the state a new session
// starts at: its memory block's class); a write_file decision's
// content_sha256; an approval_requested's call_sha256 and
// arguments_sha256; an approval_answered's
// answer ("approved" or "refused"), by and why; note for anything else.
// Empty fields are left out. The encoder writes the fields in one order; a
// reader must accept any order, but no field twice and none unknown.
//
// Two records are written by this package only:
//
//   - recovery: the line before it is a torn line (the process stopped
//     while writing it) that was kept and ended with "\n". torn_length and
//     torn_sha256 are the length and SHA-256 of that line's bytes. The torn
//     line is not part of the chain: the recovery record takes its seq and
//     its prev is the hash of the line before the torn line. A torn line
//     was never acted on, even when it looks like a whole record: a record
//     counts only once it is on disk with its newline.
//   - accepted_break: written by Open with AcceptBreak when the chain fails.
//     break_file and break_line name the first failure, break_what says what
//     it was. Its seq is one more than the highest seq in the log, its prev
//     the hash of the line before it. It covers every failure from the one
//     it names up to its own line; failures after it need a break of their
//     own.
//
// # Open, Append, Close
//
// brokerd calls Open(<home>/audit, Options{MaxFileSize: ..., AcceptBreak:
// --accept-break, Log: os.Stderr}) once at start and keeps the *Ledger for
// its life:
//
//   - dir/.lock held by another process: the refusal "brokerd is already
//     running" (brokerd-already-running).
//   - Open checks the latest file only (from the last line of the file
//     before it). A broken chain is the refusal "<file>:<line>: <what>"
//     (audit-chain-broken) and nothing is written.
//   - With AcceptBreak, Open first checks the whole log; if it fails, a torn
//     last line is ended with "\n" and an accepted_break is appended naming
//     the first failure. Nothing is repaired or removed.
//   - A torn last line is ended and described by a recovery record.
//     Ledger.Notices then holds "audit: recovered a torn final line; see
//     ..." (audit-recovered) for brokerd to print, and Ledger.Recovered
//     says where. If the process dies again while writing the recovery
//     record, the next Open finds an undescribed line within the last three
//     lines of the latest file, with the last line cut short: that is a
//     broken chain, and --accept-break is its fix.
//   - Any other failure to open is audit-unavailable.
//
// After Open brokerd appends a start record, then for each call a decision
// record before the call runs and a result record after; approval records
// as approvals change; a stop record before Close. Ledger.Append fills seq,
// prev and (when zero) time, and returns the seq once the record is
// durable (written and fdatasync'd). Concurrent Appends share one write
// and one sync (group commit). Before each batch, and again after it is
// synced, the ledger checks that the latest file's path still names the
// file it holds open, with one link, the size it wrote and (before) no
// change time since its own last write: a copy moved over it, sed -i, an
// editor's save, mv, rm, ln, truncate, an append or chmod by anything else
// fail the batch as audit-unavailable, with the change in the message, and
// poison the ledger. A failed write or sync, such a change, or a panic inside
// the ledger, poisons it: that Append and every later one return the
// audit-unavailable refusal ("an earlier audit write failed; every call is
// denied until brokerd is restarted", or "a thread panicked while holding
// the ledger; ..."), and nothing is retried: a failed write may have left
// part of a line, which only the next Open deals with.
//
// # Verify
//
// Verify(dir) reads every file, without the lock, and reports every
// failure (Report.Errors, each printed "<file>:<line>: <what>"), apart from
// what is advisory: recovered torn lines, accepted breaks with what each
// covers, calls allowed to run without a result ("running or unfinished"),
// approvals never answered ("pending or abandoned"), and a torn line at
// the very end of the latest file (being written, or to be recovered).
//
// Verify reads the files in chunks of whole lines; each line's SHA-256
// and decoding do not depend on the line before, so they are done on every
// core, and only the chain's checks (seq, prev, what each record closes)
// run in order.
//
// # Witnesses
//
// What the chain cannot show: the newest lines or files removed, or a
// record removed and every later prev recomputed, leave a log that is
// whole as far as it goes. So the ledger witnesses the log's head outside
// it: the line
//
//	audit: head <file>:<line> seq <n> sha256 <hash>
//
// naming the last record (its file and 1-based line, its seq, the SHA-256
// of its line) goes to Options.Heads (brokerd's standard error, which
// journald keeps) and is appended to Options.WitnessFile (brokerd's
// [audit] witness_file, which must be outside dir), at Open, once
// Options.WitnessEvery records have been appended since the last (checked
// after each batch, before the next is written), once that many seconds
// have passed with records not yet witnessed, and at Close. Open first
// checks the last head of the witness file against the log and refuses
// (audit-witness-mismatch) when the log does not hold it. VerifyWith
// checks every head given (ReadWitnesses reads them from a witness file
// or a whole journal, taking only lines that are exactly a head line),
// and reports each the log does not hold, with what it holds instead.
//
// A head's hash vouches for every line up to it, since each line holds
// the hash of the one before: a cut below a head, or a change at or before
// it, is found. A witness proves nothing of the records after its last
// head (up to WitnessEvery of them), and someone who can rewrite the log
// and every witness alike can make them agree: a witness is worth what
// the place it is kept is worth (a journal forwarded to another machine,
// a file shipped off the host).
package audit
