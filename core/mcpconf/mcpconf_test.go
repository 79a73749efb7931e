package mcpconf

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/policy"
	"boxmaker/core/secrets"
	"boxmaker/runbook"
)

const digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

const good = `image = "localhost/mcp-ref@` + digest + `"
command = ["node", "/app/server.js", "/data"]
paths = ["/srv/notes"]
hosts = ["api.example.org"]

[env]
MEMORY_FILE_PATH = "/data/memory.jsonl"

[secrets.GITHUB_TOKEN]
credential = "github-token"
`

func TestParseAValidServer(t *testing.T) {
	s, ps := Parse("notes.toml", []byte(good))
	if ps != nil {
		t.Fatalf("problems: %v", ps)
	}
	want := Server{
		Name: "notes", Image: "localhost/mcp-ref@" + digest,
		Command: []string{"node", "/app/server.js", "/data"},
		Env:     map[string]string{"MEMORY_FILE_PATH": "/data/memory.jsonl"},
		Secrets: map[string]secrets.Source{"GITHUB_TOKEN": {Credential: "github-token"}},
		Paths:   []string{"/srv/notes"}, Hosts: []string{"api.example.org"},
	}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Error(diff)
	}
}

func TestParseReportsEveryProblemWithItsLine(t *testing.T) {
	for _, tc := range []struct {
		name, file, data string
		want             []string
	}{
		{"unknown keys, with the rest still checked", "a.toml",
			"image = \"x:latest\"\ncommand = [\"node\"]\nvolumes = [\"/\"]\n",
			[]string{
				`a.toml:1: image "x:latest" is not pinned by digest: write name@sha256:<64 hex> (podman image inspect --format '{{.Digest}}' x:latest), so that the image run is the image declared`,
				"a.toml:3: unknown key volumes",
			}},
		{"a key in another case", "a.toml",
			"Image = \"x@" + digest + "\"\ncommand = [\"node\"]\n",
			[]string{"a.toml:1: unknown key Image (keys are lower case: image)"}},
		{"a secret value in the file", "a.toml",
			"image = \"x@" + digest + "\"\ncommand = [\"node\"]\n[secrets.TOKEN]\nvalue = \"hunter2\"\n",
			[]string{"a.toml:3: secrets.TOKEN names no source: set one of credential, env or file",
				"a.toml:4: unknown key secrets.TOKEN.value"}},
		{"a secret with no source and one named as an env too", "a.toml",
			"image = \"x@" + digest + "\"\ncommand = [\"node\"]\n[env]\nTOKEN = \"x\"\n[secrets.TOKEN]\n",
			[]string{"a.toml:5: secrets.TOKEN names no source: set one of credential, env or file",
				"a.toml:5: TOKEN is both in [env] and a secret: name it once"}},
		{"a tag beside the digest", "a.toml",
			"image = \"x:1@" + digest + "\"\ncommand = [\"node\"]\n",
			[]string{`a.toml:1: image "x:1@` + digest + `" has a tag beside its digest: Podman ignores the tag, so write the name and digest alone`}},
		{"a short digest", "a.toml",
			"image = \"x@sha256:abc\"\ncommand = [\"node\"]\n",
			[]string{`a.toml:1: image "x@sha256:abc": the digest is not sha256:<64 lower-case hex>`}},
		{"no command, a bad name, bad paths and hosts", "My_Server.toml",
			"image = \"x@" + digest + "\"\ncommand = []\npaths = [\"rel\", \"/\"]\nhosts = [\"10.0.0.1\"]\n",
			[]string{`My_Server.toml: the file name "My_Server.toml" is not [a-z0-9-]+.toml: a server's file is named for the server, in [a-z0-9-]+`,
				`My_Server.toml:2: command is missing: the argv the server runs in its image, as ["program", "arg", ...]`,
				`My_Server.toml:3: path "rel" is relative: grant paths are absolute`,
				`My_Server.toml:3: path "/" would grant the whole file system: grant the directories you mean`,
				`My_Server.toml:4: host "10.0.0.1" is an IP address: grants name hosts by their DNS names`}},
		{"a bad env name and a control character in the command", "a.toml",
			"image = \"x@" + digest + "\"\ncommand = [\"node\", \"a\\nb\"]\n[env]\n\"1X\" = \"v\"\n",
			[]string{`a.toml:2: command[1] "a\nb" has a control character`,
				`a.toml:3: env "1X" is not an environment variable's name (letters, digits and _, not starting with a digit)`}},
		{"a wrong type stops the reading", "a.toml",
			"image = 3\ncommand = [\"node\"]\n",
			[]string{"a.toml:1: image: a string is needed, not an integer"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ps := Parse(tc.file, []byte(tc.data))
			var got []string
			for _, p := range ps {
				got = append(got, p.String())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Error(diff)
			}
		})
	}
}

func write(t *testing.T, dir, name, data string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestAnInvalidFileMakesOnlyItsServerUnavailable(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "notes.toml", good)
	write(t, dir, "broken.toml", "extra = 1\n"+good)
	write(t, dir, "README", "hello")
	write(t, dir, ".hidden", "ignored")
	r := Load(dir)
	if _, err := r.Server("notes"); err != nil {
		t.Errorf("notes: %v", err)
	}
	_, err := r.Server("broken")
	if e, ok := runbook.EntryOf(err); !ok || e != runbook.MCPServerInvalid {
		t.Fatalf("broken: %v, want an %s refusal", err, runbook.MCPServerInvalid)
	}
	if !strings.HasSuffix(err.Error(), runbook.Link(runbook.MCPServerInvalid)) {
		t.Errorf("the refusal does not end with its link: %v", err)
	}
	var inv *policy.InvalidError
	if !errors.As(err, &inv) || len(inv.Problems) != 1 || inv.Problems[0].String() != "broken.toml:1: unknown key extra" {
		t.Errorf("the cause is %#v, want broken.toml's problem", inv)
	}
	if _, err := r.Server("nosuch"); err == nil || strings.Contains(err.Error(), "runbook") {
		t.Errorf("an unknown server: %v", err)
	}
	var got []string
	for _, p := range r.Problems {
		got = append(got, p.String())
	}
	want := []string{"README: not a server file: server files are named [a-z0-9-]+.toml, and other files do not belong in the MCP servers directory",
		"broken.toml:1: unknown key extra"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

func TestLoadRefusesLinksAndHarnessPaths(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	write(t, dir, "notes.toml", strings.Replace(good, `"/srv/notes"`, `"`+home+`/audit"`, 1))
	if err := os.Symlink(filepath.Join(dir, "notes.toml"), filepath.Join(dir, "link.toml")); err != nil {
		t.Fatal(err)
	}
	r := Load(dir, policy.Harness{What: "brokerd's home", Path: home})
	if len(r.Servers) != 0 {
		t.Errorf("servers %v, want none", r.Servers)
	}
	var got []string
	for _, p := range r.Problems {
		got = append(got, p.String())
	}
	want := []string{
		"link.toml: a symbolic link: a server's file must be a regular file in the MCP servers directory",
		`notes.toml:3: path "` + home + `/audit" lies inside brokerd's home (` + home + `): the harness's own files can never be given to a server`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

func TestAMissingDirectoryDeclaresNoServer(t *testing.T) {
	r := Load(filepath.Join(t.TempDir(), "mcp"))
	if !r.Missing || len(r.Problems) != 0 || len(r.Servers) != 0 {
		t.Errorf("%+v", r)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("a.toml", good)
	f.Add("a.toml", "[secrets.X]\nenv = \"Y\"\n")
	f.Fuzz(func(t *testing.T, name, data string) {
		s, ps := Parse(name, []byte(data))
		if len(ps) == 0 && (s.Image == "" || len(s.Command) == 0) {
			t.Errorf("a server without image or command was accepted: %+v", s)
		}
	})
}

func TestImageReferences(t *testing.T) {
	for ref, ok := range map[string]bool{
		"localhost/mcp-ref@" + digest:           true,
		"registry.example:5000/a/b_c@" + digest: true,
		"x@" + digest:                           true,
		"x:1@" + digest:                         false,
		"x@sha256:ABC":                          false,
		"X@" + digest:                           false,
		"x":                                     false,
		"/x@" + digest:                          false,
	} {
		if got := imageRE.MatchString(ref); got != ok {
			t.Errorf("%s: pinned %v, want %v", ref, got, ok)
		}
	}
}
