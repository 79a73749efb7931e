package loop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"boxmaker/core/loopwire"
)

// capture is a model server that keeps every request's body and answers
// a chat completion with an empty stream.
func capture(t *testing.T) (*Client, func() [][]byte) {
	var mu sync.Mutex
	var bodies [][]byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil || r.ContentLength != int64(len(b)) {
			t.Errorf("%s: %d bytes read, Content-Length %d, %v", r.URL.Path, len(b), r.ContentLength, err)
		}
		mu.Lock()
		bodies = append(bodies, b)
		mu.Unlock()
		if r.URL.Path == "/apply-template" {
			io.WriteString(w, `{"prompt":"p"}`)
			return
		}
		io.WriteString(w, "data: {\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	c := &Client{URL: srv.URL, Model: "m", Timeout: 10 * time.Second}
	return c, func() [][]byte {
		mu.Lock()
		defer mu.Unlock()
		out := bodies
		bodies = nil
		return out
	}
}

// texts are contents that encoding/json writes in its own ways: HTML
// characters escaped, invalid UTF-8 replaced, U+2028 escaped, quotes and
// control characters.
var texts = []string{
	"plain words",
	"<script>alert('x') & \"quoted\"</script>",
	"bad utf-8: \xff\xfe and a lone \xc3",
	"line\u2028separator\u2029and\ttab\nnewline\x00nul\x1b",
	"émoji 🦫 and 中文",
	"",
	strings.Repeat("long ", 300),
	`{"json":"inside","n":[1,2,3]}`,
}

// session is a made-up session: a baseline (or a compaction's, with its
// hermetic note), turns of users, assistants with reasoning and tool
// calls (some with arguments that are not an object), tool results, and
// notes (a fork's, a cache loss).
func session(rng *rand.Rand, turns int) []Record {
	pick := func() string { return texts[rng.IntN(len(texts))] }
	tools := json.RawMessage(`[ {"type":"function", "function":{"name":"read_file","description":"<reads> & more","parameters":{"type":"object"}}} ]`)
	recs := []Record{{Time: t0, Type: TypeBaseline, System: DefaultSystemPrompt + pick(), Memory: pick(), Tools: tools}}
	switch rng.IntN(3) {
	case 1: // a compaction's epoch
		recs[0].System += "\n\nSummary of the session so far: " + pick()
		recs = append(recs, Record{Time: t0, Type: TypeNote, Text: yaagNotePrefix + "run r-1, agent A1"})
	case 2: // a fork
		recs = append(recs, Record{Time: t0, Type: TypeNote, Text: yaagForkPrefix + "20260101-000000-00000000 epoch 0 at byte 10 (seq 3)"})
	}
	if rng.IntN(4) == 0 {
		recs[0].Tools = nil
	}
	for i := range turns {
		recs = append(recs, Record{Time: t0, Type: TypeUser, Who: "owner", Text: pick()})
		for round := range rng.IntN(3) {
			a := Record{Time: t0, Type: TypeAssistant, Text: pick(), Reasoning: pick()}
			for j := range 1 + rng.IntN(2) {
				args := []string{`{"path":"/home/owner/<a&b>.go"}`, `{"path":`, `[1,2]`, ` {"x": 1} `, "not json \xff"}[rng.IntN(5)]
				a.ToolCalls = append(a.ToolCalls, ToolCall{ID: fmt.Sprintf("call_%d_%d_%d", i, round, j), Name: "read_file", Arguments: args})
			}
			recs = append(recs, a)
			for _, c := range a.ToolCalls {
				recs = append(recs, Record{Time: t0, Type: TypeTool, CallID: c.ID, Name: c.Name, Outcome: "allowed", Text: pick()})
			}
			if rng.IntN(5) == 0 {
				recs = append(recs, Record{Time: t0, Type: TypeNote, Text: "cache loss: " + pick()})
			}
		}
		recs = append(recs, Record{Time: t0, Type: TypeAssistant, Text: pick(), Reasoning: pick()})
	}
	return recs
}

// The request bytes of a session's kept conversation are those the whole
// session's messages gave, encoded each time (the server's prompt cache
// is keyed by them): for every record of many sessions, built up one
// record at a time as turns do, with and without a pending user record,
// for the chat request with every option and for /apply-template of a
// prefix (judgeCache).
func TestEncodedMatchesMarshal(t *testing.T) {
	c, bodies := capture(t)
	ctx := context.Background()
	schema := json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)
	rng := rand.New(rand.NewPCG(1, 2))
	compared := 0
	for s := range 40 {
		recs := session(rng, 1+rng.IntN(6))
		conv, err := newConversation(nil, recs[:1])
		if err != nil {
			t.Fatal(err)
		}
		views := []encodedMessages{} // earlier requests' messages, checked again at the end
		wantViews := [][]byte{}
		for k := 1; k <= len(recs); k++ {
			if k > 1 {
				if err := conv.add(recs[k-1]); err != nil {
					t.Fatal(err)
				}
			}
			pending := []Record{}
			if rng.IntN(2) == 0 {
				pending = append(pending, Record{Time: t0, Type: TypeUser, Text: texts[rng.IntN(len(texts))]})
			}
			opts := ChatRequest{Thinking: rng.IntN(2) == 0, MaxTokens: rng.IntN(3) * 100}
			if rng.IntN(3) == 0 {
				opts.Model, opts.NoTools, opts.JSONSchema = "other", true, schema
			}
			old := opts
			old.Messages, old.Tools = Messages(append(recs[:k:k], pending...))
			enc, err := conv.messages(k, pending...)
			if err != nil {
				t.Fatal(err)
			}
			cur := opts
			cur.encoded, cur.Tools = &enc, conv.tools
			for _, req := range []ChatRequest{old, cur} {
				if _, err := c.Chat(ctx, req, nil); err != nil {
					t.Fatal(err)
				}
			}
			// A prefix, as judgeCache asks the template for.
			p := rng.IntN(k) + 1
			oldP := ChatRequest{Thinking: opts.Thinking, Model: opts.Model}
			oldP.Messages, oldP.Tools = Messages(recs[:p])
			encP, err := conv.messages(p)
			if err != nil {
				t.Fatal(err)
			}
			curP := ChatRequest{Thinking: opts.Thinking, Model: opts.Model, encoded: &encP, Tools: conv.tools}
			for _, req := range []ChatRequest{oldP, curP} {
				if _, err := c.ApplyTemplate(ctx, req); err != nil {
					t.Fatal(err)
				}
			}
			got := bodies()
			if len(got) != 4 {
				t.Fatalf("%d requests", len(got))
			}
			for i := 0; i < 4; i += 2 {
				if !bytes.Equal(got[i], got[i+1]) {
					t.Fatalf("session %d, record %d: the bytes differ\nold: %s\nnew: %s", s, k, got[i], got[i+1])
				}
				compared++
			}
			views = append(views, enc)
			wantViews = append(wantViews, got[1])
		}
		// Appending after a request never changed the bytes it sent.
		for i, v := range views {
			var b bytes.Buffer
			for _, part := range v.array() {
				b.Write(part)
			}
			if !bytes.Contains(wantViews[i], b.Bytes()) {
				t.Fatalf("session %d: request %d's messages changed after later appends", s, i)
			}
		}
	}
	t.Logf("%d requests compared", compared)
}

// A turn's requests on the wire are the old encoding of the session's
// records at each request, through the engine: for every assistant
// record of the log, the request that asked for it holds the messages of
// the records before it.
func TestTurnRequestsAreTheRecordsMessages(t *testing.T) {
	c, bodies := capture(t)
	dir := t.TempDir()
	e := &Engine{SessionsDir: dir, Client: c}
	log, err := CreateLog(dir, "s")
	if err != nil {
		t.Fatal(err)
	}
	base := Record{Time: t0, Type: TypeBaseline, System: texts[1], Memory: texts[2], Tools: ToolDefinitions}
	if err := log.Append(&base); err != nil {
		t.Fatal(err)
	}
	for i := range 13 {
		if _, err := e.Turn(context.Background(), loopwire.TurnRequest{Session: "s", Text: fmt.Sprintf("turn %d <&> \u2028", i)}, func(loopwire.Event) error { return nil }); err != nil {
			t.Fatal(err)
		}
		if i == 5 {
			e.mu.Lock()
			e.recent = nil // as after a restart: the log read again
			e.mu.Unlock()
		}
	}
	got := bodies()
	_, recs, err := OpenLog(dir, "s")
	if err != nil {
		t.Fatal(err)
	}
	var want [][]byte
	for j, r := range recs {
		if r.Type != TypeAssistant {
			continue
		}
		msgs, tools := Messages(recs[:j])
		body := c.templateBody(ChatRequest{Messages: msgs, Tools: tools, MaxTokens: DefaultMaxTokens})
		body["stream"] = true
		body["stream_options"] = map[string]bool{"include_usage": true}
		body["cache_prompt"] = true
		body["max_tokens"] = DefaultMaxTokens
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, raw)
	}
	if len(got) != len(want) || len(want) != 13 {
		t.Fatalf("%d requests, %d assistant records", len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("request %d:\ngot  %s\nwant %s", i, got[i], want[i])
		}
	}
}
