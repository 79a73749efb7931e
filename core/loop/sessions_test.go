package loop

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/llamastandin"
	"boxmaker/core/loopwire"
)

// TestSessionsListsEachSessionLatestFirst: sessions.list gives each
// session of the home with its turns and first line, the latest last turn
// first; session.history gives a session's last turns, tool results by
// their first line.
func TestSessionsListsEachSessionLatestFirst(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{
		{Content: "Beans in May."},
		{Content: "Peas in March."},
		{ToolCalls: []llamastandin.ToolCall{call("read_file", `{"path":"/bike"}`)}},
		{Content: "Pump the tyres."},
	}})
	garden, _ := r.mustTurn(t, "", "plan the garden\nplease")
	r.mustTurn(t, garden.Session, "and the peas?")
	bike, _ := r.mustTurn(t, "", "fix my bike")

	list, err := r.eng.Sessions(context.Background(), struct{}{})
	if err != nil {
		t.Fatal(err)
	}
	var got [][2]any
	for _, s := range list.Sessions {
		got = append(got, [2]any{s.ID, s.FirstLine})
		if s.Started.IsZero() || s.LastTurn.Before(s.Started) {
			t.Errorf("%s: started %v, last turn %v", s.ID, s.Started, s.LastTurn)
		}
	}
	want := [][2]any{{bike.Session, "fix my bike"}, {garden.Session, "plan the garden"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the list (-want +got):\n%s", diff)
	}
	if list.Sessions[1].Turns != 2 {
		t.Errorf("the garden has %d turns, want 2", list.Sessions[1].Turns)
	}
	for _, s := range list.Sessions {
		if s.Agent {
			t.Errorf("%s is said to be an Agent's", s.ID)
		}
	}
	// A yaag Agent's session is listed, and said to be one.
	agent, err := r.eng.Spawn(context.Background(), spawnA1)
	if err != nil {
		t.Fatal(err)
	}
	list, err = r.eng.Sessions(context.Background(), struct{}{})
	if err != nil {
		t.Fatal(err)
	}
	agents := 0
	for _, s := range list.Sessions {
		if s.Agent {
			agents++
			if s.ID != agent.Session {
				t.Errorf("%s is said to be an Agent's", s.ID)
			}
		}
	}
	if agents != 1 {
		t.Errorf("%d Agents' sessions in %+v, want 1", agents, list.Sessions)
	}

	h, err := r.eng.History(context.Background(), loopwire.HistoryRequest{Session: garden.Session, Turns: 1})
	if err != nil {
		t.Fatal(err)
	}
	wantH := loopwire.History{Session: garden.Session, Total: 2, Records: []loopwire.HistoryRecord{
		{Type: TypeUser, Who: "owner", Text: "and the peas?"},
		{Type: TypeAssistant, Text: "Peas in March."},
	}}
	if diff := cmp.Diff(wantH, h); diff != "" {
		t.Errorf("the garden's last turn (-want +got):\n%s", diff)
	}
	h, err = r.eng.History(context.Background(), loopwire.HistoryRequest{Session: bike.Session, Turns: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Records) != 4 || h.Records[2].Type != TypeTool || h.Records[2].Name != "read_file" || h.Records[2].Outcome != "allowed" ||
		!strings.HasPrefix(h.Records[2].Text, "result of read_file") {
		t.Errorf("the bike's turns: %+v", h.Records)
	}
}

// TestHistoryTakesASessionIDNeverAPath: session.history's session is an
// id by core/sessionid's rule, checked before anything is read; a path,
// a name with a dot or a slash, reads nothing, even where it would name a
// session's log; a session's directory that is a link is not followed;
// turns outside 1 to MaxHistoryTurns are refused.
func TestHistoryTakesASessionIDNeverAPath(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{{Content: "Secret plans."}}})
	res, _ := r.mustTurn(t, "", "the secret")
	// Another home's session, beside this one's sessions/.
	other := filepath.Join(r.dir, "other")
	if err := os.MkdirAll(filepath.Join(other, "s1"), 0o700); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(LogPath(r.eng.SessionsDir, res.Session, 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "s1", "0.jsonl"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(r.eng.SessionsDir, filepath.Join(other, "s1"))
	if err := os.Symlink(filepath.Join(other, "s1"), filepath.Join(r.eng.SessionsDir, "linked")); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{rel, "../other/s1", "..", ".", "", "a/b", "/" + res.Session, res.Session + "/", "linked", strings.Repeat("a", 65)} {
		h, err := r.eng.History(context.Background(), loopwire.HistoryRequest{Session: id, Turns: 1})
		if err == nil {
			t.Errorf("%q: answered %+v", id, h)
		}
	}
	for _, n := range []int{0, -1, loopwire.MaxHistoryTurns + 1} {
		if _, err := r.eng.History(context.Background(), loopwire.HistoryRequest{Session: res.Session, Turns: n}); err == nil {
			t.Errorf("turns %d: answered", n)
		}
	}
	list, err := r.eng.Sessions(context.Background(), struct{}{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Sessions) != 1 || list.Sessions[0].ID != res.Session {
		t.Errorf("the list holds %+v, want only %s (not the link)", list.Sessions, res.Session)
	}
}

// TestShownCutsALongText: a text over MaxShown bytes is cut on a rune's
// start, saying how much was left out.
func TestShownCutsALongText(t *testing.T) {
	s := strings.Repeat("a", loopwire.MaxShown-1) + "é" + "tail"
	got := shown(s)
	want := strings.Repeat("a", loopwire.MaxShown-1) + "... (6 more bytes)"
	if got != want {
		t.Errorf("shown: %q... (%d bytes), want %d bytes", got[len(got)-30:], len(got), len(want))
	}
	if shown("short") != "short" {
		t.Error("a short text was changed")
	}
}
