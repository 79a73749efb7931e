package runbook

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

// A yaag entry is an Entry like the runbook's, on its own page: its
// refusal links to yaag's page, and it crosses a socket as its name and
// comes back as itself.
func TestAYaagEntryIsAnEntryOfItsPage(t *testing.T) {
	r := Refuse(YaagPauseRefused, "Pause failed: %s", "BUSY")
	if got, want := r.Error(), "Pause failed: BUSY; see docs/yaag/troubleshooting.md#pause-refused"; got != want {
		t.Errorf("yaag refusal = %q, want %q", got, want)
	}
	if got, want := Refuse(BrokerStateDamaged, "x").Error(), "x; see docs/runbook.md#broker-state-damaged"; got != want {
		t.Errorf("runbook refusal = %q, want %q", got, want)
	}
	if YaagPauseRefused.Page() != YaagPagePath || BrokerStateDamaged.Page() != RunbookPath {
		t.Errorf("pages: %q, %q", YaagPauseRefused.Page(), BrokerStateDamaged.Page())
	}

	wrapped := fmt.Errorf("yaag pause: %w", r)
	e, text, ok := Public(wrapped)
	if !ok || e != YaagPauseRefused || text != "yaag pause: Pause failed: BUSY" {
		t.Errorf("Public = %v %q %v", e, text, ok)
	}
	data, err := json.Marshal(struct{ Entry Entry }{YaagPauseRefused})
	if err != nil {
		t.Fatal(err)
	}
	var back struct{ Entry Entry }
	if err := json.Unmarshal(data, &back); err != nil || back.Entry != YaagPauseRefused {
		t.Errorf("%s came back as %v (%v)", data, back.Entry, err)
	}
	if found, ok := Lookup(YaagPauseRefused.String()); !ok || found != YaagPauseRefused {
		t.Errorf("Lookup(%q) = %v %v", YaagPauseRefused, found, ok)
	}
	var re *Refusal
	if !errors.As(wrapped, &re) || re.Entry != YaagPauseRefused {
		t.Errorf("errors.As found %v", re)
	}
}
