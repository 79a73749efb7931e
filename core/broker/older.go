package broker

import (
	"fmt"

	"boxmaker/core/policy"
	"boxmaker/runbook"
)

// OlderCallsUnreadableText is what the model is told for a call whose id
// brokerd cannot check against the session's decisions in the audit log's
// older files (one is missing or unreadable).
const OlderCallsUnreadableText = "denied: brokerd cannot read the audit log's older files to check that this call id is new in the session"

// rotatingLedger is a ledger whose older files Open did not read (audit's
// *Ledger): the decisions of the latest file are Config.Decided, those of
// older files are read for one session at a time.
type rotatingLedger interface {
	File() int
	DecidedBefore(session string, from int) (calls []string, first int, err error)
}

// knowOlderCalls adds the session's decided call ids from the audit files
// older than the one brokerd read at start, once per session and run, so
// that call-id-reused holds across brokerd's restarts whatever the log's
// size. The session's state file says where to start: audit_from, the
// file its first decision went to, written before that decision. A
// session without a state file is new and gets one now, naming the
// current file; a state file that does not say (written by hand, as the
// broker-state-damaged entry's fix does) is read from the first file, and
// then says where its first decision was found. Called with the session's
// lock held: the state file is written here too.
func (b *Broker) knowOlderCalls(session string) error {
	rl, ok := b.cfg.Ledger.(rotatingLedger)
	if !ok {
		return nil
	}
	b.sessions.mu.Lock()
	_, known := b.sessions.from[session]
	b.sessions.mu.Unlock()
	if known {
		return nil
	}
	f, exists, err := b.sessions.readFile(session)
	if err != nil {
		return nil // decideCall denies it as broker-state-damaged, and comes back here next time
	}
	from := f.AuditFrom
	switch {
	case !exists:
		from = rl.File()
	case from == 0:
		from = 1
	}
	calls, first, err := rl.DecidedBefore(session, from)
	if err != nil {
		return err
	}
	for _, c := range calls {
		b.decided.add(callKey{session, c})
	}
	if !exists || f.AuditFrom == 0 {
		from = rl.File()
		if first > 0 {
			from = first
		}
		f.AuditFrom = from
		if err := b.sessions.writeFile(session, f); err != nil {
			return err
		}
	}
	b.sessions.mu.Lock()
	b.sessions.from[session] = from
	b.sessions.mu.Unlock()
	return nil
}

// writeStart writes a session's state at session.start. A new session's
// file names the current audit file as its audit_from (a file that exists
// keeps what it says: one that does not say is for knowOlderCalls to
// read), and domain, the taint domain it joins ("" for none; a session
// that exists already is in no new domain). Called with the session's
// lock held.
func (b *Broker) writeStart(session string, st policy.State, domain string) error {
	rl, ok := b.cfg.Ledger.(rotatingLedger)
	b.sessions.mu.Lock()
	from, known := b.sessions.from[session]
	b.sessions.mu.Unlock()
	f, exists, err := b.sessions.readFile(session)
	if err != nil {
		return err
	}
	if exists && domain != "" && f.Domain != domain {
		return fmt.Errorf("session %s exists already: it cannot join a yaag Run's taint domain", session)
	}
	if exists || (domain == "" && (!ok || known)) {
		return b.sessions.write(session, st)
	}
	if ok && !known {
		from = rl.File()
	}
	if err := b.sessions.writeFile(session, stateFile{State: st, AuditFrom: from, Domain: domain}); err != nil {
		return err
	}
	if domain != "" {
		if err := b.sessions.raiseDomain(domain, st); err != nil {
			return err
		}
	}
	if !ok || known {
		return nil
	}
	b.sessions.mu.Lock()
	b.sessions.from[session] = from
	b.sessions.mu.Unlock()
	return nil
}

// olderCallsDenied is the answer to a call knowOlderCalls could not
// check; brokerd's line names the file and why.
func olderCallsDenied() string { return entryText(runbook.CallIDReused, OlderCallsUnreadableText) }
