package runbook

// MCP servers the owner declares (core/mcpconf, bxctl mcp).
var (
	// A server's file has a problem: that server is unavailable, the
	// others are not.
	MCPServerInvalid = newEntry("mcp-server-invalid")
)
