package conf

// Loopd is loopd.toml. docs/specs/loop.md is its reference.
type Loopd struct {
	Home          string        `toml:"home"`
	Model         string        `toml:"model"`           // the model's name: "model" in requests, ?model= in /props
	SystemPrompt  string        `toml:"system_prompt"`   // a file holding a new session's system prompt; empty: the built-in one
	Thinking      bool          `toml:"thinking"`        // chat_template_kwargs.enable_thinking for turns
	MaxToolRounds int           `toml:"max_tool_rounds"` // model requests with tool calls per turn
	Inference     LoopInference `toml:"inference"`
	Broker        LoopBroker    `toml:"broker"`
	Memory        LoopMemory    `toml:"memory"`
	Expect        LoopExpect    `toml:"expect"`
	Sockets       LoopSockets   `toml:"sockets"`
}

// LoopInference is how loopd reaches the model server: inferproxy.
type LoopInference struct {
	Socket      string `toml:"socket"`
	TimeoutMS   int    `toml:"timeout_ms"`    // until an answer begins, and between streamed chunks
	StartWaitMS int    `toml:"start_wait_ms"` // how long the selftest waits for a server still loading or starting
	MaxTokens   int    `toml:"max_tokens"`    // the most one reply may generate
}

// LoopBroker is brokerd's tool socket.
type LoopBroker struct {
	Socket    string `toml:"socket"`     // empty: no broker; every tool call fails
	TimeoutMS int    `toml:"timeout_ms"` // silence after which brokerd counts as unavailable
}

// LoopMemory is memoryd's block socket.
type LoopMemory struct {
	Socket string `toml:"socket"`
}

// LoopExpect is what the selftest expects of the model server.
type LoopExpect struct {
	ChatTemplateSHA256 string  `toml:"chat_template_sha256"`
	NCtxPerSlot        int     `toml:"n_ctx_per_slot"`
	Slots              int     `toml:"slots"`
	MinCacheReuse      float64 `toml:"min_cache_reuse"`
}

// LoopSockets are the sockets loopd serves.
type LoopSockets struct {
	Loop      string   `toml:"loop"` // turns from gatewayd and bxctl chat
	AllowUIDs []uint32 `toml:"allow_uids"`
}

const loopdTemplate = `# loopd.toml: the agent loop.
# Reference: docs/specs/loop.md.

# The home: sessions/ lives here.
home = "{{.Home}}"
# The model's name, as the server (or a router in front of it) knows it.
model = "{{if .Model}}{{.Model}}{{else}}qwen3.5{{end}}"
# A file holding the system prompt of new sessions; empty: the built-in one.
# A session keeps the prompt it started with.
system_prompt = ""
# Let the model think before it answers (enable_thinking).
thinking = false
# Model requests with tool calls in one turn; then the turn ends.
max_tool_rounds = 8

[inference]
# inferproxy's socket: the only way to the model server.
socket = "{{.Sockets.Infer}}"
# How long the server may stay silent: until it answers, and between chunks.
timeout_ms = 120000
# How long loopd's selftest waits at start for a server that is loading its
# model (503 Loading model) or not yet listening, saying so every 10 s.
start_wait_ms = 120000
# The most one reply may generate (max_tokens); a request asks for at most
# what is left of the slot's context. A reply cut off is noted and shown.
max_tokens = 8192

[broker]
# brokerd's tool socket ([sockets] broker in brokerd.toml). Empty: no tools.
socket = "{{.Sockets.BrokerTools}}"
# How long brokerd may stay silent before a call counts as unavailable.
# A call waiting for an approval is brokerd's to time out.
timeout_ms = 30000

[memory]
# memoryd's block socket ([sockets] block in memoryd.toml).
socket = "{{.Sockets.MemoryBlock}}"

[expect]
# What the selftest expects of the server; see docs/inference-contract.md.
# Empty or 0 is never met: the selftest prints what the server reports.
# sha256 of /props chat_template.
chat_template_sha256 = "{{.ExpectSHA256}}"
# /props default_generation_settings.n_ctx and total_slots.
n_ctx_per_slot = {{.ExpectNCtx}}
slots = {{.ExpectSlots}}
# The share of turn 1's prompt that turn 2 must take from the cache (0 to 1).
min_cache_reuse = 0.9

[sockets]
# Turns from gatewayd and bxctl chat.
loop = "{{.Sockets.Loop}}"
# Users besides loopd's own that may connect (uids). Empty: same user only.
# A home init makes as root names the owner: their bxctl reaches the
# sockets, which are then open to the home's group (README, "The first hour").
allow_uids = [{{.AllowUIDs}}]
`
