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
	// A call of an MCP server's tool got no answer: the server did not
	// start, hung past the call's time, ended during the call or wrote
	// a message over the limit; or its caller went.
	MCPCallFailed = newEntry("mcp-call-failed")
)
