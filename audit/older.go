package audit

import (
	"bytes"
	"fmt"
	"os"
)

// File is the number of the file records are appended to now (1 for
// 000001.jsonl). A record appended after File returned n lands in file n
// or a later one.
func (l *Ledger) File() int { return int(l.fileNow.Load()) }

// DecidedBefore returns the call ids of session's decision records in the
// files numbered from `from` up to, not including, the file that was the
// latest at Open (Decided holds that file's), and the number of the first
// file that held one (0: none). These are the files Open did not read:
// brokerd asks once per session and brokerd run, from the file its state
// file says the session's first decision went to (core/broker). The
// files read are finished ones, which nothing writes any more. A file of
// the range that cannot be read is an error: the caller cannot tell that
// a call id is new.
func (l *Ledger) DecidedBefore(session string, from int) (calls []string, first int, err error) {
	if from < 1 {
		from = 1
	}
	// As the encoder writes them (appendLine): a line written otherwise
	// was not written by the ledger and breaks the chain verify checks.
	sessionField := appendString([]byte(`"session":`), session)
	decision := appendString([]byte(`"type":`), string(TypeDecision))
	for n := from; n < l.openedAt; n++ {
		f, err := os.Open(logPath(l.dir, n))
		if err != nil {
			return nil, 0, fmt.Errorf("cannot read %s to look for the session's earlier calls: %w", fileName(n), err)
		}
		var r Record
		_, _, err = eachLine(f, func(_ int, raw []byte) {
			// Cheap tests first; a line that passes is decoded, and only
			// a decision of this session counts.
			if !bytes.Contains(raw, sessionField) || !bytes.Contains(raw, decision) {
				return
			}
			r = Record{}
			if decodeFlat(raw, &r) != nil || r.Type != TypeDecision || r.Session != session {
				return
			}
			calls = append(calls, r.Call)
			if first == 0 {
				first = n
			}
		})
		f.Close()
		if err != nil {
			return nil, 0, fmt.Errorf("cannot read %s to look for the session's earlier calls: %w", fileName(n), err)
		}
	}
	return calls, first, nil
}
