package memorywire_test

import (
	"errors"
	"flag"
	"testing"
	"time"

	"boxmaker/core/memorywire"
	"boxmaker/core/testsupport"
)

var update = flag.Bool("update", false, "write the golden files")

// TestBodiesEncodeAsBefore holds memoryd's bodies to the bytes they had
// when they embedded core/memory's and core/honchosync's types
// (testdata/*.json were written by that code): the wire declares its own
// bodies, and a client built from either side still reads the other.
func TestBodiesEncodeAsBefore(t *testing.T) {
	at := time.Date(2026, 12, 7, 6, 30, 0, 123, time.UTC)
	acts := []memorywire.Action{
		{Action: memorywire.ActionReplace, File: memorywire.FileMemory, Text: "likes <tea> & \"coffee\"", Old: "tea"},
		{Action: memorywire.ActionNote, Text: "n"},
		{},
	}
	for _, tt := range []struct {
		name string
		v    any
	}{
		{"tool_request", memorywire.ToolRequest{Session: "s1", CallID: "c", Arguments: memorywire.Arguments{Actions: acts, Query: "q", Limit: 3}}},
		{"tool_request_bare", memorywire.ToolRequest{}},
		{"tool_answer", memorywire.ToolAnswer{Text: "t", Tainted: true, Taint: "secret"}},
		{"block", memorywire.BlockAnswer{Block: "b", Excluded: []memorywire.ExcludedEntry{{File: "memory.md", Entry: 2, Rule: "r"}}, Class: "private"}},
		{"log", memorywire.LogAnswer{Edits: []memorywire.LogEntry{
			{Edit: "e1", Time: at, Session: "s1", Outcome: "flagged", Rule: "r", Files: []string{"memory.md", "notes.md"}},
			{Edit: "e2", Time: at.In(time.FixedZone("", -7200)), Outcome: "accepted"},
		}}},
		{"log_empty", memorywire.LogAnswer{}},
		{"review", memorywire.ReviewAnswer{Staged: []memorywire.StagedEdit{
			{Edit: "e3", Time: at, Session: "s2", Class: "private", Actions: acts},
			{Edit: "e4"},
		}}},
		{"review_empty", memorywire.ReviewAnswer{}},
		{"accept", memorywire.AcceptAnswer{Edit: "e3", Files: []string{"memory.md"}, Answer: "memory.md updated"}},
		{"progress", memorywire.Progress{Files: 1, Total: 2, Logs: 3, Records: 4, Notes: 5, Skipped: 6, Seconds: 0.25}},
		{"sync", memorywire.SyncAnswer{Configured: true, OutboxStatus: memorywire.OutboxStatus{
			Waiting: 1, Sent: 2, Failed: 3, Withheld: 4, LastError: "le", LastErrorEntry: "honcho-unreachable", LastErrorText: "lt",
			LastErrorAt: "2026-12-07T06:30:00Z", LastSentAt: "2026-12-07T06:29:00Z", NextAttempt: "2026-12-07T06:31:00Z",
		}}.WithError(errors.New("plain"))},
		{"sync_unconfigured", memorywire.SyncAnswer{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			testsupport.GoldenJSON(t, tt.name, tt.v, *update)
		})
	}
}
