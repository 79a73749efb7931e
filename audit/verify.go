package audit

import (
	"fmt"
	"os"
	"sort"
	"strings"
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

	// Witnessed is how many witnessed heads were checked (VerifyOptions);
	// WitnessErrors are those the log does not hold, in the witnesses'
	// order.
	Witnessed     int
	WitnessErrors []WitnessFinding

	// CallRecords are the records of VerifyOptions' call, in log order.
	CallRecords []CallRecord
}

// OK reports whether the chain holds and the log holds every witnessed
// head.
func (r *Report) OK() bool { return len(r.Errors) == 0 && len(r.WitnessErrors) == 0 }

// VerifyOptions are what Verify checks besides the chain.
type VerifyOptions struct {
	// Witnesses are heads seen outside the log (brokerd's witness file,
	// its journal): each must be in the log, the same line at the same
	// place. A log cut below one, or with a line changed at or before
	// one (the chain links every line to the one before), fails it.
	Witnesses []Witness
	// Progress, when not nil, is told now and then how many bytes of the
	// log's files have been read, of how many: one call at a time, not
	// always on the caller's goroutine.
	Progress func(done, total int64)
	// Session and Call, when Call is set, ask for every record of that
	// call (Report.CallRecords): its decision with write_file's content
	// hash, its approval's call and arguments hashes, the answer, the
	// result.
	Session, Call string
}

// CallRecord is a line of the log that belongs to the call asked for.
type CallRecord struct {
	Position
	Line   string
	Record Record
}

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
	Position      // the record that let it run
	Session       string
	Call          string
	Tool          string
	Target        string
	ContentSHA256 string // write_file's content, as its decision holds it
}

// Approval is an approval requested and never answered.
type Approval struct {
	Position        // the approval_requested record
	Approval        string
	Session         string
	Call            string
	CallSHA256      string // the exact call the approval answers
	ArgumentsSHA256 string // its arguments alone (core/approval)
	Abandoned       bool   // an approval_abandoned record says brokerd gave it up
}

// Verify checks every file of the log in dir and reports every finding.
// It takes no lock and changes nothing, so it may run beside brokerd. An
// error is returned only when the log cannot be read at all.
func Verify(dir string) (*Report, error) {
	rep, _, err := scan(dir, VerifyOptions{})
	return rep, err
}

// VerifyWith is Verify with the witnessed heads of o checked too.
func VerifyWith(dir string, o VerifyOptions) (*Report, error) {
	rep, _, err := scan(dir, o)
	return rep, err
}

// witnessCheck matches witnessed heads against the lines of the log as
// they are read: per file, the witnessed lines in order, with a cursor,
// since the lines come in order.
type witnessCheck struct {
	ws     []Witness
	byFile map[string][]int // file -> indexes into ws, by line
	cur    []int            // the current file's, still ahead
	found  []string         // per witness: "" (held), or what the log has
	seen   []bool
	lines  map[string]int // lines per file read
}

func newWitnessCheck(ws []Witness) *witnessCheck {
	w := &witnessCheck{ws: ws, byFile: map[string][]int{}, found: make([]string, len(ws)), seen: make([]bool, len(ws)), lines: map[string]int{}}
	for i, x := range ws {
		w.byFile[x.File] = append(w.byFile[x.File], i)
	}
	for _, idx := range w.byFile {
		sort.SliceStable(idx, func(a, b int) bool { return ws[idx[a]].Line < ws[idx[b]].Line })
	}
	return w
}

// file begins a file of the log.
func (w *witnessCheck) file(name string) { w.cur = w.byFile[name] }

// line is called for every complete line of the current file, in order.
func (w *witnessCheck) line(pos Position, l *parsedLine) {
	for len(w.cur) > 0 && w.ws[w.cur[0]].Line == pos.Line {
		i := w.cur[0]
		w.cur = w.cur[1:]
		w.seen[i] = true
		w.found[i] = headDiffers(w.ws[i].Head, l)
	}
}

func (w *witnessCheck) findings() []WitnessFinding {
	var out []WitnessFinding
	for i, x := range w.ws {
		switch n, ok := w.lines[x.File]; {
		case !w.seen[i] && !ok:
			out = append(out, WitnessFinding{Witness: x, Found: "the log has no " + x.File})
		case !w.seen[i]:
			out = append(out, WitnessFinding{Witness: x, Found: fmt.Sprintf("%s ends at line %d", x.File, n)})
		case w.found[i] != "":
			out = append(out, WitnessFinding{Witness: x, Found: w.found[i]})
		}
	}
	return out
}

// scanEnd is where a scan of the whole log ended: what an accepted_break
// record appended there continues from.
type scanEnd struct {
	latest   int      // the latest file's number (0: no file)
	maxSeq   uint64   // the highest seq of any record
	lastHash [32]byte // the hash of the last line, torn or not
	torn     bool     // the latest file ends in the middle of a line
}

func scan(dir string, o VerifyOptions) (*Report, scanEnd, error) {
	var end scanEnd
	nums, err := logFiles(dir)
	if err != nil {
		return nil, end, err
	}
	rep := &Report{Files: len(nums), Witnessed: len(o.Witnesses)}
	var total, done int64
	if o.Progress != nil {
		for _, n := range nums {
			if fi, err := os.Stat(logPath(dir, n)); err == nil {
				total += fi.Size()
			}
		}
		o.Progress(0, total)
	}
	calls := newCallTracker()
	// chunkDone is told of every chunk once its lines were given to the
	// chain, before the chunk before it goes back to the pool.
	chunkDone := func(n int) {
		calls.settle()
		if o.Progress != nil {
			done += int64(n)
			o.Progress(done, total)
		}
	}
	wc := newWitnessCheck(o.Witnesses)
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
		wc.file(name)
		tail, lines, err := eachParsedLine(f, func(lineNo int, l *parsedLine) {
			rep.Bytes += int64(l.length) + 1
			pos := Position{File: name, Line: lineNo}
			c.feedParsed(pos, l)
			wc.line(pos, l)
			if o.Call != "" && l.err == nil && l.rec.Call == o.Call && l.rec.Session == o.Session {
				r, _ := ParseLine([]byte(l.line)) // a copy: l's strings are pieces of a whole chunk
				rep.CallRecords = append(rep.CallRecords, CallRecord{Position: pos, Line: strings.Clone(l.line), Record: r})
			}
		}, chunkDone)
		wc.lines[name] = lines
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
	rep.WitnessErrors = wc.findings()
	rep.Recoveries = c.recoveries
	rep.Unfinished, rep.Pending = calls.open()
	return rep, end, nil
}

func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Position.before(fs[j].Position) })
}
