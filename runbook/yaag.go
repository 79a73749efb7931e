package runbook

import "fmt"

// YaagPagePath is yaag's troubleshooting page, relative to the repository
// root: the runbook of the yaag role, with entries of its own.
const YaagPagePath = "docs/yaag/troubleshooting.md"

// YaagEntry is the anchor of one heading in docs/yaag/troubleshooting.md.
type YaagEntry string

// YaagLink ends every yaag message that has an entry on the yaag page.
func YaagLink(e YaagEntry) string { return "see docs/yaag/" + "troubleshooting.md#" + string(e) }

// YaagRefusal is a refusal explained on the yaag page.
type YaagRefusal struct {
	Entry YaagEntry
	Text  string
	Cause error
}

// RefuseYaag builds a yaag refusal from a formatted public text.
func RefuseYaag(e YaagEntry, format string, args ...any) *YaagRefusal {
	return &YaagRefusal{Entry: e, Text: fmt.Sprintf(format, args...)}
}

func (r *YaagRefusal) Error() string { return r.Text + "; " + YaagLink(r.Entry) }

func (r *YaagRefusal) Unwrap() error { return r.Cause }

// Quoted is the type of a message text that a page's quote marker must
// quote: `boxmaker gate` lists every constant of this type that no marker
// naming its file quotes, and every quote its file no longer holds.
type Quoted string
