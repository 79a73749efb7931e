package policy

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"boxmaker/runbook"
)

// denyReach lists, for a tool, the other tools whose deny grants reach its
// calls: what is denied to read_file cannot be read by listing it or
// through run, and what is denied to write_file cannot be written through
// run. docs/specs/grants.md, section 3, has the table.
var denyReach = map[Tool][]Tool{
	ListDir: {ReadFile},
	Run:     {ReadFile, ListDir, WriteFile},
	// A yaag Run reads its program's directory on the host, with no
	// container to hide a denied path below it, and writes its Cassette
	// there (D820).
	YaagRun: {ReadFile, ListDir, Run, WriteFile},
	// It writes into its directory: what is denied to write_file there
	// cannot be written by it (D904).
	YaagSetupWorkspace: {WriteFile},
}

// Mask is a path below a run call's target that a deny grant covers: the
// runner puts an empty read-only mount over it (Hide), or, for a path
// denied only to write_file, mounts it read-only.
type Mask struct {
	Path  string
	Hide  bool
	Grant string // the (first) deny grant that asks for it
	Tool  Tool   // that grant's tool
}

// decide decides one call against one reading of the grants.
//
// The grants considered are those of the call's tool that match its
// target and whose max_taint is at least the session's taint. Of those,
// deny beats ask beats allow; among grants of the same effect the one
// with the highest class (then untrusted, then the first file name)
// decides, so that the session's state is raised as far as any of them
// asks. No grant is a deny.
//
// A run is decided at the taint it would leave behind: at its class, when
// that is above the session's taint (reachClass), since it can copy what
// its tree holds before the session is raised.
func (s *snapshot) decide(call Call, state State) Decision {
	d := s.decideOnce(call, state)
	if (call.Tool != string(Run) && call.Tool != string(YaagRun)) || d.Verdict == Deny || d.Class <= state.Taint {
		return d
	}
	at := State{Taint: d.Class, Untrusted: state.Untrusted}
	w := s.decideOnce(call, at)
	from, through := call.Target, d.Grant
	if d.ClassGrant != "" {
		from, through = d.ClassPath, d.ClassGrant
	}
	if w.Verdict == Deny {
		w.Reason = fmt.Sprintf("the call reads %q through %s, which is %s, so it is decided at the taint it would leave behind; at %s, %s",
			from, through, d.Class, d.Class, w.Reason)
		return w
	}
	// At a higher taint a grant of a higher class may decide; the class
	// is never below the taint it was decided at.
	if w.Class < d.Class {
		w.Class, w.ClassGrant, w.ClassPath = d.Class, d.ClassGrant, d.ClassPath
	}
	return w
}

func (s *snapshot) decideOnce(call Call, state State) Decision {
	if s.err != nil {
		return Decision{Verdict: Deny, Reason: GrantsErrorText, Err: s.err}
	}
	if strings.HasPrefix(call.Tool, mcpPrefix) {
		return s.decideMCP(call.Tool, state)
	}
	tool, ok := knownTool(call.Tool)
	if !ok || tool == MCP {
		// "mcp" names the grants of MCP servers' tools, not a tool.
		return Decision{Verdict: Deny, Reason: fmt.Sprintf("there is no tool %q", call.Tool)}
	}
	var r resolved
	switch {
	case tool.takesPaths():
		r = resolvePath(tool, call.Target)
	case tool == HTTPFetch:
		r = resolveURL(call.Target)
	default:
		r = resolved{target: call.Target}
	}

	var best *Grant
	matched, tooTainted := false, false
	for i := range s.byTool[tool] {
		g := &s.byTool[tool][i]
		if !g.matches(tool, r.match) {
			continue
		}
		matched = true
		if g.MaxTaint < state.Taint {
			tooTainted = true
			continue
		}
		if best == nil || g.beats(best) {
			best = g
		}
	}
	var reach *Grant // a deny of another tool that reaches this one
	for _, other := range denyReach[tool] {
		for i := range s.byTool[other] {
			if g := &s.byTool[other][i]; reach == nil && g.Effect == Deny && g.matches(other, r.match) {
				reach = g
			}
		}
	}

	// A denial names the target as the call gave it, never what it
	// resolved to: the model must not learn where a link leads, or what
	// exists, outside its grants. What was allowed names the resolved
	// target, inside a grant.
	shown, given := r.target, call.Target
	if shown == "" {
		shown = given
	}
	d := Decision{Verdict: Deny, Target: r.target}
	switch {
	case best != nil && best.Effect == Deny:
		d.Grant = best.Name
		d.Reason = fmt.Sprintf("the grant %s denies %s%s", best.Name, tool, on(given))
	case reach != nil:
		d.Grant = reach.Name
		d.Reason = fmt.Sprintf("the grant %s denies %s%s, and a deny of %s reaches %s too", reach.Name, reach.Tool, on(given), reach.Tool, tool)
	case r.reason != "" && (r.match == "" || matched):
		d.Target = ""
		d.Reason = r.reason
	case best == nil && tooTainted:
		d.Reason = fmt.Sprintf("no grant allows %s%s once the session's taint is %s", tool, on(given), state.Taint)
	case best == nil:
		d.Reason = fmt.Sprintf("no grant allows %s%s", tool, on(given))
	case r.reason != "":
		// Unreachable: a target that did not resolve matches no grant
		// unless matched is set, handled above. Deny all the same.
		d.Target = ""
		d.Reason = r.reason
	case (tool == ReadFile || tool == WriteFile) && !best.AllowHardLinks && linked(r.target) > 1:
		d.Grant = best.Name
		d.Reason = fmt.Sprintf("%q has %d hard links: another name for the file may lie outside every grant, and the grant %s does not allow linked files (allow_hard_links); %s",
			given, linked(r.target), best.Name, runbook.Link(runbook.HardLinkRefused))
	default:
		d.Verdict = best.Effect
		d.Grant = best.Name
		d.Class = best.Class
		d.Untrusted = best.Untrusted
		d.HardLinks = best.AllowHardLinks
		if best.Effect == Ask {
			d.Reason = fmt.Sprintf("the grant %s asks the owner before %s on %q", best.Name, tool, shown)
		} else {
			d.Reason = fmt.Sprintf("the grant %s allows %s%s", best.Name, tool, on(shown))
		}
		if tool == YaagRun {
			// The Run reads its directory itself, on the host: a path
			// below it that a deny covers cannot be masked, so the Run is
			// refused (D820).
			if ms := s.masks(r.target, YaagRun); len(ms) > 0 {
				d = Decision{Verdict: Deny, Target: r.target, Grant: ms[0].Grant, Reason: fmt.Sprintf(
					"the grant %s denies %s on %q, which is inside %q: a Run reads its directory itself, with nothing to hide that path from it",
					ms[0].Grant, ms[0].Tool, ms[0].Path, shown)}
				return d
			}
		}
		if tool == YaagSetupWorkspace {
			// It writes below its directory, where no mask is put: a
			// deny below it refuses the call whole (D904).
			if ms := s.masks(r.target, YaagSetupWorkspace); len(ms) > 0 {
				return Decision{Verdict: Deny, Target: r.target, Grant: ms[0].Grant, Reason: fmt.Sprintf(
					"the grant %s denies %s on %q, which is inside %q, where %s writes",
					ms[0].Grant, ms[0].Tool, ms[0].Path, shown, tool)}
			}
		}
		if tool == Run || tool == YaagRun {
			if tool == Run {
				d.Masks = s.masks(r.target, Run)
			}
			if g, p := s.reachClass(r.target); g != nil && g.Class > d.Class {
				d.Class, d.ClassGrant, d.ClassPath = g.Class, g.Name, p
				d.Reason += fmt.Sprintf("; its tree holds %q, which %s yields as %s data, so the call is %s", p, g.Name, g.Class, g.Class)
			}
		}
	}
	return d
}

// reachTools are the tools whose grants say what class of data a path
// holds: a run can read all of it in its tree.
var reachTools = []Tool{ReadFile, ListDir, Run}

// reachClass finds, for a run target, the allow or ask grant of a tool
// that yields data (read_file, list_dir, run) with the highest class on
// a path that overlaps the target (the target, a directory above it, or
// a path below it), and that path. A run can read everything in its
// tree: data a read_file grant calls secret is secret when run reads it
// too, whatever run's own grant says, or a run would hand it to a
// public session (and copy it into its tree while that session is
// still public). docs/specs/grants.md, section 3.
func (s *snapshot) reachClass(target string) (*Grant, string) {
	var top *Grant
	var at string
	for _, t := range reachTools {
		for i := range s.byTool[t] {
			g := &s.byTool[t][i]
			if g.Effect == Deny || (top != nil && g.Class <= top.Class) {
				continue
			}
			for _, p := range g.Paths {
				if underPath(p, target) || underPath(target, p) {
					top, at = g, p
					break
				}
			}
		}
	}
	return top, at
}

// linked is the number of links of the regular file at path (resolved,
// not followed again), or 0 when it is not one.
func linked(path string) int {
	var st unix.Stat_t
	if path == "" || unix.Lstat(path, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0
	}
	return int(st.Nlink)
}

// masks are the paths strictly below a run (or yaag_run) target that a
// deny reaching the tool covers, in path order: hidden, or read-only when
// only write_file is denied there.
func (s *snapshot) masks(target string, tool Tool) []Mask {
	byPath := map[string]*Mask{}
	for _, t := range append([]Tool{tool}, denyReach[tool]...) {
		for i := range s.byTool[t] {
			g := &s.byTool[t][i]
			if g.Effect != Deny {
				continue
			}
			for _, p := range g.Paths {
				if p == target || !underPath(p, target) {
					continue
				}
				m := byPath[p]
				if m == nil {
					m = &Mask{Path: p, Grant: g.Name, Tool: t}
					byPath[p] = m
				}
				m.Hide = m.Hide || t != WriteFile
			}
		}
	}
	ms := make([]Mask, 0, len(byPath))
	for _, m := range byPath {
		ms = append(ms, *m)
	}
	slices.SortFunc(ms, func(a, b Mask) int {
		switch {
		case a.Path < b.Path:
			return -1
		case a.Path > b.Path:
			return 1
		}
		return 0
	})
	if len(ms) == 0 {
		return nil
	}
	return ms
}

// matches reports whether the grant covers the call's target (already
// resolved, or the best approximation of it).
func (g *Grant) matches(tool Tool, target string) bool {
	switch {
	case tool.takesPaths():
		if target == "" {
			return false
		}
		for _, p := range g.Paths {
			if underPath(target, p) {
				return true
			}
		}
		return false
	case tool == HTTPFetch:
		for _, h := range g.Hosts {
			if h == target {
				return true
			}
		}
		return false
	default:
		return true
	}
}

// beats orders grants of one call: the stronger effect, then the higher
// class, then untrusted. Ties keep the first in file name order.
func (g *Grant) beats(o *Grant) bool {
	if g.Effect.rank() != o.Effect.rank() {
		return g.Effect.rank() > o.Effect.rank()
	}
	if g.Class != o.Class {
		return g.Class > o.Class
	}
	return g.Untrusted && !o.Untrusted
}

// on is a reason's target: ` on "PATH"`, or nothing for a tool that
// names none (memory, recall, a yaag_status without an id), which read
// `no grant allows memory on ""`.
func on(target string) string {
	if target == "" {
		return ""
	}
	return fmt.Sprintf(" on %q", target)
}
