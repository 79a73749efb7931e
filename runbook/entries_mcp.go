package runbook

// MCP servers the owner declares (core/mcpconf, bxctl mcp).
var (
	// A server's file has a problem: that server is unavailable, the
	// others are not.
	MCPServerInvalid = newEntry("mcp-server-invalid")
	// A server's tool list is not the one the owner accepted (or was
	// never accepted): its tools are withheld.
	MCPToolsWithheld = newEntry("mcp-tools-withheld")
)

// The tools of MCP servers, called through brokerd.
var (
	// A server that would need the network (hosts in its file or in an
	// mcp grant): remote and networked servers are not supported yet.
	MCPRemoteUnsupported = newEntry("mcp-remote-unsupported")
)
