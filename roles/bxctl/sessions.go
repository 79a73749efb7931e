package bxctl

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"boxmaker/core/brokerwire"
	"boxmaker/core/conf"
	"boxmaker/core/loopwire"
	"boxmaker/core/role"
	"boxmaker/core/sessionlog"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
)

func sessionsCommands() []*cli.Command {
	return []*cli.Command{{
		Name:  "sessions",
		Usage: "list the sessions to come back to, the latest first",
		Description: "sessions prints one line per session of the home, as loopd lists them: its ID,\n" +
			"when it started, its last turn, the taint brokerd holds for it (and\n" +
			"'untrusted' when it read from an untrusted grant; '?' when brokerd cannot\n" +
			"say it, with a line saying why) and the first line of its first message. Continue one with\n" +
			"'bxctl chat --session ID', or the latest with 'bxctl chat --last'. The sessions\n" +
			"of yaag Agents (a Run's, not yours to come back to) are shown with --all only,\n" +
			"marked 'agent'. Everything the model or a person wrote is shown with control\n" +
			"characters escaped.",
		Flags: []cli.Flag{rolecli.JSONFlag,
			&cli.BoolFlag{Name: "all", Usage: "the sessions of yaag Agents too"}},
		Action: rolecli.NoArgs(listSessions),
	}}
}

// sessionInfo is one session as bxctl sessions shows it.
type sessionInfo struct {
	ID        string    `json:"id"`
	Started   time.Time `json:"started"`
	LastTurn  time.Time `json:"last_turn"`
	Taint     string    `json:"taint"` // brokerd's: public when it holds no state for it
	Untrusted bool      `json:"untrusted"`
	Problem   string    `json:"problem,omitempty"` // why brokerd cannot say the taint
	Turns     int       `json:"turns"`             // the person's messages in its logs
	FirstLine string    `json:"first_line"`
	Agent     bool      `json:"agent,omitempty"` // a yaag Agent's session (--all)
}

func listSessions(c *cli.Context) error {
	var cfg conf.Loopd
	if _, err := loopConfig.load(c, &cfg); err != nil {
		return err
	}
	all, err := sessionsOf(c.Context, cfg)
	if err != nil {
		return err
	}
	list, agents := all[:0:0], 0
	for _, s := range all {
		if s.Agent && !c.Bool("all") {
			agents++
			continue
		}
		list = append(list, s)
	}
	infos := make([]sessionInfo, 0, len(list))
	if len(list) > 0 {
		// The taint is brokerd's: its admin socket says each session's.
		var bcfg conf.Brokerd
		if _, err := brokerConfig.load(c, &bcfg); err != nil {
			return err
		}
		q := brokerwire.SessionsStateRequest{Sessions: make([]string, len(list))}
		for i, s := range list {
			q.Sessions[i] = s.ID
		}
		var states brokerwire.SessionsState
		if err := (peer{role.Brokerd, bcfg.Sockets.Admin}).call(c.Context, 30*time.Second, brokerwire.KindSessionsState, q, &states, nil); err != nil {
			return err
		}
		if len(states.States) != len(list) {
			return fmt.Errorf("brokerd answered the state of %d sessions, not of the %d asked about", len(states.States), len(list))
		}
		for i, s := range list {
			st := states.States[i]
			if st.Session != s.ID {
				return fmt.Errorf("brokerd answered the state of session %q where %q was asked about", st.Session, s.ID)
			}
			infos = append(infos, sessionInfo{ID: s.ID, Started: s.Started, LastTurn: s.LastTurn,
				Taint: st.Taint, Untrusted: st.Untrusted, Problem: st.Problem, Turns: s.Turns, FirstLine: s.FirstLine, Agent: s.Agent})
		}
	}
	w := c.App.Writer
	if rolecli.WantsJSON(c) {
		return rolecli.WriteJSON(w, struct {
			Sessions []sessionInfo `json:"sessions"`
		}{infos})
	}
	hidden := ""
	if agents > 0 {
		hidden = fmt.Sprintf("(and %d sessions of yaag Agents: bxctl sessions --all shows them)", agents)
	}
	if len(infos) == 0 {
		fmt.Fprintln(w, "sessions: none yet; bxctl chat begins one")
		if hidden != "" {
			fmt.Fprintln(w, hidden)
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTARTED\tLAST TURN\tTAINT\tFIRST LINE")
	for _, s := range infos {
		taint := s.Taint
		if s.Problem != "" {
			taint = "?"
		}
		if s.Untrusted {
			taint += ",untrusted"
		}
		if s.Agent {
			taint += ",agent"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.ID, shortTime(s.Started), shortTime(s.LastTurn), taint, cut(termsafe.Line(s.FirstLine), 50))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range infos {
		if s.Problem != "" {
			fmt.Fprintf(w, "session %s: brokerd cannot say its taint: %s\n", s.ID, termsafe.Line(s.Problem))
		}
	}
	if hidden != "" {
		fmt.Fprintln(w, hidden)
	}
	return nil
}

// sessionsOf is the home's sessions as loopd lists them, the latest last
// turn first. loopd reads them: the owner of a home root runs reaches them
// through its socket, not the files.
func sessionsOf(ctx context.Context, cfg conf.Loopd) ([]loopwire.SessionSummary, error) {
	var list loopwire.SessionsList
	if err := (peer{role.Loopd, cfg.Sockets.Loop}).call(ctx, 30*time.Second, loopwire.KindSessionsList, nil, &list, nil); err != nil {
		return nil, err
	}
	return list.Sessions, nil
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

// showHistory writes the last turns of the chat's session before its
// prompt, as loopd gives them: each message of the person's, the agent's
// words, and a line per tool call with its outcome, everything escaped.
func (ch *chatter) showHistory(ctx context.Context, turns int) {
	var h loopwire.History
	err := (peer{role.Loopd, ch.socket}).call(ctx, 30*time.Second, loopwire.KindSessionHistory,
		loopwire.HistoryRequest{Session: ch.session, Turns: turns}, &h, nil)
	w := ch.out
	if err != nil {
		fmt.Fprintf(w, "bxctl chat: cannot show session %s's last turns: %s\n", ch.session, termsafe.Line(err.Error()))
		return
	}
	seen := 0
	for _, r := range h.Records {
		if r.Type == sessionlog.TypeUser {
			seen++
		}
	}
	if seen == 0 {
		fmt.Fprintln(w, "bxctl chat: the session has no turns yet")
		return
	}
	fmt.Fprintf(w, "bxctl chat: the last %d of the session's %d turns:\n", seen, h.Total)
	for _, r := range h.Records {
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
			fmt.Fprintf(w, "  [tool %s] %s: %s\n", termsafe.Line(r.Name), termsafe.Line(r.Outcome), cut(termsafe.Line(r.Text), 100))
		}
	}
	fmt.Fprintln(w, "bxctl chat: (the session goes on from here)")
}

// indentLines escapes text and indents its lines after the first, so
// none passes for a line of bxctl's own.
func indentLines(s string) string {
	return strings.ReplaceAll(termsafe.Text(strings.TrimRight(s, "\n")), "\n", "\n  ")
}
