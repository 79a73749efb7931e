package audit

import (
	"fmt"
	"strconv"
	"strings"
)

// Position is a line of the log: a file's base name and its 1-based line.
type Position struct {
	File string
	Line int
}

func (p Position) String() string { return fmt.Sprintf("%s:%d", p.File, p.Line) }

// before orders positions through the log: by file number, then line.
func (p Position) before(q Position) bool {
	if p.File != q.File {
		return fileNumber(p.File) < fileNumber(q.File)
	}
	return p.Line < q.Line
}

// Finding is one way the chain fails at one line.
type Finding struct {
	Position
	What string
}

// String is the form every tool prints: <file>:<line>: <what>.
func (f Finding) String() string { return fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.What) }

// chain walks the lines of the log in order and checks each against the
// one before: it parses, its seq is one more, its prev is the hash of the
// line before. After a failure it carries on from the failing line, so that
// each discontinuity is reported once and the rest of the log still is
// checked. A line directly followed by a recovery record that describes it
// (length and hash) is a recovered torn line: it is left out of the chain,
// and the recovery record continues from the line before it.
//
// The decision about a line waits for the next one (the recovery record
// comes after the line it describes), so a line is held as pending until
// then; only its position, length, hash and parse are kept.
type chain struct {
	// the last line taken into the chain
	seq      uint64
	seqKnown bool
	hash     [32]byte
	maxSeq   uint64
	lastPos  Position
	hasLast  bool

	pending    *line
	spare      *line  // the line struct feed fills next: two are reused, not one per line
	gapNote    string // set when a file is missing before the next line
	findings   []Finding
	recoveries []Recovery
	breaks     []acceptedBreak
	onRecord   func(Position, *Record) // every record taken into the chain
}

// line is a line fed to the chain: where it is, and its hash and parse,
// which stay where they were made (a chunk's parses are kept until the
// chunk after it is done, eachParsedLine).
type line struct {
	pos     Position
	gapNote string
	*parsedLine
}

type acceptedBreak struct {
	pos   Position // the accepted_break record
	names Position // the failure it names
	what  string
}

// start sets where the chain stands before the first line fed: the
// beginning of the log, or the last line of the file before the one
// checked.
func (c *chain) startFromBeginning() {
	c.seq, c.seqKnown, c.hash = 0, true, [32]byte{}
}

func (c *chain) startAfter(pos Position, raw []byte) {
	c.hash = lineHash(raw)
	c.lastPos, c.hasLast = pos, true
	if r, err := ParseLine(raw); err == nil {
		c.seq, c.seqKnown, c.maxSeq = r.Seq, true, r.Seq
	}
}

// feed takes the next complete line (without its newline).
func (c *chain) feed(pos Position, raw []byte) {
	p := new(parsedLine)
	p.parse(raw)
	c.feedParsed(pos, p)
}

// feedParsed takes the next complete line, hashed and decoded. pl must
// stay as it is until the line after it has been fed (and flush called
// after the last).
func (c *chain) feedParsed(pos Position, pl *parsedLine) {
	l := c.spare
	if l == nil {
		l = new(line)
	}
	*l = line{pos: pos, gapNote: c.gapNote, parsedLine: pl}
	c.gapNote = ""
	if p := c.pending; p != nil {
		if l.err == nil && l.rec.Type == TypeRecovery && l.rec.TornLength == int64(p.length) &&
			l.rec.TornSHA256 == hashHex(p.hash) {
			c.recoveries = append(c.recoveries, Recovery{Position: p.pos, Length: p.length})
			l.gapNote = p.gapNote + l.gapNote
		} else {
			c.take(p)
		}
	}
	c.pending, c.spare = l, c.pending
}

// flush takes the pending line: call it at the end of what is checked.
func (c *chain) flush() {
	if c.pending != nil {
		c.take(c.pending)
		c.pending = nil
	}
}

// missingFiles notes files missing before the next line.
func (c *chain) missingFiles(names []string) {
	c.gapNote += strings.Join(names, ", ") + " missing; "
}

func (c *chain) take(l *line) {
	var problems []string
	if l.err != nil {
		problems = append(problems, "not a record: "+l.err.Error())
	} else {
		r := &l.rec
		if c.seqKnown && r.Seq != c.seq+1 {
			problems = append(problems, fmt.Sprintf("seq %d should be %d", r.Seq, c.seq+1))
		}
		if l.prevSum != c.hash { // r.Prev is the hex of c.hash

			if c.hasLast {
				problems = append(problems, fmt.Sprintf("prev is not the hash of %s", c.lastPos))
			} else {
				problems = append(problems, "prev is not the hash of the line before")
			}
		}
	}
	if len(problems) > 0 || l.gapNote != "" {
		c.findings = append(c.findings, Finding{Position: l.pos, What: trimNote(l.gapNote + strings.Join(problems, "; "))})
	}
	c.hash, c.lastPos, c.hasLast = l.hash, l.pos, true
	if l.err != nil {
		c.seqKnown = false
		return
	}
	c.seq, c.seqKnown = l.rec.Seq, true
	c.maxSeq = max(c.maxSeq, l.rec.Seq)
	if l.rec.Type == TypeAcceptedBreak {
		c.breaks = append(c.breaks, acceptedBreak{
			pos:   l.pos,
			names: Position{File: strings.Clone(l.rec.BreakFile), Line: int(l.rec.BreakLine)},
			what:  strings.Clone(l.rec.BreakWhat),
		})
	}
	if c.onRecord != nil {
		c.onRecord(l.pos, &l.rec)
	}
}

// uncovered splits the findings into those no accepted break covers and
// the breaks with what each covers. A break covers every finding from the
// failure it names up to and including its own line.
func (c *chain) uncovered() ([]Finding, []Break) {
	breaks := make([]Break, len(c.breaks))
	for i, b := range c.breaks {
		breaks[i] = Break{Position: b.pos, Failure: b.names, What: b.what}
	}
	var open []Finding
	for _, f := range c.findings {
		covered := false
		for i, b := range c.breaks {
			if !f.Position.before(b.names) && !b.pos.before(f.Position) {
				breaks[i].Covers = append(breaks[i].Covers, f)
				covered = true
				break
			}
		}
		if !covered {
			open = append(open, f)
		}
	}
	return open, breaks
}

// fileName is the name of the n-th file of the log.
func fileName(n int) string { return fmt.Sprintf("%06d.jsonl", n) }

// fileNumber is the number in a log file's name, or -1.
func fileNumber(name string) int {
	num, ok := strings.CutSuffix(name, ".jsonl")
	if !ok || len(num) < 6 {
		return -1
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 || fileName(n) != name {
		return -1
	}
	return n
}

func trimNote(s string) string { return strings.TrimSuffix(s, "; ") }
