package audit

import (
	"fmt"
	"os"
	"sort"
)

// Report is what Verify found. Errors break the chain; the other lists are
// advisory: they describe the log, and none of them is a fault of it.
type Report struct {
	Files   int
	Records int // records in the chain (recovered torn lines not counted)
	Bytes   int64

	// Errors are the failures no accepted break covers, in log order.
	Errors []Finding

	// Recoveries are torn lines that a recovery record describes.
	Recoveries []Recovery
	// Breaks are the accepted_break records, each with what it covers.
	Breaks []Break
	// Unfinished are calls allowed to run (decided allow, or asked and
	// approved) with no result record: running, or cut off by a stop.
	Unfinished []Call
	// Pending are approvals requested and never answered or expired:
	// waiting, or abandoned when brokerd stopped.
	Pending []Approval
	// TornTail is set when the latest file ends in the middle of a line:
	// brokerd may be writing it, or it stopped while writing it and will
	// recover it at its next start.
	TornTail *Position
}

// OK reports whether the chain holds.
func (r *Report) OK() bool { return len(r.Errors) == 0 }

// Recovery is a torn line kept in the log and described by the recovery
// record after it.
type Recovery struct {
	Position     // the torn line
	Length   int // its length in bytes
}

// Break is an accepted_break record: where it is, the failure it names,
// and the failures it covers (from the named one up to the break record).
type Break struct {
	Position          // the accepted_break record
	Failure  Position // the first failure when the break was accepted
	What     string   // what that failure was
	Covers   []Finding
}

// Call is a call allowed to run, with no result recorded.
type Call struct {
	Position // the record that let it run
	Call     string
	Tool     string
	Target   string
}

// Approval is an approval requested and never answered.
type Approval struct {
	Position  // the approval_requested record
	Approval  string
	Call      string
	Abandoned bool // an approval_abandoned record says brokerd gave it up
}

// Verify checks every file of the log in dir and reports every finding.
// It takes no lock and changes nothing, so it may run beside brokerd. An
// error is returned only when the log cannot be read at all.
func Verify(dir string) (*Report, error) {
	rep, _, err := scan(dir)
	return rep, err
}

// scanEnd is where a scan of the whole log ended: what an accepted_break
// record appended there continues from.
type scanEnd struct {
	latest   int      // the latest file's number (0: no file)
	maxSeq   uint64   // the highest seq of any record
	lastHash [32]byte // the hash of the last line, torn or not
	torn     bool     // the latest file ends in the middle of a line
}

func scan(dir string) (*Report, scanEnd, error) {
	var end scanEnd
	nums, err := logFiles(dir)
	if err != nil {
		return nil, end, err
	}
	rep := &Report{Files: len(nums)}
	calls := newCallTracker()
	c := &chain{onRecord: func(pos Position, r *Record) {
		rep.Records++
		calls.record(pos, r)
	}}
	c.startFromBeginning()
	prev := 0
	for i, n := range nums {
		if missing := missingBefore(prev, n); len(missing) > 0 {
			c.missingFiles(missing)
		}
		prev = n
		name := fileName(n)
		f, err := os.Open(logPath(dir, n))
		if err != nil {
			return nil, end, err
		}
		tail, lines, err := eachLine(f, func(lineNo int, raw []byte) {
			rep.Bytes += int64(len(raw)) + 1
			c.feed(Position{File: name, Line: lineNo}, raw)
		})
		f.Close()
		if err != nil {
			return nil, end, fmt.Errorf("%s: %w", name, err)
		}
		if len(tail) > 0 {
			rep.Bytes += int64(len(tail))
			pos := Position{File: name, Line: lines + 1}
			if i == len(nums)-1 {
				rep.TornTail = &pos
				end.torn, end.lastHash = true, lineHash(tail)
				if r, err := ParseLine(tail); err == nil {
					end.maxSeq = r.Seq
				}
			} else {
				// An older file never ends torn: brokerd rotates only
				// after a write that succeeded.
				c.feed(pos, tail)
				c.flush()
				c.findings = append(c.findings, Finding{Position: pos, What: "the file ends in the middle of this line"})
			}
		}
	}
	c.flush()
	if c.gapNote != "" { // files are missing at the end
		c.findings = append(c.findings, Finding{Position: Position{File: fileName(prev), Line: 1}, What: trimNote(c.gapNote)})
	}
	if len(nums) > 0 {
		end.latest = nums[len(nums)-1]
		end.maxSeq = max(end.maxSeq, c.maxSeq)
		if !end.torn {
			end.lastHash = c.hash
		}
	}
	rep.Errors, rep.Breaks = c.uncovered()
	// A break that names a line where nothing failed covers what it did
	// not see: that is not a break brokerd wrote.
	for _, b := range rep.Breaks {
		if b.Position.before(b.Failure) {
			rep.Errors = append(rep.Errors, Finding{Position: b.Position, What: fmt.Sprintf("accepted_break names %s, after itself", b.Failure)})
			continue
		}
		named := false
		for _, f := range b.Covers {
			if f.Position == b.Failure {
				named = true
			}
		}
		if !named {
			rep.Errors = append(rep.Errors, Finding{Position: b.Position, What: fmt.Sprintf("accepted_break names %s, where the chain does not fail", b.Failure)})
		}
	}
	sortFindings(rep.Errors)
	rep.Recoveries = c.recoveries
	rep.Unfinished, rep.Pending = calls.open()
	return rep, end, nil
}

func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Position.before(fs[j].Position) })
}

// callTracker follows calls and approvals through the log to find those
// left open.
type callTracker struct {
	decided   map[string]Call // call id -> its decision, for calls decided ask
	running   map[string]Call // call id -> the record that let it run
	approvals map[string]*Approval
	order     []string // approval ids in the order requested
}

func newCallTracker() *callTracker {
	return &callTracker{decided: map[string]Call{}, running: map[string]Call{}, approvals: map[string]*Approval{}}
}

func (t *callTracker) record(pos Position, r *Record) {
	switch r.Type {
	case TypeDecision:
		c := Call{Position: pos, Call: r.Call, Tool: r.Tool, Target: r.Target}
		if r.Effect == EffectAllow {
			t.running[r.Call] = c
		} else {
			t.decided[r.Call] = c
		}
	case TypeApprovalAnswered:
		if r.Answer == AnswerApproved {
			c, ok := t.decided[r.Call]
			if !ok {
				c = Call{Call: r.Call}
			}
			c.Position = pos
			t.running[r.Call] = c
		}
		delete(t.decided, r.Call)
		t.close(r.Approval)
	case TypeApprovalExpired:
		delete(t.decided, r.Call)
		t.close(r.Approval)
	case TypeResult:
		delete(t.running, r.Call)
		delete(t.decided, r.Call)
	case TypeApprovalRequested:
		if _, ok := t.approvals[r.Approval]; !ok {
			t.order = append(t.order, r.Approval)
		}
		t.approvals[r.Approval] = &Approval{Position: pos, Approval: r.Approval, Call: r.Call}
	case TypeApprovalAbandoned:
		if a, ok := t.approvals[r.Approval]; ok {
			a.Abandoned = true
		}
	}
}

func (t *callTracker) close(approval string) { delete(t.approvals, approval) }

func (t *callTracker) open() ([]Call, []Approval) {
	var calls []Call
	for _, c := range t.running {
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
