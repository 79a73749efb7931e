// Package mcpconf reads the MCP servers the owner declares: one TOML file
// per server in the MCP servers directory ([paths] mcp of brokerd.toml,
// by default "mcp" beside the grants directory), named <name>.toml, the
// name being [a-z0-9-]+ and at most 32 characters. docs/mcp.md is the
// owner's page; the format is:
//
//	image = "localhost/mcp-ref@sha256:<64 hex>"   # pinned by digest, never pulled
//	command = ["node", "/app/server.js", "/data"] # the argv run in the image
//	paths = ["/home/owner/notes"]                 # what it may be given (grants decide)
//	hosts = ["api.example.org"]                   # the same for hosts
//
//	[env]                                         # plain values, never secrets
//	MEMORY_FILE_PATH = "/data/memory.jsonl"
//
//	[secrets.GITHUB_TOKEN]                        # given as $GITHUB_TOKEN
//	credential = "github-token"                   # one source, as core/secrets reads it
//
// A file is read strictly: an unknown key, a key in another case and a
// value of the wrong type are problems, each reported as
// <file>:<line>: <problem> with every other problem of the file. A file
// with a problem makes that server unavailable (runbook entry
// mcp-server-invalid); the other servers are not affected, and nothing
// here stops the broker.
//
// This package reads declarations only. It links no MCP protocol code:
// that is core/mcp, which brokerd reaches through an interface.
package mcpconf

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"boxmaker/core/conf"
	"boxmaker/core/patherror"
	"boxmaker/core/policy"
	"boxmaker/core/secrets"
	"boxmaker/runbook"
)

// Server is one valid server file.
type Server struct {
	Name    string   // the file's name without ".toml"
	Image   string   // name@sha256:<64 hex>
	Command []string // argv in the image
	// Env are the plain variables the server is given; Secrets the
	// variables whose values are read from a source when it starts, by
	// the variable's name. No name is in both.
	Env     map[string]string
	Secrets map[string]secrets.Source
	Paths   []string // the most it may be given; grants decide what it is
	Hosts   []string
}

// serverFile is the TOML shape.
type serverFile struct {
	Image   string                    `toml:"image"`
	Command []string                  `toml:"command"`
	Env     map[string]string         `toml:"env"`
	Secrets map[string]secrets.Source `toml:"secrets"`
	Paths   []string                  `toml:"paths"`
	Hosts   []string                  `toml:"hosts"`
}

// MaxFileSize bounds one server file: a declaration is a few lines.
const MaxFileSize = 64 << 10

// MaxNameLen bounds a server's name: the model sees its tools as
// mcp__<server>__<tool>, and tool names are short.
const MaxNameLen = 32

var (
	fileNameRE = regexp.MustCompile(`^[a-z0-9-]+\.toml$`)
	// A reference pinned by digest, without a tag: a tag beside a digest
	// is ignored by Podman and would only mislead a reader.
	imageRE   = regexp.MustCompile(`^(?:[a-z0-9]+(?:[.-]+[a-z0-9]+)*(?::[0-9]+)?/)?[a-z0-9]+(?:[._-]+[a-z0-9]+)*(?:/[a-z0-9]+(?:[._-]+[a-z0-9]+)*)*@sha256:[0-9a-f]{64}$`)
	envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	digestRE  = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
)

// ValidName says whether name can be a server's: [a-z0-9-]+, at most
// MaxNameLen characters.
func ValidName(name string) bool {
	return len(name) <= MaxNameLen && fileNameRE.MatchString(name+".toml")
}

// Parse reads one server file, fileName being its name in the directory.
// It returns every problem it finds, in line order, and a Server only when
// there are none.
func Parse(fileName string, data []byte) (Server, []policy.Problem) {
	return parse(fileName, data, nil)
}

// parse is Parse, with the paths also held against the harness's
// directories when protected is not nil.
func parse(fileName string, data []byte, protected *policy.Protected) (Server, []policy.Problem) {
	var problems []policy.Problem
	add := func(line int, format string, args ...any) {
		problems = append(problems, policy.Problem{File: fileName, Line: line, Text: fmt.Sprintf(format, args...)})
	}
	name := strings.TrimSuffix(fileName, ".toml")
	switch {
	case !fileNameRE.MatchString(fileName):
		add(0, "the file name %q is not [a-z0-9-]+.toml: a server's file is named for the server, in [a-z0-9-]+", fileName)
	case len(name) > MaxNameLen:
		add(0, "the server's name %q is longer than %d characters", name, MaxNameLen)
	}
	if !utf8.Valid(data) {
		add(0, "the file is not UTF-8 text")
		return Server{}, problems
	}
	var f serverFile
	if err := conf.Decode(fileName, data, &f); err != nil {
		var inv *conf.InvalidError
		if !errors.As(err, &inv) {
			add(0, "%v", err)
			return Server{}, problems
		}
		onlyKeys := true
		for _, p := range inv.Problems {
			add(p.Line, "%s", p.Text)
			onlyKeys = onlyKeys && strings.HasPrefix(p.Text, "unknown key ")
		}
		if !onlyKeys {
			// A syntax or type error leaves nothing sure to read.
			return Server{}, problems
		}
	}
	line := func(key string) int { return policy.KeyLine(data, key) }

	switch {
	case f.Image == "":
		add(0, `image is missing: the image the server runs from, pinned by digest (name@sha256:<64 hex>)`)
	case !imageRE.MatchString(f.Image):
		add(line("image"), "%s", imageProblem(f.Image))
	}

	if len(f.Command) == 0 {
		add(line("command"), `command is missing: the argv the server runs in its image, as ["program", "arg", ...]`)
	}
	for i, a := range f.Command {
		switch {
		case a == "":
			add(line("command"), "command[%d] is empty", i)
		case strings.ContainsFunc(a, isControl):
			add(line("command"), "command[%d] %q has a control character", i, a)
		}
	}

	for _, k := range sortedKeys(f.Env) {
		v := f.Env[k]
		switch {
		case !envNameRE.MatchString(k):
			add(line("env"), "env %q is not an environment variable's name (letters, digits and _, not starting with a digit)", k)
		case strings.ContainsRune(v, 0):
			add(line(k), "env %s has a NUL byte", k)
		}
	}
	for _, k := range sortedKeys(f.Secrets) {
		l := line("secrets." + k)
		if !envNameRE.MatchString(k) {
			add(l, "secrets.%s: the secret's name is the variable the server is given, so it is an environment variable's name (letters, digits and _, not starting with a digit)", k)
		}
		if err := f.Secrets[k].Check(); err != nil {
			add(l, "secrets.%s %v", k, err)
		}
		if _, both := f.Env[k]; both {
			add(l, "%s is both in [env] and a secret: name it once", k)
		}
	}

	seen := map[string]bool{}
	for _, p := range f.Paths {
		if msg := policy.PathProblem(p); msg != "" {
			add(policy.ValueLine(data, "paths", p), "%s", msg)
		} else if seen[p] {
			add(policy.ValueLine(data, "paths", p), "path %q is named twice", p)
		} else if h, rel := protectedPath(protected, p); rel != "" {
			add(policy.ValueLine(data, "paths", p), "path %q %s %s (%s): the harness's own files can never be given to a server", p, rel, h.What, h.Path)
		}
		seen[p] = true
	}
	for _, h := range f.Hosts {
		if msg := policy.HostProblem(h); msg != "" {
			add(policy.ValueLine(data, "hosts", h), "%s", msg)
		} else if seen["host:"+h] {
			add(policy.ValueLine(data, "hosts", h), "host %q is named twice", h)
		}
		seen["host:"+h] = true
	}
	if len(problems) > 0 {
		sortProblems(problems)
		return Server{}, problems
	}
	return Server{
		Name: name, Image: f.Image, Command: slices.Clone(f.Command),
		Env: f.Env, Secrets: f.Secrets,
		Paths: slices.Clone(f.Paths), Hosts: slices.Clone(f.Hosts),
	}, nil
}

// imageProblem says why image is not a reference pinned by digest.
func imageProblem(image string) string {
	name, digest, pinned := strings.Cut(image, "@")
	switch {
	case !pinned:
		return fmt.Sprintf("image %q is not pinned by digest: write name@sha256:<64 hex> (podman image inspect --format '{{.Digest}}' %s), so that the image run is the image declared", image, image)
	case !digestRE.MatchString(digest):
		return fmt.Sprintf("image %q: the digest is not sha256:<64 lower-case hex>", image)
	case strings.Contains(name[strings.LastIndex(name, "/")+1:], ":"):
		return fmt.Sprintf("image %q has a tag beside its digest: Podman ignores the tag, so write the name and digest alone", image)
	}
	return fmt.Sprintf("image %q: %q is not an image name (lower-case letters, digits, . _ - and / between parts, an optional :port after the registry)", image, name)
}

func protectedPath(protected *policy.Protected, p string) (policy.Harness, string) {
	if protected == nil {
		return policy.Harness{}, ""
	}
	return protected.Path(p)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func sortProblems(ps []policy.Problem) {
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
}

// Report is one reading of the MCP servers directory.
type Report struct {
	Dir     string
	Servers map[string]Server // the valid ones, by name
	// Invalid are the servers whose file has a problem, by name, each
	// with its problems.
	Invalid map[string][]policy.Problem
	// Problems are every problem, in file name order: the invalid
	// servers' and those of entries that are no server file at all (a
	// subdirectory, a link, README), which make no server unavailable
	// but are still wrong.
	Problems []policy.Problem
	// Missing is true when the directory does not exist: no server is
	// declared, which is no problem.
	Missing bool
}

// Load reads every server file of dir. A grant-like path of a server that
// is, contains or lies inside one of the harness's directories is a
// problem of that server. A directory that does not exist declares no
// server; one that cannot be read is a problem of its own.
func Load(dir string, harness ...policy.Harness) Report {
	r := Report{Dir: dir, Servers: map[string]Server{}, Invalid: map[string][]policy.Problem{}}
	d, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		r.Missing = true
		return r
	}
	if err != nil {
		r.Problems = []policy.Problem{{File: dir, Text: "cannot read the MCP servers directory: " + patherror.Reason(err).Error()}}
		return r
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		r.Problems = []policy.Problem{{File: dir, Text: "cannot read the MCP servers directory: " + err.Error()}}
		return r
	}
	sort.Strings(names)
	protected := policy.Protect(harness)
	for _, fileName := range names {
		if strings.HasPrefix(fileName, ".") || strings.HasPrefix(fileName, "#") || strings.HasSuffix(fileName, "~") {
			continue
		}
		data, ps := readEntry(int(d.Fd()), fileName)
		var s Server
		if ps == nil {
			s, ps = parse(fileName, data, protected)
		}
		r.Problems = append(r.Problems, ps...)
		if !strings.HasSuffix(fileName, ".toml") {
			continue // not a server's file: no server to make unavailable
		}
		name := strings.TrimSuffix(fileName, ".toml")
		if len(ps) > 0 {
			r.Invalid[name] = ps
		} else {
			r.Servers[name] = s
		}
	}
	return r
}

// readEntry reads one entry of the directory, which must be a regular
// file, not a link, of one link, named *.toml and small.
func readEntry(dirfd int, name string) ([]byte, []policy.Problem) {
	bad := func(format string, args ...any) []policy.Problem {
		return []policy.Problem{{File: name, Text: fmt.Sprintf(format, args...)}}
	}
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nil, bad("cannot read it: %v", err)
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFDIR:
		return nil, bad("a directory: servers are read from the MCP servers directory itself; move it out")
	case unix.S_IFLNK:
		return nil, bad("a symbolic link: a server's file must be a regular file in the MCP servers directory")
	default:
		return nil, bad("not a regular file: only server files belong in the MCP servers directory")
	}
	if !strings.HasSuffix(name, ".toml") {
		return nil, bad("not a server file: server files are named [a-z0-9-]+.toml, and other files do not belong in the MCP servers directory")
	}
	if st.Nlink > 1 {
		return nil, bad("has %d hard links: a file changed through another link could go unseen; copy it instead", st.Nlink)
	}
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, bad("cannot read it: %v", err)
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, bad("changed while being read; check again")
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, bad("cannot read it: %v", err)
	}
	if len(data) > MaxFileSize {
		return nil, bad("larger than %d KiB: not a server file", MaxFileSize>>10)
	}
	return data, nil
}

// Server is the named server, ready to be used: an unknown name is an
// error, and an invalid file is an mcp-server-invalid refusal that names
// its problems (the cause) while the other servers stay available.
func (r Report) Server(name string) (Server, error) {
	if s, ok := r.Servers[name]; ok {
		return s, nil
	}
	if ps, ok := r.Invalid[name]; ok {
		return Server{}, runbook.WithCause(runbook.MCPServerInvalid,
			fmt.Sprintf("the MCP server %s is unavailable: its file %s.toml has %d %s", name, name, len(ps), plural(len(ps), "problem", "problems")),
			&policy.InvalidError{Problems: ps})
	}
	return Server{}, fmt.Errorf("no MCP server is named %q in %s", name, r.Dir)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
