package loop

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/daemon"
	"boxmaker/core/llamastandin"
	"boxmaker/core/loopwire"
	"boxmaker/core/testsupport"
)

// Every kind of chat request loopd sends carries max_tokens: the
// selftest's three probes, a person's turn and its tool round, an Agent's
// Ask and its tool round, a fork's first Ask, and a compaction. The
// stand-in runs in its test mode (daemontest.Model), so a request without
// it is refused and the step that sent it fails; the request log is then
// read for the bound on each request.
func TestEveryRequestLoopdSendsCarriesMaxTokens(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: append(probeScript().Turns,
		llamastandin.Turn{When: "Read the notes", ToolCalls: []llamastandin.ToolCall{call("read_file", `{"path":"/notes"}`)}},
		llamastandin.Turn{When: "result of read_file", Content: "The notes are long."},
		llamastandin.Turn{When: "What next", Content: "Go on."},
		llamastandin.Turn{When: "Write a summary", Content: "We read the notes."})})
	good := Expect{ChatTemplateSHA256: templateSum(llamastandin.QwenTemplate), NCtxPerSlot: llamastandin.DefaultNCtx,
		Slots: llamastandin.DefaultSlots, MinCacheReuse: 0.9}
	var kinds []string // the kind of each request, in the order sent
	sent := func(kind string) {
		t.Helper()
		for n := len(r.srv.Chats()); len(kinds) < n; {
			kinds = append(kinds, kind)
		}
	}
	if err := (Selftest{Client: r.eng.Client, Expect: good, Out: &testsupport.Buffer{}}).Run(context.Background()); err != nil {
		t.Fatalf("selftest: %v", err)
	}
	sent("probe")
	r.mustTurn(t, "", "Read the notes.")
	sent("turn")
	sock := agentSocket(t, r)
	id := spawnOn(t, sock, spawnA1)
	res, _, err := askOn(t, sock, loopwire.AskRequest{Session: id, Text: "Read the notes."})
	if err != nil {
		t.Fatalf("ask: %v", err)
	}
	sent("ask")
	var fr loopwire.ForkResult
	fork := loopwire.ForkRequest{From: res.At, Run: "r-1", Agent: "A2", Definition: "next", SpawnHash: "sha256:def"}
	if err := daemon.Call(context.Background(), sock, loopwire.KindAgentFork, fork, &fr, nil); err != nil || fr.Problem != nil {
		t.Fatalf("fork: %+v %v", fr, err)
	}
	if _, _, err := askOn(t, sock, loopwire.AskRequest{Session: fr.Session, Text: "What next?"}); err != nil {
		t.Fatalf("an ask on the fork: %v", err)
	}
	sent("fork")
	var cr loopwire.CompactResult
	if err := daemon.Call(context.Background(), sock, loopwire.KindAgentCompact, loopwire.CompactRequest{Session: id}, &cr, nil); err != nil || cr.Failed != "" {
		t.Fatalf("compact: %+v %v", cr, err)
	}
	sent("compact")

	count := map[string]int{}
	for i, c := range r.srv.Chats() {
		count[kinds[i]]++
		var body struct {
			MaxTokens *int `json:"max_tokens"`
		}
		if err := json.Unmarshal(c.Body, &body); err != nil {
			t.Fatal(err)
		}
		switch {
		case c.Refused != "" || body.MaxTokens == nil || *body.MaxTokens <= 0:
			t.Errorf("request %d (%s) has no max_tokens: %s", i+1, kinds[i], c.Body)
		case kinds[i] == "probe" && *body.MaxTokens != ProbeMaxTokens:
			t.Errorf("probe request %d asks for max_tokens %d, want %d", i+1, *body.MaxTokens, ProbeMaxTokens)
		case kinds[i] != "probe" && *body.MaxTokens != DefaultMaxTokens:
			t.Errorf("request %d (%s) asks for max_tokens %d, want %d", i+1, kinds[i], *body.MaxTokens, DefaultMaxTokens)
		}
	}
	if diff := cmp.Diff(map[string]int{"probe": 3, "turn": 2, "ask": 2, "fork": 1, "compact": 1}, count); diff != "" {
		t.Errorf("requests by kind (-want +got):\n%s", diff)
	}
}
