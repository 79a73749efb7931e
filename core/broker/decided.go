package broker

import "sync"

// callKey names one call in the audit log: the session and the model's
// call id. Models reuse ids such as call_0 from one session to the next,
// so the id alone names nothing.
type callKey struct{ session, call string }

// decidedCalls are the calls brokerd has recorded a decision for: those of
// this run, those of the audit file it found at start, and those of the
// older files for each session that has called in this run (older.go). A second call
// under a key already decided is denied before anything is recorded, so
// that every key in the log has one decision, one approval and one
// result, and an answer given for one call can never be taken by another.
// It holds about a hundred bytes per call for brokerd's life.
type decidedCalls struct {
	mu sync.Mutex
	m  map[callKey]struct{}
}

func (d *decidedCalls) has(k callKey) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.m[k]
	return ok
}

func (d *decidedCalls) add(k callKey) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.m == nil {
		d.m = map[callKey]struct{}{}
	}
	d.m[k] = struct{}{}
}
