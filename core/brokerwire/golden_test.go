package brokerwire_test

import (
	"encoding/json"
	"flag"
	"testing"
	"time"

	"boxmaker/core/brokerwire"
	"boxmaker/core/testsupport"
	"boxmaker/core/yaagwire"
)

var update = flag.Bool("update", false, "write the golden files")

// pendings are approvals as the admin socket sends them: one with every
// field set, one with only what every approval has.
var pendings = []brokerwire.Pending{
	{
		ID: "k7q2m", Call: "call_7", Session: "s1", Tool: "yaag_run", Target: "/home/owner/prog", Grant: "yaag.toml",
		CallHash: "c0ffee", Arguments: `{"dir":"/home/owner/prog","file":"main.ts"}`, ArgumentsHash: "beef",
		Requested: time.Date(2026, 12, 7, 6, 30, 0, 123456789, time.UTC),
		Expires:   time.Date(2026, 12, 7, 6, 35, 0, 0, time.FixedZone("", 3600)),
		Program: &yaagwire.Manifest{Dir: "/home/owner/prog", SHA256: "abc", Files: []yaagwire.FileSum{
			{Path: "main.ts", Size: 12, SHA256: "d1"}, {Path: ".yaag/registry.json", Size: 0, SHA256: "d2"},
		}},
		Change: &brokerwire.Change{Creates: true, Size: 40, SHA256: "e3", Diff: "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+<y> & \"z\"\n", Added: 1, Removed: 1, Note: "n"},
	},
	{ID: "a1", Call: "c", Session: "s", Tool: "read_file", Target: "/t", Grant: "g.toml", CallHash: "h", Arguments: `{"path":"/t"}`, ArgumentsHash: "ah"},
	{ID: "a2", Tool: "write_file", Change: &brokerwire.Change{}},
}

// TestBodiesEncodeAsBefore holds the admin and tool sockets' bodies to
// the bytes they had when they embedded core/approval's types
// (testdata/*.json were written by that code): the wire declares its own
// bodies, and a client built from either side still reads the other.
func TestBodiesEncodeAsBefore(t *testing.T) {
	for _, tt := range []struct {
		name string
		v    any
	}{
		{"approvals_list", brokerwire.ApprovalsList{Approvals: pendings}},
		{"approvals_list_empty", brokerwire.ApprovalsList{}},
		{"approval_show", pendings[0]},
		{"approval_answer", brokerwire.ApprovalAnswer{ID: "k7q2m", Answer: brokerwire.Refuse, Why: "not now"}},
		{"answer", brokerwire.Answer{Outcome: brokerwire.OutcomeDenied, Text: "denied: x", Notes: []string{"cut"}, Decision: brokerwire.Decision{Effect: "deny", Grant: "a.toml", Resolved: "/r"}, Approval: "k7q2m"}},
		{"asked", brokerwire.Asked{Approval: "k7q2m", Event: brokerwire.EventAsked}},
		{"tool_call", brokerwire.ToolCall{Session: "s1", CallID: "call_7", Tool: "read_file", Arguments: json.RawMessage(`{"path":"/a"}`)}},
		{"session_start", brokerwire.SessionStart{Session: "s2", Taint: "private", From: "s1", Domain: "d"}},
		{"session_state", brokerwire.SessionState{Taint: "secret", Untrusted: true}},
		{"tools_granted", brokerwire.ToolsGranted{Tools: []string{"yaag_run"}}},
	} {
		t.Run(tt.name, func(t *testing.T) { golden(t, tt.name, tt.v) })
	}
}

func golden(t *testing.T, name string, v any) {
	t.Helper()
	testsupport.GoldenJSON(t, name, v, *update)
}
