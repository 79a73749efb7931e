// Package runbook names the entries of docs/runbook.md and renders every
// refusal so that it ends with a link to its entry.
//
// An entry is a typed constant: a misspelt entry does not compile, and
// `boxmaker gate` (see gate.go) checks that each constant has a heading in
// docs/runbook.md, that each heading is used by code, and that quoted
// messages still stand in the files they quote.
package runbook

import (
	"errors"
	"fmt"
)

// Entry is the anchor of one heading in docs/runbook.md.
type Entry string

// Link is the text that ends every message that refuses or holds something
// back. It is the only place the runbook's path is written.
func Link(e Entry) string { return "see docs/runbook.md#" + string(e) }

// Refusal is an error an operator or the model sees: the public text, the
// entry that explains it, and the internal cause (which may be nil).
type Refusal struct {
	Entry Entry
	Text  string
	Cause error
}

// Refuse builds a refusal from a formatted public text.
func Refuse(e Entry, format string, args ...any) *Refusal {
	return &Refusal{Entry: e, Text: fmt.Sprintf(format, args...)}
}

// Wrap turns err into a refusal of entry e, with err's text as the public
// text. A refusal already carrying an entry is returned unchanged, so the
// innermost, most specific entry wins.
func Wrap(e Entry, err error) error {
	if err == nil {
		return nil
	}
	var r *Refusal
	if errors.As(err, &r) {
		return err
	}
	return &Refusal{Entry: e, Text: err.Error(), Cause: err}
}

func (r *Refusal) Error() string { return r.Text + "; " + Link(r.Entry) }

func (r *Refusal) Unwrap() error { return r.Cause }

// EntryOf reports the entry of the first refusal in err's chain.
func EntryOf(err error) (Entry, bool) {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Entry, true
	}
	return "", false
}
