package loopwire

import "time"

// The kinds that show a person their sessions (bxctl sessions, bxctl chat
// --session and --last). loopd answers them from the home's sessions/,
// which it alone reads and writes: the owner of a home root runs reaches
// them through the loop socket's peer check, not through the files.
//
// KindSessionsList ({} -> SessionsList) is every session of the home, the
// latest turn first. KindSessionHistory (HistoryRequest -> History) is a
// session's last turns. Neither streams events.
//
// Both take only what the owner may see already: the summaries and turns
// of the home's sessions, as their logs hold them. A session is named by
// its id alone (core/sessionid's rule, checked before anything is read),
// never by a path. The texts are as the logs hold them, cut at MaxShown
// bytes: a reader escapes them before a terminal shows them.
const (
	KindSessionsList   = "sessions.list"
	KindSessionHistory = "session.history"
)

// MaxShown bounds a text in a SessionSummary or a HistoryRecord; what is
// cut is said in the text ("... (N more bytes)").
const MaxShown = 64 << 10

// MaxHistoryTurns is the most turns one session.history answers.
const MaxHistoryTurns = 100

// SessionSummary is one session as sessions.list gives it: when it began
// (its first record) and when its last turn was (the person's or the
// model's last message; its beginning if it has none), how many messages
// it holds (of a person, or of the yaag Run for an Agent) and the first
// line of the first. Agent says it is a yaag Agent's session (made by
// agent.spawn or agent.fork), not a person's to come back to.
type SessionSummary struct {
	ID        string    `json:"id"`
	Started   time.Time `json:"started"`
	LastTurn  time.Time `json:"last_turn"`
	Turns     int       `json:"turns"`
	FirstLine string    `json:"first_line"`
	Agent     bool      `json:"agent,omitempty"`
}

// SessionsList is sessions.list's answer, the latest last turn first.
type SessionsList struct {
	Sessions []SessionSummary `json:"sessions"`
}

// HistoryRequest is the body of session.history: Session's last Turns
// messages of a person (1 to MaxHistoryTurns) and what followed each.
type HistoryRequest struct {
	Session string `json:"session"`
	Turns   int    `json:"turns"`
}

// History is session.history's answer: Total is how many messages of a
// person the session holds; Records, oldest first, begin at the Turns-th
// last of them (empty when it has none).
type History struct {
	Session string          `json:"session"`
	Total   int             `json:"total"`
	Records []HistoryRecord `json:"records"`
}

// HistoryRecord is one record of a session's last turns: a person's
// message (Type "user": Who and Text), the model's words ("assistant":
// Text), a tool's result ("tool": Name, Outcome and the first line of its
// Text).
type HistoryRecord struct {
	Type    string `json:"type"`
	Who     string `json:"who,omitempty"`
	Text    string `json:"text,omitempty"`
	Name    string `json:"name,omitempty"`
	Outcome string `json:"outcome,omitempty"`
}
