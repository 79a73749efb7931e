package policy

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// validRead is a valid grant that the cases below change one thing in.
const validRead = `tool = "read_file"
effect = "allow"
paths = ["/home/owner/src"]
class = "private"
max_taint = "private"
`

// Every validation the grants-invalid entry lists, with its message.
func TestParseRefuses(t *testing.T) {
	tests := []struct {
		name string
		file string
		data string
		want []string
	}{
		{"unknown field", "a.toml", validRead + "pathz = [\"/x\"]\n",
			[]string{"a.toml:6: unknown key pathz"}},
		{"field spelt in upper case", "a.toml", strings.Replace(validRead, "effect", "Effect", 1),
			[]string{"a.toml:2: unknown key Effect (keys are lower case: effect)"}},
		{"secret set", "a.toml", validRead + "secret = \"token\"\n",
			[]string{"a.toml:6: secret is not supported yet (it comes with M4): remove it"}},
		{"secret as a table", "a.toml", validRead + "[secret]\nname = \"token\"\n",
			[]string{"a.toml:6: secret is not supported yet (it comes with M4): remove it"}},
		{"patterns set", "a.toml", validRead + "patterns = [\"*.go\"]\n",
			[]string{"a.toml:6: patterns is not supported: grant the directories you mean with paths"}},
		{"hosts on a file tool", "a.toml", validRead + "hosts = [\"example.org\"]\n",
			[]string{"a.toml:6: hosts is for http_fetch grants; a read_file grant names paths"}},
		{"paths on http_fetch", "a.toml", "tool = \"http_fetch\"\neffect = \"allow\"\nhosts = [\"docs.python.org\"]\npaths = [\"/x\"]\nclass = \"public\"\nmax_taint = \"secret\"\n",
			[]string{"a.toml:4: paths is not for http_fetch grants: an http_fetch grant names hosts"}},
		{"relative path", "a.toml", strings.Replace(validRead, "/home/owner/src", "src", 1),
			[]string{`a.toml:3: path "src" is relative: grant paths are absolute`}},
		{"dot-dot in a path", "a.toml", strings.Replace(validRead, "/home/owner/src", "/home/owner/../root", 1),
			[]string{`a.toml:3: path "/home/owner/../root" has a ".." component: write the path it means`}},
		{"dot in a path", "a.toml", strings.Replace(validRead, "/home/owner/src", "/home/./owner", 1),
			[]string{`a.toml:3: path "/home/./owner" has a "." component: write it clean`}},
		{"doubled slash", "a.toml", strings.Replace(validRead, "/home/owner/src", "/home//owner", 1),
			[]string{`a.toml:3: path "/home//owner" has a doubled slash: write it clean`}},
		{"trailing slash", "a.toml", strings.Replace(validRead, "/home/owner/src", "/home/owner/", 1),
			[]string{`a.toml:3: path "/home/owner/" ends in a slash: write it clean`}},
		{"colon in a path", "a.toml", strings.Replace(validRead, "/home/owner/src", "/home/owner/a:b", 1),
			[]string{`a.toml:3: path "/home/owner/a:b" has a ":" or ",", which cannot be mounted`}},
		{"comma in a path", "a.toml", strings.Replace(validRead, "/home/owner/src", "/home/owner/a,ro", 1),
			[]string{`a.toml:3: path "/home/owner/a,ro" has a ":" or ",", which cannot be mounted`}},
		{"the root", "a.toml", strings.Replace(validRead, "/home/owner/src", "/", 1),
			[]string{`a.toml:3: path "/" would grant the whole file system: grant the directories you mean`}},
		{"empty path", "a.toml", strings.Replace(validRead, "/home/owner/src", "", 1),
			[]string{`a.toml:3: a path is empty`}},
		{"NUL in a path", "a.toml", strings.Replace(validRead, "/home/owner/src", `/home/\u0000x`, 1),
			[]string{`a.toml:3: path "/home/\x00x" has a control character`}},
		{"deny grant below secret", "a.toml", strings.Replace(validRead, `"allow"`, `"deny"`, 1),
			[]string{`a.toml:5: a deny grant must have max_taint = "secret": with "private" it would stop denying once the session's taint rose above it`}},
		{"deny grant without max_taint", "a.toml", "tool = \"read_file\"\neffect = \"deny\"\npaths = [\"/etc\"]\n",
			[]string{`a.toml:2: a deny grant must have max_taint = "secret", so that it denies at every taint`}},
		{"host with upper case", "a.toml", fetch(`"Docs.python.org"`),
			[]string{`a.toml:3: host "Docs.python.org" has upper-case letters: write it in lower case`}},
		{"host with a port", "a.toml", fetch(`"docs.python.org:443"`),
			[]string{`a.toml:3: host "docs.python.org:443" has a port: grants name hosts without one`}},
		{"host a URL", "a.toml", fetch(`"https://docs.python.org"`),
			[]string{`a.toml:3: host "https://docs.python.org" is a URL: a grant names the host alone: write "docs.python.org"`}},
		{"host a URL with a port and a path", "a.toml", fetch(`"https://docs.python.org:443/3/"`),
			[]string{`a.toml:3: host "https://docs.python.org:443/3/" is a URL: a grant names the host alone: write "docs.python.org"`}},
		{"host with a path", "a.toml", fetch(`"docs.python.org/3/"`),
			[]string{`a.toml:3: host "docs.python.org/3/" has a path: a grant names the host alone: write "docs.python.org"`}},
		{"unknown key and the other problems", "a.toml", strings.Replace(validRead, "/home/owner/src", "rel", 1) + "frob = 1\n",
			[]string{`a.toml:3: path "rel" is relative: grant paths are absolute`, `a.toml:6: unknown key frob`}},
		{"key in another case at its own line, its value checked", "a.toml", "tool = \"read_file\"\npaths = [\"/srv\"]\nclass = \"private\"\nmax_taint = \"private\"\nEffect = \"alow\"\n",
			[]string{`a.toml:5: unknown key Effect (keys are lower case: effect)`, `a.toml:5: effect "alow" is not allow, ask or deny`}},
		{"host an IPv4 address", "a.toml", fetch(`"127.0.0.1"`),
			[]string{`a.toml:3: host "127.0.0.1" is an IP address: grants name hosts by their DNS names`}},
		{"host a short IPv4 address", "a.toml", fetch(`"127.1"`),
			[]string{`a.toml:3: host "127.1" is an IP address: grants name hosts by their DNS names`}},
		{"host an IPv6 address", "a.toml", fetch(`"::1"`),
			[]string{`a.toml:3: host "::1" is an IP address: grants name hosts by their DNS names`}},
		{"host an IPv6 address in brackets with a port", "a.toml", fetch(`"[fe80::1]:80"`),
			[]string{`a.toml:3: host "[fe80::1]:80" is an IP address: grants name hosts by their DNS names`}},
		{"host a wildcard", "a.toml", fetch(`"*.python.org"`),
			[]string{`a.toml:3: host "*.python.org" is not a DNS name (letters a-z, digits and - in dot-separated labels)`}},
		{"file name with upper case", "Read-Src.toml", validRead,
			[]string{`Read-Src.toml: the file name "Read-Src.toml" has characters outside [a-z0-9-]: grant files are named [a-z0-9-]+.toml`}},
		{"file name with an underscore", "read_src.toml", validRead,
			[]string{`read_src.toml: the file name "read_src.toml" has characters outside [a-z0-9-]: grant files are named [a-z0-9-]+.toml`}},
		{"unknown tool", "a.toml", strings.Replace(validRead, `"read_file"`, `"read_files"`, 1),
			[]string{`a.toml:1: tool "read_files" is not one of read_file, write_file, list_dir, run, http_fetch, recall, memory, yaag_run, yaag_status, yaag_stop, yaag_pause, yaag_setup_workspace, mcp`}},
		{"unknown effect", "a.toml", strings.Replace(validRead, `"allow"`, `"permit"`, 1),
			[]string{`a.toml:2: effect "permit" is not allow, ask or deny`}},
		{"unknown class", "a.toml", strings.Replace(validRead, `class = "private"`, `class = "internal"`, 1),
			[]string{`a.toml:4: class "internal" is not public, private or secret`}},
		{"class missing on allow", "a.toml", strings.Replace(validRead, "class = \"private\"\n", "", 1),
			[]string{`a.toml: class is missing: say what the data this grant yields is (public, private or secret)`}},
		{"max_taint missing", "a.toml", strings.Replace(validRead, "max_taint = \"private\"\n", "", 1),
			[]string{`a.toml: max_taint is missing: the highest session taint at which this grant applies (public, private or secret)`}},
		{"paths missing", "a.toml", strings.Replace(validRead, "paths = [\"/home/owner/src\"]\n", "", 1),
			[]string{`a.toml: paths is missing: a read_file grant names the absolute paths it covers`}},
		{"paths on recall", "a.toml", "tool = \"recall\"\neffect = \"allow\"\npaths = [\"/x\"]\nclass = \"private\"\nmax_taint = \"secret\"\n",
			[]string{`a.toml:3: a recall grant takes no paths: it covers the tool as a whole`}},
		{"wrong type", "a.toml", strings.Replace(validRead, `untrusted`, `x`, 1) + "untrusted = \"yes\"\n",
			[]string{`a.toml:6: untrusted: true or false is needed, not a string`}},
		{"not TOML", "a.toml", "tool = \n",
			[]string{"a.toml:1: toml: unexpected character U+000A at start of value"}},
		{"every problem, in line order", "a.toml", "tool = \"read_file\"\neffect = \"deny\"\npaths = [\n  \"/ok\",\n  \"rel\",\n  \"/a/..\",\n]\nmax_taint = \"public\"\n",
			[]string{
				`a.toml:5: path "rel" is relative: grant paths are absolute`,
				`a.toml:6: path "/a/.." has a ".." component: write the path it means`,
				`a.toml:8: a deny grant must have max_taint = "secret": with "public" it would stop denying once the session's taint rose above it`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, problems := Parse(tt.file, []byte(tt.data))
			var got []string
			for _, p := range problems {
				got = append(got, p.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(Grant{}, g); diff != "" {
				t.Errorf("an invalid file gave a grant: %s", diff)
			}
		})
	}
}

func fetch(host string) string {
	return "tool = \"http_fetch\"\neffect = \"allow\"\nhosts = [" + host + "]\nclass = \"public\"\nmax_taint = \"secret\"\n"
}

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		name string
		file string
		data string
		want Grant
	}{
		{"a read grant", "read-src.toml", validRead,
			Grant{Name: "read-src.toml", Tool: ReadFile, Effect: Allow, Paths: []string{"/home/owner/src"}, Class: Private, MaxTaint: Private}},
		{"a deny grant needs no class", "deny-ssh.toml", "tool = \"read_file\"\neffect = \"deny\"\npaths = [\"/home/owner/.ssh\"]\nmax_taint = \"secret\"\n",
			Grant{Name: "deny-ssh.toml", Tool: ReadFile, Effect: Deny, Paths: []string{"/home/owner/.ssh"}, MaxTaint: Secret}},
		{"an untrusted fetch grant", "docs.toml", fetch(`"docs.python.org", "localhost"`) + "untrusted = true\n",
			Grant{Name: "docs.toml", Tool: HTTPFetch, Effect: Allow, Hosts: []string{"docs.python.org", "localhost"}, Class: Public, MaxTaint: Secret, Untrusted: true}},
		{"a recall grant", "recall.toml", "tool = \"recall\"\neffect = \"ask\"\nclass = \"private\"\nmax_taint = \"secret\"\n",
			Grant{Name: "recall.toml", Tool: Recall, Effect: Ask, Class: Private, MaxTaint: Secret}},
		{"a path with dots inside names", "a.toml", strings.Replace(validRead, "/home/owner/src", "/home/owner/..src/a.b/.c", 1),
			Grant{Name: "a.toml", Tool: ReadFile, Effect: Allow, Paths: []string{"/home/owner/..src/a.b/.c"}, Class: Private, MaxTaint: Private}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, problems := Parse(tt.file, []byte(tt.data))
			if len(problems) > 0 {
				t.Fatalf("problems: %v", problems)
			}
			if diff := cmp.Diff(tt.want, g); diff != "" {
				t.Errorf("grant (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzParse: the grant parser never panics, and what it accepts holds
// the rules every grant must keep.
func FuzzParse(f *testing.F) {
	f.Add("a.toml", validRead)
	f.Add("b.toml", fetch(`"docs.python.org"`))
	f.Add("c.toml", "tool = \"read_file\"\neffect = \"deny\"\npaths = [\"/etc\"]\nmax_taint = \"secret\"\n")
	f.Add("d.toml", "[secret]\nx = 1\n")
	f.Add("E.toml", "tool = 'run'\neffect='ask'\npaths=['/a//b','/']\n")
	f.Fuzz(func(t *testing.T, name, data string) {
		g, problems := Parse(name, []byte(data))
		for _, p := range problems {
			if p.File != name || p.Text == "" || p.Line < 0 {
				t.Fatalf("malformed problem %#v", p)
			}
		}
		if len(problems) > 0 {
			return
		}
		if !grantNameRE.MatchString(name) {
			t.Fatalf("accepted the file name %q", name)
		}
		if _, ok := knownTool(string(g.Tool)); !ok {
			t.Fatalf("accepted tool %q", g.Tool)
		}
		if g.Effect == Deny && g.MaxTaint != Secret {
			t.Fatalf("accepted a deny grant with max_taint %v", g.MaxTaint)
		}
		for _, p := range g.Paths {
			if pathProblem(p) != "" || p == "/" || !strings.HasPrefix(p, "/") || strings.ContainsAny(p, ":,\x00") {
				t.Fatalf("accepted path %q", p)
			}
		}
		for _, h := range g.Hosts {
			if hostProblem(h) != "" || strings.ToLower(h) != h || strings.Contains(h, ":") {
				t.Fatalf("accepted host %q", h)
			}
		}
		if (len(g.Paths) > 0) != g.Tool.takesPaths() || (len(g.Hosts) > 0) != (g.Tool == HTTPFetch) {
			t.Fatalf("accepted paths %v and hosts %v on %s", g.Paths, g.Hosts, g.Tool)
		}
	})
}
