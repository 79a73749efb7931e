package loop

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"boxmaker/core/llamastandin"
	"boxmaker/core/testsupport"
	"boxmaker/runbook"
	"boxmaker/sanitize"
)

// ProbeScript is what a scripted server needs to pass the selftest.
func probeScript() llamastandin.Script {
	return llamastandin.Script{Turns: []llamastandin.Turn{
		{When: ProbePrompt, ToolCalls: []llamastandin.ToolCall{{Name: ProbeTool, Arguments: json.RawMessage(`{"text":"ok"}`)}}},
		{When: ProbeResult, Content: "ok"},
	}}
}

// countingTemplate is the Qwen3.5 template with the number of user
// messages written first: tool rounds reuse the cache, user turns do not.
var countingTemplate = "{%- set users = namespace(n=0) %}{%- for m in messages %}{%- if m.role == 'user' %}{%- set users.n = users.n + 1 %}{%- endif %}{%- endfor %}" +
	"{{- 'Turn ' ~ users.n ~ '\\n' }}" + llamastandin.QwenTemplate

func templateSum(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestSelftest(t *testing.T) {
	good := Expect{ChatTemplateSHA256: templateSum(llamastandin.QwenTemplate), NCtxPerSlot: llamastandin.DefaultNCtx,
		Slots: llamastandin.DefaultSlots, MinCacheReuse: 0.9}
	tests := []struct {
		name   string
		expect func(*Expect)
		setup  func(*llamastandin.Server, *Client)
		entry  runbook.Entry
		want   string // the reason, after "selftest: FAILED: "
		tagsOK bool   // "tags tokenize as recorded" was printed
	}{
		{name: "ok", tagsOK: true},
		{name: "template changed", setup: func(s *llamastandin.Server, _ *Client) { s.SetTemplate("{{ other }}") },
			entry: runbook.LoopdSelftestFailed, want: "chat template sha256: expected " + good.ChatTemplateSHA256 + ", got " + templateSum("{{ other }}")},
		{name: "expectation not set", expect: func(e *Expect) { e.ChatTemplateSHA256 = "" },
			entry: runbook.LoopdSelftestFailed, want: "chat template sha256: expected (not set in [expect]), got " + good.ChatTemplateSHA256},
		{name: "context per slot", expect: func(e *Expect) { e.NCtxPerSlot = 32768 },
			entry: runbook.LoopdSelftestFailed, want: "context per slot: expected 32768, got 262144"},
		{name: "slot count", expect: func(e *Expect) { e.Slots = 4 },
			entry: runbook.LoopdSelftestFailed, want: "slot count: expected 4, got 2"},
		{name: "tool calls not parsed", setup: func(s *llamastandin.Server, _ *Client) { s.SetParseToolCalls(false) },
			entry: runbook.LoopdSelftestFailed, want: `the tool call did not come back parsed: the reply has no tool_calls (finish_reason "stop", content "&lt;tool_call&gt;`, tagsOK: true},
		{name: "a probe answered at length is cut at its max_tokens", setup: func(s *llamastandin.Server, _ *Client) {
			s.SetScript(llamastandin.Script{Turns: []llamastandin.Turn{{When: ProbePrompt, Raw: strings.Repeat("I will think about echo first. ", 200)}}})
		}, entry: runbook.LoopdSelftestFailed, want: `probe turn 1 was cut off at max_tokens 256 (finish_reason "length"): the model did not give the short answer the probe asks for (content "I will think`, tagsOK: true},
		{name: "a reply to the tool's answer that runs on is cut too", setup: func(s *llamastandin.Server, _ *Client) {
			s.SetScript(llamastandin.Script{Turns: []llamastandin.Turn{probeScript().Turns[0], {When: ProbeResult, Content: strings.Repeat("ok ", 300)}}})
		}, entry: runbook.LoopdSelftestFailed, want: `probe turn 2 was cut off at max_tokens 256`, tagsOK: true},
		{name: "cache not reused", setup: func(s *llamastandin.Server, _ *Client) { s.SetCacheDisabled(true) },
			entry: runbook.LoopdSelftestFailed, want: "turn 2 did not reuse turn 1's cache: it took 0 tokens from the cache, turn 1's prompt had ", tagsOK: true},
		{name: "stall", setup: func(s *llamastandin.Server, c *Client) {
			s.SetStall(llamastandin.StallNever, 0)
			c.Timeout = 300 * time.Millisecond
		}, entry: runbook.LoopdSelftestFailed, want: "GET /props: no answer within 300ms"},
		{name: "fail mid-stream", setup: func(s *llamastandin.Server, _ *Client) { s.SetFailAfter(1) },
			entry: runbook.LoopdSelftestFailed, want: "the server failed mid-stream: standin: switched to fail in the middle of the stream", tagsOK: true},
		{name: "HTTP error", setup: func(s *llamastandin.Server, _ *Client) { s.SetNotFound("/props") },
			entry: runbook.LoopdSelftestFailed, want: "GET /props answered HTTP 404: File Not Found"},
		{name: "wrong model name behind a router", setup: func(s *llamastandin.Server, c *Client) {
			router := true
			s.Set(llamastandin.Switch{Router: &router})
			c.Model = "other-model"
		}, entry: runbook.LoopdSelftestFailed, want: "GET /props answered HTTP 400: model 'other-model' not found"},
		{name: "every [expect] value that differs, at once", expect: func(e *Expect) { *e = Expect{MinCacheReuse: 0.9} },
			entry: runbook.LoopdSelftestFailed, want: "chat template sha256: expected (not set in [expect]), got " + good.ChatTemplateSHA256 +
				"; context per slot: expected (not set in [expect]), got 262144; slot count: expected (not set in [expect]), got 2"},
		{name: "a template that renders turn 1 anew at each user turn", setup: func(s *llamastandin.Server, _ *Client) {
			s.SetTemplate(countingTemplate)
		}, expect: func(e *Expect) { e.ChatTemplateSHA256 = templateSum(countingTemplate) },
			entry: runbook.LoopdSelftestFailed, want: "a user turn after a reply did not reuse turn 1's prompt: it took 0 tokens from the cache, turn 1's prompt had ", tagsOK: true},
		{name: "a tag with another id (another model file)", setup: func(s *llamastandin.Server, _ *Client) {
			if err := s.MoveTag("<|im_end|>", 151645); err != nil {
				t.Fatal(err)
			}
		}, entry: runbook.LoopdTagsUnexpected, want: "the tag with id 248046 does not tokenize as its recorded token"},
		{name: "a tag moved onto another tag's id", setup: func(s *llamastandin.Server, _ *Client) {
			if err := s.MoveTag("</think>", 248068); err != nil {
				t.Fatal(err)
			}
		}, entry: runbook.LoopdTagsUnexpected, want: "the tag with id 248069 does not tokenize as its recorded token"},
		{name: "a tokenizer that reads escaped tags", setup: func(s *llamastandin.Server, _ *Client) { s.SetReadEscapedTags(true) },
			entry: runbook.LoopdTagsUnexpected, want: "a neutralised tag tokenizes to the tag with id 248044"},
		{name: "a router that does not pass /tokenize", setup: func(s *llamastandin.Server, _ *Client) { s.SetNotFound("/tokenize") },
			entry: runbook.LoopdTagsUnexpected, want: "could not tokenize the tags: POST /tokenize answered HTTP 404: File Not Found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, client := startModel(t, testsupport.ShortDir(t), llamastandin.Options{Script: probeScript()})
			e := good
			if tt.expect != nil {
				tt.expect(&e)
			}
			if tt.setup != nil {
				tt.setup(srv, client)
			}
			out := &testsupport.Buffer{}
			err := Selftest{Client: client, Expect: e, Out: out}.Run(context.Background())
			if tt.want == "" {
				if err != nil {
					t.Fatalf("selftest: %v", err)
				}
			} else {
				entry, _ := runbook.EntryOf(err)
				if err == nil || entry != tt.entry || !strings.HasPrefix(err.Error(), "selftest: FAILED: "+tt.want) ||
					!strings.HasSuffix(err.Error(), "; "+runbook.Link(tt.entry)) {
					t.Fatalf("got  %v\nwant selftest: FAILED: %s...; %s", err, tt.want, runbook.Link(tt.entry))
				}
				if n := len(srv.Chats()); tt.entry == runbook.LoopdTagsUnexpected && n != 0 {
					t.Errorf("the server whose tags are not as recorded was sent %d prompts", n)
				}
			}
			if got := strings.Contains(out.String(), "selftest: tags tokenize as recorded\n"); got != tt.tagsOK {
				t.Errorf("tags line printed: %v, want %v (%q)", got, tt.tagsOK, out)
			}
		})
	}
}

// TestCheckTagsTwoRequests: the tag check is two /tokenize requests, all
// tags one per line, then all neutralised forms; a server that cannot
// tokenize fails it with loopd-tags-unexpected.
func TestCheckTagsTwoRequests(t *testing.T) {
	srv, client := startModel(t, testsupport.ShortDir(t), llamastandin.Options{})
	if err := CheckTags(context.Background(), client); err != nil {
		t.Fatal(err)
	}
	var tok []llamastandin.Call
	for _, c := range srv.Calls() {
		if c.Path == "/tokenize" {
			tok = append(tok, c)
		}
	}
	if len(tok) != 2 {
		t.Fatalf("%d /tokenize requests, want 2", len(tok))
	}
	var first, second struct{ Content string }
	json.Unmarshal(tok[0].Body, &first)
	json.Unmarshal(tok[1].Body, &second)
	if n := strings.Count(first.Content, "\n") + 1; n != len(llamastandin.Tags()) || !strings.HasPrefix(first.Content, "<|endoftext|>\n<|im_start|>\n") {
		t.Errorf("first request: %d lines: %q", n, first.Content)
	}
	if strings.Contains(second.Content, "<") || !strings.HasPrefix(second.Content, "&lt;|endoftext|&gt;\n") {
		t.Errorf("second request %q", second.Content)
	}
	srv.SetLoading(true)
	err := CheckTags(context.Background(), client)
	if e, _ := runbook.EntryOf(err); e != runbook.LoopdTagsUnexpected ||
		err.Error() != "selftest: FAILED: could not tokenize the tags: POST /tokenize answered HTTP 503: Loading model; "+runbook.Link(runbook.LoopdTagsUnexpected) {
		t.Errorf("got %v", err)
	}
}

// TestTagChecks runs the comparisons of the tag check on token lists a
// tokenizer could give, including those the stand-in's switches do not
// produce (a tag split into plain tokens, two tags swapped, a tag twice);
// TestSelftest runs the two reasons through the stand-in. Newlines are
// token 198, as in Qwen's vocabulary.
func TestTagChecks(t *testing.T) {
	tags := sanitize.Tags()
	all := func(edit func([]int) []int) []int {
		var ids []int
		for i, tag := range tags {
			if i > 0 {
				ids = append(ids, 198)
			}
			ids = append(ids, tag.TokenID)
		}
		return edit(ids)
	}
	same := func(ids []int) []int { return ids }
	imEnd := tags[2].TokenID // 248046
	tests := []struct {
		name   string
		ids    []int
		wantID int
		bad    bool
	}{
		{"every tag as recorded", all(same), 0, false},
		{"newlines merged into other tokens", all(func(ids []int) []int {
			return append([]int{1, 2, 3}, append(ids, 4)...)
		}), 0, false},
		{"a tag split into plain tokens", all(func(ids []int) []int {
			out := []int{}
			for _, id := range ids {
				if id == imEnd {
					out = append(out, 27, 91, 318, 6213, 91, 29) // <|im_end|> as text
					continue
				}
				out = append(out, id)
			}
			return out
		}), imEnd, true},
		{"a tag with another id", all(func(ids []int) []int {
			for i, id := range ids {
				if id == imEnd {
					ids[i] = 151645 // Qwen3's id: another tokenizer
				}
			}
			return ids
		}), imEnd, true},
		{"two tags swapped", all(func(ids []int) []int {
			ids[0], ids[2] = ids[2], ids[0]
			return ids
		}), tags[0].TokenID, true},
		{"a tag twice", all(func(ids []int) []int { return append(ids, 198, imEnd) }), imEnd, true},
		{"nothing", nil, tags[0].TokenID, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, bad := misplacedTag(tags, tt.ids)
			if id != tt.wantID || bad != tt.bad {
				t.Errorf("got %d %v, want %d %v", id, bad, tt.wantID, tt.bad)
			}
		})
	}
	if id, bad := anyTag(tags, []int{38, 4259, 26, 91, 318, 6213, 91, 5, 70, 26}); bad {
		t.Errorf("plain tokens reported as the tag %d", id)
	}
	if id, bad := anyTag(tags, []int{38, 4259, imEnd, 198}); !bad || id != imEnd {
		t.Errorf("a neutralised form read as a tag: got %d %v", id, bad)
	}
}
