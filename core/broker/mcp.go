package broker

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"boxmaker/core/approval"
	"boxmaker/core/brokerwire"
	"boxmaker/core/jsonkeys"
	"boxmaker/core/policy"
	"boxmaker/core/sessionid"
)

// MCP runs the tools of MCP servers (core/mcpserve's *Pool): brokerd
// decides and records each call, the pool runs it in the server's
// container. brokerd links no protocol code through it.
type MCP interface {
	// Server is the paths server's file declares, or why none of its
	// tools may be called (its file, its acceptance, the tool not
	// accepted): a refusal whose text is the reason.
	Server(server, tool string) (declared []string, err error)
	// Call runs one call with the container given plan.
	Call(ctx context.Context, session, callID, server, tool string, args json.RawMessage, plan policy.MCPPlan) (text string, notes, mounted []string, err error)
	// Offer is every tool the owner accepted of the servers as they are
	// declared now.
	Offer() []brokerwire.MCPTool
	// Close stops every server and says how many ran.
	Close() int
}

// MaxMCPArguments bounds the arguments of a call of an MCP server's tool.
const MaxMCPArguments = 1 << 20

// isMCP says the call names an MCP server's tool.
func isMCP(tool string) bool { return strings.HasPrefix(tool, "mcp__") }

// mcpArguments checks an MCP tool's arguments: one JSON object, no key
// twice at any depth (the owner would be shown one value and the server
// given another), at most MaxMCPArguments. They are passed on as they are.
func mcpArguments(tool string, raw json.RawMessage) string {
	if len(raw) > MaxMCPArguments {
		return fmt.Sprintf("the arguments of %s are %d bytes, over the limit of %d", tool, len(raw), MaxMCPArguments)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return fmt.Sprintf("the arguments of %s are not a JSON object", tool)
	}
	if err := jsonkeys.CheckNames(raw, nil); err != nil {
		return fmt.Sprintf("the arguments of %s are not valid: %v", tool, err)
	}
	return ""
}

// decideMCP decides a call of an MCP server's tool. The server's
// container is planned (policy.MCPMounts) at the taint the call would
// leave behind: any of its tools can answer with anything it is given,
// so the call is decided at the plan's class when that is above the
// session's taint, and raises the session to it. A tool the owner did
// not accept, of a server whose file or acceptance stands in the way, is
// denied once the grants would let it run.
func (b *Broker) decideMCP(tc brokerwire.ToolCall, st policy.State) verdict {
	server, tool, ok := policy.SplitMCP(tc.Tool)
	if !ok {
		return b.decideAt(tc.Tool, []string{""}, st) // the policy says there is no such tool
	}
	var declared []string
	var why error
	if b.cfg.MCP == nil {
		why = fmt.Errorf("this brokerd runs no MCP servers")
	} else {
		declared, why = b.cfg.MCP.Server(server, tool)
	}
	at := st
	var plan policy.MCPPlan
	for {
		plan = b.cfg.Grants.MCPMounts(server, declared, at)
		if plan.Class <= at.Taint {
			break
		}
		at.Taint = plan.Class
	}
	v := b.decideAt(tc.Tool, []string{""}, at)
	if v.Verdict == policy.Deny {
		if at.Taint > st.Taint {
			v.Reason = fmt.Sprintf("the server %s is given paths whose data is %s, so the call is decided at the taint it would leave behind; at %s, %s",
				server, at.Taint, at.Taint, v.Reason)
		}
		return v
	}
	if why != nil {
		return verdict{Decision: policy.Decision{Verdict: policy.Deny, Grant: v.Grant, Reason: why.Error()}}
	}
	v.Class = policy.MaxTaint(v.Class, plan.Class)
	v.mcpPlan = &plan
	if plan.Class > st.Taint && len(plan.Mounts) > 0 {
		v.Reason += fmt.Sprintf("; the server is given paths whose data is %s, so the call is %s", plan.Class, plan.Class)
	}
	return v
}

// mcpNote is what a decision record adds for an MCP call: what the
// server is given and the arguments' hash.
func mcpNote(v verdict, raw json.RawMessage) string {
	given := "nothing"
	if v.mcpPlan != nil {
		given = mcpGiven(*v.mcpPlan)
	}
	return fmt.Sprintf("; the server is given %s; arguments sha256 %s", given, approval.ArgumentsHash(raw))
}

// mcpGiven says what a server's container is given, path by path.
func mcpGiven(plan policy.MCPPlan) string {
	var parts []string
	for _, m := range plan.Mounts {
		mode := "ro"
		if m.Write {
			mode = "rw"
		}
		p := m.Path + " (" + mode + ")"
		if len(m.Masks) > 0 {
			p += ", masked: " + maskNote(m.Masks)
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return "no path"
	}
	return strings.Join(parts, "; ")
}

// runMCP runs an allowed call of an MCP server's tool. A caller that
// goes (its turn cut) cancels the call, and the server is told.
func (b *Broker) runMCP(ctx context.Context, c brokerwire.ToolCall, v verdict) (string, []string, []string, error) {
	server, tool, _ := policy.SplitMCP(c.Tool)
	if b.cfg.MCP == nil || v.mcpPlan == nil {
		return "", nil, nil, fmt.Errorf("brokerd cannot run %q", c.Tool)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if gone := goneOf(ctx); gone != nil {
		go func() {
			select {
			case <-gone:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	return b.cfg.MCP.Call(ctx, c.Session, c.CallID, server, tool, c.Arguments, *v.mcpPlan)
}

// MCPTools is the answer to mcp.tools: the accepted tools that an allow
// or ask grant covers at the session's taint. A session whose state
// cannot be read is offered none.
func (b *Broker) MCPTools(session string) (brokerwire.MCPTools, error) {
	out := brokerwire.MCPTools{Tools: []brokerwire.MCPTool{}}
	if err := sessionid.Check(session); err != nil {
		return out, err
	}
	if b.cfg.MCP == nil {
		return out, nil
	}
	st, err := b.sessions.read(session)
	if err != nil {
		b.logf("%v", err)
		return out, nil
	}
	for _, t := range b.cfg.MCP.Offer() {
		if d := b.cfg.Grants.Decide(policy.Call{Tool: t.Name}, st); d.Verdict == policy.Allow || d.Verdict == policy.Ask {
			out.Tools = append(out.Tools, t)
		}
	}
	return out, nil
}
