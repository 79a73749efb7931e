package memoryd

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/honchosync"
	"boxmaker/core/memory"
	"boxmaker/core/memorywire"
)

// The conversions at the socket leave nothing out: an engine's value with
// every field set encodes, once converted, to the bytes the socket sent
// when it carried the engine's type itself, and a call's actions reach
// core/memory as brokerd forwarded them.
func TestTheWireCarriesWhatTheEngineHas(t *testing.T) {
	at := time.Date(2026, 12, 7, 6, 30, 0, 5, time.FixedZone("", 3600))
	acts := []memory.Action{{Action: memory.ActionReplace, File: memory.FileUser, Text: "t", Old: "o"}, {Action: memory.ActionNote, Text: "n"}}
	log := []memory.LogEntry{{Edit: "e1", Time: at, Session: "s1", Outcome: memory.Refused, Rule: "r", Files: []string{"user.md"}}, {Edit: "e2"}}
	staged := []memory.StagedEdit{{Edit: "e3", Time: at, Session: "s2", Class: "secret", Actions: acts}, {Edit: "e4"}}
	st := honchosync.Status{Waiting: 1, Sent: 2, Failed: 3, Withheld: 4, LastError: "a", LastErrorEntry: "b", LastErrorText: "c",
		LastErrorAt: "d", LastSentAt: "e", NextAttempt: "f"}
	for _, tt := range []struct {
		name         string
		engine, wire any
	}{
		{"log", log, logToWire(log)},
		{"no log", []memory.LogEntry{}, logToWire(nil)},
		{"staged", staged, stagedToWire(staged)},
		{"nothing staged", []memory.StagedEdit{}, stagedToWire(nil)},
		{"status", st, statusToWire(st)},
		{"actions", acts, actionsToWire(acts)},
	} {
		want, err := json.Marshal(tt.engine)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(tt.wire)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: the wire's form is\n%s\nthe engine's\n%s", tt.name, got, want)
		}
	}
	wire := []memorywire.Action{{Action: memorywire.ActionAdd, File: memorywire.FileMemory, Text: "t", Old: "o"}, {}}
	if diff := cmp.Diff([]memory.Action{{Action: memory.ActionAdd, File: memory.FileMemory, Text: "t", Old: "o"}, {}}, actionsFromWire(wire)); diff != "" {
		t.Errorf("actionsFromWire (-want +got):\n%s", diff)
	}
	if got := actionsFromWire(nil); got != nil {
		t.Errorf("actionsFromWire(nil) = %#v, want nil", got)
	}
}
