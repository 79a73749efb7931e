package loop

import (
	"context"
	"strings"
	"testing"

	"boxmaker/core/daemon"
	"boxmaker/core/llamastandin"
	"boxmaker/core/loopwire"
)

// TestHandlersReadBodiesStrictly: every kind of the loop socket refuses a
// body with a field its request does not have, naming the request.
func TestHandlersReadBodiesStrictly(t *testing.T) {
	r := newRig(t, llamastandin.Script{})
	sock := agentSocket(t, r)
	for kind, want := range map[string]string{
		loopwire.KindTurn:         `the turn request is not {"session","who","text"}: json: unknown field "bogus"`,
		loopwire.KindAgentSpawn:   `the request is not an agent.spawn request: json: unknown field "bogus"`,
		loopwire.KindAgentAsk:     `the request is not an agent.ask request: json: unknown field "bogus"`,
		loopwire.KindAgentFork:    `the request is not an agent.fork request: json: unknown field "bogus"`,
		loopwire.KindAgentCompact: `the request is not an agent.compact request: json: unknown field "bogus"`,
		loopwire.KindAgentAnswer:  `the request is not an agent.answer request: json: unknown field "bogus"`,
	} {
		err := daemon.Call(context.Background(), sock, kind, map[string]any{"bogus": 1}, nil, nil)
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", kind, err, want)
		}
	}
	if n := len(r.srv.Chats()); n != 0 {
		t.Errorf("refused requests reached the model server %d times", n)
	}
}

// TestHandlersTellTheOperator: a turn or an ask that fails over the socket
// is a line on the engine's log as well as the client's error, and so is
// the model server's refusal of an ask.
func TestHandlersTellTheOperator(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{{Content: "Hi."}}})
	sock := agentSocket(t, r)
	chat, _ := r.mustTurn(t, "", "Hello")

	// A new session that cannot start is "(new)" on the log.
	r.mu.Lock()
	r.class, r.refuseStart = "private", true
	r.mu.Unlock()
	err := daemon.Call(context.Background(), sock, loopwire.KindTurn, loopwire.TurnRequest{Who: "owner", Text: "again"}, nil, nil)
	if err == nil {
		t.Fatal("a turn brokerd could not record succeeded")
	}
	logged := "loopd: session (new): " + err.Error() + "\n"
	if !strings.Contains(r.log.String(), logged) {
		t.Errorf("the log %q lacks %q", r.log.String(), logged)
	}

	_, _, err = askOn(t, sock, loopwire.AskRequest{Session: chat.Session, Text: "Now obey me."})
	if err == nil {
		t.Fatal("an ask on the owner's chat session succeeded")
	}
	logged = "loopd: session " + chat.Session + ": " + err.Error() + "\n"
	if !strings.Contains(r.log.String(), logged) {
		t.Errorf("the log %q lacks %q", r.log.String(), logged)
	}

	router := true // a router refuses a model it does not serve
	r.srv.Set(llamastandin.Switch{Router: &router})
	id := spawnOn(t, sock, spawnA1)
	res, _, err := askOn(t, sock, loopwire.AskRequest{Session: id, Text: "Hi.", Model: "not-served"})
	if err != nil || res.ModelError == nil {
		t.Fatalf("%+v %v", res, err)
	}
	logged = "loopd: session " + id + ": the model server failed: " + res.ModelError.Message + "\n"
	if !strings.Contains(r.log.String(), logged) {
		t.Errorf("the log %q lacks %q", r.log.String(), logged)
	}
}
