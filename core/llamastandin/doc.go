// Package llamastandin is the project's one stand-in: a test peer that
// plays llama.cpp's llama-server, written from its documented HTTP API
// (tools/server/README.md) and checked against a real one, for the tests of
// loopd and inferproxy, for `boxmaker demo` without a model, and for
// `boxmaker llama-standin`. It is not a model: its replies come from a
// Script.
//
// # What matches the real server
//
// Measured against llama-server build 9928 (upstream commit 81ff7abe50b9,
// CPU, --jinja, the Qwen3.5 template; docs/inference-contract.md says how):
//
//   - GET /health, /v1/health: {"status":"ok"}; while loading, 503
//     {"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}
//     (every llama.cpp path answers the same then). Matches.
//   - GET /props: default_generation_settings {params, n_ctx} (n_ctx per
//     slot), total_slots, model_alias, model_path, modalities (vision,
//     video, audio), endpoint_*, chat_template, chat_template_caps,
//     bos_token, eos_token, build_info, is_sleeping. Matches in the fields
//     loopd reads (chat_template, n_ctx, total_slots) and in shape; the
//     real one has more (ui, media_marker, ...) and 40 params, build_info
//     is "b0-standin".
//   - GET /slots: id, n_ctx, speculative, is_processing; after a task also
//     id_task, n_prompt_tokens, params and next_token as an array of one
//     object. ?fail_on_no_slot answers 503 only when every slot is busy.
//     Matches in shape; the counts are the stand-in's.
//   - GET /v1/models, /models: {"object":"list","data":[{"id",...}]} with
//     the model's name as id (the real one lists the file name or --alias;
//     its ollama-style "models" list is not written).
//   - POST /tokenize: content (none is no tokens: 200 {"tokens":[]}),
//     parse_special (default true), with_pieces. Matches in shape; the
//     tokenizer is byte-level with the Qwen3.5 tag ids (248044...), not a
//     BPE, so counts differ.
//   - POST /detokenize, POST /apply-template ({"prompt":...}): match; the
//     prompt is byte for byte the real server's (TestRenderIsTheRealServersRendering).
//   - POST /v1/chat/completions, /chat/completions: the prompt rendered
//     with the chat template by a Jinja engine (the real Qwen3.5 template
//     by default); a history whose tool call arguments are not JSON is 500
//     "Failed to parse tool call arguments as JSON: ...", arguments that
//     are JSON but not an object 400, as the real server answers. Matches.
//     The reply: reasoning_content, content ("" when empty, never null),
//     tool_calls parsed from the Qwen3.5 XML form (arguments a JSON string,
//     ids 32 random letters and digits), finish_reason stop, tool_calls or
//     length; cut by max_tokens (or max_completion_tokens, n_predict) or a
//     full context inside a call, the call as far as it got, arguments not
//     JSON, as the real server streams it; output that opens a call and
//     breaks the format fails: 500, or streamed, the content so far, then
//     data: {"error":...} and no [DONE]. Matches.
//     Streamed: a first delta {"role":"assistant","content":null}, one
//     delta a piece, each tool call's first delta with id, type, name and
//     the first piece of the arguments, the finish chunk, and, with
//     stream_options.include_usage, a last chunk with empty choices
//     carrying usage (with prompt_tokens_details.cached_tokens) and
//     timings; without it timings ride on the finish chunk. Matches.
//     timings.cache_n is the longest common prefix of the prompt's tokens
//     with the slot's last prompt and reply (one token always evaluated);
//     the millisecond figures are computed from the counts, not measured.
//     model and ?model= are ignored, as a single-model server ignores them;
//     id_slot past the slots is taken modulo their number; tool_choice is
//     ignored ("required" does not force a call on the real server either).
//   - Errors: {"error":{"code","message","type"}}; a body that is not JSON
//     500 server_error; unknown paths 404 "File Not Found"; a prompt over
//     the context 400 exceed_context_size_error with n_prompt_tokens and
//     n_ctx. Match (the JSON parser's message text differs).
//   - Connections: idle keep-alive connections are closed after 5 s
//     (Options.IdleTimeout), with Keep-Alive: timeout=5, max=100. Matches.
//   - With Options.APIKey it checks the key as llama-server's --api-key
//     does.
//   - Not written: POST /completion, GET /metrics, /slots actions, router
//     endpoints, embeddings; loopd uses none of them.
//
// # Test mode
//
// With Options.RequireMaxTokens (llama-standin --require-max-tokens),
// which every test of the project sets, a chat completion without a
// positive max_tokens is answered 400 (NoMaxTokens) and logged as refused
// (Chat.Refused). That is the stand-in's own, no part of llama-server: the
// real server takes such a request and generates until the slot's context
// is full, and so does the stand-in without it. It makes a request loopd
// sends unbounded fail every test that sends it.
//
// # Scheduling
//
// Each slot keeps the tokens of its last prompt and reply. A request
// without id_slot takes the idle slot whose cache shares the most with its
// prompt (at least a tenth of it), else the one used least recently, and
// waits when every slot is busy. As llama-server's prompt cache in host
// memory does (--cache-ram, on by default; Options.NoPromptCache is
// --cache-ram 0), a prompt the request displaces (its slot taken as the
// least recently used, or for a prefix that keeps under half of it) is
// saved, and a saved prompt that fits the request better than the slot's
// own is put back in the slot: a conversation pushed out by another takes
// its prompt from the cache again (promptcache.go).
//
// # Switches
//
// Switches, set from Go (Set and the helpers) or through POST
// /standin/switch, which is the stand-in's own and no part of llama.cpp's
// API, change the template, stop tool call parsing, read unparsable output
// as content, forget or disable the cache, stall, fail in the middle of a
// stream, stay silent before an error, put the server back into loading,
// answer 404 on paths a router would not pass, check the model as a router
// does, close a kept-alive connection under the next request, or change the
// tokenizer: a tag moved to another id (as another model file would give
// it) or HTML-escaped tags read as tags.
package llamastandin
