package honcho

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"boxmaker/core/conf"
	"boxmaker/core/policy"
	"boxmaker/core/secrets"
	"boxmaker/runbook"
)

// Config is [honcho] of memoryd.toml once CheckConfig has passed it, with
// every default filled in.
type Config struct {
	URL   string // scheme://host[:port], no path
	Agent string // this agent's peer
	Owner string // the owner's peer
	// The three workspaces this agent writes to.
	Trusted, Untrusted, Fleet string
	// MaxClass is the highest class that may leave the machine.
	MaxClass policy.Taint
	// Timeout bounds one request; RecallBudget the wait for Honcho's
	// hits in a recall; Poll is how often the outbox is fed; RetryMin and
	// RetryMax bound the wait between attempts while Honcho fails.
	Timeout, RecallBudget, Poll, RetryMin, RetryMax time.Duration
	// Reads are the other agents' workspaces recall searches, in the
	// file's order.
	Reads []Read
	// Keys are where each workspace's key comes from, by secret name
	// (SecretTrusted, ..., ReadSecret(agent)). A workspace without one is
	// sent no Authorization (a Honcho without auth).
	Keys map[string]secrets.Source
}

// Read is one [[honcho.read]]: another agent's workspace, and what its
// hits are to a session that reads them.
type Read struct {
	Agent     string
	Workspace string
	Untrusted bool         // trust = "untrusted": a session reading a hit becomes untrusted
	Class     policy.Taint // a session reading a hit is raised to it
}

// The secrets' names of this agent's own workspaces.
const (
	SecretTrusted   = "honcho_trusted"
	SecretUntrusted = "honcho_untrusted"
	SecretFleet     = "honcho_fleet"
	readPrefix      = "honcho_read_"
)

// ReadSecret is the secret's name of the key for another agent's
// workspace.
func ReadSecret(agent string) string { return readPrefix + agent }

// The defaults of the [honcho] keys that may be left out.
const (
	DefaultTimeout      = 10 * time.Second
	DefaultRecallBudget = 1500 * time.Millisecond
	DefaultPoll         = time.Second
	DefaultRetryMin     = time.Second
	DefaultRetryMax     = time.Minute
)

// namePattern is Honcho's own rule for workspace, peer and session names
// (src/schemas/api.py, RESOURCE_NAME_PATTERN, 1 to 512 characters). The
// length is checked apart: `{1,512}` compiles to 512 copies of the class,
// which every role's process start paid for.
var namePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

const maxNameLen = 512

// ValidName reports whether s is a name Honcho accepts.
func ValidName(s string) bool { return len(s) <= maxNameLen && namePattern.MatchString(s) }

const nameRule = "is not 1 to 512 of a-z, A-Z, 0-9, _ and -"

// CheckConfig checks [honcho], its [[honcho.read]] tables and the
// [secrets.<name>] of memoryd.toml (at path) and returns the Config, or
// nil when there is no [honcho] (nothing of Honcho runs). The first
// problem is a honcho-config-invalid refusal "<path>: <reason>". It reads
// no key: a secret's source is judged by its shape only.
func CheckConfig(path string, h *conf.Honcho, secs map[string]secrets.Source) (*Config, error) {
	bad := func(format string, args ...any) (*Config, error) {
		return nil, runbook.Refuse(runbook.HonchoConfigInvalid, "%s: "+format, append([]any{path}, args...)...)
	}
	names := make([]string, 0, len(secs))
	for n := range secs {
		names = append(names, n)
	}
	sort.Strings(names)
	if h == nil {
		for _, n := range names {
			if strings.HasPrefix(n, "honcho_") {
				return bad("[secrets.%s] is a Honcho key, but there is no [honcho] section for it", n)
			}
			return bad("[secrets.%s] is not honcho_trusted, honcho_untrusted, honcho_fleet or honcho_read_<agent> for an agent in [[honcho.read]]", tableName(n))
		}
		return nil, nil
	}
	if why := urlProblem(h.URL); why != "" {
		return bad("[honcho] url is not http:// or https://, a host (letters, digits, . and -) and an optional port (1 to 65535), and nothing else: %s", why)
	}
	for _, f := range []struct{ key, val string }{
		{"agent", h.Agent}, {"owner", h.Owner}, {"trusted", h.Trusted}, {"untrusted", h.Untrusted}, {"fleet", h.Fleet},
	} {
		if !ValidName(f.val) {
			return bad("[honcho] %s %s %s", f.key, quoteName(f.val), nameRule)
		}
	}
	if h.Agent == h.Owner {
		return bad("[honcho] agent and owner are both %q: the agent's peer must not be the owner's", h.Agent)
	}
	ws := []struct{ key, val string }{{"trusted", h.Trusted}, {"untrusted", h.Untrusted}, {"fleet", h.Fleet}}
	for i := range ws {
		for j := i + 1; j < len(ws); j++ {
			if ws[i].val == ws[j].val {
				return bad("[honcho] %s and %s are both %q: each of trusted, untrusted and fleet must be a workspace of its own",
					ws[i].key, ws[j].key, ws[i].val)
			}
		}
	}
	cfg := &Config{URL: h.URL, Agent: h.Agent, Owner: h.Owner, Trusted: h.Trusted, Untrusted: h.Untrusted, Fleet: h.Fleet,
		MaxClass: policy.Private, Keys: map[string]secrets.Source{}}
	if h.MaxClass != "" {
		t, err := policy.ParseTaint(h.MaxClass)
		if err != nil {
			return bad("[honcho] max_class %s is not public, private or secret", quoteName(h.MaxClass))
		}
		cfg.MaxClass = t
	}
	for _, d := range []struct {
		key  string
		ms   int
		def  time.Duration
		into *time.Duration
	}{
		{"timeout_ms", h.TimeoutMS, DefaultTimeout, &cfg.Timeout},
		{"recall_budget_ms", h.RecallBudgetMS, DefaultRecallBudget, &cfg.RecallBudget},
		{"poll_ms", h.PollMS, DefaultPoll, &cfg.Poll},
		{"retry_min_ms", h.RetryMinMS, DefaultRetryMin, &cfg.RetryMin},
		{"retry_max_ms", h.RetryMaxMS, DefaultRetryMax, &cfg.RetryMax},
	} {
		switch {
		case d.ms < 0:
			return bad("[honcho] %s is %d: it must be 0 (the default) or more", d.key, d.ms)
		case d.ms == 0:
			*d.into = d.def
		default:
			*d.into = time.Duration(d.ms) * time.Millisecond
		}
	}
	if cfg.RetryMax < cfg.RetryMin {
		return bad("[honcho] retry_max_ms is below retry_min_ms: the wait between attempts grows from the one to the other")
	}
	seen := map[string]int{}
	for i, r := range h.Read {
		n := i + 1
		for _, f := range []struct{ key, val string }{{"agent", r.Agent}, {"workspace", r.Workspace}} {
			if !ValidName(f.val) {
				return bad("[[honcho.read]] #%d: %s %s %s", n, f.key, quoteName(f.val), nameRule)
			}
		}
		if r.Agent == h.Agent {
			return bad("[[honcho.read]] #%d: agent %q is this agent ([honcho] agent): read other agents' workspaces", n, r.Agent)
		}
		if first, ok := seen[r.Agent]; ok {
			return bad("[[honcho.read]] #%d: agent %q is read already by #%d: one [[honcho.read]] per agent, whose key is [secrets.%s]",
				n, r.Agent, first, ReadSecret(r.Agent))
		}
		seen[r.Agent] = n
		for _, w := range ws {
			if r.Workspace == w.val {
				return bad("[[honcho.read]] #%d: workspace %q is this agent's own %s workspace ([honcho] %s)", n, r.Workspace, w.key, w.key)
			}
		}
		rd := Read{Agent: r.Agent, Workspace: r.Workspace}
		switch r.Trust {
		case "trusted":
		case "untrusted":
			rd.Untrusted = true
		default:
			return bad("[[honcho.read]] #%d: trust %s is not trusted or untrusted", n, quoteName(r.Trust))
		}
		t, err := policy.ParseTaint(r.Class)
		if err != nil {
			return bad("[[honcho.read]] #%d: class %s is not public, private or secret", n, quoteName(r.Class))
		}
		rd.Class = t
		cfg.Reads = append(cfg.Reads, rd)
	}
	for _, n := range names {
		own := n == SecretTrusted || n == SecretUntrusted || n == SecretFleet
		if agent, ok := strings.CutPrefix(n, readPrefix); ok && seen[agent] > 0 {
			own = true
		}
		if !own {
			return bad("[secrets.%s] is not honcho_trusted, honcho_untrusted, honcho_fleet or honcho_read_<agent> for an agent in [[honcho.read]]", tableName(n))
		}
		if err := secs[n].Check(); err != nil {
			return bad("[secrets.%s] %v", n, err)
		}
		cfg.Keys[n] = secs[n]
	}
	return cfg, nil
}

// urlProblem says what is wrong with u as Honcho's URL, without repeating
// any of it (a URL may carry a password), or "".
func urlProblem(u string) string {
	rest, ok := strings.CutPrefix(u, "http://")
	if !ok {
		if rest, ok = strings.CutPrefix(u, "https://"); !ok {
			return "it does not start with http:// or https://"
		}
	}
	switch {
	case strings.Contains(rest, "@"):
		return "it has a user or password"
	case strings.ContainsAny(rest, "/?#"):
		return "it has a path, a query or a fragment (not even a final /)"
	}
	host, port, hasPort := strings.Cut(rest, ":")
	switch {
	case host == "":
		return "it has no host"
	case strings.ContainsFunc(host, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-')
	}):
		return "its host has a character other than letters, digits, . and -"
	case hasPort:
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || port != strconv.Itoa(n) {
			return "its port is not a number from 1 to 65535"
		}
	}
	return ""
}

// quoteName shows a configured value in a message: quoted, control
// characters escaped, and cut after 64 characters.
func quoteName(s string) string {
	if r := []rune(s); len(r) > 64 {
		return fmt.Sprintf("%q... (%d characters)", string(r[:64]), len(r))
	}
	return fmt.Sprintf("%q", s)
}

// tableName shows a table's name as written when it is a plain name, else
// quoted as quoteName does.
func tableName(s string) string {
	if ValidName(s) {
		return s
	}
	return quoteName(s)
}

// MaySend reports whether what a session of this taint holds (its recall
// query, its records) may leave the machine: a taint that does not parse
// may not.
func (c *Config) MaySend(sessionTaint string) bool {
	t, err := policy.ParseTaint(sessionTaint)
	return err == nil && t <= c.MaxClass
}
