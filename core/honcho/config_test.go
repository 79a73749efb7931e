package honcho

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/conf"
	"boxmaker/core/policy"
	"boxmaker/core/secrets"
	"boxmaker/runbook"
)

func goodHoncho() *conf.Honcho {
	return &conf.Honcho{URL: "https://honcho.example.net:8443", Agent: "kyle", Owner: "ann",
		Trusted: "kyle-trusted", Untrusted: "kyle-untrusted", Fleet: "fleet",
		Read: []conf.HonchoRead{
			{Agent: "bob", Workspace: "bob-trusted", Trust: "trusted", Class: "private"},
			{Agent: "eve", Workspace: "eve-untrusted", Trust: "untrusted", Class: "secret"},
		}}
}

func TestCheckConfigGood(t *testing.T) {
	secs := map[string]secrets.Source{
		"honcho_trusted": {Credential: "honcho-trusted"}, "honcho_untrusted": {Env: "K"},
		"honcho_fleet": {File: "/etc/boxmaker/fleet.key"}, "honcho_read_bob": {Env: "BOB"},
	}
	cfg, err := CheckConfig("/etc/m.toml", goodHoncho(), secs)
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{URL: "https://honcho.example.net:8443", Agent: "kyle", Owner: "ann", Trusted: "kyle-trusted",
		Untrusted: "kyle-untrusted", Fleet: "fleet", MaxClass: policy.Private,
		Timeout: DefaultTimeout, RecallBudget: DefaultRecallBudget, Poll: DefaultPoll, RetryMin: DefaultRetryMin, RetryMax: DefaultRetryMax,
		Reads: []Read{{Agent: "bob", Workspace: "bob-trusted", Class: policy.Private},
			{Agent: "eve", Workspace: "eve-untrusted", Untrusted: true, Class: policy.Secret}},
		Keys: secs}
	if diff := cmp.Diff(want, cfg); diff != "" {
		t.Errorf("Config (-want +got):\n%s", diff)
	}
	h := goodHoncho()
	h.MaxClass, h.TimeoutMS, h.RecallBudgetMS, h.PollMS, h.RetryMinMS, h.RetryMaxMS = "public", 5, 6, 7, 8, 9
	cfg, err = CheckConfig("/etc/m.toml", h, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MaxClass != policy.Public || cfg.Timeout != 5*time.Millisecond || cfg.RecallBudget != 6*time.Millisecond ||
		cfg.Poll != 7*time.Millisecond || cfg.RetryMin != 8*time.Millisecond || cfg.RetryMax != 9*time.Millisecond {
		t.Errorf("values not taken: %+v", cfg)
	}
	for _, u := range []string{"http://localhost", "http://127.0.0.1:1", "https://a-b.c:65535", "http://HONCHO.local"} {
		h := goodHoncho()
		h.URL = u
		if _, err := CheckConfig("/m", h, nil); err != nil {
			t.Errorf("url %s: %v", u, err)
		}
	}
	if cfg, err := CheckConfig("/m", nil, nil); cfg != nil || err != nil {
		t.Errorf("without [honcho]: %v, %v", cfg, err)
	}
	long := strings.Repeat("a", 512)
	h = goodHoncho()
	h.Agent = long
	if _, err := CheckConfig("/m", h, nil); err != nil {
		t.Errorf("a 512-character name: %v", err)
	}
	if !ValidName(long) || ValidName(long+"a") || ValidName("") || ValidName("a.b") {
		t.Error("ValidName: want 1 to 512 of [a-zA-Z0-9_-]")
	}
}

// TestCheckConfigReasons: every reason of the runbook's
// honcho-config-invalid entry, and the line each gives.
func TestCheckConfigReasons(t *testing.T) {
	const urlRule = `/etc/boxmaker/memoryd.toml: [honcho] url is not http:// or https://, a host (letters, digits, . and -) and an optional port (1 to 65535), and nothing else: `
	const p = "/etc/boxmaker/memoryd.toml: "
	for _, tt := range []struct {
		name  string
		edit  func(h *conf.Honcho)
		secs  map[string]secrets.Source
		noSec bool // no [honcho] at all
		want  string
	}{
		{"url ftp", func(h *conf.Honcho) { h.URL = "ftp://honcho" }, nil, false, urlRule + "it does not start with http:// or https://"},
		{"url upper-case scheme", func(h *conf.Honcho) { h.URL = "HTTP://honcho" }, nil, false, urlRule + "it does not start with http:// or https://"},
		{"url with a password", func(h *conf.Honcho) { h.URL = "https://u:hunter2@honcho" }, nil, false, urlRule + "it has a user or password"},
		{"url with a path", func(h *conf.Honcho) { h.URL = "https://honcho/v3" }, nil, false, urlRule + "it has a path, a query or a fragment (not even a final /)"},
		{"url with a final slash", func(h *conf.Honcho) { h.URL = "https://honcho/" }, nil, false, urlRule + "it has a path, a query or a fragment (not even a final /)"},
		{"url with a query", func(h *conf.Honcho) { h.URL = "https://honcho?x=1" }, nil, false, urlRule + "it has a path, a query or a fragment (not even a final /)"},
		{"url without a host", func(h *conf.Honcho) { h.URL = "http://:8000" }, nil, false, urlRule + "it has no host"},
		{"url with an IPv6 literal", func(h *conf.Honcho) { h.URL = "http://[::1]:8000" }, nil, false, urlRule + "its host has a character other than letters, digits, . and -"},
		{"url with an underscore", func(h *conf.Honcho) { h.URL = "http://hon_cho" }, nil, false, urlRule + "its host has a character other than letters, digits, . and -"},
		{"url port 0", func(h *conf.Honcho) { h.URL = "http://honcho:0" }, nil, false, urlRule + "its port is not a number from 1 to 65535"},
		{"url port 65536", func(h *conf.Honcho) { h.URL = "http://honcho:65536" }, nil, false, urlRule + "its port is not a number from 1 to 65535"},
		{"url port 08000", func(h *conf.Honcho) { h.URL = "http://honcho:08000" }, nil, false, urlRule + "its port is not a number from 1 to 65535"},
		{"url empty port", func(h *conf.Honcho) { h.URL = "http://honcho:" }, nil, false, urlRule + "its port is not a number from 1 to 65535"},

		{"agent with a dot", func(h *conf.Honcho) { h.Agent = "kyle.bot" }, nil, false, p + `[honcho] agent "kyle.bot" is not 1 to 512 of a-z, A-Z, 0-9, _ and -`},
		{"owner with a space", func(h *conf.Honcho) { h.Owner = "ann b" }, nil, false, p + `[honcho] owner "ann b" is not 1 to 512 of a-z, A-Z, 0-9, _ and -`},
		{"trusted empty", func(h *conf.Honcho) { h.Trusted = "" }, nil, false, p + `[honcho] trusted "" is not 1 to 512 of a-z, A-Z, 0-9, _ and -`},
		{"untrusted non-ASCII", func(h *conf.Honcho) { h.Untrusted = "kyle-é" }, nil, false, p + `[honcho] untrusted "kyle-é" is not 1 to 512 of a-z, A-Z, 0-9, _ and -`},
		{"fleet of 513", func(h *conf.Honcho) { h.Fleet = strings.Repeat("f", 513) }, nil, false,
			p + `[honcho] fleet "` + strings.Repeat("f", 64) + `"... (513 characters) is not 1 to 512 of a-z, A-Z, 0-9, _ and -`},
		{"agent with a newline", func(h *conf.Honcho) { h.Agent = "kyle\nmemoryd: serving" }, nil, false,
			p + `[honcho] agent "kyle\nmemoryd: serving" is not 1 to 512 of a-z, A-Z, 0-9, _ and -`},

		{"agent is owner", func(h *conf.Honcho) { h.Agent, h.Owner = "kyle", "kyle" }, nil, false,
			p + `[honcho] agent and owner are both "kyle": the agent's peer must not be the owner's`},
		{"trusted is untrusted", func(h *conf.Honcho) { h.Untrusted = h.Trusted }, nil, false,
			p + `[honcho] trusted and untrusted are both "kyle-trusted": each of trusted, untrusted and fleet must be a workspace of its own`},
		{"trusted is fleet", func(h *conf.Honcho) { h.Fleet = h.Trusted }, nil, false,
			p + `[honcho] trusted and fleet are both "kyle-trusted": each of trusted, untrusted and fleet must be a workspace of its own`},
		{"untrusted is fleet", func(h *conf.Honcho) { h.Fleet = h.Untrusted }, nil, false,
			p + `[honcho] untrusted and fleet are both "kyle-untrusted": each of trusted, untrusted and fleet must be a workspace of its own`},

		{"max_class", func(h *conf.Honcho) { h.MaxClass = "Secret" }, nil, false, p + `[honcho] max_class "Secret" is not public, private or secret`},
		{"negative timeout", func(h *conf.Honcho) { h.TimeoutMS = -1 }, nil, false, p + `[honcho] timeout_ms is -1: it must be 0 (the default) or more`},
		{"retry bounds", func(h *conf.Honcho) { h.RetryMinMS, h.RetryMaxMS = 5000, 10 }, nil, false,
			p + `[honcho] retry_max_ms is below retry_min_ms: the wait between attempts grows from the one to the other`},

		{"read agent with a dot", func(h *conf.Honcho) { h.Read[1].Agent = "eve.x" }, nil, false,
			p + `[[honcho.read]] #2: agent "eve.x" is not 1 to 512 of a-z, A-Z, 0-9, _ and -`},
		{"read workspace with a space", func(h *conf.Honcho) { h.Read[0].Workspace = "bob trusted" }, nil, false,
			p + `[[honcho.read]] #1: workspace "bob trusted" is not 1 to 512 of a-z, A-Z, 0-9, _ and -`},
		{"read names this agent", func(h *conf.Honcho) { h.Read[0].Agent = "kyle" }, nil, false,
			p + `[[honcho.read]] #1: agent "kyle" is this agent ([honcho] agent): read other agents' workspaces`},
		{"read names an agent twice", func(h *conf.Honcho) { h.Read[1].Agent = "bob" }, nil, false,
			p + `[[honcho.read]] #2: agent "bob" is read already by #1: one [[honcho.read]] per agent, whose key is [secrets.honcho_read_bob]`},
		{"read names this agent's trusted", func(h *conf.Honcho) { h.Read[0].Workspace = "kyle-trusted" }, nil, false,
			p + `[[honcho.read]] #1: workspace "kyle-trusted" is this agent's own trusted workspace ([honcho] trusted)`},
		{"read names this agent's untrusted", func(h *conf.Honcho) { h.Read[1].Workspace = "kyle-untrusted" }, nil, false,
			p + `[[honcho.read]] #2: workspace "kyle-untrusted" is this agent's own untrusted workspace ([honcho] untrusted)`},
		{"read names the fleet", func(h *conf.Honcho) { h.Read[0].Workspace = "fleet" }, nil, false,
			p + `[[honcho.read]] #1: workspace "fleet" is this agent's own fleet workspace ([honcho] fleet)`},
		{"read trust in capitals", func(h *conf.Honcho) { h.Read[0].Trust = "Trusted" }, nil, false,
			p + `[[honcho.read]] #1: trust "Trusted" is not trusted or untrusted`},
		{"read trust empty", func(h *conf.Honcho) { h.Read[0].Trust = "" }, nil, false,
			p + `[[honcho.read]] #1: trust "" is not trusted or untrusted`},
		{"read class", func(h *conf.Honcho) { h.Read[1].Class = "top-secret" }, nil, false,
			p + `[[honcho.read]] #2: class "top-secret" is not public, private or secret`},

		{"secret of another name", nil, map[string]secrets.Source{"mattermost_token": {Env: "T"}}, false,
			p + `[secrets.mattermost_token] is not honcho_trusted, honcho_untrusted, honcho_fleet or honcho_read_<agent> for an agent in [[honcho.read]]`},
		{"secret for an agent not read", nil, map[string]secrets.Source{"honcho_read_carol": {Env: "T"}}, false,
			p + `[secrets.honcho_read_carol] is not honcho_trusted, honcho_untrusted, honcho_fleet or honcho_read_<agent> for an agent in [[honcho.read]]`},
		{"secret without a source", nil, map[string]secrets.Source{"honcho_trusted": {}}, false,
			p + `[secrets.honcho_trusted] names no source: set one of credential, env or file`},
		{"secret with two sources", nil, map[string]secrets.Source{"honcho_fleet": {Env: "K", File: "/k"}}, false,
			p + `[secrets.honcho_fleet] names more than one source: set only one of credential, env or file`},
		{"secret with a relative file", nil, map[string]secrets.Source{"honcho_read_bob": {File: "bob.key"}}, false,
			p + `[secrets.honcho_read_bob] file bob.key is not an absolute path`},
		{"secret with a bad env", nil, map[string]secrets.Source{"honcho_untrusted": {Env: "A-B"}}, false,
			p + `[secrets.honcho_untrusted] env is not an environment variable's name (letters, digits and _, not starting with a digit)`},
		{"secret without [honcho]", nil, map[string]secrets.Source{"honcho_trusted": {Env: "K"}}, true,
			p + `[secrets.honcho_trusted] is a Honcho key, but there is no [honcho] section for it`},
		{"other secret without [honcho]", nil, map[string]secrets.Source{"token": {Env: "K"}}, true,
			p + `[secrets.token] is not honcho_trusted, honcho_untrusted, honcho_fleet or honcho_read_<agent> for an agent in [[honcho.read]]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := goodHoncho()
			if tt.edit != nil {
				tt.edit(h)
			}
			if tt.noSec {
				h = nil
			}
			cfg, err := CheckConfig("/etc/boxmaker/memoryd.toml", h, tt.secs)
			if err == nil {
				t.Fatalf("CheckConfig passed: %+v", cfg)
			}
			var r *runbook.Refusal
			if !errors.As(err, &r) || r.Entry != runbook.HonchoConfigInvalid {
				t.Fatalf("not a honcho-config-invalid refusal: %v", err)
			}
			if r.Text != tt.want {
				t.Errorf("got  %s\nwant %s", r.Text, tt.want)
			}
			if strings.Contains(r.Text, "hunter2") {
				t.Errorf("the line repeats the URL's password")
			}
			if strings.Contains(r.Text, "\n") {
				t.Errorf("the line has a newline")
			}
		})
	}
}

var urlReasons = map[string]bool{
	"it does not start with http:// or https://": true, "it has a user or password": true,
	"it has a path, a query or a fragment (not even a final /)": true, "it has no host": true,
	"its host has a character other than letters, digits, . and -": true, "its port is not a number from 1 to 65535": true,
}

// FuzzURL: urlProblem never accepts what the rule does not allow, and
// never repeats the URL.
func FuzzURL(f *testing.F) {
	for _, s := range []string{"http://a", "https://a:1", "http://a/", "http://u:p@a", "http://a:99999", "http://a..b:80", "https://[::1]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, u string) {
		why := urlProblem(u)
		if why == "" {
			rest := strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://")
			host, port, _ := strings.Cut(rest, ":")
			if rest == u || host == "" || strings.ContainsAny(rest, "/@?# ") || strings.Count(rest, ":") > 1 ||
				strings.ContainsFunc(host+port, func(r rune) bool { return r > 127 }) {
				t.Fatalf("urlProblem accepted %q", u)
			}
		} else if !urlReasons[why] {
			t.Fatalf("urlProblem(%q) = %q, not one of its fixed reasons (it must never repeat the URL)", u, why)
		}
	})
}
