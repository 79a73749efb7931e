package audit

import (
	"sort"
	"strings"
)

// callKey names one call in the log: the session and the model's call id
// (models reuse ids such as call_0 from one session to the next).
type callKey struct{ session, call string }

// callTracker follows calls and approvals through the log to find those
// left open. The records' strings are pieces of a whole chunk of the log
// (eachParsedLine): what it keeps past settle is copied.
type callTracker struct {
	decided   openCalls // calls decided ask, waiting for an answer
	running   openCalls // the record that let each run
	approvals map[string]*Approval
	order     []string // approval ids in the order requested
}

func newCallTracker() *callTracker {
	return &callTracker{approvals: map[string]*Approval{}}
}

// effectAsk is the decision effect of a call that waits for the owner.
const effectAsk = "ask"

func keyOf(r *Record) callKey { return callKey{r.Session, r.Call} }

func (t *callTracker) record(pos Position, r *Record) {
	switch r.Type {
	case TypeDecision:
		c := Call{Position: pos, Session: r.Session, Call: r.Call, Tool: r.Tool, Target: r.Target, ContentSHA256: r.ContentSHA256}
		switch r.Effect {
		case EffectAllow:
			t.running.put(c)
		case effectAsk: // waits for an answer; a denied call is done
			t.decided.put(c)
		}
	case TypeApprovalAnswered:
		k := keyOf(r)
		c, ok := t.decided.take(k)
		if r.Answer == AnswerApproved {
			if !ok {
				c = Call{Session: k.session, Call: k.call}
			}
			c.Position = pos
			t.running.put(c)
		}
		t.close(r.Approval)
	case TypeApprovalExpired, TypeApprovalWithdrawn:
		t.decided.take(keyOf(r))
		t.close(r.Approval)
	case TypeResult:
		k := keyOf(r)
		if _, ok := t.running.take(k); !ok {
			t.decided.take(k)
		}
	case TypeApprovalRequested:
		id := strings.Clone(r.Approval)
		if _, ok := t.approvals[id]; !ok {
			t.order = append(t.order, id)
		}
		t.approvals[id] = &Approval{Position: pos, Approval: id, Session: strings.Clone(r.Session), Call: strings.Clone(r.Call),
			CallSHA256: strings.Clone(r.CallSHA256), ArgumentsSHA256: strings.Clone(r.ArgumentsSHA256)}
	case TypeApprovalAbandoned:
		if a, ok := t.approvals[r.Approval]; ok {
			a.Abandoned = true
		}
	}
}

// settle copies what the tracker holds of the records given so far: call
// it before the chunk they are pieces of goes back to the pool.
func (t *callTracker) settle() {
	t.running.settle()
	t.decided.settle()
}

func (t *callTracker) close(approval string) { delete(t.approvals, approval) }

func (t *callTracker) open() ([]Call, []Approval) {
	t.settle()
	var calls []Call
	for _, c := range t.running.settled {
		calls = append(calls, c)
	}
	sort.Slice(calls, func(i, j int) bool { return calls[i].Position.before(calls[j].Position) })
	var approvals []Approval
	for _, id := range t.order {
		if a, ok := t.approvals[id]; ok && a.Position != (Position{}) {
			approvals = append(approvals, *a)
			delete(t.approvals, id)
		}
	}
	return calls, approvals
}

// frontSize is how many calls openCalls holds uncopied: the calls that
// run at once, in every session, are rarely more.
const frontSize = 8

// openCalls is a set of calls by key, as a map would be. Most calls of a
// log end a line or a few after they begin, so the latest ones put are
// held as they are (their strings pieces of the chunk), and only those
// still open when their chunk goes back to the pool are copied into the
// map (settle): a call that ends soon costs no copy and no hashing. The
// front and the map never hold the same key.
type openCalls struct {
	front   [frontSize]Call // front[:n], strings not copied
	n       int
	settled map[callKey]Call // strings copied
}

// put sets the call of c's key to c.
func (o *openCalls) put(c Call) {
	k := callKey{c.Session, c.Call}
	for i := range o.n {
		if o.front[i].Session == k.session && o.front[i].Call == k.call {
			o.front[i] = c
			return
		}
	}
	if len(o.settled) > 0 {
		delete(o.settled, k)
	}
	if o.n == frontSize {
		o.settleOne(0)
	}
	o.front[o.n] = c
	o.n++
}

// take removes the call of k and returns it.
func (o *openCalls) take(k callKey) (Call, bool) {
	for i := range o.n {
		if c := o.front[i]; c.Session == k.session && c.Call == k.call {
			o.removeFront(i)
			return c, true
		}
	}
	if len(o.settled) > 0 {
		if c, ok := o.settled[k]; ok {
			delete(o.settled, k)
			return c, true
		}
	}
	return Call{}, false
}

// settle copies every call of the front into the map.
func (o *openCalls) settle() {
	for o.n > 0 {
		o.settleOne(o.n - 1)
	}
}

func (o *openCalls) settleOne(i int) {
	c := cloneCall(o.front[i])
	if o.settled == nil {
		o.settled = map[callKey]Call{}
	}
	o.settled[callKey{c.Session, c.Call}] = c
	o.removeFront(i)
}

func (o *openCalls) removeFront(i int) {
	o.n--
	o.front[i] = o.front[o.n]
	o.front[o.n] = Call{} // the collector may take the chunk
}

// cloneCall copies c's strings, in one allocation: they are pieces of one
// copy.
func cloneCall(c Call) Call {
	var b strings.Builder
	b.Grow(len(c.Session) + len(c.Call) + len(c.Tool) + len(c.Target) + len(c.ContentSHA256))
	for _, x := range [...]string{c.Session, c.Call, c.Tool, c.Target, c.ContentSHA256} {
		b.WriteString(x)
	}
	all := b.String()
	cut := func(n int) string { s := all[:n]; all = all[n:]; return s }
	return Call{Position: c.Position, Session: cut(len(c.Session)), Call: cut(len(c.Call)), Tool: cut(len(c.Tool)),
		Target: cut(len(c.Target)), ContentSHA256: cut(len(c.ContentSHA256))}
}
