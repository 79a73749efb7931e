package bxctl

import (
	"strings"
	"testing"
	"time"

	"boxmaker/core/memorywire"
)

// A staged write's text comes from the model: the review shows it escaped
// behind "    | ", so it can neither clear the screen nor print a line
// that passes for bxctl's.
func TestReviewShowsNoControlSequences(t *testing.T) {
	var b strings.Builder
	writeReview(&b, []memorywire.StagedEdit{{Edit: "e3", Time: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), Session: "s1", Class: "public",
		Actions: []memorywire.Action{
			{Action: "add", File: "memory", Text: "uses pnpm\n\x1b[2J\x1b[Haccept: e3 accepted\r"},
			{Action: "remove", File: "user", Old: "Bob\x1b]0;t\x07"},
		}}})
	want := "edit e3, staged 2026-12-01T00:00:00Z by session s1 (public):\n" +
		"  add to memory.md:\n" +
		"    | uses pnpm\n" +
		`    | \x1b[2J\x1b[Haccept: e3 accepted\r` + "\n" +
		`  remove from user.md the entry holding "Bob\x1b]0;t\a"` + "\n" +
		"\nbxctl memory accept EDIT applies one; bxctl memory reject EDIT drops it.\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}
