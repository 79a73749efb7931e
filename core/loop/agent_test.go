package loop

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/daemon"
	"boxmaker/core/llamastandin"
	"boxmaker/core/loopwire"
)

// agentSocket serves agent.spawn and agent.ask on a real unix socket, as
// loopd does.
func agentSocket(t *testing.T, r *rig) string {
	t.Helper()
	return serveSocket(t, r.dir, "loop", map[string]daemon.Handler{
		loopwire.KindAgentSpawn: func(ctx context.Context, _ daemon.Peer, body json.RawMessage, _ *daemon.Stream) (any, error) {
			var req loopwire.SpawnRequest
			if err := json.Unmarshal(body, &req); err != nil {
				return nil, err
			}
			return r.eng.Spawn(ctx, req)
		},
		loopwire.KindAgentAsk: func(ctx context.Context, _ daemon.Peer, body json.RawMessage, s *daemon.Stream) (any, error) {
			var req loopwire.AskRequest
			if err := json.Unmarshal(body, &req); err != nil {
				return nil, err
			}
			return r.eng.Ask(ctx, req, func(e Event) error { return s.Send(e) })
		},
	})
}

func spawnOn(t *testing.T, sock string, req loopwire.SpawnRequest) string {
	t.Helper()
	var res loopwire.SpawnResult
	if err := daemon.Call(context.Background(), sock, loopwire.KindAgentSpawn, req, &res, nil); err != nil {
		t.Fatal(err)
	}
	return res.Session
}

func askOn(t *testing.T, sock string, req loopwire.AskRequest) (loopwire.AskResult, []Event, error) {
	t.Helper()
	var res loopwire.AskResult
	var events []Event
	err := daemon.Call(context.Background(), sock, loopwire.KindAgentAsk, req, &res, func(raw json.RawMessage) error {
		var e Event
		json.Unmarshal(raw, &e)
		events = append(events, e)
		return nil
	})
	return res, events, err
}

var spawnA1 = loopwire.SpawnRequest{Run: "r-1", Agent: "A1", Definition: "reviewer", SpawnHash: "sha256:abc",
	System: "You review.", Tools: []string{"read_file"}, Models: []string{"m"}}

func intp(n int) *int { return &n }

func TestHermeticSessionHasOnlyWhatTheSpawnGives(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{{Content: "Looks fine."}}})
	sock := agentSocket(t, r)
	id := spawnOn(t, sock, spawnA1)
	res, _, err := askOn(t, sock, loopwire.AskRequest{Session: id, Text: "Review this."})
	if err != nil || res.Reply != "Looks fine." || res.Turns != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	recs := r.records(t, id)
	base := recs[0]
	if base.System != "You review." || base.Memory != "" {
		t.Errorf("baseline system %q memory %q: a hermetic session has its own prompt and no memory block", base.System, base.Memory)
	}
	var tools []struct {
		Function struct{ Name string } `json:"function"`
	}
	json.Unmarshal(base.Tools, &tools)
	if len(tools) != 1 || tools[0].Function.Name != "read_file" {
		t.Errorf("tools %s, want read_file only", base.Tools)
	}
	if recs[1].Type != TypeNote || !strings.Contains(recs[1].Text, "run r-1, agent A1 (reviewer), spawn sha256:abc") {
		t.Errorf("the second record is %+v, want the note naming the Run, the Agent and the spawn", recs[1])
	}
	chat := r.srv.Chats()[0]
	if !strings.Contains(chat.Prompt, "You review.") || strings.Contains(chat.Prompt, "I am Box.") {
		t.Errorf("the prompt carries more than the spawn gave:\n%s", chat.Prompt)
	}
}

func TestHermeticSessionGetsTheMemoryBlockOnlyWhenAsked(t *testing.T) {
	r := newRig(t, llamastandin.Script{})
	sock := agentSocket(t, r)
	req := spawnA1
	req.Memory = true
	id := spawnOn(t, sock, req)
	if m := r.records(t, id)[0].Memory; !strings.Contains(m, "I am Box.") || strings.Contains(m, "<|im_start|>") {
		t.Errorf("memory %q: want the block, neutralised", m)
	}
}

func TestSpawnRefusesUnknownTools(t *testing.T) {
	r := newRig(t, llamastandin.Script{})
	sock := agentSocket(t, r)
	req := spawnA1
	req.Tools = []string{"read_file", "shell"}
	err := daemon.Call(context.Background(), sock, loopwire.KindAgentSpawn, req, nil, nil)
	if err == nil || !strings.Contains(err.Error(), `there is no tool "shell"`) {
		t.Fatalf("got %v", err)
	}
}

func TestAskTakesOnlyHermeticSessions(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{{Content: "Hi."}}})
	sock := agentSocket(t, r)
	chat, _, err := r.turn(t, "", "Hello")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = askOn(t, sock, loopwire.AskRequest{Session: chat.Session, Text: "Now obey me."})
	if err == nil || !strings.Contains(err.Error(), "is not a hermetic session") {
		t.Fatalf("an ask on the owner's chat session: %v", err)
	}
}

func TestAskBudgets(t *testing.T) {
	readCall := llamastandin.Turn{ToolCalls: []llamastandin.ToolCall{call("read_file", `{"path":"/src/a.go"}`)}}
	twoCalls := llamastandin.Turn{ToolCalls: []llamastandin.ToolCall{call("read_file", `{"path":"/a"}`), call("read_file", `{"path":"/b"}`)}}
	tests := []struct {
		name      string
		turns     []llamastandin.Turn
		req       loopwire.AskRequest
		want      *loopwire.Limit
		calls     int // the calls brokerd saw
		modelReqs int
	}{
		{"max_turns stops before the next request", []llamastandin.Turn{readCall, readCall, {Content: "done"}},
			loopwire.AskRequest{MaxTurns: 2}, &loopwire.Limit{Budget: "max_turns", Value: 2}, 2, 2},
		{"max_tool_calls refuses the call over it", []llamastandin.Turn{twoCalls, {Content: "done"}},
			loopwire.AskRequest{MaxToolCalls: intp(1)}, &loopwire.Limit{Budget: "max_tool_calls", Value: 1}, 1, 1},
		{"max_duration_ms stops before the next request once passed", []llamastandin.Turn{readCall, {Content: "done"}},
			loopwire.AskRequest{MaxDurationMS: 1}, &loopwire.Limit{Budget: "max_duration_ms", Value: 1}, 1, 1},
		{"within the budgets", []llamastandin.Turn{readCall, {Content: "done"}},
			loopwire.AskRequest{MaxTurns: 2, MaxToolCalls: intp(1)}, nil, 1, 2},
		{"no_tools makes one request and runs no call", []llamastandin.Turn{readCall},
			loopwire.AskRequest{NoTools: true}, nil, 0, 1},
		{"loopd's own max_tool_rounds", []llamastandin.Turn{readCall, readCall, readCall, readCall, readCall},
			loopwire.AskRequest{}, &loopwire.Limit{Budget: "max_tool_rounds", Value: 4}, 3, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, llamastandin.Script{Turns: tt.turns})
			sock := agentSocket(t, r)
			req := tt.req
			req.Session = spawnOn(t, sock, spawnA1)
			req.Text = "Go."
			res, _, err := askOn(t, sock, req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, res.Limit); diff != "" {
				t.Errorf("limit: %s", diff)
			}
			if len(r.calls) != tt.calls || len(r.srv.Chats()) != tt.modelReqs || res.Turns != tt.modelReqs {
				t.Errorf("brokerd saw %d calls, the server %d requests, turns %d; want %d and %d", len(r.calls), len(r.srv.Chats()), res.Turns, tt.calls, tt.modelReqs)
			}
			if req.NoTools && !strings.Contains(string(r.srv.Chats()[0].Body), `"tool_choice":"none"`) {
				t.Errorf("a no_tools request without tool_choice none: %s", r.srv.Chats()[0].Body)
			}
		})
	}
}

func TestAskSendsModelAndSchema(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{{Content: `{"ok":true}`}}})
	sock := agentSocket(t, r)
	id := spawnOn(t, sock, spawnA1)
	res, _, err := askOn(t, sock, loopwire.AskRequest{Session: id, Text: "JSON please.", Model: r.srv.Model(), NoTools: true,
		JSONSchema: json.RawMessage(`{"type":"object"}`)})
	if err != nil || res.Reply != `{"ok":true}` {
		t.Fatalf("%+v %v", res, err)
	}
	body := string(r.srv.Chats()[0].Body)
	for _, want := range []string{`"model":"` + r.srv.Model() + `"`, `"response_format":{"json_schema":{"name":"answer","schema":{"type":"object"}},"type":"json_schema"}`} {
		if !strings.Contains(body, want) {
			t.Errorf("the request lacks %s:\n%s", want, body)
		}
	}
}

func TestAskReportsTheModelServersRefusal(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{{Content: "never"}}})
	router := true // a single llama-server ignores the model's name; a router refuses one it does not serve
	r.srv.Set(llamastandin.Switch{Router: &router})
	sock := agentSocket(t, r)
	id := spawnOn(t, sock, spawnA1)
	res, _, err := askOn(t, sock, loopwire.AskRequest{Session: id, Text: "Hi.", Model: "not-served"})
	if err != nil {
		t.Fatal(err)
	}
	if res.ModelError == nil || res.ModelError.Status != 400 || !strings.Contains(res.ModelError.Message, "not-served") {
		t.Fatalf("model error %+v", res.ModelError)
	}
	if recs := r.records(t, id); len(recs) != 2 {
		t.Errorf("a refused request wrote %d records, want the 2 of the spawn", len(recs))
	}
}

func TestRequestUserInputIsNotSentToBrokerd(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{
		{ToolCalls: []llamastandin.ToolCall{call(RequestUserInput, `{"question":"which?"}`)}}, {Content: "ok"}}})
	sock := agentSocket(t, r)
	req := spawnA1
	req.Tools = []string{RequestUserInput}
	res, _, err := askOn(t, sock, loopwire.AskRequest{Session: spawnOn(t, sock, req), Text: "Ask me."})
	if err != nil || res.Reply != "ok" {
		t.Fatalf("%+v %v", res, err)
	}
	if len(r.calls) != 0 {
		t.Errorf("brokerd was sent %v", r.calls)
	}
}
