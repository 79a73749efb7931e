// Package mcpserve runs MCP servers for brokerd's sessions: one server
// process per (session, server), in a container of the tools' lockdown
// (core/runner.StartMCP) with exactly the paths decided for it
// (policy.MCPPlan), its [secrets] given as variables, spoken to through
// core/mcp. brokerd reaches it through core/broker's MCP interface; the
// decision, the records and the taint are brokerd's.
//
// A server is started when a session first calls one of its tools, and
// its list is judged against what the owner accepted (core/mcppin)
// before any call: any difference withholds every tool of the server
// (mcp-tools-withheld), as does a notifications/tools/list_changed after
// which the list, read again, differs. It is stopped when idle for
// [mcp] idle_ms, when a call's plan (its mounts) is not the one it
// started with, when a call hangs past [mcp] call_timeout_ms or the
// server ends or floods its output (mcp-call-failed), and when brokerd
// stops (Close). Its container carries the runner's labels, so brokerd's
// start-up clean-up removes what a killed brokerd left.
package mcpserve

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"boxmaker/core/brokerwire"
	"boxmaker/core/mcp"
	"boxmaker/core/mcpconf"
	"boxmaker/core/mcppin"
	"boxmaker/core/policy"
	"boxmaker/core/runner"
	"boxmaker/core/secrets"
	"boxmaker/runbook"
	"boxmaker/sanitize"
)

// Starter starts a server's container (core/runner's *Runner).
type Starter interface {
	StartMCP(ctx context.Context, s runner.MCPServe) (*runner.MCPStarted, error)
	ContainerName(id string) string
}

// Config is what a Pool works with.
type Config struct {
	Runner Starter
	Home   string // where the acceptances are (core/mcppin)
	// Dir is the MCP servers directory, read again at every call;
	// Harness the directories no server may be given.
	Dir     string
	Harness []policy.Harness
	Secrets secrets.Env
	// Idle, CallTimeout and Lifetime are [mcp]'s (conf.BrokerdMCP).
	Idle, CallTimeout, Lifetime time.Duration
	// OutputLimit bounds the text of one answer ([runner] output_limit).
	OutputLimit int
	// MaxServers bounds the servers running at once ([mcp] max_servers;
	// 0: 8), each holding one of the runner's container slots.
	MaxServers int
	Log        func(format string, args ...any)
}

// Pool holds the running servers. It is safe for concurrent use.
type Pool struct {
	cfg     Config
	mu      sync.Mutex
	procs   map[key]*proc
	done    chan struct{}
	closing sync.Once
	wg      sync.WaitGroup
}

type key struct{ session, server string }

// proc is one server process of one session.
type proc struct {
	mu      sync.Mutex // held by a call and by the reaper while it stops it
	sess    *mcp.Session
	started *runner.MCPStarted
	plan    policy.MCPPlan
	used    time.Time
	changed atomic.Bool // notifications/tools/list_changed since the last judging
	stopped bool
}

// New starts the pool's reaper of idle servers.
func New(cfg Config) *Pool {
	if cfg.Log == nil {
		cfg.Log = func(string, ...any) {}
	}
	if cfg.MaxServers <= 0 {
		cfg.MaxServers = 8
	}
	if cfg.OutputLimit <= 0 {
		cfg.OutputLimit = 1 << 20
	}
	p := &Pool{cfg: cfg, procs: map[key]*proc{}, done: make(chan struct{})}
	every := min(max(cfg.Idle/4, 50*time.Millisecond), 30*time.Second)
	p.wg.Add(1)
	go p.reap(every)
	return p
}

// Server is what brokerd decides a call of server's tool on: its
// declared paths. An error says why no tool of it may be called: its
// file is invalid or missing, it needs the network, its tools were never
// accepted or its declaration changed since, a running server was seen
// to list others (a drift), or the tool is not one accepted. (A list
// that changes during a session is judged by Call, before it sends
// anything.)
func (p *Pool) Server(server, tool string) (declared []string, err error) {
	s, acc, err := p.accepted(server)
	if err != nil {
		return nil, err
	}
	if _, ok := acc.Tools[tool]; !ok {
		return nil, runbook.Refuse(runbook.MCPToolsWithheld, "%s is not a tool of the MCP server %s that the owner accepted", tool, server)
	}
	return s.Paths, nil
}

// accepted reads the server's declaration and acceptance and judges the
// declaration against it.
func (p *Pool) accepted(server string) (mcpconf.Server, mcppin.Acceptance, error) {
	s, err := mcpconf.Load(p.cfg.Dir, p.cfg.Harness...).Server(server)
	if err != nil {
		var r *runbook.Refusal
		if errors.As(err, &r) {
			return s, mcppin.Acceptance{}, err
		}
		return s, mcppin.Acceptance{}, runbook.WithCause(runbook.MCPServerInvalid, fmt.Sprintf("there is no MCP server %s", server), err)
	}
	if len(s.Hosts) > 0 {
		return s, mcppin.Acceptance{}, runbook.Refuse(runbook.MCPRemoteUnsupported,
			"the MCP server %s names hosts, and servers with the network are not supported yet", server)
	}
	acc, ok, err := mcppin.Load(p.cfg.Home, server)
	switch {
	case err != nil:
		return s, acc, runbook.WithCause(runbook.MCPToolsWithheld, fmt.Sprintf("the tools of the MCP server %s are withheld: its acceptance cannot be read", server), err)
	case !ok:
		return s, acc, runbook.Refuse(runbook.MCPToolsWithheld, "the tools of the MCP server %s are withheld: its tools were never accepted", server)
	}
	if v := mcppin.Judge(&acc, s, mcppin.Listed{Hash: acc.Hash, Tools: acc.Tools}); v.Withheld != "" {
		return s, acc, runbook.Refuse(runbook.MCPToolsWithheld, "the tools of the MCP server %s are withheld: %s", server, v.Withheld)
	}
	if why, drifted := mcppin.Drift(p.cfg.Home, server); drifted {
		// The record names the server's tools, its own words: the
		// owner's to read (bxctl mcp tools), never the model's.
		return s, acc, runbook.WithCause(runbook.MCPToolsWithheld, fmt.Sprintf("the tools of the MCP server %s are withheld: while it ran, it listed tools other than the ones accepted; they stay withheld until they are accepted again", server), errors.New(why))
	}
	return s, acc, nil
}

// Offer is every tool the owner accepted, of every server whose
// declaration is still the one accepted and whose whole name fits,
// sorted by name, each description's chat-template tags neutralised.
// Grants are brokerd's to apply.
func (p *Pool) Offer() []brokerwire.MCPTool {
	rep := mcpconf.Load(p.cfg.Dir, p.cfg.Harness...)
	out := []brokerwire.MCPTool{}
	for n := range rep.Servers {
		_, acc, err := p.accepted(n)
		if err != nil {
			continue
		}
		for _, d := range acc.Defs {
			name := policy.MCPName(n, d.Name)
			if _, ok := acc.Tools[d.Name]; !ok {
				continue
			}
			if _, _, ok := policy.SplitMCP(name); !ok {
				continue // too long, or not a name a call can carry
			}
			desc := d.Description
			if desc == "" {
				desc = d.Title
			}
			out = append(out, brokerwire.MCPTool{Name: name, Description: sanitize.Neutralise(desc), InputSchema: neutraliseSchema(d.InputSchema)})
		}
	}
	slices.SortFunc(out, func(a, b brokerwire.MCPTool) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// neutraliseSchema is an input schema with the chat-template tags of
// every string in it (keys, descriptions, enums, however the JSON
// spells them) neutralised: the chat template writes the schema into
// the prompt as it writes the description. One that does not read as
// JSON is an empty object's schema (loopd offers such a one anyway).
func neutraliseSchema(raw json.RawMessage) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	if dec.Decode(&tree) != nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(neutraliseTree(tree)) != nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	return json.RawMessage(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

func neutraliseTree(v any) any {
	switch v := v.(type) {
	case string:
		return sanitize.Neutralise(v)
	case []any:
		for i := range v {
			v[i] = neutraliseTree(v[i])
		}
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[sanitize.Neutralise(k)] = neutraliseTree(x)
		}
		return out
	}
	return v
}

// Call runs one call of a server's tool for a session, starting the
// server when the session has none running. plan is what the server's
// container is given, as decided for this call: a running server given
// another plan is stopped and started again with this one. mounted is
// what the container was given, object by object, when this call
// started it; notes say a text was cut at its limit. Its errors are
// refusals: mcp-call-failed (the server did not start, hung, ended or
// flooded), mcp-tools-withheld (its list is not the one accepted), or
// what the runner says.
func (p *Pool) Call(ctx context.Context, session, callID, server, tool string, args json.RawMessage, plan policy.MCPPlan) (text string, notes, mounted []string, err error) {
	s, acc, err := p.accepted(server)
	if err != nil {
		return "", nil, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, p.cfg.CallTimeout)
	defer cancel()
	k := key{session, server}
	pr, mounted, err := p.proc(ctx, k, s, acc, plan)
	if err != nil {
		return "", nil, nil, err
	}
	defer pr.mu.Unlock()
	if pr.changed.Swap(false) {
		p.cfg.Log("MCP server %s of session %s said its tool list changed; it is judged again", server, session)
		if err := p.judge(ctx, pr, s, acc); err != nil {
			p.stop(k, pr)
			return "", nil, nil, err
		}
	}
	res, err := pr.sess.Call(ctx, tool, args)
	pr.used = time.Now()
	if err != nil {
		return "", nil, nil, p.callFailed(k, pr, tool, err)
	}
	text = res.Text
	if res.IsError {
		text = "error: " + text
	}
	if len(text) > p.cfg.OutputLimit {
		cut := p.cfg.OutputLimit
		for cut > 0 && !utf8RuneStart(text[cut]) {
			cut--
		}
		note := fmt.Sprintf("[boxmaker: the MCP server's answer truncated: %d bytes, the first %d shown]", len(text), cut)
		text = text[:cut] + "\n" + note
		notes = append(notes, note)
	}
	return sanitize.Neutralise(text), notes, mounted, nil
}

// callFailed is the refusal of a call that got no answer; a server that
// hung or ended is stopped (the next call starts another).
func (p *Pool) callFailed(k key, pr *proc, tool string, err error) error {
	var ce *mcp.CallError
	if !errors.As(err, &ce) {
		return err
	}
	switch ce.Why {
	case mcp.WhyCancelled:
		// The server was told (notifications/cancelled); it goes on.
		return runbook.WithCause(runbook.MCPCallFailed, fmt.Sprintf("the call of %s was cancelled: its caller went", policy.MCPName(k.server, tool)), err)
	case mcp.WhyTimeout:
		p.stop(k, pr)
		return runbook.WithCause(runbook.MCPCallFailed, fmt.Sprintf("the MCP server %s gave no answer within %v ([mcp] call_timeout_ms), so it was stopped", k.server, p.cfg.CallTimeout), err)
	case mcp.WhyEnded:
		p.stop(k, pr)
		return runbook.WithCause(runbook.MCPCallFailed, fmt.Sprintf("the MCP server %s ended during the call, or wrote a message over the limit", k.server), err)
	}
	return runbook.WithCause(runbook.MCPCallFailed, fmt.Sprintf("the MCP server %s answered the call with a protocol error", k.server), err)
}

const (
	maxNamedChanges = 8
	maxNamedBytes   = 64
)

// operatorName is a tool's name as a server gave it, for a log line and
// a record: as it is when it is made of a tool name's characters
// (letters, digits, _ . -), else quoted (control and invisible characters escaped);
// cut at maxNamedBytes either way.
func operatorName(n string) string {
	cut := len(n) > maxNamedBytes
	if cut {
		n = n[:maxNamedBytes]
		for len(n) > 0 && !utf8.ValidString(n) {
			n = n[:len(n)-1]
		}
	}
	if n == "" || strings.TrimFunc(n, isToolNameRune) != "" {
		n = strconv.QuoteToASCII(n)
	}
	if cut {
		n += "..."
	}
	return n
}

func isToolNameRune(r rune) bool {
	return r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-')
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// proc is the session's running server, locked, started (or started
// again) for the call's plan when needed. mounted is what a start gave
// the container.
func (p *Pool) proc(ctx context.Context, k key, s mcpconf.Server, acc mcppin.Acceptance, plan policy.MCPPlan) (*proc, []string, error) {
	for {
		p.mu.Lock()
		pr := p.procs[k]
		if pr == nil && len(p.procs) >= p.cfg.MaxServers {
			// Each server holds a container slot of [runner]'s budget as
			// long as it runs: the oldest idle one makes room, or the
			// call fails rather than starve the file tools.
			old, oldKey := p.leastUsedIdle()
			p.mu.Unlock()
			if old == nil {
				return nil, nil, runbook.Refuse(runbook.MCPCallFailed, "the MCP server %s cannot start: %d servers run ([mcp] max_servers), each busy with a call", k.server, p.cfg.MaxServers)
			}
			p.cfg.Log("MCP server %s of session %s stopped to make room ([mcp] max_servers %d)", oldKey.server, oldKey.session, p.cfg.MaxServers)
			p.stop(oldKey, old)
			old.mu.Unlock()
			continue
		}
		if pr == nil {
			pr = &proc{}
			pr.mu.Lock()
			p.procs[k] = pr
			p.mu.Unlock()
			if err := p.start(ctx, k, pr, s, acc, plan); err != nil {
				p.mu.Lock()
				delete(p.procs, k)
				p.mu.Unlock()
				pr.stopped = true
				pr.mu.Unlock()
				return nil, nil, err
			}
			return pr, pr.started.Mounted, nil
		}
		p.mu.Unlock()
		pr.mu.Lock()
		if pr.stopped {
			pr.mu.Unlock()
			continue // the reaper took it meanwhile
		}
		if !reflect.DeepEqual(pr.plan, plan) {
			// The grants or the session's taint changed what the server
			// is given: what runs must be what was decided.
			p.cfg.Log("MCP server %s of session %s: its paths are decided otherwise now; it is started again", k.server, k.session)
			p.stop(k, pr)
			pr.mu.Unlock()
			continue
		}
		return pr, nil, nil
	}
}

// leastUsedIdle is the running server unused the longest that no call
// holds, locked, with its key; nil when every one is busy. p.mu is held.
func (p *Pool) leastUsedIdle() (*proc, key) {
	var best *proc
	var bestKey key
	for k, pr := range p.procs {
		if !pr.mu.TryLock() {
			continue
		}
		if best == nil || pr.used.Before(best.used) {
			if best != nil {
				best.mu.Unlock()
			}
			best, bestKey = pr, k
			continue
		}
		pr.mu.Unlock()
	}
	return best, bestKey
}

// start starts the server's container and judges its list.
func (p *Pool) start(ctx context.Context, k key, pr *proc, s mcpconf.Server, acc mcppin.Acceptance, plan policy.MCPPlan) error {
	env := make([]string, 0, len(s.Env))
	for n, v := range s.Env {
		env = append(env, n+"="+v)
	}
	sort.Strings(env)
	var given []string
	for _, n := range sortedKeys(s.Secrets) {
		v, err := secrets.Read(n, s.Secrets[n], p.cfg.Secrets)
		if err != nil {
			return runbook.WithCause(runbook.MCPCallFailed, fmt.Sprintf("the MCP server %s cannot start: its secret %s cannot be read", k.server, n), err)
		}
		given = append(given, n+"="+v.Reveal())
	}
	var b [4]byte
	rand.Read(b[:])
	name := p.cfg.Runner.ContainerName("mcp-" + k.session + "-" + k.server + "-" + hex.EncodeToString(b[:]))
	st, err := p.cfg.Runner.StartMCP(ctx, runner.MCPServe{Name: name, Image: s.Image, Argv: s.Command, Env: env, Secrets: given,
		Mounts: plan.Mounts, Lifetime: p.cfg.Lifetime})
	if err != nil {
		return err
	}
	sess, err := mcp.Connect(ctx, st.Cmd, mcp.Options{StartTimeout: p.cfg.CallTimeout, ToolsChanged: func() { pr.changed.Store(true) }})
	if err != nil {
		st.Release()
		return runbook.WithCause(runbook.MCPCallFailed, fmt.Sprintf("the MCP server %s did not start", k.server), err)
	}
	pr.sess, pr.started, pr.plan, pr.used = sess, st, plan, time.Now()
	p.cfg.Log("MCP server %s started for session %s in %s (%d paths given)", k.server, k.session, name, len(plan.Mounts))
	if err := p.judge(ctx, pr, s, acc); err != nil {
		p.stopLocked(pr)
		return err
	}
	return nil
}

// judge lists the running server's tools and holds them against the
// acceptance: any difference withholds every tool.
func (p *Pool) judge(ctx context.Context, pr *proc, s mcpconf.Server, acc mcppin.Acceptance) error {
	l, err := pr.sess.Tools(ctx)
	if err != nil {
		return runbook.WithCause(runbook.MCPCallFailed, fmt.Sprintf("the MCP server %s did not list its tools", s.Name), err)
	}
	if v := mcppin.Judge(&acc, s, l.Listed()); v.Withheld != "" {
		// A server that showed another list once may show it again:
		// every session's calls of it wait for the owner, across
		// brokerd's restarts (core/mcppin's drift record).
		if err := mcppin.SaveDrift(p.cfg.Home, s.Name, "while it ran, it listed tools other than the ones accepted"+changes(v)); err != nil {
			p.cfg.Log("MCP server %s: the drift of its list cannot be recorded: %v", s.Name, err)
		}
		// The names of the tools are the server's words, and may hold
		// what it read from its paths: a failed call raises no taint,
		// so they go to the operator (the cause), never to the model.
		return runbook.WithCause(runbook.MCPToolsWithheld, fmt.Sprintf("the tools of the MCP server %s are withheld: %s (bxctl mcp tools %s names the differences)", s.Name, v.Withheld, s.Name),
			errors.New(v.Withheld+changes(v)))
	}
	return nil
}

// changes names what differs, for the operator: at most
// maxNamedChanges names of each kind, each at most maxNamedBytes, quoted
// when it is not a plain tool's name (a server's list is up to 16 MiB of
// its own text).
func changes(v mcppin.Verdict) string {
	var parts []string
	for _, d := range []struct {
		what  string
		names []string
	}{{"new", v.Added}, {"removed", v.Removed}, {"changed", v.Changed}} {
		if len(d.names) == 0 {
			continue
		}
		shown := make([]string, 0, min(len(d.names), maxNamedChanges)+1)
		for _, n := range d.names[:min(len(d.names), maxNamedChanges)] {
			shown = append(shown, operatorName(n))
		}
		if more := len(d.names) - maxNamedChanges; more > 0 {
			shown = append(shown, fmt.Sprintf("and %d more", more))
		}
		parts = append(parts, d.what+": "+strings.Join(shown, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// stop ends a locked proc and forgets it.
func (p *Pool) stop(k key, pr *proc) {
	p.mu.Lock()
	if p.procs[k] == pr {
		delete(p.procs, k)
	}
	p.mu.Unlock()
	p.stopLocked(pr)
}

func (p *Pool) stopLocked(pr *proc) {
	if pr.stopped {
		return
	}
	pr.stopped = true
	if pr.sess != nil {
		pr.sess.Close()
	}
	if pr.started != nil {
		pr.started.Release()
	}
}

// reap stops the servers idle for Idle.
func (p *Pool) reap(every time.Duration) {
	defer p.wg.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-t.C:
		}
		p.mu.Lock()
		var idle []key
		for k, pr := range p.procs {
			if pr.mu.TryLock() {
				if time.Since(pr.used) >= p.cfg.Idle {
					idle = append(idle, k)
				}
				pr.mu.Unlock()
			}
		}
		p.mu.Unlock()
		for _, k := range idle {
			p.mu.Lock()
			pr := p.procs[k]
			p.mu.Unlock()
			if pr == nil || !pr.mu.TryLock() {
				continue
			}
			if time.Since(pr.used) >= p.cfg.Idle {
				p.cfg.Log("MCP server %s of session %s stopped: unused for %v ([mcp] idle_ms)", k.server, k.session, p.cfg.Idle)
				p.stop(k, pr)
			}
			pr.mu.Unlock()
		}
	}
}

// Running is the number of server processes running.
func (p *Pool) Running() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.procs)
}

// Close stops every server and the reaper, waiting for the calls that
// hold a server to end.
func (p *Pool) Close() int {
	p.closing.Do(func() { close(p.done) })
	p.wg.Wait()
	p.mu.Lock()
	all := p.procs
	p.procs = map[key]*proc{}
	p.mu.Unlock()
	for _, pr := range all {
		pr.mu.Lock()
		p.stopLocked(pr)
		pr.mu.Unlock()
	}
	return len(all)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
