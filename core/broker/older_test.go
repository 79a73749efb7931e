package broker

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boxmaker/audit"
	"boxmaker/core/brokerwire"
	"boxmaker/core/policy"
	"boxmaker/runbook"
)

// A (session, call id) decided in an audit file older than the one brokerd
// reads at start is still refused after a restart: the session's state
// file says which file its first decision went to, and brokerd reads the
// session's decisions from there once. A state file that does not say
// (written by hand) is read from the first file; an older file that is
// gone makes the call denied, not decided as new.
func TestCallIDReusedAcrossRotatedFiles(t *testing.T) {
	f := newFixture(t, map[string]string{"recall.toml": grant("recall", "allow", "public", "private", false)}, time.Minute)
	adir := filepath.Join(f.dir, "audit")
	f.led.Close()
	// Every batch begins a new file: each record is in a file of its own.
	led, err := audit.Open(adir, audit.Options{MaxFileSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	start := func(led *audit.Ledger) *Broker {
		t.Helper()
		b, err := New(Config{Ledger: led, Grants: f.b.cfg.Grants, Runner: f.b.cfg.Runner, SessionsDir: f.b.cfg.SessionsDir,
			MemorySocket: f.b.cfg.MemorySocket, MemoryTimeout: 5 * time.Second, ExpireAfter: time.Minute,
			Decided: led.Decided(), Log: &testLog{t: t}})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	call := func(b *Broker, session, id string) brokerwire.Answer {
		t.Helper()
		return callRecall(t, b, session, id)
	}
	b := start(led)
	// s2 begins with session.start, s1 with its first call.
	if _, err := b.StartSession(brokerwire.SessionStart{Session: "s2", Taint: "public"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][2]string{{"s1", "call_0"}, {"s2", "call_0"}, {"s3", "call_0"}, {"s1", "call_1"}, {"s3", "call_1"}} {
		if a := call(b, c[0], c[1]); a.Outcome != brokerwire.OutcomeAllowed {
			t.Fatalf("%v: %+v", c, a)
		}
	}
	led.Close()
	first := led.File()
	if first < 6 {
		t.Fatalf("the log did not rotate: it ends in file %d", first)
	}

	led, err = audit.Open(adir, audit.Options{MaxFileSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer led.Close()
	// s2's state file as the broker-state-damaged entry's fix writes it:
	// it does not say where the session's first decision is.
	os.WriteFile(filepath.Join(f.b.cfg.SessionsDir, "s2.json"), []byte(`{"taint":"public","untrusted":false}`+"\n"), 0o600)
	b = start(led)
	reused := CallIDReusedText + "; " + runbook.Link(runbook.CallIDReused)
	for _, c := range [][2]string{{"s1", "call_0"}, {"s1", "call_1"}, {"s2", "call_0"}, {"s3", "call_0"}} {
		if a := call(b, c[0], c[1]); a.Outcome != brokerwire.OutcomeDenied || a.Text != reused {
			t.Errorf("%v decided in an older file, again after a restart: %+v", c, a)
		}
	}
	if a := call(b, "s1", "call_2"); a.Outcome != brokerwire.OutcomeAllowed {
		t.Errorf("a new id: %+v", a)
	}
	data, err := os.ReadFile(filepath.Join(f.b.cfg.SessionsDir, "s2.json"))
	if err != nil || !strings.Contains(string(data), `"audit_from":`) {
		t.Errorf("s2's state file after it was read from the first file: %s %v", data, err)
	}
	st, err := ParseState(data)
	if err != nil || st != (policy.State{}) {
		t.Errorf("s2's state changed: %+v %v", st, err)
	}

	// An older file is gone (s1 names file 1, the latest when its first
	// decision was about to be written): its earlier calls cannot be checked.
	led.Close()
	if err := os.Remove(filepath.Join(adir, "000001.jsonl")); err != nil {
		t.Fatal(err)
	}
	led, err = audit.Open(adir, audit.Options{MaxFileSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer led.Close()
	b = start(led)
	want := OlderCallsUnreadableText + "; " + runbook.Link(runbook.CallIDReused)
	if a := call(b, "s1", "call_9"); a.Outcome != brokerwire.OutcomeDenied || a.Text != want {
		t.Errorf("a session whose first decision is in a missing file: %+v", a)
	}
}

// callRecall makes a recall call of session under id.
func callRecall(t *testing.T, b *Broker, session, id string) brokerwire.Answer {
	t.Helper()
	a, err := b.Call(context.Background(), brokerwire.ToolCall{Session: session, CallID: id, Tool: "recall", Arguments: json.RawMessage(`{"query":"q"}`)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
