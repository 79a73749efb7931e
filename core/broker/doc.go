// Package broker is brokerd's decision path: for each tool call of the
// model it reads the session's state, decides the call against the grants
// (core/policy), records the decision in the audit ledger (package audit)
// before anything runs, waits for the owner when a grant says ask, runs
// the call (core/runner for the file tools and run, memoryd's tool socket
// for memory and recall), raises the session's state, records the result
// and only then gives the result back. A failure at any step withholds
// everything after it; docs/specs/decision-path.md is the specification
// and docs/tool-socket.md what loopd sees.
//
// # Session state
//
// broker/sessions/<id>.json holds one line, {"taint":"private","untrusted":false}:
// the highest class of data the session's results carried (for recall,
// also the taint memoryd says its hits' sources have: decision D61), and
// whether any came through an untrusted grant (or a recall hit memoryd
// says was tainted). A missing file is a new session (public, trusted). A file
// that cannot be read or parsed denies every call of the session
// (broker-state-damaged): brokerd will not guess how sensitive the
// session is. The file is replaced atomically (core/atomicfile) after a
// call ran and before its result is recorded or released; taint never
// falls, because every call of one session holds the session's lock from
// reading the state to writing it (only an approval's wait is outside it,
// and the call is decided again after the wait).
//
// # Approvals
//
// A call decided ask gets a pending approval with a short id (six
// characters of [a-z2-7]) and an approval_requested record that carries
// the SHA-256 of the exact call (session, call id, tool and arguments, as
// CallHash computes it). An answer names the id; the approval carries the
// hash to the waiting call, which runs only if the hash is its own, so an
// approval answers that one call and nothing else. No answer within the
// configured time is an approval_expired record; pending approvals when
// brokerd stops are approval_abandoned records.
//
// # Recording, and when the audit log cannot be written
//
// Every record goes to the ledger through one of two functions, and so
// follows one of two rules, by whether the call has run:
//
//   - Before it runs (recordBefore): its decision, an approval's request,
//     expiry or abandonment, a denial after an approval, a session's start.
//     A record that cannot be appended stops everything after it: Call
//     (or StartSession) returns the audit-unavailable refusal as its
//     error, the ledger's error is logged, and nothing runs.
//   - After it ran, or failed running (recordAfter): its result. A record
//     that cannot be appended withholds the result: the answer is failed
//     with ResultUnrecordedText (audit-unavailable), and the ledger's error
//     is logged. When the session's state could not be written the result
//     is withheld already (broker-state-damaged), and the record that says
//     so is written if it can be.
//
// An answer to an approval (AnswerApproval) is recorded before the waiting
// call is told: when that record cannot be appended the answer is refused
// (audit-unavailable) and the waiting call ends with the same refusal.
package broker
