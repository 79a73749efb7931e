package loop

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"boxmaker/core/clock"
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
	// ProbeFollowUp is the probe's third request: a user turn after the
	// reply to the tool's answer. It begins with ProbeResult, so a
	// script's turn for ProbeResult answers it too.
	ProbeFollowUp = ProbeResult + "; now say ok once more."
)

// ProbeMaxTokens is each probe request's max_tokens. The answers the
// probe expects are short: turn 1 a call of echo (23 tokens in Qwen3.5's
// XML form on the real server, under 80 on the stand-in's byte-level
// tokenizer), turns 2 and 3 a word or another such call. 256 is room for
// a model that writes a sentence before the call, and bounds what a model
// whose answer goes wrong generates, and how long it holds the slot,
// before the selftest can say so: without it the real server generates
// until the slot's context is full (docs/inference-contract.md).
const ProbeMaxTokens = 256

var probeTools = mustCompact(`[{"type":"function","function":{"name":"echo","description":"Answer the text given.","parameters":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}}}]`)

// Selftest checks that the model server is the one the config describes:
// /props against Expect, the tag table through /tokenize, a tool call that
// comes back parsed, and a second turn that reuses the first one's cache.
type Selftest struct {
	Client *Client
	Expect Expect
	Out    io.Writer // progress lines ("selftest: tags tokenize as recorded")
	// StartWait is how long the first request may wait for a server that
	// is loading its model or not yet listening (DefaultStartWait when 0);
	// Now and Sleep are the clock (time.Now and clock.Sleep when nil).
	StartWait time.Duration
	Now       func() time.Time
	Sleep     func(context.Context, time.Duration) error
}

// DefaultStartWait is [inference] start_wait_ms's default: a large model
// can take a minute or more to load.
const DefaultStartWait = 2 * time.Minute

// waitLineEvery is how often the wait says what it waits for.
const waitLineEvery = 10 * time.Second

// failed is the selftest's refusal: "selftest: FAILED: <reason>".
func failed(e runbook.Entry, format string, args ...any) error {
	return runbook.Refuse(e, "selftest: FAILED: "+format, args...)
}

// Run runs every check in order and stops at the first failure, returned
// as loopd-selftest-failed or loopd-tags-unexpected. Nil means ok.
func (s Selftest) Run(ctx context.Context) error {
	p, err := s.waitProps(ctx)
	if err != nil {
		return failed(runbook.LoopdSelftestFailed, "%v", err)
	}
	if err := s.Expect.check(p); err != nil {
		return err
	}
	return s.rest(ctx)
}

// rest is every check after /props.
func (s Selftest) rest(ctx context.Context) error {
	if err := CheckTags(ctx, s.Client); err != nil {
		return err
	}
	fmt.Fprintln(s.Out, "selftest: tags tokenize as recorded")
	return s.probe(ctx)
}

// TemplateSHA256 is the hex sha256 of a chat template, as [expect]
// chat_template_sha256 holds it.
func TemplateSHA256(template string) string {
	sum := sha256.Sum256([]byte(template))
	return hex.EncodeToString(sum[:])
}

// check compares /props with [expect] and reports every value that
// differs, in one reason, so that one run says all that must change.
func (x Expect) check(p Props) error {
	if diffs := x.Differences(p); len(diffs) > 0 {
		return failed(runbook.LoopdSelftestFailed, "%s", strings.Join(diffs, "; "))
	}
	return nil
}

// Differences lists each value of /props that is not what x says, in the
// selftest's words: bxctl doctor reports them as the selftest would.
func (x Expect) Differences(p Props) []string {
	var diffs []string
	if got, want := TemplateSHA256(p.ChatTemplate), strings.ToLower(x.ChatTemplateSHA256); got != want {
		diffs = append(diffs, fmt.Sprintf("chat template sha256: expected %s, got %s", orUnset(want), got))
	}
	if p.NCtx != x.NCtxPerSlot {
		diffs = append(diffs, fmt.Sprintf("context per slot: expected %s, got %d", orUnsetInt(x.NCtxPerSlot), p.NCtx))
	}
	if p.TotalSlots != x.Slots {
		diffs = append(diffs, fmt.Sprintf("slot count: expected %s, got %d", orUnsetInt(x.Slots), p.TotalSlots))
	}
	return diffs
}

// PrintExpect measures the server, runs the rest of the selftest with
// what it measured, and returns the [expect] section the server passes,
// ready to paste into loopd.toml: the three values of /props and the
// configured min_cache_reuse, with a comment naming the server, its
// build and the time. It fails as Run fails when a check after /props
// does.
func (s Selftest) PrintExpect(ctx context.Context) (string, error) {
	p, err := s.waitProps(ctx)
	if err != nil {
		return "", failed(runbook.LoopdSelftestFailed, "%v", err)
	}
	s.Expect.ChatTemplateSHA256 = TemplateSHA256(p.ChatTemplate)
	s.Expect.NCtxPerSlot, s.Expect.Slots = p.NCtx, p.TotalSlots
	if err := s.rest(ctx); err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[expect]\n")
	fmt.Fprintf(&b, "# Measured by loopd selftest --print-expect at %s\n", s.now().UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "# through %s: model %q, model_path %q, build_info %q.\n",
		s.Client.Socket, s.Client.Model, sanitize.Neutralise(clip(p.ModelPath, 200)), sanitize.Neutralise(clip(p.BuildInfo, 80)))
	fmt.Fprintf(&b, "chat_template_sha256 = %q\n", s.Expect.ChatTemplateSHA256)
	fmt.Fprintf(&b, "n_ctx_per_slot = %d\n", s.Expect.NCtxPerSlot)
	fmt.Fprintf(&b, "slots = %d\n", s.Expect.Slots)
	fmt.Fprintf(&b, "min_cache_reuse = %s\n", strconv.FormatFloat(s.Expect.MinCacheReuse, 'g', -1, 64))
	return b.String(), nil
}

func (s Selftest) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s Selftest) sleep(ctx context.Context, d time.Duration) error {
	if s.Sleep != nil {
		return s.Sleep(ctx, d)
	}
	return clock.Sleep(ctx, d)
}

// waitProps reads /props, waiting while the server is loading its model
// (503 "Loading model") or not yet there (inferproxy's socket missing or
// refusing, or inferproxy answering that the model server refuses
// connections), for at most StartWait, with a line every 10 s saying what
// it waits for. Any other failure, or the last one when the wait is over,
// is returned.
func (s Selftest) waitProps(ctx context.Context) (Props, error) {
	limit := s.StartWait
	if limit <= 0 {
		limit = DefaultStartWait
	}
	began := s.now()
	nextLine := waitLineEvery
	for {
		p, err := s.Client.Props(ctx)
		what, ok := startingUp(err)
		if err == nil || !ok {
			return p, err
		}
		waited := s.now().Sub(began)
		if waited >= limit {
			return p, fmt.Errorf("%w (waited %s for the model server to start)", err, limit.Round(time.Second))
		}
		if waited >= nextLine {
			fmt.Fprintf(s.Out, "selftest: waiting for the model server: %s (%s of at most %s)\n", what, waited.Round(time.Second), limit.Round(time.Second))
			nextLine += waitLineEvery
		}
		if err := s.sleep(ctx, min(250*time.Millisecond, limit-waited)); err != nil {
			return p, err
		}
	}
}

// startingUp says whether err is a server that is still starting: what
// it waits for, and true.
func startingUp(err error) (string, bool) {
	var he *HTTPError
	switch {
	case err == nil:
		return "", false
	case errors.As(err, &he) && he.Status == http.StatusServiceUnavailable && strings.Contains(he.Message, "Loading model"):
		return "it is loading the model (503 Loading model)", true
	case errors.As(err, &he) && he.Status == http.StatusBadGateway && strings.Contains(he.Message, "connection refused"):
		return "inferproxy cannot connect to it yet (connection refused)", true
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ENOENT):
		return "inferproxy's socket does not answer yet", true
	}
	return "", false
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

// probe is the three-request conversation: turn 1 must come back as a
// parsed call of the echo tool; turn 2, the same conversation plus that
// reply and the tool's answer (a strict extension of turn 1), must take at
// least MinCacheReuse of turn 1's prompt from the cache; turn 3, turn 2
// plus its reply and a new user message (ProbeFollowUp), must take at
// least as much. Thinking is off, so a reply is exactly what the next
// prompt replays. No request sends tool_choice: the real server's
// "required" does not force a call (docs/inference-contract.md).
func (s Selftest) probe(ctx context.Context) error {
	msgs := []Message{{Role: "system", Content: ProbeSystem}, {Role: "user", Content: ProbePrompt}}
	r1, err := s.chat(ctx, 1, msgs)
	if err != nil {
		return err
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
	r2, err := s.chat(ctx, 2, msgs)
	if err != nil {
		return err
	}
	prev := r1.Timings.PromptTokens()
	need := int(s.Expect.MinCacheReuse * float64(prev))
	if prev == 0 || r2.Timings.CacheN < need {
		return failed(runbook.LoopdSelftestFailed, "turn 2 did not reuse turn 1's cache: it took %d tokens from the cache, turn 1's prompt had %d (at least %d expected)",
			r2.Timings.CacheN, prev, need)
	}
	// Turn 3: a user turn after the reply. A template may render the
	// turns before a new user message differently (Qwen3.5's drops their
	// think blocks, so the reuse ends where turn 1's reply begins), but
	// turn 1's prompt (the system prompt, the tools, the first message)
	// must be reused: a template that renders it anew at every user turn
	// (a date, a turn count) would make every turn evaluate the whole
	// conversation again.
	// The reply is replayed as it came; calls it made get the tool's
	// answer, as a turn of loopd would give them.
	reply := Message{Role: "assistant", Content: r2.Content, ReasoningContent: r2.Reasoning}
	var answers []Message
	for i, c := range r2.ToolCalls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("probe-call-%d", i+2)
		}
		if !IsObject(c.Function.Arguments) {
			c.Function.Arguments = "{}"
		}
		reply.ToolCalls = append(reply.ToolCalls, WireToolCall{ID: id, Type: "function", Function: c.Function})
		answers = append(answers, Message{Role: "tool", Content: ProbeResult, ToolCallID: id})
	}
	msgs = append(append(append(msgs, reply), answers...), Message{Role: "user", Content: ProbeFollowUp})
	r3, err := s.chat(ctx, 3, msgs)
	if err != nil {
		return err
	}
	if r3.Timings.CacheN < need {
		return failed(runbook.LoopdSelftestFailed, "a user turn after a reply did not reuse turn 1's prompt: it took %d tokens from the cache, turn 1's prompt had %d (at least %d expected)",
			r3.Timings.CacheN, prev, need)
	}
	return nil
}

// chat sends probe turn n, bounded by ProbeMaxTokens. A reply cut at the
// bound (finish_reason "length") fails: it is not the short answer the
// probe asked for, and what it holds is not a whole answer to judge.
func (s Selftest) chat(ctx context.Context, n int, msgs []Message) (Reply, error) {
	r, err := s.Client.Chat(ctx, ChatRequest{Messages: msgs, Tools: probeTools, MaxTokens: ProbeMaxTokens}, nil)
	if err != nil {
		return Reply{}, failed(runbook.LoopdSelftestFailed, "%v", err)
	}
	if r.FinishReason == "length" {
		return Reply{}, failed(runbook.LoopdSelftestFailed, "probe turn %d was cut off at max_tokens %d (finish_reason \"length\"): the model did not give the short answer the probe asks for (content %q)",
			n, ProbeMaxTokens, sanitize.Neutralise(clip(r.Content, 120)))
	}
	return r, nil
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
