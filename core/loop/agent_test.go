package loop

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/brokerwire"
	"boxmaker/core/daemon"
	"boxmaker/core/llamastandin"
	"boxmaker/core/loopwire"
	"boxmaker/core/testsupport"
	"boxmaker/core/testsupport/daemontest"
)

// agentSocket serves the engine's loop socket (Engine.Handlers, as loopd
// does) on a real unix socket.
func agentSocket(t *testing.T, r *rig) string {
	t.Helper()
	return daemontest.Peer(t, r.dir, "loop", r.eng.Handlers())
}

func spawnOn(t *testing.T, sock string, req loopwire.SpawnRequest) string {
	t.Helper()
	var res loopwire.SpawnResult
	if err := daemon.Call(context.Background(), sock, loopwire.KindAgentSpawn, req, &res, nil); err != nil {
		t.Fatal(err)
	}
	return res.Session
}

func askOn(t *testing.T, sock string, req loopwire.AskRequest) (loopwire.AskResult, []loopwire.Event, error) {
	t.Helper()
	var res loopwire.AskResult
	var events []loopwire.Event
	err := daemon.Call(context.Background(), sock, loopwire.KindAgentAsk, req, &res, func(raw json.RawMessage) error {
		var e loopwire.Event
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
	chat, _ := r.mustTurn(t, "", "Hello")
	_, _, err := askOn(t, sock, loopwire.AskRequest{Session: chat.Session, Text: "Now obey me."})
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
	testsupport.ContainsAll(t, "the request", body, `"model":"`+r.srv.Model()+`"`, `"response_format":{"json_schema":{"name":"answer","schema":{"type":"object"}},"type":"json_schema"}`)
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

func chatRequested(calls []llamastandin.Call) bool {
	for _, c := range calls {
		if strings.HasSuffix(c.Path, "/chat/completions") {
			return true
		}
	}
	return false
}

// An Ask stopped while the model answers (yaag stop: the caller goes
// away) is logged as stopped, not as the model server failing.
func TestAStoppedAskIsLoggedAsStopped(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{{Content: "never"}}})
	sock := agentSocket(t, r)
	id := spawnOn(t, sock, spawnA1)
	r.srv.SetStall(llamastandin.StallNever, 0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- daemon.Call(ctx, sock, loopwire.KindAgentAsk, loopwire.AskRequest{Session: id, Text: "Hi."}, nil, nil)
	}()
	for !chatRequested(r.srv.Calls()) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(r.log.String(), "the ask was stopped") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if log := r.log.String(); !strings.Contains(log, "session "+id+": the ask was stopped before it ended") || strings.Contains(log, "model server failed") {
		t.Errorf("loopd's log:\n%s", log)
	}
}

func TestRequestUserInputEndsTheTurnOnAQuestion(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{
		{ToolCalls: []llamastandin.ToolCall{call("read_file", `{"path":"/a"}`), call(RequestUserInput, `{"question":"which?"}`)}},
		{When: "b.txt", Content: "I read b.txt."}}})
	sock := agentSocket(t, r)
	req := spawnA1
	req.Tools = []string{"read_file", RequestUserInput}
	id := spawnOn(t, sock, req)
	res, events, err := askOn(t, sock, loopwire.AskRequest{Session: id, Text: "Ask me."})
	if err != nil || res.Reply != "" || len(res.Questions) != 1 || res.Questions[0].Text != "which?" {
		t.Fatalf("%+v %v", res, err)
	}
	if len(r.calls) != 1 || r.calls[0].Tool != "read_file" {
		t.Errorf("brokerd was sent %v: the reply's other call runs, the question does not go to brokerd", r.calls)
	}
	if events[len(events)-1].Event != "question" {
		t.Errorf("the last event is %+v", events[len(events)-1])
	}
	recs := r.records(t, id)
	if last := recs[len(recs)-1]; last.Type != TypeTool || last.Name != "read_file" {
		t.Fatalf("the log ends with %+v: the question has no tool record until it is answered", last)
	}
	if res.At.Bytes == 0 || res.At.ID != id {
		t.Fatalf("the ask's boundary %+v", res.At)
	}

	// A continue before any answer is refused; the answer is appended, and
	// the same answer again is accepted without a second record.
	r2 := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{
		{ToolCalls: []llamastandin.ToolCall{call(RequestUserInput, `{"question":"which?"}`)}},
		{When: "b.txt", Content: "I read b.txt."}}})
	sock2 := agentSocket(t, r2)
	req2 := spawnA1
	req2.Tools = []string{RequestUserInput}
	id2 := spawnOn(t, sock2, req2)
	res2, _, err := askOn(t, sock2, loopwire.AskRequest{Session: id2, Text: "Ask me."})
	if err != nil || len(res2.Questions) != 1 {
		t.Fatalf("%+v %v", res2, err)
	}
	if _, _, err := askOn(t, sock2, loopwire.AskRequest{Session: id2, Continue: true}); err == nil || !strings.Contains(err.Error(), "does not end with an answer") {
		t.Fatalf("continue before the answer: %v", err)
	}
	answer := loopwire.AnswerRequest{At: res2.At, Answers: []loopwire.CallAnswer{{CallID: res2.Questions[0].CallID, Text: "b.txt"}}}
	var ar loopwire.AnswerResult
	if err := daemon.Call(context.Background(), sock2, loopwire.KindAgentAnswer, answer, &ar, nil); err != nil || ar.Problem != nil || ar.At.Bytes <= res2.At.Bytes {
		t.Fatalf("answer: %+v %v", ar, err)
	}
	var again loopwire.AnswerResult
	if err := daemon.Call(context.Background(), sock2, loopwire.KindAgentAnswer, answer, &again, nil); err != nil || again != ar {
		t.Fatalf("the same answer again: %+v %v (want %+v)", again, err, ar)
	}
	other := answer
	other.Answers = []loopwire.CallAnswer{{CallID: res2.Questions[0].CallID, Text: "c.txt"}}
	if err := daemon.Call(context.Background(), sock2, loopwire.KindAgentAnswer, other, &again, nil); err != nil || again.Problem == nil || again.Problem.Kind != loopwire.ProblemChanged {
		t.Fatalf("another answer after the first: %+v %v", again, err)
	}
	res3, _, err := askOn(t, sock2, loopwire.AskRequest{Session: id2, Continue: true})
	if err != nil || res3.Reply != "I read b.txt." {
		t.Fatalf("continue: %+v %v", res3, err)
	}
	if chats := r2.srv.Chats(); !strings.Contains(chats[len(chats)-1].Prompt, "b.txt") {
		t.Errorf("the model did not see the answer:\n%s", chats[len(chats)-1].Prompt)
	}
}

func TestAnswerChecksTheSession(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{{ToolCalls: []llamastandin.ToolCall{call(RequestUserInput, `{"question":"q"}`)}}}})
	sock := agentSocket(t, r)
	req := spawnA1
	req.Tools = []string{RequestUserInput}
	id := spawnOn(t, sock, req)
	res, _, _ := askOn(t, sock, loopwire.AskRequest{Session: id, Text: "Ask."})
	answers := []loopwire.CallAnswer{{CallID: res.Questions[0].CallID, Text: "yes"}}
	for name, tt := range map[string]struct {
		at   func(loopwire.SessionAt) loopwire.SessionAt
		kind string
	}{
		"another hash":    {func(a loopwire.SessionAt) loopwire.SessionAt { a.SHA256 = strings.Repeat("0", 64); return a }, loopwire.ProblemChanged},
		"a longer file":   {func(a loopwire.SessionAt) loopwire.SessionAt { a.Bytes += 10; return a }, loopwire.ProblemChanged},
		"no such epoch":   {func(a loopwire.SessionAt) loopwire.SessionAt { a.Epoch = 3; return a }, loopwire.ProblemUnreadable},
		"no such session": {func(a loopwire.SessionAt) loopwire.SessionAt { a.ID = "gone"; return a }, loopwire.ProblemUnreadable},
	} {
		var out loopwire.AnswerResult
		err := daemon.Call(context.Background(), sock, loopwire.KindAgentAnswer, loopwire.AnswerRequest{At: tt.at(res.At), Answers: answers}, &out, nil)
		if err != nil || out.Problem == nil || out.Problem.Kind != tt.kind {
			t.Errorf("%s: %+v %v", name, out.Problem, err)
		}
	}
	if len(r.records(t, id)) != 4 {
		t.Errorf("a refused answer wrote to the log")
	}
}

func TestForkCopiesTheLogSoTheCacheIsReused(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{
		{When: "Read the notes", ToolCalls: []llamastandin.ToolCall{call("read_file", `{"path":"/notes"}`)}},
		{When: "result of read_file", Content: "The notes are long."},
		{When: "What next", Content: "Go on."}}})
	sock := agentSocket(t, r)
	id := spawnOn(t, sock, spawnA1)
	res, _, err := askOn(t, sock, loopwire.AskRequest{Session: id, Text: "Read the notes."})
	if err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	r.starts = nil
	r.mu.Unlock()
	var fr loopwire.ForkResult
	fork := loopwire.ForkRequest{From: res.At, Run: "r-1", Agent: "A2", Definition: "next", SpawnHash: "sha256:def"}
	if err := daemon.Call(context.Background(), sock, loopwire.KindAgentFork, fork, &fr, nil); err != nil || fr.Problem != nil {
		t.Fatalf("%+v %v", fr, err)
	}
	if r.starts[0]["from"] != id || r.starts[0]["session"] != fr.Session {
		t.Errorf("brokerd was told %v: a fork starts at its parent's state", r.starts)
	}
	parent, _ := os.ReadFile(LogPath(r.eng.SessionsDir, id, 0))
	child, _ := os.ReadFile(LogPath(r.eng.SessionsDir, fr.Session, 0))
	if !bytes.HasPrefix(child, parent) {
		t.Fatal("the fork's log does not start with its parent's bytes")
	}
	if recs := r.records(t, fr.Session); !strings.HasPrefix(recs[len(recs)-1].Text, "yaag: fork of "+id+" epoch 0 at byte ") {
		t.Errorf("the fork's note: %+v", recs[len(recs)-1])
	}
	before := len(r.srv.Chats())
	if _, _, err := askOn(t, sock, loopwire.AskRequest{Session: fr.Session, Text: "What next?"}); err != nil {
		t.Fatal(err)
	}
	chats := r.srv.Chats()
	prev, first := chats[before-1], chats[before]
	// The template renders the parent's conversation the same again up to
	// its last reply's think block, which a new user turn drops: every
	// token of that common prefix must come from the cache.
	same := commonTokens(prev.Prompt, first.Prompt)
	if same < prev.PromptTokens*3/4 || first.CacheN < same-1 {
		t.Errorf("the fork's first request took %d tokens from the cache; it shares %d with the parent's last prompt of %d", first.CacheN, same, prev.PromptTokens)
	}
	// The parent changed: the fork is refused, naming why.
	os.WriteFile(LogPath(r.eng.SessionsDir, id, 0), append(parent[:len(parent)-2], '\n'), 0o600)
	if err := daemon.Call(context.Background(), sock, loopwire.KindAgentFork, fork, &fr, nil); err != nil || fr.Problem == nil || fr.Problem.Kind != loopwire.ProblemChanged {
		t.Fatalf("a fork of a changed session: %+v %v", fr.Problem, err)
	}
}

func TestAForkOfTheOwnersChatSessionNeedsHost(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{{Content: "Hi."}}})
	sock := agentSocket(t, r)
	chat, _ := r.mustTurn(t, "", "Hello")
	data, _ := os.ReadFile(LogPath(r.eng.SessionsDir, chat.Session, 0))
	at := SessionAtOf(chat.Session, 0, data)
	fork := loopwire.ForkRequest{From: at, Run: "r-1", Agent: "A1", Definition: "d", SpawnHash: "sha256:1"}
	var fr loopwire.ForkResult
	if err := daemon.Call(context.Background(), sock, loopwire.KindAgentFork, fork, &fr, nil); err == nil || !strings.Contains(err.Error(), "is not a hermetic session") {
		t.Fatalf("a fork of a chat session without host: %v", err)
	}
	fork.Host = true
	if err := daemon.Call(context.Background(), sock, loopwire.KindAgentFork, fork, &fr, nil); err != nil || fr.Problem != nil {
		t.Fatalf("the host's fork: %+v %v", fr, err)
	}
	if _, _, err := askOn(t, sock, loopwire.AskRequest{Session: fr.Session, Text: "Hello again."}); err != nil {
		t.Fatalf("an ask on the host's fork: %v", err)
	}
}

func TestCompactStartsTheNextEpochFromTheSummary(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{
		{When: "Write a summary", Content: "We read the notes; they are long."},
		{When: "First", Content: "Done first."},
		{When: "Then", Content: "Done then."}}})
	sock := agentSocket(t, r)
	id := spawnOn(t, sock, spawnA1)
	if _, _, err := askOn(t, sock, loopwire.AskRequest{Session: id, Text: "First."}); err != nil {
		t.Fatal(err)
	}
	var cr loopwire.CompactResult
	if err := daemon.Call(context.Background(), sock, loopwire.KindAgentCompact, loopwire.CompactRequest{Session: id}, &cr, nil); err != nil || cr.Failed != "" || cr.At.Epoch != 1 {
		t.Fatalf("%+v %v", cr, err)
	}
	recs := r.records(t, id)
	if len(recs) != 2 || !strings.Contains(recs[0].System, "You review.") || !strings.Contains(recs[0].System, "We read the notes; they are long.") {
		t.Fatalf("epoch 1: %+v", recs)
	}
	if res, _, err := askOn(t, sock, loopwire.AskRequest{Session: id, Text: "Then."}); err != nil || res.Reply != "Done then." {
		t.Fatalf("an ask after the compaction: %+v %v", res, err)
	}
	chats := r.srv.Chats()
	if last := chats[len(chats)-1].Prompt; strings.Contains(last, "First.") {
		t.Errorf("the next epoch still sends the old conversation:\n%s", last)
	}
	// No summary: COMPACT_FAILED's cause, and no new epoch.
	r2 := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{{When: "Write a summary", Content: ""}, {When: "First", Content: "ok"}}})
	sock2 := agentSocket(t, r2)
	id2 := spawnOn(t, sock2, spawnA1)
	askOn(t, sock2, loopwire.AskRequest{Session: id2, Text: "First."})
	if err := daemon.Call(context.Background(), sock2, loopwire.KindAgentCompact, loopwire.CompactRequest{Session: id2}, &cr, nil); err != nil || !strings.Contains(cr.Failed, "no summary") {
		t.Fatalf("%+v %v", cr, err)
	}
	if e, _, _ := LatestEpoch(r2.eng.SessionsDir, id2); e != 0 {
		t.Errorf("a failed compaction made epoch %d", e)
	}
}

func TestAHostsCopyEndsBeforeTheCallThatStartsTheRun(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{
		{When: "remember pelican", Content: "Noted."},
		{When: "run it", ToolCalls: []llamastandin.ToolCall{call("read_file", `{"path":"/a"}`)}}}})
	sock := agentSocket(t, r)
	chat, _ := r.mustTurn(t, "", "remember pelican")
	// The second turn's call waits: its reply is in the log, its result not.
	r.mu.Lock()
	release := make(chan struct{})
	r.answer = func(brokerwire.ToolCall, *daemon.Stream) (any, error) {
		<-release
		return map[string]any{"outcome": "allowed", "text": "ok", "decision": map[string]string{"effect": "allow", "grant": "g"}}, nil
	}
	r.mu.Unlock()
	done := make(chan struct{})
	go func() { r.turn(t, chat.Session, "run it"); close(done) }()
	for {
		recs := r.records(t, chat.Session)
		if last := recs[len(recs)-1]; last.Type == TypeAssistant && len(last.ToolCalls) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	var fr loopwire.ForkResult
	fork := loopwire.ForkRequest{From: loopwire.SessionAt{ID: chat.Session}, Host: true, Latest: true, Run: "r-1", Agent: "host", Definition: "host", SpawnHash: "sha256:0"}
	if err := daemon.Call(context.Background(), sock, loopwire.KindAgentFork, fork, &fr, nil); err != nil || fr.Problem != nil {
		t.Fatalf("%+v %v", fr, err)
	}
	close(release)
	<-done
	recs := r.records(t, fr.Session)
	if last := recs[len(recs)-2]; last.Type != TypeUser || last.Text != "run it" {
		t.Fatalf("the copy ends with %+v before its note, want the person's message", last)
	}
	fork.From.ID = "no-such-session"
	if err := daemon.Call(context.Background(), sock, loopwire.KindAgentFork, fork, &fr, nil); err != nil || fr.Problem == nil || fr.Problem.Kind != loopwire.ProblemUnreadable {
		t.Fatalf("a host with no log: %+v %v", fr.Problem, err)
	}
}
