package policy

import (
	"fmt"
	"path/filepath"

	"golang.org/x/sys/unix"

	"boxmaker/core/conf"
)

// Harness is a directory of the harness's own: brokerd's home, its
// configuration directory, the grants directory, a socket's directory. A
// grant whose path is one, contains one or lies inside one is invalid: a
// tool given it could write a grant, or reach a socket and approve its
// own call.
type Harness struct {
	What string // "brokerd's home", "the grants directory", ...
	Path string
}

// BrokerdHarness is the harness brokerd and bxctl protect for brokerd's
// configuration at configPath: the home, the directory of its
// configuration, the grants directory, and each socket's directory
// brokerd knows (its own three, memoryd's tool socket, the egress
// proxy's).
func BrokerdHarness(cfg conf.Brokerd, configPath string) []Harness {
	if abs, err := filepath.Abs(configPath); err == nil {
		configPath = abs
	}
	hs := []Harness{
		{"brokerd's home", cfg.Home},
		{"brokerd's configuration directory", filepath.Dir(configPath)},
		{"the grants directory", cfg.Paths.Grants},
		{"the MCP servers directory", cfg.Paths.MCPDir()},
	}
	for _, s := range []struct{ what, path string }{
		{"the tool socket's directory", cfg.Sockets.Broker},
		{"the admin socket's directory", cfg.Sockets.Admin},
		{"the state socket's directory", cfg.Sockets.State},
		{"memoryd's tool socket's directory", cfg.Memory.Socket},
	} {
		if s.path != "" {
			hs = append(hs, Harness{s.what, filepath.Dir(s.path)})
		}
	}
	if cfg.Runner.EgressDir != "" {
		hs = append(hs, Harness{"the egress proxy's socket directory", cfg.Runner.EgressDir})
	}
	var kept []Harness
	for _, h := range hs {
		if filepath.IsAbs(h.Path) {
			kept = append(kept, Harness{h.What, filepath.Clean(h.Path)})
		}
	}
	return kept
}

// Protected is a set of harness directories as they were found: each
// one's path with links resolved, and the identity (device and inode) of
// the directory and of every directory above it, so that a path or an
// open object is judged by what it is, whichever path led there (a bind
// mount of the home elsewhere, a link). It is safe for concurrent use.
type Protected struct{ dirs []harnessDir }

type harnessDir struct {
	Harness
	real      string
	id        dirID
	exists    bool
	ancestors map[dirID]bool
}

// Protect finds the harness directories. One that does not exist yet is
// compared by its path only.
func Protect(hs []Harness) *Protected {
	out := &Protected{}
	for _, h := range hs {
		d := harnessDir{Harness: h, real: h.Path, ancestors: map[dirID]bool{}}
		if real, err := realPath(h.Path); err == nil {
			d.real = real
		}
		var st unix.Stat_t
		if unix.Stat(d.real, &st) == nil {
			d.id, d.exists = dirID{st.Dev, st.Ino}, true
			for p := filepath.Dir(d.real); ; p = filepath.Dir(p) {
				if unix.Stat(p, &st) == nil {
					d.ancestors[dirID{st.Dev, st.Ino}] = true
				}
				if p == "/" {
					break
				}
			}
		}
		out.dirs = append(out.dirs, d)
	}
	return out
}

// The relations of a path or object to a harness directory, closest
// first: "is the grants directory" says more than "lies inside the
// configuration directory".
var relationRank = map[string]int{"is": 3, "lies inside": 2, "contains": 1}

// Path says how the path p stands to the harness: the directory it
// touches and "is", "contains" or "lies inside"; rel is "" when it touches
// none. Both the path as written and the object it reaches are compared.
func (ps *Protected) Path(p string) (h Harness, rel string) {
	best := -1
	for i, d := range ps.dirs {
		for _, hp := range []string{d.Path, d.real} {
			r := ""
			switch {
			case p == hp:
				r = "is"
			case underPath(p, hp):
				r = "lies inside"
			case underPath(hp, p):
				r = "contains"
			}
			if relationRank[r] > relationRank[rel] {
				best, rel = i, r
			}
		}
	}
	fd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err == nil {
		parent := -1
		var st unix.Stat_t
		if unix.Fstat(fd, &st) == nil && st.Mode&unix.S_IFMT != unix.S_IFDIR {
			if real, err := realPath(p); err == nil {
				parent, _ = unix.Open(filepath.Dir(real), unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			}
		}
		if oh, orel := ps.Object(fd, parent); relationRank[orel] > relationRank[rel] {
			unix.Close(fd)
			return oh, orel
		}
		unix.Close(fd)
	}
	if best < 0 {
		return Harness{}, ""
	}
	return ps.dirs[best].Harness, rel
}

// Object says how the object open as fd stands to the harness, as Path
// does, by identity alone. For anything but a directory, parent is its
// directory, open (it is closed); -1 when fd is a directory.
func (ps *Protected) Object(fd, parent int) (h Harness, rel string) {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		if parent >= 0 {
			unix.Close(parent)
		}
		return Harness{}, ""
	}
	id := dirID{st.Dev, st.Ino}
	best := -1
	for i, d := range ps.dirs {
		r := ""
		switch {
		case !d.exists:
		case id == d.id:
			r = "is"
		case d.ancestors[id]:
			r = "contains"
		}
		if relationRank[r] > relationRank[rel] {
			best, rel = i, r
		}
	}
	// Up by "..", object by object, for the harness directory it lies in.
	up := parent
	if up < 0 && st.Mode&unix.S_IFMT == unix.S_IFDIR {
		up, _ = unix.Openat(fd, "..", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	}
	for prev := id; up >= 0; {
		if unix.Fstat(up, &st) != nil {
			unix.Close(up)
			break
		}
		cur := dirID{st.Dev, st.Ino}
		if cur == prev {
			unix.Close(up) // the root, whose ".." is itself
			break
		}
		for i, d := range ps.dirs {
			if d.exists && cur == d.id && relationRank["lies inside"] > relationRank[rel] {
				best, rel = i, "lies inside"
			}
		}
		prev = cur
		next, err := unix.Openat(up, "..", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		unix.Close(up)
		if err != nil {
			break
		}
		up = next
	}
	if best < 0 {
		return Harness{}, ""
	}
	return ps.dirs[best].Harness, rel
}

// harnessProblems are the problems of a valid grant's paths with the
// harness. They are found at every reading, not kept with the file: they
// depend on the file system, not on the file.
func (g *Grants) harnessProblems(gr Grant, data []byte) []Problem {
	var ps []Problem
	for _, p := range gr.Paths {
		if h, rel := g.harness.Path(p); rel != "" {
			ps = append(ps, Problem{File: gr.Name, Line: valueLine(data, "paths", p),
				Text: fmt.Sprintf("path %q %s %s (%s): the harness's own files can never be granted", p, rel, h.What, h.Path)})
		}
	}
	return ps
}
