package gatewaywire_test

import (
	"flag"
	"testing"
	"time"

	"boxmaker/core/brokerwire"
	"boxmaker/core/gatewaywire"
	"boxmaker/core/testsupport"
	"boxmaker/core/yaagwire"
)

var update = flag.Bool("update", false, "write the golden files")

// TestBodiesEncodeAsBefore holds gateway.sock's bodies to the bytes they
// had when Post embedded core/approval's Pending (testdata/*.json were
// written by that code).
func TestBodiesEncodeAsBefore(t *testing.T) {
	full := brokerwire.Pending{
		ID: "k7q2m", Call: "call_7", Session: "s1", Tool: "write_file", Target: "/home/owner/a.txt", Grant: "w.toml",
		CallHash: "c0ffee", Arguments: `{"path":"/home/owner/a.txt","content":"x"}`, ArgumentsHash: "beef",
		Requested: time.Date(2026, 12, 7, 6, 30, 0, 5, time.UTC), Expires: time.Date(2026, 12, 7, 6, 35, 0, 0, time.UTC),
		Program: &yaagwire.Manifest{Dir: "/d", SHA256: "s", Files: []yaagwire.FileSum{{Path: "p.ts", Size: 1, SHA256: "f"}}},
		Change:  &brokerwire.Change{Size: 3, SHA256: "e3", Diff: "-a\n+x\n", Added: 1, Removed: 1},
	}
	for _, tt := range []struct {
		name string
		v    any
	}{
		{"post", gatewaywire.Post{Approval: full}},
		{"post_bare", gatewaywire.Post{Approval: brokerwire.Pending{ID: "a1", Tool: "run"}}},
		{"posted", gatewaywire.Posted{Posts: 2, Again: true}},
		{"wait", gatewaywire.Wait{ID: "k7q2m", CallHash: "c0ffee", WaitMS: 30000}},
		{"answered", gatewaywire.Answered{Answer: brokerwire.Approve, By: "owner", Why: "ok", Command: "post1"}},
		{"answered_none", gatewaywire.Answered{}},
		{"settle", gatewaywire.Settle{ID: "k7q2m", CallHash: "c0ffee", Outcome: gatewaywire.OutcomeNotPending, By: "bxctl", Why: "w", Command: "p", Text: "t"}},
		{"settled", gatewaywire.Settled{Edited: 1}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			testsupport.GoldenJSON(t, tt.name, tt.v, *update)
		})
	}
}
