// Package loop is the agent loop of loopd: sessions kept as JSON-lines
// logs, the conversation rebuilt from them exactly, model requests through
// inferproxy, tool calls through brokerd, and the selftest that checks the
// model server before loopd serves.
//
// # The session log
//
// A session is $BOXMAKER_HOME/sessions/<id>/<epoch>.jsonl: one JSON object
// per line, each line ending in "\n". <id> is [a-z0-9-]{1,64}; <epoch> is a
// decimal integer from 0 (loopd writes epoch 0; a later epoch would start
// with a baseline of its own). core/sessionlog holds what the logs'
// readers (recall, the Honcho outbox) share of this: the file's name, the
// record types, the record's text. A record is appended, and the file synced,
// only after the request it describes has finished, so a line that was cut
// off by a crash was never used. Every record has
//
//	"seq":  its line number in the file, from 1
//	"time": RFC 3339 UTC with nanoseconds
//	"type": "baseline", "user", "assistant", "tool" or "note"
//
// and, by type:
//
//	baseline:  "system", "memory", "tools" (the tool definitions sent to the server); the first line
//	user:      "who", "text" (already neutralised)
//	assistant: "text", "reasoning" (optional), "tool_calls" [{"id","name","arguments" (a JSON text)}], "timings"
//	tool:      "call_id", "name", "outcome", "text" (as given to the model)
//	note:      "text" (loopd's own events, such as a cache loss; never sent to the model)
//
// The reader is strict: a line it cannot read, an unknown type or field, a
// seq out of order, a missing field, is reported as <file>:<line>: <reason>,
// and the turn is refused (session-log-damaged) rather than guessed at,
// because a guess would change the prompt the model sees.
//
// # Replay
//
// Messages turns the records into the chat request's messages: the
// baseline's system prompt and memory block as the system message, then
// user, assistant (text, reasoning and tool calls exactly as the server
// returned them) and tool messages in order; notes are skipped. The same
// records always give the same bytes, so each request is a strict
// extension of the previous one and the server's prompt cache is reused.
package loop
