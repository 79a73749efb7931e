package agent

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/brokerwire"
	"boxmaker/core/daemon"
	"boxmaker/core/llamastandin"
	"boxmaker/core/loop"
	"boxmaker/core/loopwire"
	"boxmaker/core/testsupport"
	"boxmaker/core/testsupport/daemontest"
	"boxmaker/core/yaag/runerr"
	"boxmaker/core/yaag/schema"
	"boxmaker/runbook"
)

// rig is loopd's engine serving its loop socket's handlers
// (loop.Engine.Handlers, which loopd serves) on a real unix socket, in
// front of the llama-server stand-in through inferproxy; the tool socket
// is a peer that allows every call (the end-to-end scripts run the real
// brokerd).
type rig struct {
	dir  string
	srv  *llamastandin.Server
	sock string
	mu   sync.Mutex
	tool []string
}

func newRig(t testing.TB, o llamastandin.Options) *rig {
	t.Helper()
	r := &rig{dir: testsupport.ShortDir(t)}
	srv, infer := daemontest.Model(t, r.dir, o)
	r.srv = srv
	broker := daemontest.Peer(t, r.dir, "broker", map[string]daemon.Handler{
		"tool.call": func(_ context.Context, _ daemon.Peer, body json.RawMessage, _ *daemon.Stream) (any, error) {
			var c brokerwire.ToolCall
			json.Unmarshal(body, &c)
			r.mu.Lock()
			r.tool = append(r.tool, c.Tool)
			r.mu.Unlock()
			return map[string]any{"outcome": "allowed", "text": "contents", "decision": map[string]string{"effect": "allow", "grant": "g.toml"}}, nil
		},
	})
	eng := &loop.Engine{
		SessionsDir:   filepath.Join(r.dir, "sessions"),
		Client:        &loop.Client{Socket: infer, Model: srv.Model(), Timeout: 5 * time.Second},
		Broker:        loop.Broker{Socket: broker, Silent: 5 * time.Second},
		MaxToolRounds: 8,
	}
	r.sock = daemontest.Peer(t, r.dir, "loop", eng.Handlers())
	return r
}

func (r *rig) spawn(t testing.TB, s Spec) Session {
	t.Helper()
	if s.Run == "" {
		s.Run, s.Key, s.Definition = "r-test", "A1", "tester"
	}
	sess, err := Loopd{Socket: r.sock}.Spawn(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

func readCall() llamastandin.Turn {
	return llamastandin.Turn{ToolCalls: []llamastandin.ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path":"/src/a.go"}`)}}}
}

func code(err error) runerr.Code {
	if re, ok := runerr.As(err); ok {
		return re.Code
	}
	return ""
}

func TestAskAnswersWithTheLastText(t *testing.T) {
	r := newRig(t, llamastandin.Options{Script: llamastandin.Script{Turns: []llamastandin.Turn{readCall(), {Content: "It is package a."}}}})
	var events []string
	ans, err := r.spawn(t, Spec{Tools: []string{"read_file"}}).Ask(context.Background(), Ask{Key: "A1/1", Prompt: "What is a.go?"}, func(e Event) {
		events = append(events, e.Kind+" "+e.Tool+e.Outcome)
	})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Text != "It is package a." || ans.Turns != 2 || ans.ToolCalls != 1 {
		t.Errorf("answer %+v", ans)
	}
	if diff := cmp.Diff([]string{"tool_call read_file", "tool_result allowed"}, events); diff != "" {
		t.Error(diff)
	}
}

func TestLimitLeavesTheAgentAlive(t *testing.T) {
	r := newRig(t, llamastandin.Options{Script: llamastandin.Script{Turns: []llamastandin.Turn{readCall(), readCall(), {Content: "second answer"}}}})
	sess := r.spawn(t, Spec{Tools: []string{"read_file"}})
	_, err := sess.Ask(context.Background(), Ask{Key: "A1/1", Prompt: "Go.", MaxTurns: 1}, nil)
	if code(err) != runerr.AskLimit || !strings.Contains(err.Error(), "limit reached at maxTurns=1") {
		t.Fatalf("got %v", err)
	}
	ans, err := sess.Ask(context.Background(), Ask{Key: "A1/2", Prompt: "Go on."}, nil)
	if err != nil || ans.Text != "second answer" {
		t.Fatalf("the second Ask: %+v %v", ans, err)
	}
}

func TestWrapUpPromptGetsOneTurnWithoutTools(t *testing.T) {
	one := 1
	r := newRig(t, llamastandin.Options{Script: llamastandin.Script{Turns: []llamastandin.Turn{readCall(), readCall(), {When: "Wrap up", Content: "Summary so far."}}}})
	sess := r.spawn(t, Spec{Tools: []string{"read_file"}})
	ans, err := sess.Ask(context.Background(), Ask{Key: "A1/1", Prompt: "Go.", MaxToolCalls: &one, WrapUp: "Wrap up now."}, nil)
	if err != nil || ans.Text != "Summary so far." {
		t.Fatalf("%+v %v", ans, err)
	}
	chats := r.srv.Chats()
	if last := string(chats[len(chats)-1].Body); !strings.Contains(last, `"tool_choice":"none"`) {
		t.Errorf("the wrap-up turn was sent with tools: %s", last)
	}
	if len(r.tool) != 1 {
		t.Errorf("brokerd saw %d calls, want 1 (the budget)", len(r.tool))
	}
}

func mustSchema(t *testing.T, s string) *schema.Schema {
	t.Helper()
	c, err := schema.Compile("the schema", json.RawMessage(s))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestOutputSchema(t *testing.T) {
	okSchema := `{"type":"object","required":["ok"],"properties":{"ok":{"type":"boolean"}}}`
	tests := []struct {
		name    string
		tools   []string
		turns   []llamastandin.Turn
		want    string
		code    runerr.Code
		reqs    int
		retries int
	}{
		{"valid at once, no tools: one constrained turn", nil, []llamastandin.Turn{{Content: `{"ok":true}`}}, `{"ok":true}`, "", 1, 2},
		{"valid in a fence", []string{"read_file"}, []llamastandin.Turn{{Content: "Here:\n```json\n{\"ok\": false}\n```"}}, `{"ok": false}`, "", 1, 2},
		{"fed back, then valid", []string{"read_file"}, []llamastandin.Turn{{Content: "It is fine."}, {When: "does not match", Content: `{"ok":true}`}}, `{"ok":true}`, "", 2, 2},
		{"never valid", nil, []llamastandin.Turn{{Content: `{"ok":"yes"}`}, {When: "does not match", Content: `{"ok":1}`}}, "", runerr.AskInvalidOutput, 3, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, llamastandin.Options{Script: llamastandin.Script{Turns: tt.turns}})
			ans, err := r.spawn(t, Spec{Tools: tt.tools}).Ask(context.Background(), Ask{Key: "A1/1", Prompt: "Is it ok?", Schema: mustSchema(t, okSchema), Retries: tt.retries}, nil)
			if code(err) != tt.code {
				t.Fatalf("got %v, want code %q", err, tt.code)
			}
			if tt.code == "" && string(ans.Data) != tt.want {
				t.Errorf("data %s, want %s", ans.Data, tt.want)
			}
			if tt.code == runerr.AskInvalidOutput && !strings.Contains(err.Error(), "/ok") {
				t.Errorf("the error does not say what failed: %v", err)
			}
			chats := r.srv.Chats()
			if len(chats) != tt.reqs {
				t.Errorf("%d model requests, want %d", len(chats), tt.reqs)
			}
			for i, c := range chats {
				constrained := strings.Contains(string(c.Body), `"response_format"`)
				if want := tt.tools == nil || i > 0; constrained != want {
					t.Errorf("request %d constrained=%v, want %v", i+1, constrained, want)
				}
			}
		})
	}
}

func TestTimeoutKillsAndStallIsReported(t *testing.T) {
	r := newRig(t, llamastandin.Options{Script: llamastandin.Script{Turns: []llamastandin.Turn{{Content: "late"}, {Content: "late"}}}})
	if err := r.srv.SetStall(llamastandin.StallNever, 0); err != nil {
		t.Fatal(err)
	}
	sess := r.spawn(t, Spec{})
	_, err := sess.Ask(context.Background(), Ask{Key: "A1/1", Prompt: "Hi.", Timeout: 300 * time.Millisecond, Stall: time.Minute}, nil)
	if code(err) != runerr.AskTimeout || !strings.Contains(err.Error(), "timeoutMs=300") {
		t.Fatalf("timeout: %v", err)
	}
	_, err = sess.Ask(context.Background(), Ask{Key: "A1/2", Prompt: "Hi.", Stall: 300 * time.Millisecond}, nil)
	if code(err) != runerr.AskStalled || !strings.Contains(err.Error(), "stallMs=300") {
		t.Fatalf("stall: %v", err)
	}
}

func TestModelListFallsBackOnAuthOnly(t *testing.T) {
	r := newRig(t, llamastandin.Options{Script: llamastandin.Script{Turns: []llamastandin.Turn{{Content: "from the served model"}}}})
	router := true // a single llama-server ignores the model's name; its router mode refuses one it does not serve
	r.srv.Set(llamastandin.Switch{Router: &router})
	var fallbacks []string
	sess := r.spawn(t, Spec{Models: []string{"not-served", r.srv.Model()}})
	ans, err := sess.Ask(context.Background(), Ask{Key: "A1/1", Prompt: "Hi."}, func(e Event) {
		if e.Kind == "model_fallback" {
			fallbacks = append(fallbacks, e.Text)
		}
	})
	if err != nil || ans.Text != "from the served model" || ans.Model != r.srv.Model() {
		t.Fatalf("%+v %v", ans, err)
	}
	if len(fallbacks) != 1 || !strings.Contains(fallbacks[0], "not-served (auth): the model server does not serve it") {
		t.Errorf("fallbacks %q", fallbacks)
	}
	// A transient failure does not move on.
	r.srv.SetLoading(true)
	_, err = r.spawn(t, Spec{Models: []string{r.srv.Model(), "other"}}).Ask(context.Background(), Ask{Key: "A1/1", Prompt: "Hi."}, nil)
	if code(err) != runerr.AskFailed || !strings.Contains(err.Error(), "(transient): HTTP 503: Loading model") {
		t.Fatalf("loading: %v", err)
	}
}

func TestAServerThatRefusesTheKeyIsNoAPIKey(t *testing.T) {
	r := newRig(t, llamastandin.Options{APIKey: "k", Script: llamastandin.Script{Turns: []llamastandin.Turn{{Content: "never"}}}})
	_, err := r.spawn(t, Spec{Models: []string{r.srv.Model()}}).Ask(context.Background(), Ask{Key: "A1/1", Prompt: "Hi."}, nil)
	if code(err) != runerr.AskFailed || !strings.Contains(err.Error(), string(textNoAPIKey)) || !strings.Contains(err.Error(), "HTTP 401: Invalid API Key") {
		t.Fatalf("got %v", err)
	}
	if !strings.HasSuffix(err.Error(), runbook.Link(runbook.YaagNoAPIKey)) {
		t.Errorf("no link to the entry: %v", err)
	}
}

func TestClassify(t *testing.T) {
	for _, tt := range []struct {
		status int
		msg    string
		want   Class
	}{
		{401, "Invalid API Key", Auth},
		{403, "forbidden", Auth},
		{404, "model 'x' not found", Auth},
		{400, "model 'x' not found", Auth},
		{404, "File Not Found", Fatal},
		{0, "dial unix: connection refused", Transient},
		{503, "Loading model", Transient},
		{502, "the model server is unreachable", Transient},
		{429, "busy", Transient},
		{400, "the request exceeds the available context size", Fatal},
	} {
		if got := Classify(&loopwire.ModelError{Status: tt.status, Message: tt.msg}); got != tt.want {
			t.Errorf("%d %q: %s, want %s", tt.status, tt.msg, got, tt.want)
		}
	}
}

func TestExtractJSON(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1}`:                        `{"a":1}`,
		"  [1,2]\n":                      `[1,2]`,
		"Sure:\n```json\n{\"a\":2}\n```": `{"a":2}`,
		"The answer is {\"a\": 3}.":      `{"a":3}`,
	} {
		got, err := extractJSON(in)
		if err != nil || string(got) != want {
			t.Errorf("%q: %s %v, want %s", in, got, err, want)
		}
	}
	if _, err := extractJSON("no json here"); err == nil {
		t.Error("text without JSON gave JSON")
	}
}

// TestLoopdsRefusalKeepsItsEntry: each request of yaag's loopd client
// that loopd refuses with a refusal of its own gives that refusal back,
// its entry kept (runbook.EntryOf), and a message that ends with its link
// alone.
func TestLoopdsRefusalKeepsItsEntry(t *testing.T) {
	dir := testsupport.ShortDir(t)
	refuse := func(context.Context, daemon.Peer, json.RawMessage, *daemon.Stream) (any, error) {
		return nil, runbook.Refuse(runbook.SessionLogDamaged, "session s1's log is damaged at line 3")
	}
	sock := daemontest.Peer(t, dir, "loop", map[string]daemon.Handler{
		loopwire.KindAgentSpawn: refuse, loopwire.KindAgentFork: refuse, loopwire.KindAgentCompact: refuse,
		loopwire.KindAgentAnswer: refuse, loopwire.KindAgentAsk: refuse,
	})
	l := Loopd{Socket: sock}
	ctx := context.Background()
	at := loopwire.SessionAt{ID: "s1"}
	sess := &session{socket: sock, id: "s1", key: "a1", models: []string{"m"}}
	for _, tt := range []struct {
		name string
		call func() error
	}{
		{"spawn", func() error { _, err := l.Spawn(ctx, Spec{Key: "a1"}); return err }},
		{"fork", func() error { _, err := l.Fork(ctx, at, Spec{Key: "a1"}); return err }},
		{"host copy", func() error { _, err := l.ForkHost(ctx, "s1", Spec{Key: "host"}); return err }},
		{"compact", func() error { return l.Compact(ctx, sess, "m") }},
		{"answer", func() error { _, err := l.Answer(ctx, at, nil); return err }},
		{"ask", func() error { _, err := sess.Ask(ctx, Ask{Key: "k1", Prompt: "hi"}, nil); return err }},
	} {
		err := tt.call()
		if e, ok := runbook.EntryOf(err); !ok || e != runbook.SessionLogDamaged {
			t.Errorf("%s: %v: entry %v, %v", tt.name, err, e, ok)
			continue
		}
		if msg := err.Error(); !strings.HasSuffix(msg, "session s1's log is damaged at line 3; "+runbook.Link(runbook.SessionLogDamaged)) || strings.Count(msg, "see docs/") != 1 {
			t.Errorf("%s: %q", tt.name, msg)
		}
	}
}

// An Ask its Run's stop cuts while the model answers (yaag stop cancels
// the Run's context) is RUN_STOPPED, saying the Ask was stopped: not a
// model failure, not loopd's, not a bare "context canceled".
func TestAStoppedAskSaysItWasStopped(t *testing.T) {
	r := newRig(t, llamastandin.Options{Script: llamastandin.Script{Turns: []llamastandin.Turn{{Content: "never"}}}})
	if err := r.srv.SetStall(llamastandin.StallNever, 0); err != nil {
		t.Fatal(err)
	}
	sess := r.spawn(t, Spec{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for !modelAsked(r.srv.Calls()) {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	_, err := sess.Ask(ctx, Ask{Key: "A1/1", Prompt: "Hi.", Stall: time.Minute}, nil)
	if code(err) != runerr.RunStopped || err.Error() != "RUN_STOPPED: ask A1/1 was stopped before it ended: its Run was stopped" {
		t.Fatalf("got %v (code %q)", err, code(err))
	}
	if runerr.Recorded(code(err)) {
		t.Error("a stopped Ask would be recorded in the Cassette")
	}
}

func modelAsked(calls []llamastandin.Call) bool {
	for _, c := range calls {
		if strings.HasSuffix(c.Path, "/chat/completions") {
			return true
		}
	}
	return false
}

// A spawn its Run's stop cuts while loopd makes the session is
// RUN_STOPPED, not "cannot reach loopd" (loopd is there; the Run closed
// the connection).
func TestAStoppedSpawnSaysItWasStopped(t *testing.T) {
	dir := testsupport.ShortDir(t)
	reached := make(chan struct{})
	sock := daemontest.Peer(t, dir, "loop", map[string]daemon.Handler{
		loopwire.KindAgentSpawn: func(_ context.Context, _ daemon.Peer, _ json.RawMessage, s *daemon.Stream) (any, error) {
			close(reached)
			<-s.Gone()
			return nil, errors.New("gone")
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-reached; cancel() }()
	_, err := Loopd{Socket: sock}.Spawn(ctx, Spec{Run: "r-test", Key: "A1", Definition: "tester"})
	if code(err) != runerr.RunStopped || err.Error() != "RUN_STOPPED: the session was not made: its Run was stopped while loopd made it" {
		t.Fatalf("got %v (code %q)", err, code(err))
	}
}
