package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"boxmaker/core/patherror"
)

// CheckReport is one reading of a grants directory for `bxctl grants
// check`: the problems that make it invalid (brokerd then denies every
// call), and the warnings, findings that leave the grants valid but mean
// that something probably does not do what its author meant. A warning is
// a Problem whose Text does not say "warning"; printers add it, as
// "<file>:<line>: warning: <text>".
type CheckReport struct {
	Problems []Problem
	Warnings []Problem
	Grants   int // valid grant files
	mcp      []*cached
}

// CheckWithWarnings reads dir once, as Check does, and also looks at each
// valid grant's paths on this host. The paths are looked at, never
// opened; the file system may change before a call, which is why these
// are warnings and brokerd decides each call on what it finds then.
func CheckWithWarnings(dir string, harness ...Harness) CheckReport {
	g := openUnwatched(dir, harness...)
	snap := g.current()
	rep := CheckReport{Problems: snap.problems}
	names := make([]string, 0, len(g.files))
	for n := range g.files {
		names = append(names, n)
	}
	slices.Sort(names)
	var valid []*cached
	for _, n := range names {
		c := g.files[n]
		if len(c.problems) > 0 || len(g.harnessProblems(c.grant, c.data)) > 0 {
			continue
		}
		rep.Grants++
		rep.Warnings = append(rep.Warnings, pathWarnings(c)...)
		valid = append(valid, c)
		if c.grant.Tool == MCP {
			rep.mcp = append(rep.mcp, c)
		}
	}
	rep.Warnings = append(rep.Warnings, launderWarnings(valid)...)
	rep.Warnings = append(rep.Warnings, yaagWarnings(valid)...)
	rep.Warnings = append(rep.Warnings, neverWarnings(valid)...)
	if len(rep.Problems) == 0 && rep.Grants == 0 {
		rep.Warnings = append(rep.Warnings, Problem{File: dir,
			Text: "no grant files: every call is denied until a grant allows it (docs/specs/grants.md)"})
	}
	return rep
}

// pathWarnings looks at each path of one valid grant. Targets are
// resolved (symbolic links followed) before they are compared with grant
// paths, so a grant path that is itself a link, or runs through one,
// matches nothing; a path that does not exist matches nothing until it
// does.
func pathWarnings(c *cached) []Problem {
	var ws []Problem
	for _, p := range c.grant.Paths {
		line := valueLine(c.data, "paths", p)
		real, err := filepath.EvalSymlinks(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if throughLink(p) {
				ws = append(ws, Problem{File: c.grant.Name, Line: line, Text: fmt.Sprintf(
					"path %q does not exist, and runs through a symbolic link: it matches nothing", p)})
				continue
			}
			ws = append(ws, Problem{File: c.grant.Name, Line: line, Text: fmt.Sprintf(
				"path %q does not exist: the grant matches nothing there until it does", p)})
		case err != nil:
			ws = append(ws, Problem{File: c.grant.Name, Line: line, Text: fmt.Sprintf(
				"path %q cannot be looked at (%s): whether it matches anything is decided at each call", p, patherror.Reason(err))})
		case real != p:
			ws = append(ws, Problem{File: c.grant.Name, Line: line, Text: fmt.Sprintf(
				"path %q runs through a symbolic link to %q: calls are decided on the resolved path, so it matches nothing; write %q", p, real, real)})
		}
	}
	return ws
}

// throughLink reports whether some directory above p is a symbolic link.
func throughLink(p string) bool {
	for d := filepath.Dir(p); d != "/" && d != "."; d = filepath.Dir(d) {
		if fi, err := os.Lstat(d); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return true
		}
	}
	return false
}

// launderWarnings finds a write-capable grant (write_file or run, allow or
// ask) whose max_taint is below the class of another grant on an
// overlapping path (the same path, one inside the other). A call through
// the writing grant is decided while the session is still at most its
// max_taint, yet its path holds, or is where, data of the higher class:
// a run there can read it and copy it anywhere in its tree, and a session
// of the lower taint can then read the copy. Nothing is invalid about it,
// and multi-target calls are decided at the join of their classes; but
// one grant's data can cross to a lower taint through the other's path.
func launderWarnings(grants []*cached) []Problem {
	var ws []Problem
	for _, w := range grants {
		wg := w.grant
		if (wg.Tool != WriteFile && wg.Tool != Run) || wg.Effect == Deny {
			continue
		}
		for _, o := range grants {
			og := o.grant
			if og.Name == wg.Name || og.Effect == Deny || !og.Tool.takesPaths() || og.Class <= wg.MaxTaint {
				continue
			}
			if p, q, ok := overlap(wg.Paths, og.Paths); ok {
				text := fmt.Sprintf(
					"%s may write %q while the session's taint is at most %s, but %s yields %s data from %q, which overlaps it: %s data could be copied where %s sessions read it",
					wg.Tool, p, wg.MaxTaint, og.Name, og.Class, q, og.Class, wg.MaxTaint)
				if wg.Tool == Run && og.Tool != WriteFile {
					// A run is at the class of what its tree holds (reachClass).
					text = fmt.Sprintf(
						"a run over %q reads what %s calls %s data (%q): it is decided at %s, above this grant's max_taint %s, so such a run is denied",
						p, og.Name, og.Class, q, og.Class, wg.MaxTaint)
				}
				ws = append(ws, Problem{File: wg.Name, Line: valueLine(w.data, "paths", p), Text: text})
				break
			}
		}
	}
	return ws
}

// overlap finds a path of a and one of b that are the same or lie one
// inside the other.
func overlap(a, b []string) (string, string, bool) {
	for _, p := range a {
		for _, q := range b {
			if underPath(p, q) || underPath(q, p) {
				return p, q, true
			}
		}
	}
	return "", "", false
}

// yaagWarnings finds a yaag_run grant (allow or ask) whose directory
// overlaps a deny grant of a tool that reaches yaag_run (the Run is then
// refused: it reads its directory on the host, where nothing can hide
// the denied path), or a grant that calls data there more than the
// yaag_run grant's class (the Run's Agents then start at that class, and
// a Run whose class is above the grant's max_taint is denied), as
// launderWarnings does for run (D820).
func yaagWarnings(grants []*cached) []Problem {
	var ws []Problem
	reach := append([]Tool{YaagRun}, denyReach[YaagRun]...)
	for _, y := range grants {
		yg := y.grant
		if yg.Tool != YaagRun || yg.Effect == Deny {
			continue
		}
		var denied, top *Grant
		var deniedAt, deniedBy, topAt, topBy string
		for _, o := range grants {
			og := o.grant
			if og.Name == yg.Name || !slices.Contains(reach, og.Tool) {
				continue
			}
			p, q, ok := overlap(yg.Paths, og.Paths)
			switch {
			case !ok:
			case og.Effect == Deny && denied == nil:
				denied, deniedAt, deniedBy = &o.grant, p, q
			case og.Effect != Deny && og.Tool != WriteFile && og.Tool != YaagRun && og.Class > yg.Class && (top == nil || og.Class > top.Class):
				top, topAt, topBy = &o.grant, p, q
			}
		}
		if denied != nil {
			ws = append(ws, Problem{File: yg.Name, Line: valueLine(y.data, "paths", deniedAt), Text: fmt.Sprintf(
				"a Run from %q is refused: %s denies %s on %q, which overlaps it, and a Run reads its directory itself",
				deniedAt, denied.Name, denied.Tool, deniedBy)})
		}
		if top != nil {
			text := fmt.Sprintf("a Run from %q reads what %s calls %s data (%q): the Run is %s, and its Agents' sessions start %s",
				topAt, top.Name, top.Class, topBy, top.Class, top.Class)
			if top.Class > yg.MaxTaint {
				text = fmt.Sprintf("a Run from %q reads what %s calls %s data (%q): it is decided at %s, above this grant's max_taint %s, so such a Run is denied",
					topAt, top.Name, top.Class, topBy, top.Class, yg.MaxTaint)
			}
			ws = append(ws, Problem{File: yg.Name, Line: valueLine(y.data, "paths", topAt), Text: text})
		}
	}
	return ws
}

// neverWarnings finds a run or yaag_run grant (allow or ask) whose class
// is above its own max_taint. Such a call is decided at the taint it
// would leave behind, the grant's class, where the grant no longer
// applies: it can never allow a call, and an ask would never reach the
// owner (D907).
func neverWarnings(grants []*cached) []Problem {
	var ws []Problem
	for _, c := range grants {
		g := c.grant
		if (g.Tool != Run && g.Tool != YaagRun) || g.Effect == Deny || g.Class <= g.MaxTaint {
			continue
		}
		ws = append(ws, Problem{File: g.Name, Line: keyLine(c.data, "class"), Text: fmt.Sprintf(
			"this grant never %s a %s call: the call is decided at the taint it would leave behind, the grant's class %s, above its max_taint %s, where it no longer applies; raise max_taint to %s or lower the class",
			map[Effect]string{Allow: "allows", Ask: "asks for"}[g.Effect], g.Tool, g.Class, g.MaxTaint, g.Class)})
	}
	return ws
}
