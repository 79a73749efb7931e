package gateway

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"boxmaker/core/conf"
	"boxmaker/core/role"
	"boxmaker/core/secrets"
	"boxmaker/runbook"
)

// TestInitTemplateUncommentedIsValid: init's gatewayd.toml holds no key,
// and with its "# key = value" lines uncommented it is a valid config.
func TestInitTemplateUncommentedIsValid(t *testing.T) {
	var gatewayd conf.Role
	for _, r := range conf.Optional {
		if r.Name == role.Gatewayd {
			gatewayd = r
		}
	}
	text := gatewayd.Render("/srv/h")
	var empty conf.Gatewayd
	if err := conf.Decode("gatewayd.toml", []byte(text), &empty); err != nil {
		t.Fatalf("the commented template does not parse: %v", err)
	}
	if empty.Home != "" || empty.Mattermost.URL != "" || len(empty.Secrets) != 0 {
		t.Fatalf("the template sets something: %+v", empty)
	}
	keyLine := regexp.MustCompile(`^# ((\[[a-z.]+\])|([a-z_]+ = .*))$`)
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if keyLine.MatchString(l) && !strings.HasPrefix(l, "# or:") {
			lines = append(lines, strings.TrimPrefix(l, "# "))
		}
	}
	dir := t.TempDir()
	ca := filepath.Join(dir, "ca.pem")
	writeTestCA(t, ca)
	uncommented := strings.ReplaceAll(strings.Join(lines, "\n"), "/etc/boxmaker/mattermost-ca.pem", ca)
	var c conf.Gatewayd
	if err := conf.Decode("gatewayd.toml", []byte(uncommented), &c); err != nil {
		t.Fatalf("uncommented: %v\n%s", err, uncommented)
	}
	cfg, err := CheckConfig("gatewayd.toml", c)
	if err != nil {
		t.Fatalf("uncommented: %v\n%s", err, uncommented)
	}
	if cfg.Token.Credential != "mattermost-token" || cfg.Socket != "/srv/h/run/gateway/gateway.sock" || cfg.LoopSocket != "/srv/h/run/loop/loop.sock" {
		t.Errorf("config: %+v", cfg)
	}
}

func writeTestCA(t *testing.T, path string) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test ca"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
}

type secretsSource = secrets.Source

func TestCheckURL(t *testing.T) {
	for _, tt := range []struct {
		in, want, problem string
	}{
		{"https://chat.example.com", "https://chat.example.com", ""},
		{"https://chat.example.com/", "https://chat.example.com", ""},
		{"http://127.0.0.1:8065", "http://127.0.0.1:8065", ""},
		{"http://[::1]:8065", "http://[::1]:8065", ""},
		{"", "", "is empty"},
		{"ftp://chat.example.com", "", "not http:// or https://"},
		{"https://user:pw@chat.example.com", "", "not scheme://host[:port]"},
		{"https://chat.example.com/mattermost", "https://chat.example.com/mattermost", ""},
		{"https://chat.example.com/team/mm/", "https://chat.example.com/team/mm", ""},
		{"https://chat.example.com/a/../mm", "", "not plain segments"},
		{"https://chat.example.com/./mm", "", "not plain segments"},
		{"https://chat.example.com/.hidden/..", "", "not plain segments"},
		{"https://chat.example.com/m%2Fm", "", "not plain segments"},
		{"https://chat.example.com//mm", "", "not plain segments"},
		{"https://chat.example.com?x=1", "", "more than scheme://host[:port][/path]"},
		{"https://chat.example.com#top", "", "more than scheme://host[:port][/path]"},
		{"https://chat.example.com:0", "", "port that is not 1 to 65535"},
		{"https://chat.example.com:99999", "", "port that is not 1 to 65535"},
		{"https://chat.example.com:", "", "empty port"},
		{"https://chat_example.com", "", "not a DNS name"},
		{"https:///x", "", "not scheme://host[:port]"},
	} {
		got, err := checkURL(tt.in)
		switch {
		case tt.problem == "" && (err != nil || got != tt.want):
			t.Errorf("checkURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		case tt.problem != "" && (err == nil || !strings.Contains(err.Error(), tt.problem)):
			t.Errorf("checkURL(%q) = %q, %v; want an error with %q", tt.in, got, err, tt.problem)
		}
	}
}

func TestCheckConfigRefusals(t *testing.T) {
	good := func() conf.Gatewayd {
		var c conf.Gatewayd
		c.Home = "/srv/h"
		c.Mattermost.URL = "https://chat.example.com"
		c.Mattermost.Token = "mm"
		c.Secrets = map[string]secretsSource{"mm": {Env: "MM_TOKEN"}}
		c.Allow.Users = []string{"abcdefghijkmnopqrstuwxyz12", "bcdefghijkmnopqrstuwxyz123"}
		c.Approvals.Users = []string{"abcdefghijkmnopqrstuwxyz12"}
		return c
	}
	if _, err := CheckConfig("g.toml", good()); err != nil {
		t.Fatalf("the good config: %v", err)
	}
	for _, tt := range []struct {
		name   string
		change func(*conf.Gatewayd)
		want   string
	}{
		{"relative home", func(c *conf.Gatewayd) { c.Home = "h" }, `home "h" is not an absolute path`},
		{"no token", func(c *conf.Gatewayd) { c.Mattermost.Token = "" }, "[mattermost] token is empty"},
		{"token names nothing", func(c *conf.Gatewayd) { c.Mattermost.Token, c.Secrets = "other", nil }, `there is no [secrets.other]`},
		{"another secret", func(c *conf.Gatewayd) { c.Secrets["x"] = secretsSource{Env: "X"} }, "[secrets.x] is not named by [mattermost] token"},
		{"no source", func(c *conf.Gatewayd) { c.Secrets["mm"] = secretsSource{} }, "[secrets.mm] names no source"},
		{"two sources", func(c *conf.Gatewayd) { c.Secrets["mm"] = secretsSource{Env: "A", File: "/f"} }, "names more than one source"},
		{"no allow", func(c *conf.Gatewayd) { c.Allow.Users = nil }, "[allow] users is empty"},
		{"short id", func(c *conf.Gatewayd) { c.Allow.Users = []string{"abc"} }, `[allow] users: "abc" is not a Mattermost user id`},
		{"upper-case id", func(c *conf.Gatewayd) { c.Allow.Users = []string{"ABCDEFGHIJKMNOPQRSTUWXYZ12"} }, "is not a Mattermost user id"},
		{"approver not allowed", func(c *conf.Gatewayd) { c.Approvals.Users = []string{"cdefghijkmnopqrstuwxyz1234"} }, "is not in [allow] users"},
		{"dead after too short", func(c *conf.Gatewayd) { c.Mattermost.DeadAfterMS = 10 }, "dead_after_ms 10 is not between 300 and 600000"},
		{"ca file missing", func(c *conf.Gatewayd) { c.Mattermost.CAFile = "/nonexistent/ca.pem" }, "[mattermost] ca_file: cannot read /nonexistent/ca.pem"},
		{"relative socket", func(c *conf.Gatewayd) { c.Approvals.Socket = "gw.sock" }, `[approvals] socket "gw.sock" is not an absolute path`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := good()
			c.Secrets = map[string]secretsSource{"mm": c.Secrets["mm"]}
			tt.change(&c)
			_, err := CheckConfig("g.toml", c)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
			if e, _ := runbook.EntryOf(err); e != runbook.GatewaydStartFailed || !strings.HasPrefix(err.Error(), "g.toml: ") {
				t.Errorf("%v: not gatewayd-start-failed naming the file", err)
			}
		})
	}
}
