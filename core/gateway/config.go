package gateway

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"boxmaker/core/conf"
	"boxmaker/core/home"
	"boxmaker/core/patherror"
	"boxmaker/core/secrets"
	"boxmaker/runbook"
)

// Config is gatewayd.toml judged: every value gatewayd works with, with
// the defaults filled in.
type Config struct {
	Path      string // the file it came from
	Home      string
	URL       string // scheme://host[:port], no trailing slash
	TokenName string
	Token     secrets.Source
	DeadAfter time.Duration
	// RootCAs are ca_file's certificates; nil: the system's roots.
	RootCAs    *x509.CertPool
	Allow      []string
	Approvers  []string
	Socket     string // gateway.sock
	LoopSocket string
	// StateSocket is brokerd's state socket: a session's taint.
	StateSocket string
	AllowUIDs   []uint32
}

// StateFile is the state file's path in home.
func StateFile(homeDir string) string { return home.Home{Dir: homeDir}.Path("gateway", "state.json") }

// userIDRE is a Mattermost id: 26 characters of a-z0-9 (model.IsValidId).
//
// It is compiled at its first use, not at package init: a counted repetition
// compiles to a copy of its class per count, and every role's start paid
// for it (D362).
var userIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]{26}$`) })

// ValidID reports whether s has the shape of a Mattermost id.
func ValidID(s string) bool { return userIDRE().MatchString(s) }

// DefaultDeadAfter is [mattermost] dead_after_ms when it is 0.
const DefaultDeadAfter = 30 * time.Second

// CheckConfig judges gatewayd.toml (already read strictly into c) and
// returns what gatewayd works with. Every problem is gatewayd-start-failed
// naming the file and the key; a secret's shape is judged too, but the
// secret is not read (that is the caller's, where it is used). It reads
// ca_file, which must be there at start.
func CheckConfig(path string, c conf.Gatewayd) (*Config, error) {
	bad := func(format string, args ...any) error {
		return runbook.Refuse(runbook.GatewaydStartFailed, "%s: "+format, append([]any{path}, args...)...)
	}
	if c.Home == "" || !filepath.IsAbs(c.Home) {
		return nil, bad("home %q is not an absolute path: name the directory gateway/state.json is kept in", c.Home)
	}
	u, err := checkURL(c.Mattermost.URL)
	if err != nil {
		return nil, bad("[mattermost] url: %v", err)
	}
	cfg := &Config{Path: path, Home: filepath.Clean(c.Home), URL: u, AllowUIDs: c.Sockets.AllowUIDs}
	switch ms := c.Mattermost.DeadAfterMS; {
	case ms == 0:
		cfg.DeadAfter = DefaultDeadAfter
	case ms < 300 || ms > 600000:
		return nil, bad("[mattermost] dead_after_ms %d is not between 300 and 600000 (0: 30000)", ms)
	default:
		cfg.DeadAfter = time.Duration(ms) * time.Millisecond
	}
	if f := c.Mattermost.CAFile; f != "" {
		pool, err := readCAFile(f)
		if err != nil {
			return nil, bad("[mattermost] ca_file: %v", err)
		}
		cfg.RootCAs = pool
	}
	name := c.Mattermost.Token
	if name == "" {
		return nil, bad("[mattermost] token is empty: name the [secrets.<name>] that holds the bot's access token")
	}
	for n := range c.Secrets {
		if n != name {
			return nil, bad("[secrets.%s] is not named by [mattermost] token (%q): gatewayd reads only its token", n, name)
		}
	}
	src, ok := c.Secrets[name]
	if !ok {
		return nil, bad("[mattermost] token names %q, but there is no [secrets.%s]", name, name)
	}
	if err := src.Check(); err != nil {
		return nil, bad("[secrets.%s] %v", name, err)
	}
	cfg.TokenName, cfg.Token = name, src
	if len(c.Allow.Users) == 0 {
		return nil, bad("[allow] users is empty: gatewayd answers only the users it names")
	}
	for _, id := range c.Allow.Users {
		if !ValidID(id) {
			return nil, bad("[allow] users: %q is not a Mattermost user id (26 characters of a-z0-9)", id)
		}
	}
	for _, id := range c.Approvals.Users {
		if !ValidID(id) {
			return nil, bad("[approvals] users: %q is not a Mattermost user id (26 characters of a-z0-9)", id)
		}
		if !slices.Contains(c.Allow.Users, id) {
			return nil, bad("[approvals] users: %s is not in [allow] users: an approver must be someone gatewayd answers", id)
		}
	}
	cfg.Allow, cfg.Approvers = c.Allow.Users, c.Approvals.Users
	h := home.Home{Dir: cfg.Home}
	cfg.Socket = orDefault(c.Approvals.Socket, h.Path(home.SocketGateway))
	cfg.LoopSocket = orDefault(c.Loop.Socket, h.Path(home.SocketLoop))
	cfg.StateSocket = orDefault(c.Broker.State, h.Path(home.SocketBrokerState))
	for _, s := range []struct{ key, path string }{{"[approvals] socket", cfg.Socket}, {"[loop] socket", cfg.LoopSocket}, {"[broker] state", cfg.StateSocket}} {
		if !filepath.IsAbs(s.path) {
			return nil, bad("%s %q is not an absolute path", s.key, s.path)
		}
	}
	return cfg, nil
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

// checkURL accepts http:// or https://, a host, an optional port and an
// optional path of plain segments (Mattermost served under a path of a
// site, behind a reverse proxy), and nothing else: no user, query or
// fragment, no "." or ".." segment, nothing escaped. It returns the url
// without a trailing slash.
func checkURL(raw string) (string, error) {
	if raw == "" {
		return "", errors.New("is empty: name the Mattermost server, such as https://chat.example.com")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("%q is not a URL", raw)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("%q is not http:// or https://", raw)
	case u.Opaque != "" || u.User != nil || u.Host == "":
		return "", fmt.Errorf("%q is not scheme://host[:port]", raw)
	case u.RawQuery != "" || u.Fragment != "" || u.ForceQuery || strings.HasSuffix(raw, "#"):
		return "", fmt.Errorf("%q has more than scheme://host[:port][/path] (a query or a fragment)", raw)
	}
	path := strings.TrimSuffix(u.Path, "/")
	if u.RawPath != "" || (path != "" && !pathRE.MatchString(path)) {
		return "", fmt.Errorf("%q has a path that is not plain segments of letters, digits and -._~ (no . or .. segment, nothing escaped)", raw)
	}
	host, port := u.Hostname(), u.Port()
	if host == "" {
		return "", fmt.Errorf("%q has no host", raw)
	}
	if strings.Contains(u.Host, ":") && port == "" && !strings.HasSuffix(u.Host, "]") {
		return "", fmt.Errorf("%q has an empty port", raw)
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("%q has a port that is not 1 to 65535", raw)
		}
	}
	if net.ParseIP(host) == nil && !hostRE.MatchString(host) {
		return "", fmt.Errorf("%q has a host that is not a DNS name or an IP address", raw)
	}
	return u.Scheme + "://" + u.Host + path, nil
}

// pathRE is a path of plain segments, none of them . or ..
var pathRE = regexp.MustCompile(`^(/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$`)

var hostRE = regexp.MustCompile(`^(?i)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$`)

// readCAFile reads a PEM bundle of at least one certificate.
func readCAFile(path string) (*x509.CertPool, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("%q is not an absolute path", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, patherror.Reason(err))
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(data) {
		return nil, fmt.Errorf("%s holds no PEM certificate", path)
	}
	return pool, nil
}
