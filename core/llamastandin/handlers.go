package llamastandin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// Handler is the stand-in's HTTP handler.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /standin/switch", s.handleSwitch)
	mux.HandleFunc("GET /health", s.handleHealth)
	mux.HandleFunc("GET /v1/health", s.handleHealth)
	mux.HandleFunc("GET /props", s.handleProps)
	mux.HandleFunc("GET /slots", s.handleSlots)
	mux.HandleFunc("GET /v1/models", s.handleModels)
	mux.HandleFunc("GET /models", s.handleModels)
	mux.HandleFunc("POST /tokenize", s.handleTokenize)
	mux.HandleFunc("POST /detokenize", s.handleDetokenize)
	mux.HandleFunc("POST /apply-template", s.handleApplyTemplate)
	mux.HandleFunc("POST /v1/chat/completions", s.handleChat)
	mux.HandleFunc("POST /chat/completions", s.handleChat)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
		if err != nil {
			writeError(w, 400, "cannot read the request: "+err.Error(), "invalid_request_error")
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r = r.WithContext(context.WithValue(r.Context(), bodyKey{}, body))
		use, _ := r.Context().Value(connKey{}).(*connUse)
		reused := use != nil && use.requests.Add(1) > 1
		s.mu.Lock()
		s.calls = append(s.calls, Call{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Body: body})
		drop := reused && s.sw.closeReused
		if drop {
			s.sw.closeReused = false
		}
		st := s.sw
		s.mu.Unlock()
		if drop {
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					c.Close()
					return
				}
			}
		}
		w.Header().Set("Keep-Alive", fmt.Sprintf("timeout=%d, max=100", int(s.opts.IdleTimeout/time.Second)))
		if r.URL.Path != "/standin/switch" {
			if st.notFound[r.URL.Path] {
				writeError(w, 404, "File Not Found", "not_found_error")
				return
			}
			if st.loading {
				writeError(w, 503, "Loading model", "unavailable_error")
				return
			}
			if !s.keyAccepted(r) {
				writeError(w, 401, "Invalid API Key", "authentication_error")
				return
			}
			if !s.stall(r.Context(), st) {
				return
			}
		}
		if _, pattern := mux.Handler(r); pattern == "" {
			writeError(w, 404, "File Not Found", "not_found_error")
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// publicPaths are the paths llama-server answers without its API key.
var publicPaths = map[string]bool{"/health": true, "/v1/health": true, "/models": true, "/v1/models": true, "/api/tags": true}

// keyAccepted is llama-server's API key check: a Bearer token equal to
// the key, on every path but the public ones.
func (s *Server) keyAccepted(r *http.Request) bool {
	if s.opts.APIKey == "" || publicPaths[r.URL.Path] || r.URL.Path == "/" {
		return true
	}
	const prefix = "Bearer "
	h := r.Header.Get("Authorization")
	return len(h) > len(prefix) && h[:len(prefix)] == prefix && h[len(prefix):] == s.opts.APIKey
}

// bodyKey carries the request body, as received, to the handlers that
// record it.
type bodyKey struct{}

// connKey carries a connection's use count to its requests.
type connKey struct{}

type connUse struct{ requests atomic.Int64 }

// stall waits as the stall switch says; false means the request is over
// (the client left or the server is closing).
func (s *Server) stall(ctx context.Context, st state) bool {
	switch st.stall {
	case StallNever:
		return until[struct{}](ctx, s.closing, nil)
	case StallSlow:
		return sleepCtx(ctx, s.closing, st.delay)
	}
	return true
}

func (s *Server) handleSwitch(w http.ResponseWriter, r *http.Request) {
	var sw Switch
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sw); err != nil {
		writeError(w, 400, "standin switch: "+err.Error(), "invalid_request_error")
		return
	}
	if err := s.Set(sw); err != nil {
		writeError(w, 400, "standin switch: "+err.Error(), "invalid_request_error")
		return
	}
	writeJSON(w, 200, map[string]any{"ok": true})
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, map[string]any{"status": "ok"})
}

// checkModel answers as llama-server's router mode does for a request
// that names no model or another one: 400. A single-model server (no
// router switch) ignores the name, as the real one does.
func (s *Server) checkModel(w http.ResponseWriter, model string) bool {
	if !s.snapshot().router || model == s.opts.Model {
		return true
	}
	if model == "" {
		writeError(w, 400, "model name is missing from the request", "invalid_request_error")
		return false
	}
	writeError(w, 400, fmt.Sprintf("model '%s' not found", model), "invalid_request_error")
	return false
}

// slotJSON is a slot as /slots shows it: id, n_ctx, speculative and
// is_processing, and, once it has run a task, the task's id, counts,
// params and next_token (an array of one object, as the real server
// writes it).
func (s *Server) slotJSON(sl *slot) map[string]any {
	out := map[string]any{
		"id":            sl.id,
		"n_ctx":         s.opts.NCtx,
		"speculative":   false,
		"is_processing": sl.processing,
	}
	if !sl.served && !sl.processing {
		return out
	}
	out["id_task"] = sl.task
	out["n_prompt_tokens"] = len(sl.cache)
	out["params"] = defaultParams()
	out["next_token"] = []any{map[string]any{
		"has_next_token": sl.processing,
		"has_new_line":   false,
		"n_remain":       0,
		"n_decoded":      sl.decoded,
	}}
	return out
}

func defaultParams() map[string]any {
	return map[string]any{
		"n_predict": -1, "seed": 4294967295, "temperature": 0.8, "top_k": 40, "top_p": 0.95,
		"min_p": 0.05, "max_tokens": -1, "n_keep": 0, "stream": true, "samplers": []string{
			"penalties", "dry", "top_k", "typ_p", "top_p", "min_p", "xtc", "temperature"},
		"timings_per_token": false,
	}
}

func (s *Server) handleProps(w http.ResponseWriter, r *http.Request) {
	if !s.checkModel(w, r.URL.Query().Get("model")) {
		return
	}
	s.mu.Lock()
	body := map[string]any{
		"default_generation_settings": map[string]any{"params": defaultParams(), "n_ctx": s.opts.NCtx},
		"total_slots":                 len(s.slots),
		"model_alias":                 s.opts.Model,
		"model_path":                  s.opts.ModelPath,
		"modalities":                  map[string]any{"vision": false, "video": false, "audio": false},
		"endpoint_slots":              true,
		"endpoint_props":              false,
		"endpoint_metrics":            false,
		"chat_template":               s.sw.template,
		"chat_template_caps":          map[string]any{},
		"bos_token":                   "",
		"eos_token":                   "<|im_end|>",
		"build_info":                  BuildInfo,
		"is_sleeping":                 false,
	}
	s.mu.Unlock()
	writeJSON(w, 200, body)
}

// BuildInfo is what the stand-in says of its build in /props build_info
// and each answer's system_fingerprint: a real server says "b9928-81ff7ab".
const BuildInfo = "b0-standin"

func (s *Server) handleSlots(w http.ResponseWriter, r *http.Request) {
	if !s.checkModel(w, r.URL.Query().Get("model")) {
		return
	}
	s.mu.Lock()
	out := make([]map[string]any, len(s.slots))
	anyIdle := false
	for i, sl := range s.slots {
		out[i] = s.slotJSON(sl)
		anyIdle = anyIdle || !sl.processing
	}
	s.mu.Unlock()
	if r.URL.Query().Has("fail_on_no_slot") && !anyIdle {
		writeError(w, 503, "no slot available", "unavailable_error")
		return
	}
	writeJSON(w, 200, out)
}

func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, map[string]any{
		"object": "list",
		"data": []any{map[string]any{
			"id": s.opts.Model, "aliases": []string{s.opts.Model}, "tags": []string{},
			"object": "model", "created": 0, "owned_by": "llamacpp",
			"meta": map[string]any{"vocab_type": 2, "n_vocab": qwen35Base + len(tagTable), "n_ctx": s.opts.NCtx, "n_ctx_train": s.opts.NCtx},
		}},
	})
}

func (s *Server) handleTokenize(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model        string  `json:"model"`
		Content      *string `json:"content"`
		AddSpecial   bool    `json:"add_special"`
		ParseSpecial *bool   `json:"parse_special"`
		WithPieces   bool    `json:"with_pieces"`
	}
	if !decodeBody(w, r, &req) || !s.checkModel(w, firstNonEmpty(r.URL.Query().Get("model"), req.Model)) {
		return
	}
	content := ""
	if req.Content != nil { // no content is no tokens, as the real server answers
		content = *req.Content
	}
	parse := req.ParseSpecial == nil || *req.ParseSpecial
	// add_special adds nothing: the Qwen family has no BOS token.
	v := s.snapshot().vocab
	ids := v.tokenize(content, parse)
	if !req.WithPieces {
		writeJSON(w, 200, map[string]any{"tokens": ids})
		return
	}
	type piece struct {
		ID    int `json:"id"`
		Piece any `json:"piece"`
	}
	out := make([]piece, len(ids))
	for i, id := range ids {
		p, _ := v.piece(id)
		out[i] = piece{ID: id, Piece: pieceJSON(p)}
	}
	writeJSON(w, 200, map[string]any{"tokens": out})
}

func (s *Server) handleDetokenize(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Tokens []int `json:"tokens"`
	}
	if !decodeBody(w, r, &req) {
		return
	}
	writeJSON(w, 200, map[string]any{"content": s.snapshot().vocab.detokenize(req.Tokens)})
}

func (s *Server) handleApplyTemplate(w http.ResponseWriter, r *http.Request) {
	var req ChatRequest
	if !decodeBody(w, r, &req) {
		return
	}
	body, _ := r.Context().Value(bodyKey{}).([]byte)
	prompt, err := renderTemplate(s.snapshot().template, body, true)
	var argErr errArguments
	if errors.As(err, &argErr) {
		writeError(w, 500, argErr.Error(), "server_error")
		return
	}
	if err != nil {
		writeError(w, 400, err.Error(), "invalid_request_error")
		return
	}
	writeJSON(w, 200, map[string]any{"prompt": prompt})
}

// errorBody is llama-server's (and OpenAI's) error shape.
func errorBody(code int, message, typ string) map[string]any {
	return map[string]any{"error": map[string]any{"code": code, "message": message, "type": typ}}
}

func writeError(w http.ResponseWriter, code int, message, typ string) {
	writeJSON(w, code, errorBody(code, message, typ))
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	data, err := marshal(v)
	if err != nil {
		code, data = 500, []byte(`{"error":{"code":500,"message":"cannot encode the answer","type":"server_error"}}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	w.Write(data)
}

// marshal encodes as llama-server does: without escaping <, > and &,
// which chat templates are full of.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// decodeBody reads a request's JSON body; one that is not JSON is
// answered 500 server_error, as the real server answers it (its JSON
// library's exception, uncaught by the handler).
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		writeError(w, 500, "[json.exception.parse_error.101] parse error: "+err.Error(), "server_error")
		return false
	}
	return true
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
