package loop

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/inferproxy"
	"boxmaker/core/llamastandin"
	"boxmaker/core/loopwire"
	"boxmaker/core/testsupport"
	"boxmaker/core/testsupport/daemontest"
	"boxmaker/runbook"
)

// The behaviours of a real llama-server that once wedged or misled a
// session, each met by loopd against the stand-in behaving as the real
// server does (docs/inference-contract.md).

// A reply cut off inside a tool call (finish_reason "length", arguments
// not JSON) is logged as it came, not run, told to the model, and
// replayed with arguments {}: the real server refuses every later request
// whose history holds the broken arguments (the stand-in does too), and
// the session would be dead. Three more turns follow.
func TestACutToolCallNeverWedgesTheSession(t *testing.T) {
	long := strings.Repeat("All work and no play. ", 20)
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{
		{ToolCalls: []llamastandin.ToolCall{call("write_file", `{"path":"/src/notes.txt","content":"`+long+`"}`)}},
		{Content: "It was cut; I will write less."},
		{Content: "Two."},
		{Content: "Three."},
		{Content: "Four."},
	}})
	r.eng.MaxTokens = 120
	res, events := r.mustTurn(t, "", "write the notes")
	if res.Reply != "It was cut; I will write less." {
		t.Errorf("reply %q", res.Reply)
	}
	var kinds []string
	for _, e := range events {
		if e.Event != "text" {
			kinds = append(kinds, e.Event)
		}
	}
	if diff := cmp.Diff([]string{"session", "notice", "tool_call", "tool_result", "usage", "usage"}, kinds); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	for _, text := range []string{"Again, please.", "And again.", "Once more."} {
		if _, _, err := r.turn(t, res.Session, text); err != nil {
			t.Fatalf("a turn after the cut call: %v", err)
		}
	}
	if len(r.calls) != 0 {
		t.Errorf("the cut call reached brokerd: %+v", r.calls)
	}
	recs := r.records(t, res.Session)
	a := recs[2]
	if a.Type != TypeAssistant || len(a.ToolCalls) != 1 || IsObject(a.ToolCalls[0].Arguments) ||
		!strings.HasPrefix(a.ToolCalls[0].Arguments, `{"path":"/src/notes.txt","content":"All work`) {
		t.Fatalf("the assistant record %+v", a)
	}
	if n := recs[3]; n.Type != TypeNote || n.Text != "the reply was cut off after 120 tokens (max_tokens 120)" {
		t.Errorf("note %+v", n)
	}
	if tr := recs[4]; tr.Type != TypeTool || tr.Outcome != OutcomeFailed || tr.Text != CutCallText {
		t.Errorf("tool record %+v", tr)
	}
	chats := r.srv.Chats()
	if len(chats) != 5 || chats[0].Finish != "length" {
		t.Fatalf("%d requests; the first finished %q", len(chats), chats[0].Finish)
	}
	for i, c := range chats[1:] {
		for _, m := range c.Request.Messages {
			for _, tc := range m.ToolCalls {
				if tc.Function.Arguments != "{}" {
					t.Errorf("request %d replays arguments %q", i+2, tc.Function.Arguments)
				}
			}
		}
	}
	if !strings.Contains(chats[1].Prompt, "<tool_call>\n<function=write_file>\n</function>\n</tool_call>") {
		t.Errorf("the cut call is not rendered with no arguments: %q", chats[1].Prompt)
	}
}

// A reply cut off in its text ends the turn with the text, a note in the
// log and a notice to the person.
func TestACutReplyIsNotedAndShown(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{{Content: strings.Repeat("word ", 100)}}})
	r.eng.MaxTokens = 30
	res, events := r.mustTurn(t, "", "talk")
	if res.Reply != strings.Repeat("word ", 6) {
		t.Errorf("reply %q", res.Reply)
	}
	var notice loopwire.Event
	for _, e := range events {
		if e.Event == "notice" {
			notice = e
		}
	}
	if notice.Text != "the reply was cut off after 30 tokens (max_tokens 30)" {
		t.Errorf("notice %+v", notice)
	}
	recs := r.records(t, res.Session)
	if last := recs[len(recs)-1]; last.Type != TypeNote || last.Text != notice.Text {
		t.Errorf("last record %+v", last)
	}
	if !strings.Contains(r.log.String(), "the reply was cut off after 30 tokens") {
		t.Errorf("operator log %q", r.log)
	}
}

// max_tokens is what is left of the slot's context, at most the ceiling.
func TestMaxTokensIsBoundedByTheSlotsContext(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{{Content: "one"}, {Content: "two"}}})
	r.eng.NCtx, r.eng.MaxTokens = 10000, 8000
	res, _ := r.mustTurn(t, "", "first")
	r.mustTurn(t, res.Session, "second")
	chats := r.srv.Chats()
	max := func(c llamastandin.Chat) int {
		var b struct {
			MaxTokens int `json:"max_tokens"`
		}
		json.Unmarshal(c.Body, &b)
		return b.MaxTokens
	}
	if got := max(chats[0]); got != 8000 {
		t.Errorf("first request max_tokens %d, want the ceiling 8000", got)
	}
	if got, want := max(chats[1]), 10000-(chats[0].PromptTokens+chats[0].PredictedN); got != want {
		t.Errorf("second request max_tokens %d, want %d (what is left of the context)", got, want)
	}
}

// Output the server cannot read as a tool call fails the turn with words
// that say so (model-output-unparsed), logs nothing of the request, and
// the session's next turn works: streamed, as loopd asks, the server
// fails after HTTP 200 and sends no [DONE].
func TestUnparsableOutputIsSurvived(t *testing.T) {
	r := newRig(t, llamastandin.Script{Turns: []llamastandin.Turn{
		{Content: "Hello."},
		{Raw: "Let me look.\n<tool_call>\n<function=read_file>\n<path>/x</path>"},
		{Content: "Here again."},
	}})
	res, _ := r.mustTurn(t, "", "hi")
	before := r.records(t, res.Session)
	_, _, err := r.turn(t, res.Session, "read /x")
	if e, _ := runbook.EntryOf(err); e != runbook.ModelOutputUnparsed || !strings.HasPrefix(err.Error(),
		"the model server could not read the model's reply (The model produced output that does not match the expected peg-native format); nothing of this request was kept") {
		t.Fatalf("got %v", err)
	}
	if after := r.records(t, res.Session); len(after) != len(before) {
		t.Errorf("%d records after the failed turn, want %d", len(after), len(before))
	}
	if res, _, err := r.turn(t, res.Session, "are you there?"); err != nil || res.Reply != "Here again." {
		t.Fatalf("the next turn: %+v %v", res, err)
	}
}

// No request loopd sends names tool_choice: "required" does not force a
// call on the real server, so nothing may rely on it.
func TestNoRequestSendsToolChoice(t *testing.T) {
	r := newRig(t, probeScript())
	if err := (Selftest{Client: r.eng.Client, Expect: Expect{
		ChatTemplateSHA256: templateSum(llamastandin.QwenTemplate), NCtxPerSlot: llamastandin.DefaultNCtx,
		Slots: llamastandin.DefaultSlots, MinCacheReuse: 0.9}, Out: &testsupport.Buffer{}}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i, c := range r.srv.Chats() {
		if strings.Contains(string(c.Body), "tool_choice") {
			t.Errorf("request %d sends tool_choice: %s", i+1, c.Body)
		}
	}
	if n := len(r.srv.Chats()); n != 3 {
		t.Errorf("the probe sent %d chat requests, want 3", n)
	}
}

// fakeClock is a clock the selftest's wait advances by sleeping.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	after func(elapsed time.Duration) // called after each sleep
	began time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Sleep(_ context.Context, d time.Duration) error {
	c.mu.Lock()
	c.now = c.now.Add(d)
	elapsed := c.now.Sub(c.began)
	c.mu.Unlock()
	if c.after != nil {
		c.after(elapsed)
	}
	return nil
}

// The selftest waits while the server loads its model (503 Loading
// model), saying so every 10 s, and goes on when it has loaded; a server
// that never loads fails it once start_wait is over, as before.
func TestSelftestWaitsWhileTheModelLoads(t *testing.T) {
	good := Expect{ChatTemplateSHA256: templateSum(llamastandin.QwenTemplate), NCtxPerSlot: llamastandin.DefaultNCtx,
		Slots: llamastandin.DefaultSlots, MinCacheReuse: 0.9}
	t.Run("loads after 25 s", func(t *testing.T) {
		srv, client := startModel(t, testsupport.ShortDir(t), llamastandin.Options{Script: probeScript(), Loading: true})
		clock := &fakeClock{now: time.Unix(1e9, 0), began: time.Unix(1e9, 0)}
		clock.after = func(elapsed time.Duration) {
			if elapsed >= 25*time.Second {
				srv.SetLoading(false)
			}
		}
		out := &testsupport.Buffer{}
		err := Selftest{Client: client, Expect: good, Out: out, Now: clock.Now, Sleep: clock.Sleep}.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		want := "selftest: waiting for the model server: it is loading the model (503 Loading model) (10s of at most 2m0s)\n" +
			"selftest: waiting for the model server: it is loading the model (503 Loading model) (20s of at most 2m0s)\n" +
			"selftest: tags tokenize as recorded\n"
		if out.String() != want {
			t.Errorf("output\n%s\nwant\n%s", out, want)
		}
	})
	t.Run("never loads", func(t *testing.T) {
		_, client := startModel(t, testsupport.ShortDir(t), llamastandin.Options{Loading: true})
		clock := &fakeClock{now: time.Unix(1e9, 0), began: time.Unix(1e9, 0)}
		out := &testsupport.Buffer{}
		err := Selftest{Client: client, Expect: good, Out: out, Now: clock.Now, Sleep: clock.Sleep, StartWait: 30 * time.Second}.Run(context.Background())
		want := "selftest: FAILED: GET /props answered HTTP 503: Loading model (waited 30s for the model server to start); " + runbook.Link(runbook.LoopdSelftestFailed)
		if err == nil || err.Error() != want {
			t.Fatalf("got  %v\nwant %s", err, want)
		}
		if n := strings.Count(out.String(), "selftest: waiting for the model server"); n != 2 {
			t.Errorf("%d wait lines in 30 s, want 2: %q", n, out)
		}
	})
	t.Run("inferproxy not there yet", func(t *testing.T) {
		client := &Client{Socket: testsupport.ShortDir(t) + "/run/infer/infer.sock", Model: "m", Timeout: time.Second}
		clock := &fakeClock{now: time.Unix(1e9, 0), began: time.Unix(1e9, 0)}
		out := &testsupport.Buffer{}
		err := Selftest{Client: client, Expect: good, Out: out, Now: clock.Now, Sleep: clock.Sleep, StartWait: 15 * time.Second}.Run(context.Background())
		if err == nil || !strings.Contains(err.Error(), "no such file or directory (waited 15s for the model server to start)") {
			t.Fatalf("got %v", err)
		}
		if !strings.Contains(out.String(), "selftest: waiting for the model server: inferproxy's socket does not answer yet (10s of at most 15s)") {
			t.Errorf("output %q", out)
		}
	})
}

// --print-expect prints the section the server passes.
func TestPrintExpect(t *testing.T) {
	_, client := startModel(t, testsupport.ShortDir(t), llamastandin.Options{Script: probeScript(), Slots: 3, NCtx: 8192})
	section, err := Selftest{Client: client, Expect: Expect{MinCacheReuse: 0.9}, Out: &testsupport.Buffer{},
		Now: func() time.Time { return time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC) }}.PrintExpect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := "[expect]\n" +
		"# Measured by loopd selftest --print-expect at 2026-12-01T10:00:00Z\n" +
		"# through " + client.Socket + ": model \"qwen3.5-standin\", model_path \"/models/qwen3.5-standin.gguf\", build_info \"b0-standin\".\n" +
		"chat_template_sha256 = \"" + templateSum(llamastandin.QwenTemplate) + "\"\n" +
		"n_ctx_per_slot = 8192\n" +
		"slots = 3\n" +
		"min_cache_reuse = 0.9\n"
	if section != want {
		t.Errorf("got\n%s\nwant\n%s", section, want)
	}
}

// A server that streams a tool call without a name (none measured does;
// a broken one might) does not leave a log loopd cannot read back: the
// call is left out and noted, and the session's log still parses.
func TestANamelessToolCallIsLeftOut(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":null}}]}`+"\n\n")
		io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"Hm."}}]}`+"\n\n")
		io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"x1","type":"function","function":{"arguments":"{}"}}]}}]}`+"\n\n")
		io.WriteString(w, `data: {"choices":[{"finish_reason":"tool_calls","index":0,"delta":{}}],"timings":{"prompt_n":5,"cache_n":0,"predicted_n":3}}`+"\n\n")
		io.WriteString(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(up.Close)
	r := newRig(t, llamastandin.Script{})
	sock := daemontest.InferProxy(t, inferproxy.Options{Listen: filepath.Join(r.dir, "run", "infer2", "infer.sock"), Upstream: up.URL})
	r.eng.Client = &Client{Socket: sock, Model: "m", Timeout: 5 * time.Second}
	res, _, err := r.turn(t, "", "do it")
	if err != nil || res.Reply != "Hm." {
		t.Fatalf("%+v %v", res, err)
	}
	recs := r.records(t, res.Session) // the log reads back
	if a := recs[2]; a.Type != TypeAssistant || len(a.ToolCalls) != 0 {
		t.Errorf("assistant record %+v", a)
	}
	if n := recs[3]; n.Type != TypeNote || n.Text != "the reply held 1 tool call(s) without a name, left out of the conversation" {
		t.Errorf("note %+v", n)
	}
}
