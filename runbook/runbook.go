// Package runbook names the entries of docs/runbook.md (and of yaag's
// page, docs/yaag/troubleshooting.md) and renders every refusal so that
// it ends with a link to its entry.
//
// An entry is a value only this package makes, one per heading, in the
// entries*.go files: a misspelt entry does not compile, no other package
// can make one from a string (Entry's field is unexported; a name that
// crossed a socket or a process becomes an Entry again only through
// Lookup, which knows only these), and `boxmaker gate` (see runbook/gate)
// checks that each has a heading in docs/runbook.md, that each heading is
// used by code, and that quoted messages still stand in the files they
// quote.
package runbook

import (
	"errors"
	"fmt"
	"strings"
)

// Entry is the anchor of one heading of a page: docs/runbook.md, or
// yaag's troubleshooting page (YaagPagePath). The zero Entry is no entry.
type Entry struct {
	name string
	page string // "": the runbook
}

// known are the entries of both pages, by name: what Lookup answers from.
// A name is one entry, whichever page holds it, so that a name that
// crossed a socket is never two.
var known = map[string]Entry{}

// newEntry makes the runbook's entry named name; only the entries*.go
// files call it, once per heading.
func newEntry(name string) Entry { return declare(Entry{name: name}) }

// newYaagEntry makes the entry named name of yaag's page
// (entries_yaag.go), once per heading.
func newYaagEntry(name string) Entry { return declare(Entry{name: name, page: YaagPagePath}) }

func declare(e Entry) Entry {
	if _, dup := known[e.name]; dup {
		panic("runbook: entry " + e.name + " declared twice")
	}
	known[e.name] = e
	return e
}

// Lookup is the entry named name, when there is one: how a refusal that
// crossed a socket or a process (its entry written as text) is made again.
func Lookup(name string) (Entry, bool) {
	e, ok := known[name]
	return e, ok
}

// String is the entry's name, its anchor in its page.
func (e Entry) String() string { return e.name }

// Page is the page that explains the entry, relative to the repository
// root: RunbookPath or YaagPagePath.
func (e Entry) Page() string {
	if e.page == "" {
		return RunbookPath
	}
	return e.page
}

// MarshalText writes the entry's name; UnmarshalText takes only a name
// Lookup knows.
func (e Entry) MarshalText() ([]byte, error) { return []byte(e.name), nil }

func (e *Entry) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*e = Entry{}
		return nil
	}
	found, ok := Lookup(string(b))
	if !ok {
		return fmt.Errorf("%q is not an entry of docs/runbook.md", b)
	}
	*e = found
	return nil
}

// Link is the text that ends every message that refuses or holds something
// back: "see docs/runbook.md#<entry>", or yaag's page for its entries. It
// is the only place a link is made.
func Link(e Entry) string { return "see " + e.Page() + "#" + e.name }

// Refusal is an error an operator or the model sees: the public text, the
// entry that explains it (on either page), and the internal cause (which
// may be nil).
type Refusal struct {
	Entry Entry
	Text  string
	Cause error
}

// Refuse builds a refusal from a formatted public text.
func Refuse(e Entry, format string, args ...any) *Refusal {
	return &Refusal{Entry: e, Text: fmt.Sprintf(format, args...)}
}

// WithCause is the refusal of entry e whose public text is text, with the
// internal cause kept apart: cause is for the operator's log (Cause,
// errors.Unwrap) and never part of Error(), which is what the model, a
// client or a peer is shown. It is the one way to write "public text plus
// hidden cause", as tailscale's vizerror keeps the two apart.
func WithCause(e Entry, text string, cause error) *Refusal {
	return &Refusal{Entry: e, Text: text, Cause: cause}
}

// Wrap turns err into a refusal of entry e, with err's text as the public
// text: for an error already written for the person who reads it (a
// configuration's problem naming its file and line). An error whose text
// must not be shown is WithCause's. A refusal already carrying an entry is
// returned unchanged, so the innermost, most specific entry wins.
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

// Public is what a refusal in err's chain is on a wire: its entry, and
// err's whole message without the link that ends it (context a wrapper
// put in front stays). ok is false when err holds no refusal, or its
// message does not end with the refusal's link. The other side makes the
// refusal again from the two (daemon.RemoteError), never from the text.
func Public(err error) (e Entry, text string, ok bool) {
	e, ok = EntryOf(err)
	if !ok {
		return Entry{}, "", false
	}
	text, ok = strings.CutSuffix(err.Error(), "; "+Link(e))
	if !ok {
		return Entry{}, "", false
	}
	return e, text, true
}

// EntryOf reports the entry of the first refusal in err's chain.
func EntryOf(err error) (Entry, bool) {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Entry, true
	}
	return Entry{}, false
}

// Problem is one finding of `boxmaker gate` (runbook/gate) or of a
// further check it runs, reported as file:line: text.
type Problem struct {
	File string
	Line int
	Text string
}

func (p Problem) String() string { return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Text) }

// RunbookPath is where the runbook lives, relative to the repository root.
const RunbookPath = "docs/runbook.md"
