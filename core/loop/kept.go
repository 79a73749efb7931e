package loop

// What loopd keeps of a session between its turns: its records and their
// encoded messages, while its log is the file they came from.

import "os"

// loaded is a session's log as the last turn left it: its records, and
// the file as it was when they were its contents.
type loaded struct {
	log  *Log
	recs []Record
	fi   os.FileInfo
	conv *conversation // recs' messages encoded, or nil
}

// maxRecent is how many sessions' records loopd keeps between turns.
const maxRecent = 64

// load returns a session's log and records. The records of the session's
// last turn are used again when the file is the one they came from (the
// same file, size and modification time: loopd alone appends to it),
// else the log is read and checked again. Either way the records are
// exactly the file's, and a file changed by anything else is re-read.
//
// The kept records are given with their slice's room to grow: a turn
// appends in place instead of copying the session's records (which at
// turn 1,000 cost more than the rest of the turn). That is safe because
// the records' array is the session's alone: only the holder of the
// session's lock appends to it, and what is remembered after is always
// the longest of its views, so no two views ever append at one index.
func (e *Engine) load(id string) (*Log, []Record, error) {
	e.mu.Lock()
	c := e.recent[id]
	e.mu.Unlock()
	if c != nil {
		fi, err := os.Stat(c.log.Path)
		if err == nil && os.SameFile(fi, c.fi) && fi.Size() == c.fi.Size() && fi.ModTime().Equal(c.fi.ModTime()) {
			return c.log, c.recs, nil
		}
	}
	return OpenLog(e.SessionsDir, id)
}

// remember keeps a session's records for its next turn.
func (e *Engine) remember(log *Log, recs []Record) { e.rememberTurn(log, recs, nil) }

// rememberTurn keeps a session's records and their encoded messages (a
// turn's conversation, kept only when it is the records').
func (e *Engine) rememberTurn(log *Log, recs []Record, conv *conversation) {
	if conv != nil && (conv.log != log || conv.recs != len(recs)) {
		conv = nil
	}
	fi, err := os.Stat(log.Path)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err != nil || fi.Size() != log.Size() {
		delete(e.recent, log.Session)
		return
	}
	if e.recent == nil {
		e.recent = map[string]*loaded{}
	}
	if _, ok := e.recent[log.Session]; !ok && len(e.recent) >= maxRecent {
		for k := range e.recent { // any one: a forgotten session is read again
			delete(e.recent, k)
			break
		}
	}
	e.recent[log.Session] = &loaded{log, recs, fi, conv}
}

// conversation is the encoded messages of a session's records: the ones
// the session's last turn kept when load gave its records back (the same
// Log, as many records), else encoded now.
func (e *Engine) conversation(log *Log, recs []Record) (*conversation, error) {
	e.mu.Lock()
	c := e.recent[log.Session]
	e.mu.Unlock()
	if c != nil && c.log == log && c.conv != nil && len(c.recs) == len(recs) && c.conv.recs == len(recs) {
		return c.conv, nil
	}
	return newConversation(log, recs)
}
