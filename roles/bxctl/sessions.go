package bxctl

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/home"
	"boxmaker/core/loop"
	"boxmaker/core/sessionlog"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
)

func sessionsCommands() []*cli.Command {
	return []*cli.Command{{
		Name:  "sessions",
		Usage: "list the sessions to come back to, the latest first",
		Description: "sessions prints one line per session in the home's sessions/ folder: its ID,\n" +
			"when it started, its last turn, the taint brokerd holds for it (and\n" +
			"'untrusted' when it read from an untrusted grant; '-' when brokerd has no\n" +
			"state for it) and the first line of its first message. Continue one with\n" +
			"'bxctl chat --session ID', or the latest with 'bxctl chat --last'.\n" +
			"Everything the model or a person wrote is shown with control characters escaped.",
		Flags:  []cli.Flag{rolecli.JSONFlag},
		Action: rolecli.NoArgs(listSessions),
	}}
}

// sessionInfo is one session as bxctl sessions shows it.
type sessionInfo struct {
	ID        string    `json:"id"`
	Started   time.Time `json:"started"`
	LastTurn  time.Time `json:"last_turn"`
	Taint     string    `json:"taint"` // "" when brokerd holds no state for it
	Untrusted bool      `json:"untrusted"`
	Turns     int       `json:"turns"` // the person's messages in its logs
	FirstLine string    `json:"first_line"`
}

func listSessions(c *cli.Context) error {
	var cfg conf.Loopd
	if _, err := loopConfig.load(c, &cfg); err != nil {
		return err
	}
	list, err := readSessions(cfg.Home)
	if err != nil {
		return err
	}
	w := c.App.Writer
	if rolecli.WantsJSON(c) {
		if list == nil {
			list = []sessionInfo{}
		}
		return rolecli.WriteJSON(w, struct {
			Sessions []sessionInfo `json:"sessions"`
		}{list})
	}
	if len(list) == 0 {
		fmt.Fprintln(w, "sessions: none yet; bxctl chat begins one")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTARTED\tLAST TURN\tTAINT\tFIRST LINE")
	for _, s := range list {
		taint := s.Taint
		if taint == "" {
			taint = "-"
		}
		if s.Untrusted {
			taint += ",untrusted"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.ID, shortTime(s.Started), shortTime(s.LastTurn), taint, cut(termsafe.Line(s.FirstLine), 50))
	}
	return tw.Flush()
}

func shortTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04")
}

// cut keeps the first n runes of s, marking what was left out.
func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// readSessions reads every session of the home, the latest last turn
// first. A log line that cannot be read is skipped: the list is for
// finding a session, and bxctl chat's loopd reads it strictly.
func readSessions(homeDir string) ([]sessionInfo, error) {
	dir := filepath.Join(homeDir, home.DirSessions)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the sessions: %w", err)
	}
	var list []sessionInfo
	for _, e := range ents {
		if !e.IsDir() || !loop.ValidSessionID(e.Name()) {
			continue
		}
		s, ok := readSession(homeDir, e.Name())
		if ok {
			list = append(list, s)
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		if !list[i].LastTurn.Equal(list[j].LastTurn) {
			return list[i].LastTurn.After(list[j].LastTurn)
		}
		return list[i].ID > list[j].ID
	})
	return list, nil
}

// readSession reads one session's logs (every epoch, oldest first) and
// brokerd's state for it.
func readSession(homeDir, id string) (sessionInfo, bool) {
	s := sessionInfo{ID: id}
	recs, err := sessionRecords(homeDir, id)
	if err != nil || len(recs) == 0 {
		return s, false
	}
	for _, r := range recs {
		t, err := time.Parse(time.RFC3339Nano, r.Time)
		if err != nil {
			continue
		}
		if s.Started.IsZero() {
			s.Started = t
		}
		if r.Type == sessionlog.TypeUser || r.Type == sessionlog.TypeAssistant {
			s.LastTurn = t
		}
		if r.Type == sessionlog.TypeUser {
			s.Turns++
			if s.FirstLine == "" {
				s.FirstLine, _, _ = strings.Cut(strings.TrimSpace(r.Text), "\n")
			}
		}
	}
	if s.LastTurn.IsZero() {
		s.LastTurn = s.Started
	}
	var st struct {
		Taint     string `json:"taint"`
		Untrusted bool   `json:"untrusted"`
	}
	if b, err := os.ReadFile(filepath.Join(homeDir, home.DirBrokerSessions, id+".json")); err == nil && json.Unmarshal(b, &st) == nil {
		s.Taint, s.Untrusted = st.Taint, st.Untrusted
	}
	return s, true
}

// logRecord is what bxctl reads of a session log's line.
type logRecord struct {
	Time      string          `json:"time"`
	Type      string          `json:"type"`
	Who       string          `json:"who"`
	Text      string          `json:"text"`
	Name      string          `json:"name"`
	Outcome   string          `json:"outcome"`
	ToolCalls []loop.ToolCall `json:"tool_calls"`
}

// maxLogLine bounds one line bxctl reads of a log; a longer one is
// skipped.
const maxLogLine = 16 << 20

// sessionRecords reads a session's records, every epoch in order.
func sessionRecords(homeDir, id string) ([]logRecord, error) {
	dir := filepath.Join(homeDir, home.DirSessions, id)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var epochs []int64
	for _, e := range ents {
		if n, ok := sessionlog.Epoch(e.Name()); ok && e.Type().IsRegular() {
			epochs = append(epochs, n)
		}
	}
	slices.Sort(epochs)
	var recs []logRecord
	for _, n := range epochs {
		f, err := os.Open(filepath.Join(dir, sessionlog.FileName(int(n))))
		if err != nil {
			return nil, err
		}
		r := bufio.NewReaderSize(f, 64<<10)
		for {
			line, err := r.ReadSlice('\n')
			long := errors.Is(err, bufio.ErrBufferFull)
			if long {
				// A line longer than the buffer: read it whole, up to the bound.
				buf := append([]byte(nil), line...)
				for errors.Is(err, bufio.ErrBufferFull) && len(buf) <= maxLogLine {
					line, err = r.ReadSlice('\n')
					buf = append(buf, line...)
				}
				line = buf
			}
			var rec logRecord
			if len(line) <= maxLogLine && json.Unmarshal(line, &rec) == nil && rec.Type != "" {
				recs = append(recs, rec)
			}
			if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		f.Close()
	}
	return recs, nil
}

// showHistory writes the last turns of a session before the chat's
// prompt: each message of the person's, the agent's words, and a line
// per tool call with its outcome, everything escaped.
func showHistory(w io.Writer, homeDir, id string, turns int) {
	recs, err := sessionRecords(homeDir, id)
	if err != nil {
		fmt.Fprintf(w, "bxctl chat: cannot read session %s's log to show its last turns: %v\n", id, err)
		return
	}
	// From the last turns-th message of the person's on.
	from, seen := 0, 0
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Type == sessionlog.TypeUser {
			seen++
			from = i
			if seen == turns {
				break
			}
		}
	}
	if seen == 0 {
		fmt.Fprintln(w, "bxctl chat: the session has no turns yet")
		return
	}
	total := 0
	for _, r := range recs {
		if r.Type == sessionlog.TypeUser {
			total++
		}
	}
	fmt.Fprintf(w, "bxctl chat: the last %d of the session's %d turns:\n", seen, total)
	for _, r := range recs[from:] {
		switch r.Type {
		case sessionlog.TypeUser:
			who := r.Who
			if who == "" {
				who = "you"
			}
			fmt.Fprintf(w, "%s> %s\n", termsafe.Line(who), indentLines(r.Text))
		case sessionlog.TypeAssistant:
			if t := strings.TrimSpace(r.Text); t != "" {
				fmt.Fprintln(w, indentLines(t))
			}
		case sessionlog.TypeTool:
			text, _, _ := strings.Cut(strings.TrimSpace(r.Text), "\n")
			fmt.Fprintf(w, "  [tool %s] %s: %s\n", termsafe.Line(r.Name), termsafe.Line(r.Outcome), cut(termsafe.Line(text), 100))
		}
	}
	fmt.Fprintln(w, "bxctl chat: (the session goes on from here)")
}

// indentLines escapes text and indents its lines after the first, so
// none passes for a line of bxctl's own.
func indentLines(s string) string {
	return strings.ReplaceAll(termsafe.Text(strings.TrimRight(s, "\n")), "\n", "\n  ")
}
