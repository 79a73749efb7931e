// Package policy decides the model's tool calls against the grants: the
// TOML files of the grants directory, read again (or proven unchanged) at
// every call. It knows nothing of sockets, the audit log or the runner;
// brokerd records what Decide returns and runs what it allowed, on the
// target Decide resolved.
//
// # Grant files
//
// A grant is one file named [a-z0-9-]+.toml in the grants directory:
//
//	tool = "read_file"           # read_file, write_file, list_dir, run, http_fetch, recall, memory, yaag_run, yaag_status, yaag_stop, yaag_pause
//	effect = "allow"             # allow, ask or deny
//	paths = ["/home/owner/src"]  # file tools and run: absolute, clean, not "/", no ":" or ","
//	hosts = ["docs.python.org"]  # http_fetch only: lower-case DNS names, no port, no IP
//	class = "private"            # what the data it yields is: public, private or secret
//	max_taint = "private"        # applies only while the session's taint is at most this
//	untrusted = false            # results through it make the session untrusted
//	server = "notes"             # mcp only: the MCP server whose tools it covers
//	tools = ["read_text_file"]   # mcp only: those tools (absent: all of them)
//
// Hidden files and editor leftovers (names starting with "." or "#", or
// ending in "~") are ignored; every other entry of the directory must be a
// valid grant file, or every call is denied. docs/specs/grants.md is the
// full reference: validation, matching, target resolution and caching.
package policy

import (
	"fmt"
)

// Tool names a tool the model can call.
type Tool string

// The tools. A call naming anything else is denied.
const (
	ReadFile  Tool = "read_file"
	WriteFile Tool = "write_file"
	ListDir   Tool = "list_dir"
	Run       Tool = "run"
	HTTPFetch Tool = "http_fetch"
	Recall    Tool = "recall"
	Memory    Tool = "memory"
	// The yaag tools: yaag_run runs a program (a file, or an inline script
	// in a directory), decided on the program's directory; yaag_status,
	// yaag_stop and yaag_pause read, end and pause Runs through their
	// records and Control Channels.
	YaagRun    Tool = "yaag_run"
	YaagStatus Tool = "yaag_status"
	YaagStop   Tool = "yaag_stop"
	YaagPause  Tool = "yaag_pause"
	// YaagSetupWorkspace writes .yaag/types/ (the editor declarations) in
	// a directory, as `yaag setup-workspace` does: a path tool, decided on
	// the directory, run in the tools container as write_file is.
	YaagSetupWorkspace Tool = "yaag_setup_workspace"
	// MCP is the grants' name for the tools of MCP servers (mcp.go): a
	// grant of it names a server and some or all of its tools; a call
	// names one as mcp__<server>__<tool>.
	MCP Tool = "mcp"
)

// Tools lists every tool, in the order the docs give them.
var Tools = []Tool{ReadFile, WriteFile, ListDir, Run, HTTPFetch, Recall, Memory, YaagRun, YaagStatus, YaagStop, YaagPause, YaagSetupWorkspace, MCP}

// takesPaths reports whether a tool's grants name paths (and its target is
// a path on the host).
func (t Tool) takesPaths() bool {
	return t == ReadFile || t == WriteFile || t == ListDir || t == Run || t == YaagRun || t == YaagSetupWorkspace
}

func knownTool(s string) (Tool, bool) {
	for _, t := range Tools {
		if string(t) == s {
			return t, true
		}
	}
	return "", false
}

// Effect is what a grant does to the calls it matches, and so the verdict
// of a decision.
type Effect string

// The effects, in the order they beat each other: deny beats ask beats allow.
const (
	Allow Effect = "allow"
	Ask   Effect = "ask"
	Deny  Effect = "deny"
)

func (e Effect) rank() int {
	switch e {
	case Allow:
		return 1
	case Ask:
		return 2
	default:
		return 3
	}
}

// Taint is how sensitive the data a session has seen is, and what a
// grant's data is: public < private < secret.
type Taint int8

// The taints, lowest first. The zero value is Public: a new session.
const (
	Public Taint = iota
	Private
	Secret
)

var taintNames = [...]string{"public", "private", "secret"}

func (t Taint) String() string {
	if t < Public || t > Secret {
		return fmt.Sprintf("taint(%d)", int8(t))
	}
	return taintNames[t]
}

// ParseTaint reads "public", "private" or "secret" (lower case only).
func ParseTaint(s string) (Taint, error) {
	for i, n := range taintNames {
		if s == n {
			return Taint(i), nil
		}
	}
	return Public, fmt.Errorf("taint %q is not public, private or secret", s)
}

// IsTaint reports whether s is a taint's name, as ParseTaint reads it: a
// class on the wire or in a file is one of these or is refused.
func IsTaint(s string) bool {
	_, err := ParseTaint(s)
	return err == nil
}

// MarshalText writes the taint's name, as session state files hold it.
func (t Taint) MarshalText() ([]byte, error) {
	if t < Public || t > Secret {
		return nil, fmt.Errorf("no such taint %d", int8(t))
	}
	return []byte(t.String()), nil
}

// UnmarshalText reads a taint's name strictly.
func (t *Taint) UnmarshalText(b []byte) error {
	v, err := ParseTaint(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// MaxTaint is the higher of two taints.
func MaxTaint(a, b Taint) Taint {
	if a > b {
		return a
	}
	return b
}

// State is a session's state as brokerd keeps it in
// broker/sessions/<id>.json: {"taint":"private","untrusted":false}.
type State struct {
	Taint     Taint `json:"taint"`
	Untrusted bool  `json:"untrusted"`
}

// Raise returns the state after data of class, through a grant that says
// untrusted or not, reached the session. It never lowers anything: taint
// only rises within a session and untrusted is never cleared.
func (s State) Raise(class Taint, untrusted bool) State {
	return State{Taint: MaxTaint(s.Taint, class), Untrusted: s.Untrusted || untrusted}
}

// After is the state once the tool a decision allowed has run.
func (s State) After(d Decision) State {
	if d.Verdict == Deny {
		return s
	}
	return s.Raise(d.Class, d.Untrusted)
}

// Call is a tool call as the policy sees it: the tool's name exactly as the
// model wrote it, and its target (a path for the file tools and run, a URL
// for http_fetch, ignored for recall and memory). It deliberately has no
// other field: a grant name or a taint the model puts in a call never
// reaches a decision.
type Call struct {
	Tool   string
	Target string
}

// Decision is the verdict on one call.
type Decision struct {
	Verdict Effect
	// Grant is the file name of the grant that decided ("read-src.toml"),
	// or "" when no grant matched (or the grants have an error).
	Grant string
	// Class and Untrusted are the deciding grant's; the session's state is
	// raised by them once the tool has run (State.After).
	Class     Taint
	Untrusted bool
	// Target is what the call acts on, resolved on the host: for the file
	// tools and run, the clean path with every symlink resolved (for a
	// write_file of a new file, its resolved directory joined with its
	// name); for http_fetch, the normalised URL. The runner must act on
	// this, never on the call's own target. "" when it could not be
	// resolved.
	Target string
	// Reason says why, in words fit for the model and the operator.
	Reason string
	// HardLinks: the deciding grant allows a file with more than one link
	// (allow_hard_links); the runner refuses one otherwise.
	HardLinks bool
	// Masks are, for an allowed or asked run call, the paths below its
	// target that deny grants of run, read_file, list_dir or write_file
	// cover: the runner keeps them from the container.
	Masks []Mask
	// ClassGrant and ClassPath, for a run call whose Class is above its
	// deciding grant's, name the grant that raised it and the path of
	// that grant the run's tree overlaps (reachClass).
	ClassGrant, ClassPath string
	// Err is set only when the grant files have an error: a
	// *runbook.Refusal (grants-invalid) whose cause is an *InvalidError
	// listing every problem.
	Err error
}
