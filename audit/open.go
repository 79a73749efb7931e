package audit

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"boxmaker/core/daemon"
	"boxmaker/runbook"
)

// checkLastWitness refuses to open a log that does not hold the last head
// the witness file names.
// held says whether the file named a head at all.
func checkLastWitness(dir, path string) (held bool, err error) {
	w, err := lastWitness(path)
	if err != nil {
		return false, unavailable(fmt.Errorf("witness file: %w", err))
	}
	if w == nil {
		return false, nil
	}
	found, err := checkWitness(dir, *w)
	if err != nil {
		return false, unavailable(err)
	}
	if found != "" {
		return false, runbook.Refuse(runbook.AuditWitnessMismatch, "%s", WitnessFinding{Witness: *w, Found: found})
	}
	return true, nil
}

// head is the log's last record as a witness line names it.
func (l *Ledger) head() Head {
	return Head{Position: l.headPos, Seq: l.seq, SHA256: hashHex(l.hash)}
}

// takeLock takes the log's writer lock (daemon.Flock, the one lock of the
// code base): held by another process, it is another brokerd writing.
func takeLock(path string) (*daemon.Lock, error) {
	l, err := daemon.Flock(path)
	var pe *os.PathError
	switch {
	case errors.Is(err, daemon.ErrHeld):
		return nil, runbook.Refuse(runbook.BrokerdAlreadyRunning, "brokerd is already running")
	case errors.As(err, &pe):
		return nil, unavailable(err)
	case err != nil:
		return nil, unavailable(fmt.Errorf("lock %s: %w", path, err))
	}
	return l, nil
}

func unavailable(err error) error {
	return runbook.WithCause(runbook.AuditUnavailable, "cannot write the audit log: "+err.Error(), err)
}

func (l *Ledger) open() error {
	if l.opts.AcceptBreak {
		if err := l.acceptBreak(); err != nil {
			return err
		}
	}
	nums, err := logFiles(l.dir)
	if err != nil {
		return unavailable(err)
	}
	if len(nums) == 0 {
		l.openedAt = 1
		return l.beginFile(1)
	}
	latest := nums[len(nums)-1]
	l.openedAt = latest
	name := fileName(latest)
	c := &chain{onRecord: func(_ Position, r *Record) {
		if r.Type == TypeDecision {
			l.decided = append(l.decided, [2]string{r.Session, r.Call})
		}
	}}
	switch {
	case latest == 1:
		c.startFromBeginning()
	case len(nums) > 1 && nums[len(nums)-2] == latest-1:
		prevName := fileName(latest - 1)
		raw, lineNo, endsClean, err := lastLine(logPath(l.dir, latest-1))
		if err != nil {
			return unavailable(err)
		}
		if raw != nil {
			c.startAfter(Position{File: prevName, Line: lineNo}, raw)
		}
		if raw == nil || !endsClean {
			c.gapNote = prevName + " does not end with a complete line; "
		}
	case len(nums) > 1:
		// Files are missing just before the latest: the chain is checked
		// from the last line of the newest file that is there.
		before := nums[len(nums)-2]
		raw, lineNo, _, err := lastLine(logPath(l.dir, before))
		if err != nil {
			return unavailable(err)
		}
		if raw != nil {
			c.startAfter(Position{File: fileName(before), Line: lineNo}, raw)
		}
		c.missingFiles(missingBefore(before, latest))
	default:
		c.startFromBeginning()
		c.missingFiles(missingBefore(0, latest))
	}
	f, err := os.OpenFile(logPath(l.dir, latest), os.O_RDWR|os.O_APPEND|unix.O_CLOEXEC, 0)
	if err != nil {
		return unavailable(err)
	}
	l.f, l.fileNum = f, latest
	l.fileNow.Store(int64(latest))
	var size int64
	tail, lines, err := eachLine(f, func(lineNo int, raw []byte) {
		size += int64(len(raw)) + 1
		c.feed(Position{File: name, Line: lineNo}, raw)
	})
	if err != nil {
		return unavailable(err)
	}
	c.flush()
	if c.gapNote != "" { // a file is missing and the latest holds no line
		c.findings = append(c.findings, Finding{Position: Position{File: name, Line: 1}, What: trimNote(c.gapNote)})
	}
	l.size = size + int64(len(tail))
	l.lines = lines
	if c.hasLast {
		l.headPos = c.lastPos
	}
	if open, _ := c.uncovered(); len(open) > 0 {
		return runbook.Refuse(runbook.AuditChainBroken, "%s", open[0])
	}
	l.seq, l.hash = c.seq, c.hash
	if !c.seqKnown {
		l.seq = c.maxSeq
	}
	if len(tail) == 0 {
		return l.rememberOrFail()
	}
	// The torn line stays, ended, and the recovery record after it says
	// what it was; it takes the torn line's seq, so the chain goes on from
	// the last complete record.
	h := lineHash(tail)
	rec := Record{Type: TypeRecovery, TornLength: int64(len(tail)), TornSHA256: hashHex(h),
		Note: "the last line was torn when brokerd stopped; it is kept above and was never acted on"}
	if err := l.writeNow([]byte{'\n'}, &rec); err != nil {
		return err
	}
	l.recovered = &Recovery{Position: Position{File: name, Line: lines + 1}, Length: len(tail)}
	l.lines = lines + 2 // the torn line, ended, and the recovery record
	l.headPos = Position{File: name, Line: l.lines}
	return l.rememberOrFail()
}

func (l *Ledger) rememberOrFail() error {
	l.keepReserve()
	if err := l.remember(); err != nil {
		return unavailable(err)
	}
	return nil
}

// acceptBreak checks the whole log and, when its chain fails, ends a torn
// last line and appends an accepted_break record naming the first failure.
// Nothing is repaired or removed.
func (l *Ledger) acceptBreak() error {
	rep, st, err := scan(l.dir, VerifyOptions{})
	if err != nil {
		return unavailable(err)
	}
	if len(rep.Errors) == 0 {
		return nil
	}
	first := rep.Errors[0]
	f, err := os.OpenFile(logPath(l.dir, st.latest), os.O_WRONLY|os.O_APPEND|unix.O_CLOEXEC, 0)
	if err != nil {
		return unavailable(err)
	}
	defer f.Close()
	l.f, l.seq, l.hash = f, st.maxSeq, st.lastHash
	defer func() { l.f = nil }()
	var prefix []byte
	if st.torn {
		prefix = []byte{'\n'}
	}
	rec := Record{Type: TypeAcceptedBreak, BreakFile: first.File, BreakLine: int64(first.Line), BreakWhat: first.What,
		Note: "accepted with --accept-break: the records from the failure up to here are not vouched for"}
	if err := l.writeNow(prefix, &rec); err != nil {
		return err
	}
	l.accepted = &Break{Failure: first.Position, What: first.What}
	return nil
}
