// Package runerr is the error a Run gives its program: a code the program
// can test (error.code in JavaScript), the text, the yaag page's entry
// that explains it, and a cause (error.cause) where there is one.
package runerr

import (
	"errors"
	"fmt"

	"boxmaker/runbook"
)

// Code is what a program tests an error by.
type Code string

// The codes.
const (
	AskLimit                 Code = "ASK_LIMIT"
	AskTimeout               Code = "ASK_TIMEOUT"
	AskInvalidOutput         Code = "ASK_INVALID_OUTPUT"
	AskStalled               Code = "ASK_STALLED"
	AskFailed                Code = "ASK_FAILED"
	AgentKilled              Code = "AGENT_KILLED"
	SpawnFailed              Code = "SPAWN_FAILED"
	ProfileRequired          Code = "PROFILE_REQUIRED"
	RoleNotFound             Code = "ROLE_NOT_FOUND"
	ProfileNotFound          Code = "PROFILE_NOT_FOUND"
	CatalogEntryNotFound     Code = "CATALOG_ENTRY_NOT_FOUND"
	CatalogEntryAmbiguous    Code = "CATALOG_ENTRY_AMBIGUOUS"
	CatalogEntryUnresolvable Code = "CATALOG_ENTRY_UNRESOLVABLE"
	OptionsConflict          Code = "OPTIONS_CONFLICT"
	SchemaUnsupported        Code = "SCHEMA_UNSUPPORTED"
	DescribeOnly             Code = "DESCRIBE_ONLY"
	RunStopped               Code = "RUN_STOPPED"
	ForkDuringAsk            Code = "FORK_DURING_ASK"
	CompactDuringAsk         Code = "COMPACT_DURING_ASK"
	ForkRefused              Code = "FORK_REFUSED"
	CompactFailed            Code = "COMPACT_FAILED"
	ReplayDiverged           Code = "REPLAY_DIVERGED"
	ReplayWithheld           Code = "REPLAY_WITHHELD"
	ResumeRefused            Code = "RESUME_REFUSED"
	HostSessionUnusable      Code = "HOST_SESSION_UNUSABLE"
)

// Recorded reports whether an Ask that failed with code failed in a way
// that is the Agent's own, so that a Cassette records it and a replay
// fails it the same way: a budget, the output schema, the Ask's timeout.
// The others (loopd unreachable, a model failure, a stall, a stop) are
// not steps of the program: a resume runs that Ask again.
func Recorded(code Code) bool {
	switch code {
	case AskLimit, AskInvalidOutput, AskTimeout, SchemaUnsupported:
		return true
	}
	return false
}

// Error is one failure a program sees.
type Error struct {
	Code  Code
	Text  string
	Entry runbook.Entry // the zero Entry: the text needs no entry
	Cause error
	whole bool // Text is the whole message (Again)
}

// New builds an error from a formatted text.
func New(code Code, entry runbook.Entry, format string, args ...any) *Error {
	return &Error{Code: code, Entry: entry, Text: fmt.Sprintf(format, args...)}
}

// WithCause sets the cause and returns e.
func (e *Error) WithCause(err error) *Error {
	e.Cause = err
	return e
}

// Again is an error recorded in a Cassette, given again by a replay as it
// was: message is its whole text, code and entry included.
func Again(code Code, message string) *Error {
	return &Error{Code: code, Text: message, whole: true}
}

func (e *Error) Error() string {
	if e.whole {
		return e.Text
	}
	s := string(e.Code) + ": " + e.Text
	if e.Entry != (runbook.Entry{}) {
		s += "; " + runbook.Link(e.Entry)
	}
	return s
}

func (e *Error) Unwrap() error { return e.Cause }

// As finds the first *Error in err's chain.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
