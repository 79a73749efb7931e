package yaagwire

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"boxmaker/core/daemon"
	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const textPauseFailed runbook.Quoted = "Pause failed:"

// The codes of a Control Channel's refusal (core/yaag/control serves
// them), and of a client that did not reach it.
const (
	Busy          = "BUSY"
	RunEnded      = "RUN_ENDED"
	RunSettling   = "RUN_SETTLING"
	FlushBudget   = "FLUSH_BUDGET"
	ConnectFailed = "CONNECT_FAILED"
	ChannelClosed = "CHANNEL_CLOSED"
)

// The request kinds.
const (
	KindStatus = "status"
	KindPause  = "pause"
	KindStop   = "stop"
)

// Request is the body of pause and stop.
type Request struct {
	WaitMS int64 `json:"wait_ms,omitempty"`
}

// Status is the answer to status.
type Status struct {
	Run    string        `json:"run"`
	State  string        `json:"state"`
	Agents []AgentStatus `json:"agents"`
}

// AgentStatus is one Agent as status shows it.
type AgentStatus struct {
	Agent      string `json:"agent"`
	Definition string `json:"definition"`
	Session    string `json:"session,omitempty"`
	Asks       int    `json:"asks"`
	InFlight   int    `json:"inFlight"`
	Playback   bool   `json:"playback,omitempty"`
	Killed     bool   `json:"killed,omitempty"`
}

// Answer is the answer to pause and stop.
type Answer struct {
	Status     string `json:"status"`
	Checkpoint string `json:"checkpoint,omitempty"`
}

// ControlError is a request the Control Channel refused or did not answer.
type ControlError struct {
	Code  string
	Text  string
	Cause error // the socket's refusal, when the answer was one
}

func (e *ControlError) Error() string { return e.Code + ": " + e.Text }

// Unwrap is the socket's refusal, when the answer was one.
func (e *ControlError) Unwrap() error { return e.Cause }

// Call sends one request to a Run's Control Channel.
func Call(ctx context.Context, socket, kind string, body, out any) error {
	err := daemon.Call(ctx, socket, kind, body, out, nil)
	if err == nil {
		return nil
	}
	var re *daemon.RemoteError
	var oe *net.OpError
	switch {
	case errors.As(err, &re):
		code, text, ok := strings.Cut(re.Text, ": ")
		if ok && isCode(code) {
			return &ControlError{Code: code, Text: text}
		}
		if r := re.Refusal(); r != nil {
			// The socket's own refusal (its peer check): its entry is kept,
			// and Failed ends the message with it.
			return &ControlError{Code: "REFUSED", Text: r.Text, Cause: err}
		}
		return &ControlError{Code: "REFUSED", Text: re.Text}
	case errors.As(err, &oe) && oe.Op == "dial":
		return &ControlError{Code: ConnectFailed, Text: fmt.Sprintf("cannot connect to the Run's Control Channel %s: %v (its process may be gone: yaag runs shows it lost)", socket, oe.Err)}
	}
	return &ControlError{Code: ChannelClosed, Text: fmt.Sprintf("the Control Channel %s closed before it answered: %v", socket, err)}
}

func isCode(s string) bool {
	switch s {
	case Busy, RunEnded, RunSettling, FlushBudget:
		return true
	}
	return false
}

// Failed words a refused pause (or stop, status: verb) for the person:
// "Pause failed: CODE: ...", with the entry's link.
func Failed(verb string, err error) error {
	prefix := string(textPauseFailed)
	if verb != "pause" {
		prefix = strings.ToUpper(verb[:1]) + verb[1:] + " failed:"
	}
	text := fmt.Sprintf("%s %v; the Run's record is unchanged (yaag status reads it, yaag stop still ends it)", prefix, err)
	if e, ok := runbook.EntryOf(err); ok {
		// A refusal of the socket itself names the cause: its entry
		// ends the message, alone (D411).
		return runbook.WithCause(e, text, err)
	}
	return runbook.Refuse(runbook.YaagPauseRefused, "%s", text)
}

// Request sends one request to the Control Channel of Run id: a Run with
// no record is "No Run with id", one whose record says it ended is
// "already ended." (neither reaches a socket); a refusal of the socket,
// or a socket that cannot be reached, is a *ControlError.
func (s Store) Request(ctx context.Context, id, kind string, body, out any) (Record, error) {
	r, err := s.Read(id)
	if err != nil {
		return r, err
	}
	if r.Ended() {
		return r, &EndedError{Record: r}
	}
	if r.Control == "" {
		return r, &ControlError{Code: ConnectFailed, Text: fmt.Sprintf("Run %s has no Control Channel (a replay has none: it ends by itself)", id)}
	}
	return r, Call(ctx, r.Control, kind, body, out)
}
