package loop

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	"boxmaker/core/loopwire"
	"boxmaker/core/sessionid"
	"boxmaker/core/sessionlog"
)

// Sessions answers sessions.list: every session of SessionsDir, the
// latest last turn first. A log line that cannot be read is skipped, and
// so is a session with no record: the list is for finding a session, and
// a turn on it reads its log strictly.
func (e *Engine) Sessions(ctx context.Context, _ struct{}) (loopwire.SessionsList, error) {
	ents, err := os.ReadDir(e.SessionsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return loopwire.SessionsList{Sessions: []loopwire.SessionSummary{}}, nil
	}
	if err != nil {
		return loopwire.SessionsList{}, fmt.Errorf("cannot read the sessions: %w", err)
	}
	list := []loopwire.SessionSummary{}
	for _, ent := range ents {
		if err := ctx.Err(); err != nil {
			return loopwire.SessionsList{}, err
		}
		if !ent.IsDir() || !sessionid.Valid(ent.Name()) {
			continue
		}
		recs, err := readRecords(e.SessionsDir, ent.Name())
		if err != nil || len(recs) == 0 {
			continue
		}
		list = append(list, summarise(ent.Name(), recs))
	}
	sort.SliceStable(list, func(i, j int) bool {
		if !list[i].LastTurn.Equal(list[j].LastTurn) {
			return list[i].LastTurn.After(list[j].LastTurn)
		}
		return list[i].ID > list[j].ID
	})
	return loopwire.SessionsList{Sessions: list}, nil
}

// History answers session.history: the session's last req.Turns messages
// of a person, and what followed each. The id is checked by
// core/sessionid's rule before anything is read: it names a directory of
// SessionsDir and nothing else.
func (e *Engine) History(_ context.Context, req loopwire.HistoryRequest) (loopwire.History, error) {
	if err := sessionid.Check(req.Session); err != nil {
		return loopwire.History{}, err
	}
	if req.Turns < 1 || req.Turns > loopwire.MaxHistoryTurns {
		return loopwire.History{}, fmt.Errorf("turns is %d: it must be 1 to %d", req.Turns, loopwire.MaxHistoryTurns)
	}
	recs, err := readRecords(e.SessionsDir, req.Session)
	if errors.Is(err, fs.ErrNotExist) {
		return loopwire.History{}, fmt.Errorf("there is no session %s in %s", req.Session, e.SessionsDir)
	}
	if err != nil {
		return loopwire.History{}, fmt.Errorf("cannot read session %s's log: %w", req.Session, err)
	}
	h := loopwire.History{Session: req.Session, Records: []loopwire.HistoryRecord{}}
	from, seen := len(recs), 0
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Type == TypeUser {
			h.Total++
			if seen < req.Turns {
				seen++
				from = i
			}
		}
	}
	for _, r := range recs[from:] {
		switch r.Type {
		case TypeUser:
			h.Records = append(h.Records, loopwire.HistoryRecord{Type: r.Type, Who: shown(r.Who), Text: shown(r.Text)})
		case TypeAssistant:
			h.Records = append(h.Records, loopwire.HistoryRecord{Type: r.Type, Text: shown(r.Text)})
		case TypeTool:
			first, _, _ := strings.Cut(strings.TrimSpace(r.Text), "\n")
			h.Records = append(h.Records, loopwire.HistoryRecord{Type: r.Type, Name: shown(r.Name), Outcome: shown(r.Outcome), Text: shown(first)})
		}
	}
	return h, nil
}

// summarise is a session's summary from its records.
func summarise(id string, recs []shownRecord) loopwire.SessionSummary {
	s := loopwire.SessionSummary{ID: id}
	for i, r := range recs {
		if r.Type == TypeNote && ((i == 1 && strings.HasPrefix(r.Text, yaagNotePrefix)) || strings.HasPrefix(r.Text, yaagForkPrefix)) {
			s.Agent = true // as hermetic says
		}
		t, err := time.Parse(time.RFC3339Nano, r.Time)
		if err != nil {
			continue
		}
		if s.Started.IsZero() {
			s.Started = t
		}
		if r.Type == TypeUser || r.Type == TypeAssistant {
			s.LastTurn = t
		}
		if r.Type == TypeUser {
			s.Turns++
			if s.FirstLine == "" {
				line, _, _ := strings.Cut(strings.TrimSpace(r.Text), "\n")
				s.FirstLine = shown(line)
			}
		}
	}
	if s.LastTurn.IsZero() {
		s.LastTurn = s.Started
	}
	return s
}

// shown is s cut at loopwire.MaxShown bytes (on a rune's start), saying
// how much was left out.
func shown(s string) string {
	if len(s) <= loopwire.MaxShown {
		return s
	}
	n := loopwire.MaxShown
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + fmt.Sprintf("... (%d more bytes)", len(s)-n)
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// shownRecord is what a person's view reads of a log's line.
type shownRecord struct {
	Time    string `json:"time"`
	Type    string `json:"type"`
	Who     string `json:"who"`
	Text    string `json:"text"`
	Name    string `json:"name"`
	Outcome string `json:"outcome"`
}

// maxShownLine bounds one line a person's view reads of a log; a longer
// one is skipped.
const maxShownLine = 16 << 20

// readRecords reads a session's records, every epoch in order, skipping
// lines that do not read. The session's directory and its logs are opened
// without following a link.
func readRecords(sessionsDir, id string) ([]shownRecord, error) {
	dir := filepath.Join(sessionsDir, id)
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory: %w", dir, fs.ErrNotExist)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var epochs []int64
	for _, ent := range ents {
		if n, ok := sessionlog.Epoch(ent.Name()); ok && ent.Type().IsRegular() {
			epochs = append(epochs, n)
		}
	}
	slices.Sort(epochs)
	var recs []shownRecord
	for _, n := range epochs {
		f, err := os.OpenFile(filepath.Join(dir, sessionlog.FileName(int(n))), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
		if err != nil {
			return nil, err
		}
		recs = appendRecords(recs, bufio.NewReaderSize(f, 64<<10))
		f.Close()
	}
	return recs, nil
}

// appendRecords appends the records r holds, line by line.
func appendRecords(recs []shownRecord, r *bufio.Reader) []shownRecord {
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: read it whole, keeping no
			// more than the bound (a longer line is skipped to its end,
			// so no piece of it is read as a line of its own).
			buf := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = r.ReadSlice('\n')
				if len(buf) <= maxShownLine {
					buf = append(buf, line...)
				}
			}
			line = buf
		}
		var rec shownRecord
		if len(line) <= maxShownLine && json.Unmarshal(line, &rec) == nil && rec.Type != "" {
			recs = append(recs, rec)
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return recs
		}
	}
}
