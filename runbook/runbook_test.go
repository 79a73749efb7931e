package runbook

import (
	"fmt"
	"os"
	"testing"
)

func TestRefusal(t *testing.T) {
	r := Refuse(AlreadyRunning, "another %s is running", "loopd")
	if r.Error() != "another loopd is running; see docs/runbook"+".md#already-running" {
		t.Errorf("got %q", r.Error())
	}
	wrapped := Wrap(SocketForbidden, r)
	if wrapped != error(r) {
		t.Error("Wrap replaced the inner refusal's entry")
	}
	if e, ok := EntryOf(Wrap(SocketForbidden, os.ErrNotExist)); !ok || e != SocketForbidden {
		t.Errorf("EntryOf: %v %v", e, ok)
	}
}

// An entry crosses a socket or a process as its name and comes back as
// the same value; a name no heading has does not.
func TestEntryByName(t *testing.T) {
	e, ok := Lookup(AuditUnavailable.String())
	if !ok || e != AuditUnavailable {
		t.Fatalf("Lookup(%q) = %v, %v", AuditUnavailable, e, ok)
	}
	if _, ok := Lookup("audit-unavailabel"); ok {
		t.Error("Lookup took a name no entry has")
	}
	var back Entry
	if err := back.UnmarshalText([]byte("audit-unavailable")); err != nil || back != AuditUnavailable {
		t.Errorf("UnmarshalText = %v, %v", back, err)
	}
	if err := back.UnmarshalText([]byte("no-such-entry")); err == nil {
		t.Error("UnmarshalText took a name no entry has")
	}
	if e, ok := EntryOf(os.ErrNotExist); ok || e != (Entry{}) {
		t.Errorf("EntryOf(no refusal) = %v, %v", e, ok)
	}
}

// Public is a refusal as a wire carries it: its entry, and the whole
// message (a wrapper's context kept) without the link; no refusal, or a
// message that does not end with its link, is not one.
func TestPublic(t *testing.T) {
	r := Refuse(AuditUnavailable, "the log is gone")
	tests := []struct {
		name  string
		err   error
		entry Entry
		text  string
		ok    bool
	}{
		{"a refusal", r, AuditUnavailable, "the log is gone", true},
		{"a wrapped refusal", fmt.Errorf("honcho: %w", r), AuditUnavailable, "honcho: the log is gone", true},
		{"a refusal with text after its link", fmt.Errorf("%w (again)", r), Entry{}, "", false},
		{"no refusal", os.ErrNotExist, Entry{}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, text, ok := Public(tt.err)
			if e != tt.entry || text != tt.text || ok != tt.ok {
				t.Errorf("Public = %v, %q, %v; want %v, %q, %v", e, text, ok, tt.entry, tt.text, tt.ok)
			}
		})
	}
}
