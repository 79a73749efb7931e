// Package mcppin keeps what the owner accepted of each MCP server and
// judges a server's tools as they are listed now against it. It links no
// protocol code: the list comes in as hashes (core/mcp's ToolList makes
// them, D923), so whatever offers tools to the model can use it without
// the SDK.
//
// An acceptance is one JSON file per server, <home>/broker/mcp/<server>.json,
// written atomically (mode 0600, its directory 0700):
//
//	{"server":"notes","image":"localhost/mcp-ref@sha256:...","command":["node","..."],"env":{...},
//	 "hash":"sha256:...","tools":{"read_text_file":"sha256:...", ...},
//	 "defs":[{"name":"read_text_file","description":"...","inputSchema":{...}}, ...]}
//
// bxctl mcp accept writes them and bxctl mcp tools judges against them;
// brokerd offers the model the accepted tools (defs, as the owner read
// them) and judges a server it starts against them (core/mcpserve).
package mcppin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"boxmaker/core/atomicfile"
	"boxmaker/core/mcpconf"
)

// Acceptance is what the owner accepted of one server: the declaration it
// ran from and the pin of the tool list it showed.
type Acceptance struct {
	Server  string            `json:"server"`
	Image   string            `json:"image"`
	Command []string          `json:"command"`
	Env     map[string]string `json:"env"`   // the plain variables
	Hash    string            `json:"hash"`  // the list's pin
	Tools   map[string]string `json:"tools"` // each tool's name and hash
	// Defs are the tools as the owner read them, by name: what brokerd
	// offers the model (name, description, input schema) without
	// starting the server. An acceptance written before they were kept
	// has none, and offers nothing until the owner accepts again.
	Defs []Def `json:"defs,omitempty"`
}

// Def is one accepted tool as the model is offered it.
type Def struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// Listed is a server's tool list as it is now: its pin and each tool's.
type Listed struct {
	Hash  string
	Tools map[string]string
	Defs  []Def // what Accept keeps of each tool
}

// Accept is the Acceptance of the list l, shown by server s.
func Accept(s mcpconf.Server, l Listed) Acceptance {
	tools := make(map[string]string, len(l.Tools))
	for k, v := range l.Tools {
		tools[k] = v
	}
	env := make(map[string]string, len(s.Env))
	for k, v := range s.Env {
		env[k] = v
	}
	return Acceptance{Server: s.Name, Image: s.Image, Command: slices.Clone(s.Command), Env: env, Hash: l.Hash, Tools: tools, Defs: slices.Clone(l.Defs)}
}

// Path is where the acceptance of server is kept in home.
func Path(home, server string) string {
	return filepath.Join(home, "broker", "mcp", server+".json")
}

// Save writes a atomically, replacing any earlier acceptance.
func Save(home string, a Acceptance) error {
	if !mcpconf.ValidName(a.Server) {
		return fmt.Errorf("%q is not a server's name", a.Server)
	}
	dir := filepath.Dir(Path(home, a.Server))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(Path(home, a.Server), append(b, '\n'), 0o600); err != nil {
		return err
	}
	// An acceptance made again answers a drift seen before it.
	if err := os.Remove(driftPath(home, a.Server)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// A drift is brokerd's note that a running server listed tools other than
// the ones accepted (a rug pull after acceptance): <home>/broker/mcp/
// <server>.drift, one line saying what differed. While it exists the
// server's tools are withheld, even from a server started again that
// lists the accepted tools; Save (bxctl mcp accept) removes it.
func driftPath(home, server string) string {
	return filepath.Join(home, "broker", "mcp", server+".drift")
}

// SaveDrift records that server's list was seen to differ: why.
func SaveDrift(home, server, why string) error {
	if !ValidServer(server) {
		return fmt.Errorf("%q is not a server's name", server)
	}
	if err := os.MkdirAll(filepath.Dir(driftPath(home, server)), 0o700); err != nil {
		return err
	}
	return atomicfile.WriteFile(driftPath(home, server), []byte(why+"\n"), 0o600)
}

// Drift is what a recorded drift of server says; ok is false when there
// is none. One that cannot be read counts as a drift.
func Drift(home, server string) (why string, ok bool) {
	b, err := os.ReadFile(driftPath(home, server))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", false
	case err != nil:
		return "its drift record cannot be read: " + err.Error(), true
	}
	return strings.TrimSpace(string(b)), true
}

// ValidServer says whether name can be a server's.
func ValidServer(name string) bool { return mcpconf.ValidName(name) }

// Load reads the acceptance of server; ok is false when there is none.
// A file that does not read as an acceptance of that server is an error:
// it accepts nothing.
func Load(home, server string) (a Acceptance, ok bool, err error) {
	if !mcpconf.ValidName(server) {
		return Acceptance{}, false, fmt.Errorf("%q is not a server's name", server)
	}
	b, err := os.ReadFile(Path(home, server))
	if errors.Is(err, fs.ErrNotExist) {
		return Acceptance{}, false, nil
	}
	if err != nil {
		return Acceptance{}, false, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return Acceptance{}, false, fmt.Errorf("%s: %v", Path(home, server), err)
	}
	if a.Server != server || a.Hash == "" || a.Image == "" || len(a.Command) == 0 {
		return Acceptance{}, false, fmt.Errorf("%s: not an acceptance of the server %s", Path(home, server), server)
	}
	return a, true, nil
}

// Verdict is what may be offered of a server now.
type Verdict struct {
	// Offer are the tools that may be offered (grants still decide each
	// call), sorted; none while anything is withheld.
	Offer []string
	// Withheld says why nothing is offered: "" when the list is the one
	// accepted.
	Withheld string
	// What changed since the acceptance, each sorted.
	Added, Removed, Changed []string
}

// Judge compares the server's declaration s and its list as listed now
// with what was accepted (nil: never accepted). Any change withholds
// every tool of the server, not only the changed ones: a changed
// description can speak of the other tools (shadowing), and an image,
// command or [env] other than the one accepted is another program (or
// the same one told to behave otherwise).
func Judge(a *Acceptance, s mcpconf.Server, now Listed) Verdict {
	var v Verdict
	switch {
	case a == nil:
		v.Withheld = "its tools were never accepted"
		v.Added = sortedKeys(now.Tools)
		return v
	case a.Image != s.Image:
		v.Withheld = "its image is not the one accepted"
	case !slices.Equal(a.Command, s.Command):
		v.Withheld = "its command is not the one accepted"
	case !sameEnv(a.Env, s.Env):
		v.Withheld = "its environment is not the one accepted"
	}
	for name, h := range now.Tools {
		switch old, ok := a.Tools[name]; {
		case !ok:
			v.Added = append(v.Added, name)
		case old != h:
			v.Changed = append(v.Changed, name)
		}
	}
	for name := range a.Tools {
		if _, ok := now.Tools[name]; !ok {
			v.Removed = append(v.Removed, name)
		}
	}
	sort.Strings(v.Added)
	sort.Strings(v.Removed)
	sort.Strings(v.Changed)
	if v.Withheld == "" && (now.Hash != a.Hash || len(v.Added)+len(v.Removed)+len(v.Changed) > 0) {
		v.Withheld = "its tool list is not the one accepted"
	}
	if v.Withheld == "" {
		v.Offer = sortedKeys(now.Tools)
	}
	return v
}

// sameEnv compares two [env] tables; none and empty are the same.
func sameEnv(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
