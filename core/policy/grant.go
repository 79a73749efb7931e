package policy

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"

	"boxmaker/core/conf"
	"boxmaker/runbook"
)

// Grant is one valid grant file.
type Grant struct {
	Name      string // the file name, "read-src.toml"
	Tool      Tool
	Effect    Effect
	Paths     []string // file tools and run
	Hosts     []string // http_fetch
	Class     Taint
	MaxTaint  Taint
	Untrusted bool
	// AllowHardLinks lets read_file and write_file act on a regular file
	// with more than one link (refused otherwise: another name for it may
	// lie outside every grant).
	AllowHardLinks bool
	// Server and MCPTools are an mcp grant's: the MCP server whose tools
	// it covers, and which of them (nil: all).
	Server   string
	MCPTools []string
}

// Problem is one thing wrong with the grants: a file (its name in the
// grants directory, or the directory's path for a problem with the
// directory itself), the line (0 when the problem is not on a line) and
// the problem in words.
type Problem struct {
	File string
	Line int
	Text string
}

// String renders the problem as <file>:<line>: <problem>, or
// <file>: <problem> when it has no line (a file name, an unreadable file).
func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Text)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Text)
}

// InvalidError lists every problem of an invalid grants directory, one
// per line.
type InvalidError struct{ Problems []Problem }

func (e *InvalidError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// grantFile is the TOML shape. secret and patterns are decoded only to be
// refused with a message of their own rather than "unknown key".
type grantFile struct {
	Tool      string   `toml:"tool"`
	Effect    string   `toml:"effect"`
	Paths     []string `toml:"paths"`
	Hosts     []string `toml:"hosts"`
	Class     string   `toml:"class"`
	MaxTaint  string   `toml:"max_taint"`
	Untrusted *bool    `toml:"untrusted"`
	HardLinks bool     `toml:"allow_hard_links"`
	Server    string   `toml:"server"`
	MCPTools  []string `toml:"tools"`
	Secret    any      `toml:"secret"`
	Patterns  any      `toml:"patterns"`
}

var grantNameRE = regexp.MustCompile(`^[a-z0-9-]+\.toml$`)

// toolList is the tools, for messages.
var toolList = func() string {
	names := make([]string, len(Tools))
	for i, t := range Tools {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}()

// Parse reads one grant file, name being its file name in the grants
// directory. It returns every problem it finds, in line order, and a
// Grant only when there are none.
func Parse(name string, data []byte) (Grant, []Problem) {
	var problems []Problem
	add := func(line int, format string, args ...any) {
		problems = append(problems, Problem{File: name, Line: line, Text: fmt.Sprintf(format, args...)})
	}
	if !grantNameRE.MatchString(name) {
		add(0, "the file name %q has characters outside [a-z0-9-]: grant files are named [a-z0-9-]+.toml", name)
	}
	if !utf8.Valid(data) {
		add(0, "the file is not UTF-8 text")
		return Grant{}, problems
	}
	var f grantFile
	if err := conf.Decode(name, data, &f); err != nil {
		var inv *conf.InvalidError
		if !errors.As(err, &inv) {
			add(0, "%v", err)
			return Grant{}, problems
		}
		for _, p := range inv.Problems {
			add(p.Line, "%s", p.Text)
		}
		// Unknown keys (and keys in another case) hide nothing else: read
		// the file again without them and report what else is wrong. A
		// syntax or type error leaves nothing to read.
		var ok bool
		if f, ok = knownKeysOnly(data); !ok {
			return Grant{}, problems
		}
	}
	line := func(key string) int { return keyLine(data, key) }

	if f.Secret != nil {
		add(line("secret"), "secret is not supported yet (it comes with M4): remove it")
	}
	if f.Patterns != nil {
		add(line("patterns"), "patterns is not supported: grant the directories you mean with paths")
	}

	g := Grant{Name: name, AllowHardLinks: f.HardLinks}
	if f.Untrusted != nil {
		g.Untrusted = *f.Untrusted
	}
	tool, toolOK := knownTool(f.Tool)
	switch {
	case f.Tool == "":
		add(line("tool"), "tool is missing: it is one of %s", toolList)
	case !toolOK:
		add(line("tool"), "tool %q is not one of %s", f.Tool, toolList)
	}
	g.Tool = tool

	switch Effect(f.Effect) {
	case Allow, Ask, Deny:
		g.Effect = Effect(f.Effect)
	case "":
		add(line("effect"), "effect is missing: it is allow, ask or deny")
	default:
		add(line("effect"), "effect %q is not allow, ask or deny", f.Effect)
	}

	if f.Class != "" {
		c, err := ParseTaint(f.Class)
		if err != nil {
			add(line("class"), "class %q is not public, private or secret", f.Class)
		}
		g.Class = c
	} else if g.Effect == Allow || g.Effect == Ask {
		add(line("class"), "class is missing: say what the data this grant yields is (public, private or secret)")
	}

	if f.MaxTaint != "" {
		m, err := ParseTaint(f.MaxTaint)
		if err != nil {
			add(line("max_taint"), "max_taint %q is not public, private or secret", f.MaxTaint)
		} else if g.Effect == Deny && m != Secret {
			add(line("max_taint"), `a deny grant must have max_taint = "secret": with %q it would stop denying once the session's taint rose above it`, f.MaxTaint)
		}
		g.MaxTaint = m
	} else if g.Effect == Deny {
		add(line("effect"), `a deny grant must have max_taint = "secret", so that it denies at every taint`)
	} else {
		add(line("max_taint"), "max_taint is missing: the highest session taint at which this grant applies (public, private or secret)")
	}

	if toolOK {
		switch {
		case tool.takesPaths():
			if f.Hosts != nil {
				add(line("hosts"), "hosts is for http_fetch grants; a %s grant names paths", tool)
			}
			if len(f.Paths) == 0 {
				add(line("paths"), "paths is missing: a %s grant names the absolute paths it covers", tool)
			}
		case tool == MCP:
			// What an MCP server answers is outside text unless the
			// grant says otherwise (D975).
			if f.Untrusted == nil {
				g.Untrusted = true
			}
			if f.Hosts != nil {
				add(line("hosts"), "hosts is not supported for mcp grants yet: a server runs with no network (remote servers are not supported yet; %s)", runbook.Link(runbook.MCPRemoteUnsupported))
			}
			if g.Effect == Deny && f.Paths != nil {
				add(line("paths"), "a deny mcp grant takes no paths: it denies the server's tools, and the paths a server is given come from its allow and ask grants")
			}
			for _, msg := range mcpGrantProblems(f.Server, f.MCPTools) {
				add(line(msg.key), "%s", msg.text)
			}
		case tool == HTTPFetch:
			if f.Paths != nil {
				add(line("paths"), "paths is not for http_fetch grants: an http_fetch grant names hosts")
			}
			if len(f.Hosts) == 0 {
				add(line("hosts"), "hosts is missing: an http_fetch grant names the hosts it covers")
			}
		default:
			if f.Paths != nil {
				add(line("paths"), "a %s grant takes no paths: it covers the tool as a whole", tool)
			}
			if f.Hosts != nil {
				add(line("hosts"), "a %s grant takes no hosts: it covers the tool as a whole", tool)
			}
		}
	}
	if toolOK && tool != MCP {
		if f.Server != "" {
			add(line("server"), "server is for mcp grants: a %s grant covers no MCP server", tool)
		}
		if f.MCPTools != nil {
			add(line("tools"), "tools is for mcp grants, naming an MCP server's tools: a %s grant covers %s alone", tool, tool)
		}
	}
	if f.HardLinks && toolOK && tool != ReadFile && tool != WriteFile {
		add(line("allow_hard_links"), "allow_hard_links is for read_file and write_file grants: a %s grant never refuses a linked file", tool)
	}
	for _, p := range f.Paths {
		if msg := pathProblem(p); msg != "" {
			add(valueLine(data, "paths", p), "%s", msg)
		}
	}
	for _, h := range f.Hosts {
		if msg := hostProblem(h); msg != "" {
			add(valueLine(data, "hosts", h), "%s", msg)
		}
	}
	if len(problems) > 0 {
		sortProblems(problems)
		return Grant{}, problems
	}
	g.Paths = append([]string(nil), f.Paths...)
	g.Hosts = append([]string(nil), f.Hosts...)
	g.Server = f.Server
	if f.MCPTools != nil {
		g.MCPTools = append([]string{}, f.MCPTools...)
	}
	return g, nil
}

// knownKeysOnly reads a grant file without its unknown keys. A key in
// another case ("Effect") is read as the key it means, so that its value
// is checked too, unless the file also has that key spelt right. ok is
// false when the rest does not decode.
func knownKeysOnly(data []byte) (f grantFile, ok bool) {
	var doc map[string]any
	if toml.Unmarshal(data, &doc) != nil {
		return grantFile{}, false
	}
	known := map[string]bool{}
	t := reflect.TypeOf(f)
	for i := 0; i < t.NumField(); i++ {
		known[t.Field(i).Tag.Get("toml")] = true
	}
	for k, v := range doc {
		if known[k] {
			continue
		}
		delete(doc, k)
		if lower := strings.ToLower(k); known[lower] {
			if _, spelt := doc[lower]; !spelt {
				doc[lower] = v
			}
		}
	}
	clean, err := toml.Marshal(doc)
	if err != nil || toml.Unmarshal(clean, &f) != nil {
		return grantFile{}, false
	}
	return f, true
}

// pathProblem says what is wrong with a grant path, or "".
func pathProblem(p string) string {
	switch {
	case p == "":
		return "a path is empty"
	case strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return fmt.Sprintf("path %q has a control character", p)
	case !strings.HasPrefix(p, "/"):
		return fmt.Sprintf("path %q is relative: grant paths are absolute", p)
	case p == "/":
		return `path "/" would grant the whole file system: grant the directories you mean`
	case strings.ContainsAny(p, ":,"):
		return fmt.Sprintf("path %q has a \":\" or \",\", which cannot be mounted", p)
	case strings.Contains(p, "//"):
		return fmt.Sprintf("path %q has a doubled slash: write it clean", p)
	case strings.HasSuffix(p, "/"):
		return fmt.Sprintf("path %q ends in a slash: write it clean", p)
	}
	for _, c := range strings.Split(p[1:], "/") {
		switch c {
		case "..":
			return fmt.Sprintf("path %q has a \"..\" component: write the path it means", p)
		case ".":
			return fmt.Sprintf("path %q has a \".\" component: write it clean", p)
		}
	}
	return ""
}

// Compiled at its first use, not at package init: a counted repetition
// compiles to a copy of its class per count, and every role's start paid
// for it (D362).
var dnsLabelRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`) })

// hostProblem says what is wrong with a grant host, or "".
func hostProblem(h string) string {
	bare := strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if hp, _, err := net.SplitHostPort(h); err == nil {
		bare = strings.TrimSuffix(strings.TrimPrefix(hp, "["), "]")
	}
	switch {
	case h == "":
		return "a host is empty"
	case strings.Contains(h, "://"):
		u, err := url.Parse(h)
		if err != nil || u.Hostname() == "" {
			return fmt.Sprintf("host %q is a URL: a grant names the host alone, without scheme, port or path", h)
		}
		return fmt.Sprintf("host %q is a URL: a grant names the host alone: write %q", h, strings.ToLower(u.Hostname()))
	case strings.Contains(h, "/"):
		host, _, _ := strings.Cut(h, "/")
		return fmt.Sprintf("host %q has a path: a grant names the host alone: write %q", h, host)
	case strings.ToLower(h) != h:
		return fmt.Sprintf("host %q has upper-case letters: write it in lower case", h)
	case net.ParseIP(bare) != nil || looksNumeric(bare):
		return fmt.Sprintf("host %q is an IP address: grants name hosts by their DNS names", h)
	case strings.Contains(h, ":"):
		return fmt.Sprintf("host %q has a port: grants name hosts without one", h)
	case len(h) > 253:
		return fmt.Sprintf("host %q is longer than a DNS name can be", h)
	}
	for _, l := range strings.Split(h, ".") {
		if !dnsLabelRE().MatchString(l) {
			return fmt.Sprintf("host %q is not a DNS name (letters a-z, digits and - in dot-separated labels)", h)
		}
	}
	return ""
}

// looksNumeric reports a name whose last label is all digits (or 0x hex):
// resolvers read "127.1" or "2130706433" as an IP address.
func looksNumeric(h string) bool {
	last := h[strings.LastIndex(h, ".")+1:]
	if last == "" {
		return false
	}
	if strings.HasPrefix(last, "0x") {
		_, err := strconv.ParseUint(last[2:], 16, 64)
		return err == nil
	}
	_, err := strconv.ParseUint(last, 10, 64)
	return err == nil
}

// keyLine finds the line that sets key, as `key = ...`, a dotted
// `key.x = ...`, or a table header [key] / [[key]]; failing that, the line
// that sets it spelt in another case ("Effect", read as effect). 0 when
// none does.
func keyLine(data []byte, key string) int {
	if n := keyLineExact(data, key); n > 0 {
		return n
	}
	for i, l := range strings.Split(string(data), "\n") {
		k, _, ok := strings.Cut(strings.TrimSpace(l), "=")
		if ok && strings.EqualFold(strings.Trim(strings.TrimSpace(k), `"'`), key) {
			return i + 1
		}
	}
	return 0
}

func keyLineExact(data []byte, key string) int {
	for i, l := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			h := strings.TrimSpace(strings.Trim(t, "[]"))
			if h == key || strings.HasPrefix(h, key+".") {
				return i + 1
			}
			continue
		}
		k, _, ok := strings.Cut(t, "=")
		if !ok {
			continue
		}
		k = strings.Trim(strings.TrimSpace(k), `"'`)
		if k == key || strings.HasPrefix(k, key+".") {
			return i + 1
		}
	}
	return 0
}

// valueLine finds the line of one string value of an array, which may span
// lines; the key's line when the value cannot be found as written.
func valueLine(data []byte, key, value string) int {
	start := keyLine(data, key)
	if start == 0 {
		return 0
	}
	lines := strings.Split(string(data), "\n")
	quoted := []string{strconv.Quote(value), "'" + value + "'"}
	for i := start - 1; i < len(lines); i++ {
		for _, q := range quoted {
			if strings.Contains(lines[i], q) {
				return i + 1
			}
		}
		if i > start-1 && strings.Contains(lines[i], "=") {
			break
		}
	}
	return start
}

// sortProblems orders problems by line, keeping the order of equal lines,
// so that messages read in file order and those with no line come first.
func sortProblems(ps []Problem) {
	slices.SortStableFunc(ps, func(a, b Problem) int { return a.Line - b.Line })
}
