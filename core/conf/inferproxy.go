package conf

import "boxmaker/core/secrets"

// Inferproxy is inferproxy.toml; its --listen, --upstream, --burst and
// --queue-timeout flags override the file.
type Inferproxy struct {
	Listen         string   `toml:"listen"`
	Upstream       string   `toml:"upstream"`
	Burst          int      `toml:"burst"`
	QueueTimeoutMS int      `toml:"queue_timeout_ms"`
	IdleTimeoutMS  int      `toml:"upstream_idle_timeout_ms"`
	AllowUIDs      []uint32 `toml:"allow_uids"`
	// UpstreamKeySecret names the [secrets.<name>] table holding the key
	// of a model server started with --api-key; inferproxy sends it as
	// "Authorization: Bearer" on every upstream request.
	UpstreamKeySecret string                    `toml:"upstream_key_secret"`
	Secrets           map[string]secrets.Source `toml:"secrets"`
}

const inferproxyTemplate = `# inferproxy.toml: the only way from loopd to the model server.

# The socket loopd's [inference] socket names. The lock is this path + ".lock".
listen = "{{.Sockets.Infer}}"
# The model server (llama-server).
upstream = "{{if .Upstream}}{{.Upstream}}{{else}}http://127.0.0.1:8080{{end}}"
# At most this many requests (and connections) open to the model server at
# once; more wait their turn, in order of arrival.
burst = 4
# How long a request may wait for its turn before it is answered 503.
queue_timeout_ms = 30000
# How long an idle connection to the model server is kept for the next
# request. Keep it below the server's own keep-alive timeout (llama-server
# closes idle connections after 5 s), so the server does not close one as
# a request goes out on it.
upstream_idle_timeout_ms = 4000
# Peers allowed on the socket besides inferproxy's own user.
allow_uids = []
# A model server started with --api-key refuses requests without its key.
# Name the secret that holds it (and give its [secrets.<name>] table):
# upstream_key_secret = "llama"
# [secrets.llama]
# credential = "llama-api-key"
`
