package policy

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// An MCP server's tool is named, in a call and to the model, as
// mcp__<server>__<tool>. A server's name is [a-z0-9-]+ (core/mcpconf), so
// the first "__" after the prefix ends it, whatever the tool's name holds.
const mcpPrefix = "mcp__"

// MaxMCPName bounds mcp__<server>__<tool>: the model's function names are
// at most 64 bytes, and brokerd's records keep a tool's name whole up to
// that (MaxToolName). A tool whose whole name is longer is never offered
// nor called.
const MaxMCPName = 64

var (
	mcpServerRE = regexp.MustCompile(`^[a-z0-9-]{1,32}$`)
	// The characters MCP allows in a tool's name.
	mcpToolRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
)

// MCPName is the name the model calls a server's tool by.
func MCPName(server, tool string) string { return mcpPrefix + server + "__" + tool }

// SplitMCP reads mcp__<server>__<tool>; ok is false for any other name,
// a server that is not a server's name, or a tool that is not a tool's.
func SplitMCP(name string) (server, tool string, ok bool) {
	rest, found := strings.CutPrefix(name, mcpPrefix)
	if !found || len(name) > MaxMCPName {
		return "", "", false
	}
	server, tool, found = strings.Cut(rest, "__")
	if !found || !mcpServerRE.MatchString(server) || !mcpToolRE.MatchString(tool) {
		return "", "", false
	}
	return server, tool, true
}

type keyProblem struct{ key, text string }

// mcpGrantProblems checks an mcp grant's server and tools.
func mcpGrantProblems(server string, tools []string) []keyProblem {
	var ps []keyProblem
	switch {
	case server == "":
		ps = append(ps, keyProblem{"tool", `server is missing: an mcp grant names the MCP server whose tools it covers (server = "<name>", its file's name in the MCP servers directory)`})
	case !mcpServerRE.MatchString(server):
		ps = append(ps, keyProblem{"server", fmt.Sprintf("server %q is not an MCP server's name ([a-z0-9-]+, at most 32 characters)", server)})
	}
	if tools != nil && len(tools) == 0 {
		ps = append(ps, keyProblem{"tools", "tools is empty: name the server's tools this grant covers, or leave tools out to cover them all"})
	}
	seen := map[string]bool{}
	for _, t := range tools {
		switch {
		case !mcpToolRE.MatchString(t):
			ps = append(ps, keyProblem{"tools", fmt.Sprintf("tools: %q is not an MCP tool's name (letters, digits, _ . and -)", t)})
		case seen[t]:
			ps = append(ps, keyProblem{"tools", fmt.Sprintf("tools: %q is named twice", t)})
		case mcpServerRE.MatchString(server) && len(MCPName(server, t)) > MaxMCPName:
			ps = append(ps, keyProblem{"tools", fmt.Sprintf("tools: %s is longer than %d bytes, so the model can never call it", MCPName(server, t), MaxMCPName)})
		}
		seen[t] = true
	}
	return ps
}

// coversMCP reports whether an mcp grant covers the server's tool.
func (g *Grant) coversMCP(server, tool string) bool {
	return g.Server == server && (g.MCPTools == nil || slices.Contains(g.MCPTools, tool))
}

// decideMCP decides a call of an MCP server's tool (name is the call's,
// mcp__<server>__<tool>) as any tool is: of the mcp grants that cover it
// and whose max_taint is at least the session's taint, deny beats ask
// beats allow; none is a deny. Nothing else reaches these calls: what the
// server may read is what its container is given (MCPMounts).
func (s *snapshot) decideMCP(name string, state State) Decision {
	server, tool, ok := SplitMCP(name)
	if !ok {
		return Decision{Verdict: Deny, Reason: fmt.Sprintf("there is no tool %q", name)}
	}
	var best *Grant
	tooTainted := false
	for i := range s.byTool[MCP] {
		g := &s.byTool[MCP][i]
		if !g.coversMCP(server, tool) {
			continue
		}
		if g.MaxTaint < state.Taint {
			tooTainted = true
			continue
		}
		if best == nil || g.beats(best) {
			best = g
		}
	}
	d := Decision{Verdict: Deny}
	switch {
	case best == nil && tooTainted:
		d.Reason = fmt.Sprintf("no grant allows %s once the session's taint is %s", name, state.Taint)
	case best == nil:
		d.Reason = fmt.Sprintf("no grant allows %s", name)
	case best.Effect == Deny:
		d.Grant = best.Name
		d.Reason = fmt.Sprintf("the grant %s denies %s", best.Name, name)
	default:
		d.Verdict, d.Grant, d.Class, d.Untrusted = best.Effect, best.Name, best.Class, best.Untrusted
		if best.Effect == Ask {
			d.Reason = fmt.Sprintf("the grant %s asks the owner before %s", best.Name, name)
		} else {
			d.Reason = fmt.Sprintf("the grant %s allows %s", best.Name, name)
		}
	}
	return d
}

// MCPMount is one path an MCP server's container is given.
type MCPMount struct {
	Path  string
	Write bool   // a write_file grant allows writing it, and no deny reaches it
	Masks []Mask // below it, what deny grants keep from the server
	// Dev and Ino are the object Path was when it was planned: the
	// runner mounts that object or none, and a plan of another object at
	// the same path is another plan (a running server is started again).
	Dev, Ino uint64
}

// MCPPlan is what a server's container for one session is given, decided
// when it starts: the paths of the allow and ask mcp grants of the server
// that apply at the session's taint, each inside one of the paths the
// server's file declares (declared), and Class, the highest class of the
// data the server can then read: the grants' that gave it a path, and
// every grant of a tool that yields data (read_file, list_dir, run) on a
// path that overlaps one mounted. Any call of the server's tools may
// answer with any of it, so every call raises the session to Class too.
type MCPPlan struct {
	Mounts []MCPMount
	Class  Taint
	// Skipped says why a granted path is not given, one line each.
	Skipped []string
}

// MCPMounts plans server's container for a session in state.
func (g *Grants) MCPMounts(server string, declared []string, state State) MCPPlan {
	return g.current().mcpMounts(server, declared, state)
}

func (s *snapshot) mcpMounts(server string, declared []string, state State) MCPPlan {
	var plan MCPPlan
	if s.err != nil {
		return plan
	}
	var paths []string
	for i := range s.byTool[MCP] {
		g := &s.byTool[MCP][i]
		if g.Server != server || g.Effect == Deny || g.MaxTaint < state.Taint {
			continue
		}
		for _, p := range g.Paths {
			inside := slices.ContainsFunc(declared, func(d string) bool { return underPath(p, d) })
			switch {
			case !inside:
				plan.Skipped = append(plan.Skipped, fmt.Sprintf("%s (%s): not inside the paths the server's file declares", p, g.Name))
			case !slices.Contains(paths, p):
				paths = append(paths, p)
				plan.Class = MaxTaint(plan.Class, g.Class)
			default:
				plan.Class = MaxTaint(plan.Class, g.Class)
			}
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		// A path inside another is seen through it.
		if slices.ContainsFunc(paths, func(q string) bool { return q != p && underPath(p, q) }) {
			continue
		}
		r := resolvePath(ReadFile, p)
		if r.target != p {
			plan.Skipped = append(plan.Skipped, fmt.Sprintf("%s: it resolves elsewhere or does not exist (grant paths are resolved paths)", p))
			continue
		}
		if deny := s.denyCovering(p); deny != nil {
			plan.Skipped = append(plan.Skipped, fmt.Sprintf("%s: the grant %s denies %s there", p, deny.Name, deny.Tool))
			continue
		}
		var st unix.Stat_t
		if unix.Lstat(p, &st) != nil {
			plan.Skipped = append(plan.Skipped, fmt.Sprintf("%s: it cannot be looked at", p))
			continue
		}
		m := MCPMount{Path: p, Masks: s.masks(p, Run), Dev: st.Dev, Ino: st.Ino}
		w := s.decideOnce(Call{Tool: string(WriteFile), Target: p}, state)
		m.Write = w.Verdict == Allow && !slices.ContainsFunc(m.Masks, func(x Mask) bool { return x.Tool == WriteFile })
		if gr, _ := s.reachClass(p); gr != nil {
			plan.Class = MaxTaint(plan.Class, gr.Class)
		}
		plan.Mounts = append(plan.Mounts, m)
	}
	return plan
}

// denyCovering is a deny grant of a tool that reads or writes files
// (read_file, list_dir, run, write_file) whose path is p or above it.
func (s *snapshot) denyCovering(p string) *Grant {
	for _, t := range []Tool{ReadFile, ListDir, Run, WriteFile} {
		for i := range s.byTool[t] {
			g := &s.byTool[t][i]
			if g.Effect != Deny {
				continue
			}
			for _, gp := range g.Paths {
				if underPath(p, gp) {
					return g
				}
			}
		}
	}
	return nil
}

// MCPServers is what bxctl grants check knows of the MCP servers: those
// declared (valid files), those whose file is invalid, and, by server,
// the tools the owner accepted (absent: never accepted).
type MCPServers struct {
	Declared map[string]bool
	Invalid  map[string]bool
	Accepted map[string][]string
}

// MCPWarnings are the warnings of the report's mcp grants against the
// servers as they are: a server that is not declared or is invalid, a
// server whose tools were never accepted, a tool not in the accepted
// list. Each leaves the grants valid (brokerd reads no server file to
// decide a call), but the grant allows nothing the model can call until
// it is fixed.
func (r CheckReport) MCPWarnings(k MCPServers) []Problem {
	var ws []Problem
	for _, c := range r.mcp {
		g := c.grant
		line := keyLine(c.data, "server")
		switch {
		case k.Invalid[g.Server]:
			ws = append(ws, Problem{File: g.Name, Line: line, Text: fmt.Sprintf("the MCP server %q has an invalid file (bxctl mcp check): the grant covers no tool until it is fixed", g.Server)})
			continue
		case !k.Declared[g.Server]:
			ws = append(ws, Problem{File: g.Name, Line: line, Text: fmt.Sprintf("no MCP server is named %q (bxctl mcp check lists them): the grant covers nothing", g.Server)})
			continue
		}
		accepted, ok := k.Accepted[g.Server]
		if !ok {
			if g.Effect != Deny {
				ws = append(ws, Problem{File: g.Name, Line: line, Text: fmt.Sprintf("the tools of the MCP server %q were never accepted (bxctl mcp tools %s): none is offered or called until they are", g.Server, g.Server)})
			}
			continue
		}
		for _, t := range g.MCPTools {
			if !slices.Contains(accepted, t) {
				ws = append(ws, Problem{File: g.Name, Line: valueLine(c.data, "tools", t), Text: fmt.Sprintf("%q is not a tool of the MCP server %s as the owner accepted it (bxctl mcp tools %s)", t, g.Server, g.Server)})
			}
		}
	}
	return ws
}
