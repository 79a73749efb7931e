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
)

// Error is one failure a program sees.
type Error struct {
	Code  Code
	Text  string
	Entry runbook.YaagEntry // empty: the text needs no entry
	Cause error
}

// New builds an error from a formatted text.
func New(code Code, entry runbook.YaagEntry, format string, args ...any) *Error {
	return &Error{Code: code, Entry: entry, Text: fmt.Sprintf(format, args...)}
}

// WithCause sets the cause and returns e.
func (e *Error) WithCause(err error) *Error {
	e.Cause = err
	return e
}

func (e *Error) Error() string {
	s := string(e.Code) + ": " + e.Text
	if e.Entry != "" {
		s += "; " + runbook.YaagLink(e.Entry)
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
