package recall

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"

	"boxmaker/core/memory"
	"boxmaker/core/sessionlog"
)

type readJob struct {
	path  string
	start int64
}

// logChunk is a run of decoded records of one log. The last chunk of a
// log has last set, and end is then the offset after its last complete
// line.
type logChunk struct {
	recs    []sessionlog.TextRecord
	skipped int
	end     int64
	last    bool
	err     error
}

const chunkRecords = 2048

// readAhead reads and decodes the logs of jobs in order on a goroutine of
// its own (decoding JSON is a sixth of the work; SQLite's inserts, on the
// caller's goroutine, the rest), until done is closed.
func readAhead(jobs []readJob, done <-chan struct{}) <-chan logChunk {
	ch := make(chan logChunk, 4)
	go func() {
		defer close(ch)
		for _, j := range jobs {
			if !readLog(j, ch, done) {
				return
			}
		}
	}()
	return ch
}

// readLog sends the records of one log from j.start, in chunks. A last
// line without its newline is still being written and is left for later;
// a line that is not a record is skipped and counted (loopd's own reader
// reports damaged logs; recall indexes what it can).
func readLog(j readJob, ch chan<- logChunk, done <-chan struct{}) bool {
	send := func(c logChunk) bool {
		select {
		case ch <- c:
			return true
		case <-done:
			return false
		}
	}
	fh, err := os.Open(j.path)
	if err != nil {
		return send(logChunk{err: &readError{err}, last: true})
	}
	defer fh.Close()
	if _, err := fh.Seek(j.start, io.SeekStart); err != nil {
		return send(logChunk{err: &readError{err}, last: true})
	}
	r := bufio.NewReaderSize(fh, 256<<10)
	off := j.start
	var c logChunk
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: gather it whole.
			long := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = r.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if err == io.EOF {
			c.end, c.last = off, true
			return send(c)
		}
		if err != nil {
			c.err, c.last = &readError{err}, true
			return send(c)
		}
		off += int64(len(line))
		var rec sessionlog.TextRecord
		if json.Unmarshal(bytes.TrimSpace(line), &rec) != nil || rec.Seq < 1 || rec.Seq >= 1<<32 {
			c.skipped++
			continue
		}
		switch rec.Type {
		case sessionlog.TypeUser, sessionlog.TypeAssistant, sessionlog.TypeTool:
		default:
			continue
		}
		if rec.Type == sessionlog.TypeTool && rec.Name == recallTool {
			// A recall's answer quotes the hits of its words: indexed,
			// each later recall of them would find the earlier recall
			// (and the one before it) ahead of what it found.
			continue
		}
		if rec.Text == "" {
			continue
		}
		c.recs = append(c.recs, rec)
		if len(c.recs) == chunkRecords {
			c.end = off
			if !send(c) {
				return false
			}
			c = logChunk{}
		}
	}
}

// indexLog inserts the records readAhead sends for one log and returns
// the offset to read it from next time.
func indexLog(ins *sql.Stmt, chunks <-chan logChunk, s source, p *Progress) (int64, error) {
	for c := range chunks {
		p.Skipped += c.skipped
		for _, rec := range c.recs {
			if _, err := ins.Exec(s.id<<32|rec.Seq, rec.Text, s.session, s.epoch, rec.Seq, rec.Time, rec.Type, 0, ""); err != nil {
				if isConstraint(err) { // a seq seen twice: a damaged log
					p.Skipped++
					continue
				}
				return s.offset, err
			}
			p.Records++
		}
		if c.err != nil {
			return s.offset, c.err
		}
		if c.last {
			return c.end, nil
		}
	}
	return s.offset, errors.New("recall: the log reader stopped early")
}

// indexNotes reads notes.md whole.
func indexNotes(ins *sql.Stmt, home string, f file, s source, p *Progress) (int64, error) {
	b, err := os.ReadFile(filepath.Join(home, f.rel))
	if err != nil {
		return 0, &readError{err}
	}
	for i, n := range memory.ParseNotes(string(b)) {
		if n.Text == "" {
			continue
		}
		at := ""
		if !n.Time.IsZero() {
			at = n.Time.UTC().Format(time.RFC3339Nano)
		}
		untrusted := 0
		if n.Untrusted {
			untrusted = 1
		}
		if _, err := ins.Exec(s.id<<32|int64(i+1), n.Text, n.Session, 0, i+1, at, "note", untrusted, n.Class); err != nil {
			return 0, err
		}
		p.Notes++
	}
	return int64(len(b)), nil
}

// recallTool is the tool whose results recall does not index.
const recallTool = "recall"
