package llamastandin

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// ChatRequest is the part of a /v1/chat/completions body the stand-in
// reads; other fields (sampling settings) are accepted and ignored.
type ChatRequest struct {
	Model         string     `json:"model,omitempty"`
	Messages      []Message  `json:"messages"`
	Tools         []ToolJSON `json:"tools,omitempty"`
	Stream        bool       `json:"stream,omitempty"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage,omitempty"`
	} `json:"stream_options,omitzero"`
	MaxTokens           *int `json:"max_tokens,omitempty"`
	MaxCompletionTokens *int `json:"max_completion_tokens,omitempty"`
	NPredict            *int `json:"n_predict,omitempty"`
	// ToolChoice is read and ignored: "required" does not force a call on
	// the real server either (its grammar lets any text come first).
	ToolChoice         json.RawMessage `json:"tool_choice,omitempty"`
	IDSlot             *int            `json:"id_slot,omitempty"`
	CachePrompt        *bool           `json:"cache_prompt,omitempty"`
	ChatTemplateKwargs map[string]any  `json:"chat_template_kwargs,omitempty"`
	ParseToolCalls     *bool           `json:"parse_tool_calls,omitempty"`
}

// thinking is chat_template_kwargs.enable_thinking, true by default as in
// Qwen's templates.
func (r ChatRequest) thinking() bool {
	if v, ok := r.ChatTemplateKwargs["enable_thinking"].(bool); ok {
		return v
	}
	return true
}

func (r ChatRequest) maxTokens() int {
	for _, p := range []*int{r.MaxTokens, r.MaxCompletionTokens, r.NPredict} {
		if p != nil && *p > 0 {
			return *p
		}
	}
	return 0
}

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	var req ChatRequest
	body, _ := r.Context().Value(bodyKey{}).([]byte)
	if !decodeBody(w, r, &req) {
		return
	}
	st := s.snapshot()
	if st.router && !s.checkModel(w, firstNonEmpty(r.URL.Query().Get("model"), req.Model)) {
		return
	}
	if s.opts.RequireMaxTokens && (req.MaxTokens == nil || *req.MaxTokens <= 0) {
		s.refuseUnbounded(w, r, req, body)
		return
	}
	if len(req.Messages) == 0 {
		writeError(w, 400, "Unable to generate parser for this template. Automatic parser generation failed: No messages provided.", "invalid_request_error")
		return
	}
	thinking := req.thinking()
	prompt, err := renderTemplate(st.template, body, true)
	var argErr errArguments
	switch {
	case errors.As(err, &argErr):
		writeError(w, 500, argErr.Error(), "server_error")
		return
	case err != nil:
		writeError(w, 400, err.Error(), "invalid_request_error")
		return
	}
	ids := st.vocab.tokenize(prompt, true)
	if len(ids) > s.opts.NCtx {
		writeJSON(w, 400, map[string]any{"error": map[string]any{
			"code": 400, "message": fmt.Sprintf("request (%d tokens) exceeds the available context size (%d tokens), try increasing it", len(ids), s.opts.NCtx),
			"type": "exceed_context_size_error", "n_prompt_tokens": len(ids), "n_ctx": s.opts.NCtx}})
		return
	}
	turn, ok := s.pickTurn(req.Messages)
	if !ok {
		last := string(req.Messages[len(req.Messages)-1].Content)
		if len(last) > 80 {
			last = last[:80] + "..."
		}
		writeError(w, 500, fmt.Sprintf("standin: the script has no reply left for this request (last message %q)", last), "server_error")
		return
	}
	text, err := turn.generatedText(st.template, body, prompt, thinking)
	if err != nil {
		writeError(w, 500, "standin: the script's turn is invalid: "+err.Error(), "server_error")
		return
	}
	gen := st.vocab.tokenize(text, true)
	finish := "stop"
	predicted := len(gen) + 1 // the end-of-generation token counts as decoded
	// Generation stops at max_tokens, or when the slot's context is full.
	limit := s.opts.NCtx - len(ids)
	if mt := req.maxTokens(); mt > 0 && mt < limit {
		limit = mt
	}
	if predicted > limit {
		gen, finish, predicted = gen[:max(limit, 0)], "length", max(limit, 0)
		text = st.vocab.detokenize(gen)
	}
	parseTools := st.parseToolCalls && (req.ParseToolCalls == nil || *req.ParseToolCalls)
	reply, perr := parseGenerated(text, thinking, toolParamTypes(req.Tools), parseTools, finish == "length")
	if perr != nil && st.unparsable == UnparsableContent {
		reply, perr = parseGenerated(text, thinking, nil, false, false)
	}
	if len(reply.ToolCalls) > 0 && finish == "stop" {
		finish = "tool_calls"
	}

	sl, _, cacheN, err := s.acquire(r.Context(), req, ids)
	if err != nil {
		return // the client left or the server is closing
	}
	promptN := len(ids) - cacheN
	for i := range reply.ToolCalls {
		reply.ToolCalls[i].ID = randomID(32)
	}
	res := result{
		id: "chatcmpl-" + randomID(32), reply: reply, finish: finish,
		usage: map[string]any{"completion_tokens": predicted, "prompt_tokens": len(ids), "total_tokens": len(ids) + predicted,
			"prompt_tokens_details": map[string]any{"cached_tokens": cacheN}},
		timings: timings(cacheN, promptN, predicted),
	}
	if perr != nil {
		res.fail = perr.Error()
	} else if st.failAfter >= 0 {
		res.fail = "standin: switched to fail chat completions"
	}
	completed := false
	switch {
	case req.Stream:
		completed = s.stream(w, r.Context(), st, res, req.StreamOptions.IncludeUsage)
	case res.fail != "":
		if !sleepCtx(r.Context(), s.closing, st.errorSilence) {
			break
		}
		writeError(w, 500, res.fail, "server_error")
	default:
		completed = true
		writeJSON(w, 200, s.completion(res))
	}

	s.mu.Lock()
	if completed {
		sl.cache = append(append(make([]int, 0, len(ids)+len(gen)), ids...), gen...)
	} else {
		sl.cache = ids
	}
	sl.processing = false
	sl.decoded = predicted
	sl.served = true
	s.useClock++
	sl.lastUsed = s.useClock
	chat := Chat{
		Query: r.URL.Query(), Body: body, Request: req, Prompt: prompt, PromptTokens: len(ids),
		Slot: sl.id, CacheN: cacheN, PromptN: promptN, PredictedN: predicted, Reply: turn, Stream: req.Stream,
		Generated: text, Finish: finish,
	}
	s.chats = append(s.chats, chat)
	s.idle.Broadcast()
	s.mu.Unlock()
	if s.opts.OnChat != nil {
		s.opts.OnChat(chat)
	}
}

// NoMaxTokens is the test mode's refusal of a chat request without
// max_tokens (Options.RequireMaxTokens).
const NoMaxTokens = "standin test mode (--require-max-tokens): the request has no max_tokens; llama-server itself would take it and generate until the slot's context is full"

// refuseUnbounded answers a request without max_tokens in the test mode:
// 400, logged as refused.
func (s *Server) refuseUnbounded(w http.ResponseWriter, r *http.Request, req ChatRequest, body []byte) {
	chat := Chat{Query: r.URL.Query(), Body: body, Request: req, Slot: -1, Stream: req.Stream, Refused: NoMaxTokens}
	s.mu.Lock()
	s.chats = append(s.chats, chat)
	s.mu.Unlock()
	if s.opts.OnChat != nil {
		s.opts.OnChat(chat)
	}
	writeError(w, 400, NoMaxTokens, "invalid_request_error")
}

// randomID is n random letters and digits, as llama-server's ids are.
func randomID(n int) string {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	rand.Read(b)
	for i := range b {
		b[i] = alnum[int(b[i])%len(alnum)]
	}
	return string(b)
}

// pickTurn chooses the script's reply for a conversation.
func (s *Server) pickTurn(messages []Message) (Turn, bool) {
	last := messages[len(messages)-1]
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.when {
		if a, ok := t.answers(last); ok {
			return a, true
		}
	}
	if len(s.queue) == 0 {
		return Turn{}, false
	}
	t := s.queue[0]
	s.queue = s.queue[1:]
	return t, true
}

// acquire waits for a slot and takes it: id_slot's, else the idle slot
// whose cache shares the most with the prompt (at least a tenth of it),
// else the idle slot used least recently.
func (s *Server) acquire(ctx context.Context, req ChatRequest, ids []int) (*slot, int, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	stop := context.AfterFunc(ctx, func() {
		s.mu.Lock()
		s.idle.Broadcast()
		s.mu.Unlock()
	})
	defer stop()
	for {
		if ctx.Err() != nil {
			return nil, 0, 0, ctx.Err()
		}
		select {
		case <-s.closing:
			return nil, 0, 0, errors.New("closing")
		default:
		}
		if sl, displaced := s.choose(req, ids); sl != nil {
			if displaced && !s.opts.NoPromptCache {
				s.swapPrompt(sl, ids)
			}
			cacheN := 0
			if (req.CachePrompt == nil || *req.CachePrompt) && !s.sw.cacheDisabled {
				cacheN = commonPrefix(sl.cache, ids)
				if cacheN == len(ids) && cacheN > 0 {
					cacheN-- // at least one token is evaluated to produce the next
				}
			}
			s.nextID++
			sl.processing, sl.task, sl.decoded = true, s.nextID, 0
			return sl, s.nextID, cacheN, nil
		}
		s.idle.Wait()
	}
}

// choose picks the slot for a request as llama-server's
// get_available_slot does, and reports whether the slot's prompt is to
// be displaced (the prompt cache then keeps it): a slot taken as the
// least recently used, or for its common prefix when that keeps less than
// half of what it holds.
func (s *Server) choose(req ChatRequest, ids []int) (*slot, bool) {
	displaces := func(sl *slot, n int) bool { return len(sl.cache) > 0 && float64(n)/float64(len(sl.cache)) < 0.5 }
	if req.IDSlot != nil && *req.IDSlot >= 0 {
		// A slot id past the slots is taken modulo their number, as the
		// real server takes it.
		if sl := s.slots[*req.IDSlot%len(s.slots)]; !sl.processing {
			n := commonPrefix(sl.cache, ids)
			return sl, len(ids) > 0 && float64(n)/float64(len(ids)) > 0.1 && displaces(sl, n)
		}
		return nil, false
	}
	var best, lru *slot
	bestN := 0
	for _, sl := range s.slots {
		if sl.processing {
			continue
		}
		if n := commonPrefix(sl.cache, ids); n > bestN && len(ids) > 0 && float64(n)/float64(len(ids)) >= 0.1 {
			best, bestN = sl, n
		}
		if lru == nil || sl.lastUsed < lru.lastUsed {
			lru = sl
		}
	}
	if best != nil {
		return best, displaces(best, bestN)
	}
	return lru, lru != nil
}

type result struct {
	id      string
	reply   parsedReply
	finish  string
	usage   map[string]any
	timings map[string]any
	fail    string // the request fails with this message after its content
}

// timings are computed from the counts at a fixed pace (0.1 ms a prompt
// token, 10 ms a predicted one); the stand-in does no real work to time.
func timings(cacheN, promptN, predicted int) map[string]any {
	return map[string]any{
		"cache_n":                cacheN,
		"prompt_n":               promptN,
		"prompt_ms":              float64(promptN) * 0.1,
		"prompt_per_token_ms":    0.1,
		"prompt_per_second":      10000.0,
		"predicted_n":            predicted,
		"predicted_ms":           float64(predicted) * 10,
		"predicted_per_token_ms": 10.0,
		"predicted_per_second":   100.0,
	}
}

func (s *Server) envelope(id, object string) map[string]any {
	return map[string]any{
		"created":            time.Now().Unix(),
		"id":                 id,
		"model":              s.opts.Model,
		"system_fingerprint": "b0-standin",
		"object":             object,
	}
}

func (s *Server) completion(res result) map[string]any {
	msg := map[string]any{"role": "assistant", "content": res.reply.Content}
	if res.reply.Reasoning != "" {
		msg["reasoning_content"] = res.reply.Reasoning
	}
	if len(res.reply.ToolCalls) > 0 {
		calls := make([]map[string]any, len(res.reply.ToolCalls))
		for i, tc := range res.reply.ToolCalls {
			calls[i] = map[string]any{"type": "function", "id": tc.ID,
				"function": map[string]any{"name": tc.Function.Name, "arguments": tc.Function.Arguments}}
		}
		msg["tool_calls"] = calls
	}
	out := s.envelope(res.id, "chat.completion")
	out["choices"] = []any{map[string]any{"finish_reason": res.finish, "index": 0, "message": msg}}
	out["usage"] = res.usage
	out["timings"] = res.timings
	return out
}

// stream writes the answer as server-sent events, one delta a chunk,
// flushing each, as llama-server does: a first delta with the role, the
// reasoning and content pieces, each tool call's pieces (the first with
// its id, type, name and the first piece of the arguments), the finish
// chunk, and, with include_usage, a last chunk with empty choices that
// carries usage and timings (else timings ride on the finish chunk). A
// failure is data: {"error":...} after what came before, and no [DONE].
// It reports whether the answer was completed.
func (s *Server) stream(w http.ResponseWriter, ctx context.Context, st state, res result, includeUsage bool) bool {
	deltas := []map[string]any{{"role": "assistant", "content": nil}}
	for _, p := range pieces(res.reply.Reasoning) {
		deltas = append(deltas, map[string]any{"reasoning_content": p})
	}
	for _, p := range pieces(res.reply.Content) {
		deltas = append(deltas, map[string]any{"content": p})
	}
	if res.fail == "" {
		for i, tc := range res.reply.ToolCalls {
			args := argumentPieces(tc.Function.Arguments)
			deltas = append(deltas, map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "id": tc.ID, "type": "function",
				"function": map[string]any{"name": tc.Function.Name, "arguments": args[0]}}}})
			for _, p := range args[1:] {
				deltas = append(deltas, map[string]any{"tool_calls": []any{map[string]any{
					"index": i, "function": map[string]any{"arguments": p}}}})
			}
		}
	}
	var chunks [][]byte
	for _, d := range deltas {
		c := s.envelope(res.id, "chat.completion.chunk")
		c["choices"] = []any{map[string]any{"finish_reason": nil, "index": 0, "delta": d}}
		data, _ := marshal(c)
		chunks = append(chunks, data)
	}
	final := s.envelope(res.id, "chat.completion.chunk")
	final["choices"] = []any{map[string]any{"finish_reason": res.finish, "index": 0, "delta": map[string]any{}}}
	if !includeUsage {
		final["timings"] = res.timings
	}
	data, _ := marshal(final)
	finishAt := len(chunks)
	chunks = append(chunks, data)
	if includeUsage {
		u := s.envelope(res.id, "chat.completion.chunk")
		u["choices"] = []any{}
		u["usage"] = res.usage
		u["timings"] = res.timings
		data, _ := marshal(u)
		chunks = append(chunks, data)
	}

	flusher, _ := w.(http.Flusher)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(200)
	if flusher != nil {
		flusher.Flush()
	}
	send := func(data []byte) bool {
		if _, err := fmt.Fprintf(w, "data: %s\n\n", data); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	fail := func(msg string) {
		data, _ := marshal(errorBody(500, msg, "server_error"))
		send(data)
	}
	for i, c := range chunks {
		if st.failAfter >= 0 && i == st.failAfter {
			fail("standin: switched to fail in the middle of the stream")
			return false
		}
		if res.fail != "" && i == finishAt {
			// The server holds back text it cannot place, then fails.
			if sleepCtx(ctx, s.closing, st.errorSilence) {
				fail(res.fail)
			}
			return false
		}
		if i == finishAt && !s.waitHold(ctx) {
			return false
		}
		if i > 0 && st.stall == StallSlow && !sleepCtx(ctx, s.closing, st.delay) {
			return false
		}
		if !send(c) {
			return false
		}
	}
	if st.failAfter >= len(chunks) {
		fail("standin: switched to fail in the middle of the stream")
		return false
	}
	return send([]byte("[DONE]"))
}

// argumentPieces splits a call's arguments as the real server streams
// them: "{" first, then pieces of about eight bytes.
func argumentPieces(args string) []string {
	if args == "" {
		return []string{""}
	}
	if rest, ok := strings.CutPrefix(args, "{"); ok {
		return append([]string{"{"}, runeChunks(rest, 8)...)
	}
	return runeChunks(args, 8)
}

func (s *Server) waitHold(ctx context.Context) bool {
	s.mu.Lock()
	hold := s.hold
	s.mu.Unlock()
	return hold == nil || until(ctx, s.closing, hold)
}

// sleepCtx waits d while the request lasts (until).
func sleepCtx(ctx context.Context, closing <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	return until(ctx, closing, t.C)
}

// until waits for ch (nil: for ever) while the request lasts: true when
// ch came, false when the client left (ctx) or the stand-in is closing
// first.
func until[T any](ctx context.Context, closing <-chan struct{}, ch <-chan T) bool {
	select {
	case <-ch:
		return true
	case <-ctx.Done():
	case <-closing:
	}
	return false
}

// pieces splits text where a word starts after white space, the way a
// tokenizer's pieces carry their leading space: "Hi there" is "Hi",
// " there".
func pieces(text string) []string {
	var out []string
	start := 0
	for i := 1; i < len(text); i++ {
		if isSpace(text[i]) && !isSpace(text[i-1]) {
			out = append(out, text[start:i])
			start = i
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

func isSpace(b byte) bool { return b == ' ' || b == '\n' || b == '\t' }

// runeChunks splits s into pieces of about n bytes, never inside a rune.
func runeChunks(s string, n int) []string {
	var out []string
	for len(s) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		if cut == 0 {
			cut = n
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}
