package loop

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boxmaker/core/daemon"
	"boxmaker/core/llamastandin"
	"boxmaker/core/loopwire"
	"boxmaker/core/testsupport"
	"boxmaker/core/testsupport/daemontest"
	"boxmaker/runbook"
)

// TestHandlersReadBodiesStrictly: every kind of the loop socket, served
// on a real socket, reads its body with daemon.DecodeBody: a field its
// request does not have, or a key twice, is refused as socket-forbidden
// naming the kind, printed on loopd's log, and reaches nothing.
func TestHandlersReadBodiesStrictly(t *testing.T) {
	r := newRig(t, llamastandin.Script{})
	log := &testsupport.Buffer{}
	sock := daemontest.Serve(t, &daemon.Socket{Role: "loopd", Name: "loop", Path: filepath.Join(r.dir, "run", "loop", "loop.sock"),
		Kinds: r.eng.Handlers(), ListenerLost: runbook.ListenerLost, Log: log})
	twice := map[string]string{ // a key of each kind's request, twice
		loopwire.KindTurn:           `{"session":"a","session":"b"}`,
		loopwire.KindAgentSpawn:     `{"run":"a","run":"b"}`,
		loopwire.KindAgentAsk:       `{"session":"a","session":"b"}`,
		loopwire.KindAgentFork:      `{"run":"a","run":"b"}`,
		loopwire.KindAgentCompact:   `{"session":"a","session":"b"}`,
		loopwire.KindAgentAnswer:    `{"answers":[],"answers":[]}`,
		loopwire.KindSessionHistory: `{"turns":1,"turns":2}`,
		loopwire.KindSessionsList:   ``, // takes no field at all
	}
	if len(twice) != len(r.eng.Handlers()) {
		t.Fatalf("the test knows %d kinds, the socket serves %d", len(twice), len(r.eng.Handlers()))
	}
	for kind, dup := range twice {
		bodies := map[string]string{`{"bogus":1}`: `json: unknown field "bogus"`}
		if dup != "" {
			key, _, _ := strings.Cut(dup[2:], `"`)
			bodies[dup] = `the key "` + key + `" appears twice`
		}
		for body, problem := range bodies {
			err := daemon.Call(context.Background(), sock, kind, json.RawMessage(body), nil, nil)
			want := fmt.Sprintf(`a %q request arrived on the loop socket %s with a body it does not take (from pid %d, uid %d): %s; %s`,
				kind, sock, os.Getpid(), os.Geteuid(), problem, runbook.Link(runbook.SocketForbidden))
			if err == nil || err.Error() != want {
				t.Errorf("%s %s: %v, want %q", kind, body, err, want)
			}
			if e, _ := runbook.EntryOf(err); e != runbook.SocketForbidden {
				t.Errorf("%s %s: the entry is %v", kind, body, e)
			}
			if !strings.Contains(log.String(), "loopd: "+want+"\n") {
				t.Errorf("%s %s: loopd's log %q lacks the refusal", kind, body, log.String())
			}
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
