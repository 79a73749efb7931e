package policy

// PathProblem says what is wrong with p as a path a grant names (absolute,
// clean, not "/", no ":" or ","), or "". Other declarations that name
// paths the harness may mount (MCP servers, core/mcpconf) hold them to
// the same rules.
func PathProblem(p string) string { return pathProblem(p) }

// HostProblem says what is wrong with h as a host a grant names (a
// lower-case DNS name, no port, no IP address), or "".
func HostProblem(h string) string { return hostProblem(h) }

// KeyLine is the line of a TOML file that sets key (as `key = ...`, a
// dotted `key.x = ...`, or a table header), or that sets it spelt in
// another case; 0 when none does.
func KeyLine(data []byte, key string) int { return keyLine(data, key) }

// ValueLine is the line of one string value of the array key, which may
// span lines; the key's line when the value cannot be found as written.
func ValueLine(data []byte, key, value string) int { return valueLine(data, key, value) }
