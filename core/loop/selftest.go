package loop

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"boxmaker/runbook"
	"boxmaker/sanitize"
)

// Expect is what loopd's config says the model server is.
type Expect struct {
	ChatTemplateSHA256 string  // of /props chat_template
	NCtxPerSlot        int     // /props default_generation_settings.n_ctx
	Slots              int     // /props total_slots
	MinCacheReuse      float64 // of turn 1's prompt tokens, the share turn 2 must take from the cache
}

// The selftest's probe: a tool the model is asked to call, and what the
// tool answers. A scripted server (the stand-in) answers the probe by
// these texts, so they are part of the contract (docs/inference-contract.md).
const (
	ProbeSystem = "You are the selftest of an agent harness. Do exactly what the user asks."
	ProbePrompt = `probe: call the echo tool with the text "ok", and say nothing else.`
	ProbeResult = "probe: echo answered ok"
	ProbeTool   = "echo"
)

var probeTools = mustCompact(`[{"type":"function","function":{"name":"echo","description":"Answer the text given.","parameters":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}}]`)

// Selftest checks that the model server is the one the config describes:
// /props against Expect, the tag table through /tokenize, a tool call that
// comes back parsed, and a second turn that reuses the first one's cache.
type Selftest struct {
	Client *Client
	Expect Expect
	Out    io.Writer // progress lines ("selftest: tags tokenize as recorded")
}

// failed is the selftest's refusal: "selftest: FAILED: <reason>".
func failed(e runbook.Entry, format string, args ...any) error {
	return runbook.Refuse(e, "selftest: FAILED: "+format, args...)
}

// Run runs every check in order and stops at the first failure, returned
// as loopd-selftest-failed or loopd-tags-unexpected. Nil means ok.
func (s Selftest) Run(ctx context.Context) error {
	if err := s.props(ctx); err != nil {
		return err
	}
	if err := CheckTags(ctx, s.Client); err != nil {
		return err
	}
	fmt.Fprintln(s.Out, "selftest: tags tokenize as recorded")
	return s.probe(ctx)
}

func (s Selftest) props(ctx context.Context) error {
	p, err := s.Client.Props(ctx)
	if err != nil {
		return failed(runbook.LoopdSelftestFailed, "%v", err)
	}
	sum := sha256.Sum256([]byte(p.ChatTemplate))
	got := hex.EncodeToString(sum[:])
	if want := strings.ToLower(s.Expect.ChatTemplateSHA256); got != want {
		return failed(runbook.LoopdSelftestFailed, "chat template sha256: expected %s, got %s", orUnset(want), got)
	}
	if p.NCtx != s.Expect.NCtxPerSlot {
		return failed(runbook.LoopdSelftestFailed, "context per slot: expected %s, got %d", orUnsetInt(s.Expect.NCtxPerSlot), p.NCtx)
	}
	if p.TotalSlots != s.Expect.Slots {
		return failed(runbook.LoopdSelftestFailed, "slot count: expected %s, got %d", orUnsetInt(s.Expect.Slots), p.TotalSlots)
	}
	return nil
}

func orUnset(s string) string {
	if s == "" {
		return "(not set in [expect])"
	}
	return s
}

func orUnsetInt(n int) string {
	if n == 0 {
		return "(not set in [expect])"
	}
	return fmt.Sprint(n)
}

// CheckTags asks /tokenize about every tag of the compiled table, one per
// line, and then about all their neutralised forms: two requests, so the
// check fits in inferproxy's burst. Reasons name a tag by its id, never by
// its text, so the message itself holds no tag.
func CheckTags(ctx context.Context, c *Client) error {
	tags := sanitize.Tags()
	var raw, neutral []string
	for _, t := range tags {
		raw = append(raw, t.Text())
		neutral = append(neutral, sanitize.Neutralise(t.Text()))
	}
	ids, err := c.Tokenize(ctx, strings.Join(raw, "\n"))
	if err != nil {
		return failed(runbook.LoopdTagsUnexpected, "could not tokenize the tags: %v", err)
	}
	if id, ok := misplacedTag(tags, ids); ok {
		return failed(runbook.LoopdTagsUnexpected, "the tag with id %d does not tokenize as its recorded token", id)
	}
	ids, err = c.Tokenize(ctx, strings.Join(neutral, "\n"))
	if err != nil {
		return failed(runbook.LoopdTagsUnexpected, "could not tokenize the neutralised tags: %v", err)
	}
	if id, ok := anyTag(tags, ids); ok {
		return failed(runbook.LoopdTagsUnexpected, "a neutralised tag tokenizes to the tag with id %d", id)
	}
	return nil
}

// misplacedTag checks the tokens of all tags written one per line: the
// tag ids among them must be the table's, in its order, each once (what
// lies between, the newlines, may be any tokens). It reports the first
// tag that is not where it should be, or an extra tag id.
func misplacedTag(tags []sanitize.Tag, ids []int) (int, bool) {
	isTag := map[int]bool{}
	for _, t := range tags {
		isTag[t.TokenID] = true
	}
	var found []int
	for _, id := range ids {
		if isTag[id] {
			found = append(found, id)
		}
	}
	for i, t := range tags {
		if i >= len(found) || found[i] != t.TokenID {
			return t.TokenID, true
		}
	}
	if len(found) > len(tags) {
		return found[len(tags)], true
	}
	return 0, false
}

// anyTag reports the first tag id among ids.
func anyTag(tags []sanitize.Tag, ids []int) (int, bool) {
	isTag := map[int]bool{}
	for _, t := range tags {
		isTag[t.TokenID] = true
	}
	for _, id := range ids {
		if isTag[id] {
			return id, true
		}
	}
	return 0, false
}

// probe is the two-turn conversation: turn 1 must come back as a parsed
// call of the echo tool; turn 2, the same conversation plus that reply and
// the tool's answer (a strict extension of turn 1), must take at least
// MinCacheReuse of turn 1's prompt from the cache. Thinking is off, so the
// reply is exactly what the next prompt replays.
func (s Selftest) probe(ctx context.Context) error {
	msgs := []Message{{Role: "system", Content: ProbeSystem}, {Role: "user", Content: ProbePrompt}}
	r1, err := s.Client.Chat(ctx, ChatRequest{Messages: msgs, Tools: probeTools}, nil)
	if err != nil {
		return failed(runbook.LoopdSelftestFailed, "%v", err)
	}
	if len(r1.ToolCalls) == 0 {
		return failed(runbook.LoopdSelftestFailed, "the tool call did not come back parsed: the reply has no tool_calls (finish_reason %q, content %q)",
			r1.FinishReason, sanitize.Neutralise(clip(r1.Content, 120)))
	}
	call := r1.ToolCalls[0]
	var args map[string]any
	if call.Function.Name != ProbeTool {
		return failed(runbook.LoopdSelftestFailed, "the tool call did not come back parsed: it calls %q, not %q", sanitize.Neutralise(clip(call.Function.Name, 40)), ProbeTool)
	}
	if err := json.Unmarshal([]byte(call.Function.Arguments), &args); err != nil {
		return failed(runbook.LoopdSelftestFailed, "the tool call did not come back parsed: its arguments are not a JSON object: %v", err)
	}
	id := call.ID
	if id == "" {
		id = "probe-call"
	}
	msgs = append(msgs,
		Message{Role: "assistant", Content: r1.Content, ReasoningContent: r1.Reasoning,
			ToolCalls: []WireToolCall{{ID: id, Type: "function", Function: call.Function}}},
		Message{Role: "tool", Content: ProbeResult, ToolCallID: id})
	r2, err := s.Client.Chat(ctx, ChatRequest{Messages: msgs, Tools: probeTools}, nil)
	if err != nil {
		return failed(runbook.LoopdSelftestFailed, "%v", err)
	}
	prev := r1.Timings.PromptTokens()
	need := int(s.Expect.MinCacheReuse * float64(prev))
	if prev == 0 || r2.Timings.CacheN < need {
		return failed(runbook.LoopdSelftestFailed, "turn 2 did not reuse turn 1's cache: it took %d tokens from the cache, turn 1's prompt had %d (at least %d expected)",
			r2.Timings.CacheN, prev, need)
	}
	return nil
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
