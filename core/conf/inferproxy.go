package conf

// Inferproxy is inferproxy.toml; its --listen and --upstream flags override
// the file.
type Inferproxy struct {
	Listen   string `toml:"listen"`
	Upstream string `toml:"upstream"`
}

const inferproxyTemplate = `# inferproxy.toml: the only way from loopd to the model server.

# The socket loopd's [inference] socket names. The lock is this path + ".lock".
listen = "{{.Home}}/run/infer/infer.sock"
# The model server (llama-server).
upstream = "http://127.0.0.1:8080"
`
