package runbook

// YaagPagePath is yaag's troubleshooting page, relative to the repository
// root: the runbook of the yaag role, with entries of its own
// (entries_yaag.go, made by newYaagEntry). Its refusals are Refusals like
// the runbook's, and Link ends them with this page's anchor.
const YaagPagePath = "docs/yaag/troubleshooting.md"

// Quoted is the type of a message text that a page's quote marker must
// quote: `boxmaker gate` lists every constant of this type that no marker
// naming its file quotes, and every quote its file no longer holds.
type Quoted string
