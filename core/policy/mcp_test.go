package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"boxmaker/runbook"
)

func writeFile(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestMCPGrantParse(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string // problems' texts, in part; none: valid
	}{
		{"all tools", "tool = \"mcp\"\nserver = \"notes\"\neffect = \"allow\"\nclass = \"private\"\nmax_taint = \"private\"\n", nil},
		{"some tools, paths", "tool = \"mcp\"\nserver = \"notes\"\ntools = [\"read\", \"list.all\"]\neffect = \"ask\"\nclass = \"public\"\nmax_taint = \"secret\"\npaths = [\"/srv/notes\"]\n", nil},
		{"no server", "tool = \"mcp\"\neffect = \"allow\"\nclass = \"private\"\nmax_taint = \"private\"\n", []string{"server is missing"}},
		{"bad server", "tool = \"mcp\"\nserver = \"No_Such\"\neffect = \"allow\"\nclass = \"private\"\nmax_taint = \"private\"\n", []string{`server "No_Such" is not an MCP server's name`}},
		{"empty tools", "tool = \"mcp\"\nserver = \"a\"\ntools = []\neffect = \"allow\"\nclass = \"private\"\nmax_taint = \"private\"\n", []string{"tools is empty"}},
		{"bad tool", "tool = \"mcp\"\nserver = \"a\"\ntools = [\"a b\"]\neffect = \"allow\"\nclass = \"private\"\nmax_taint = \"private\"\n", []string{`"a b" is not an MCP tool's name`}},
		{"too long", "tool = \"mcp\"\nserver = \"a\"\ntools = [\"" + strings.Repeat("x", 60) + "\"]\neffect = \"allow\"\nclass = \"private\"\nmax_taint = \"private\"\n", []string{"longer than 64 bytes"}},
		{"hosts", "tool = \"mcp\"\nserver = \"a\"\nhosts = [\"example.org\"]\neffect = \"allow\"\nclass = \"private\"\nmax_taint = \"private\"\n", []string{runbook.Link(runbook.MCPRemoteUnsupported)}},
		{"deny with paths", "tool = \"mcp\"\nserver = \"a\"\npaths = [\"/srv\"]\neffect = \"deny\"\nmax_taint = \"secret\"\n", []string{"a deny mcp grant takes no paths"}},
		{"server on read_file", "tool = \"read_file\"\nserver = \"a\"\ntools = [\"x\"]\npaths = [\"/srv\"]\neffect = \"allow\"\nclass = \"private\"\nmax_taint = \"private\"\n", []string{"server is for mcp grants", "tools is for mcp grants"}},
		{"unknown key", "tool = \"mcp\"\nserver = \"a\"\ntool_names = [\"x\"]\neffect = \"allow\"\nclass = \"private\"\nmax_taint = \"private\"\n", []string{"unknown key"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ps := Parse("g.toml", []byte(tc.body))
			if len(ps) != len(tc.want) {
				t.Fatalf("problems %v, want %d: %q", ps, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(ps[i].Text, w) {
					t.Errorf("problem %d: %q, want it to say %q", i, ps[i].Text, w)
				}
			}
		})
	}
}

func TestMCPGrantIsUntrustedUnlessItSaysOtherwise(t *testing.T) {
	base := "tool = \"mcp\"\nserver = \"a\"\neffect = \"allow\"\nclass = \"private\"\nmax_taint = \"private\"\n"
	g, ps := Parse("g.toml", []byte(base))
	if len(ps) > 0 || !g.Untrusted {
		t.Fatalf("untrusted %v (%v), want true by default", g.Untrusted, ps)
	}
	g, ps = Parse("g.toml", []byte(base+"untrusted = false\n"))
	if len(ps) > 0 || g.Untrusted {
		t.Fatalf("untrusted %v (%v), want false as written", g.Untrusted, ps)
	}
	g, _ = Parse("g.toml", []byte("tool = \"recall\"\neffect = \"allow\"\nclass = \"private\"\nmax_taint = \"private\"\n"))
	if g.Untrusted {
		t.Fatal("a recall grant became untrusted by default")
	}
}

// A deny on one tool while another of the same server is allowed; a tool
// no grant names; the name "mcp" itself; a name that is not a server's.
func TestDecideMCP(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "notes.toml", "tool = \"mcp\"\nserver = \"notes\"\neffect = \"allow\"\nclass = \"private\"\nmax_taint = \"private\"\n")
	writeFile(t, dir, "notes-no-write.toml", "tool = \"mcp\"\nserver = \"notes\"\ntools = [\"write_note\"]\neffect = \"deny\"\nmax_taint = \"secret\"\n")
	writeFile(t, dir, "notes-ask.toml", "tool = \"mcp\"\nserver = \"notes\"\ntools = [\"delete\"]\neffect = \"ask\"\nclass = \"public\"\nmax_taint = \"secret\"\n")
	g := Open(dir)
	defer g.Close()
	type got struct {
		Verdict   Effect
		Grant     string
		Class     Taint
		Untrusted bool
	}
	for _, tc := range []struct {
		tool  string
		taint Taint
		want  got
	}{
		{"mcp__notes__read_note", Public, got{Allow, "notes.toml", Private, true}},
		{"mcp__notes__write_note", Public, got{Verdict: Deny, Grant: "notes-no-write.toml"}},
		{"mcp__notes__delete", Public, got{Ask, "notes-ask.toml", Public, true}}, // ask beats allow
		{"mcp__notes__read_note", Secret, got{Verdict: Deny}},
		{"mcp__other__read_note", Public, got{Verdict: Deny}},
		{"mcp", Public, got{Verdict: Deny}},
		{"mcp__Notes__read_note", Public, got{Verdict: Deny}},
		{"mcp__notes__", Public, got{Verdict: Deny}},
		{"mcp__notes__a b", Public, got{Verdict: Deny}},
	} {
		d := g.Decide(Call{Tool: tc.tool}, State{Taint: tc.taint})
		if diff := cmp.Diff(tc.want, got{d.Verdict, d.Grant, d.Class, d.Untrusted}); diff != "" {
			t.Errorf("%s at %s (%s): -want +got\n%s", tc.tool, tc.taint, d.Reason, diff)
		}
	}
	if got := g.Granted(); !strings.Contains(strings.Join(toStrings(got), " "), "mcp") {
		t.Errorf("Granted %v, want mcp in it", got)
	}
}

func toStrings(ts []Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t)
	}
	return out
}

func TestMCPMounts(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"notes/private", "notes/out", "other", "grants", "secret"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(root, "grants")
	writeFile(t, dir, "notes.toml", "tool = \"mcp\"\nserver = \"notes\"\neffect = \"allow\"\nclass = \"public\"\nmax_taint = \"private\"\npaths = [\""+root+"/notes\", \""+root+"/other\"]\n")
	writeFile(t, dir, "notes-secret.toml", "tool = \"mcp\"\nserver = \"notes\"\neffect = \"ask\"\nclass = \"public\"\nmax_taint = \"public\"\npaths = [\""+root+"/secret\"]\n")
	writeFile(t, dir, "no-private.toml", "tool = \"read_file\"\neffect = \"deny\"\nmax_taint = \"secret\"\npaths = [\""+root+"/notes/private\"]\n")
	writeFile(t, dir, "write-out.toml", "tool = \"write_file\"\neffect = \"allow\"\nclass = \"private\"\nmax_taint = \"private\"\npaths = [\""+root+"/notes\"]\n")
	writeFile(t, dir, "read-notes.toml", "tool = \"read_file\"\neffect = \"allow\"\nclass = \"private\"\nmax_taint = \"private\"\npaths = [\""+root+"/notes\"]\n")
	g := Open(dir)
	defer g.Close()
	if ps := g.Problems(); len(ps) > 0 {
		t.Fatal(ps)
	}

	// At public: notes (masked below, writable), secret; other is not
	// declared by the server.
	plan := g.MCPMounts("notes", []string{root + "/notes", root + "/secret"}, State{})
	want := MCPPlan{
		Mounts: []MCPMount{
			{Path: root + "/notes", Write: true, Masks: []Mask{{Path: root + "/notes/private", Hide: true, Grant: "no-private.toml", Tool: ReadFile}}},
			{Path: root + "/secret"},
		},
		Class:   Private, // read-notes.toml says notes/ is private
		Skipped: []string{root + "/other (notes.toml): not inside the paths the server's file declares"},
	}
	if diff := cmp.Diff(want, plan, cmpopts.IgnoreFields(MCPMount{}, "Dev", "Ino")); diff != "" {
		t.Errorf("at public: -want +got\n%s", diff)
	}
	// Another directory put at the same path is another plan: the server
	// given the first one is started again with the second.
	if err := os.Rename(root+"/secret", root+"/secret-was"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(root+"/secret", 0o700); err != nil {
		t.Fatal(err)
	}
	swapped := g.MCPMounts("notes", []string{root + "/notes", root + "/secret"}, State{})
	if cmp.Equal(plan, swapped) || swapped.Mounts[1].Ino == plan.Mounts[1].Ino || swapped.Mounts[1].Path != plan.Mounts[1].Path {
		t.Errorf("a swapped directory plans the same: %+v", swapped.Mounts)
	}
	// At private: the ask grant of secret/ no longer applies.
	plan = g.MCPMounts("notes", []string{root + "/notes", root + "/secret"}, State{Taint: Private})
	if len(plan.Mounts) != 1 || plan.Mounts[0].Path != root+"/notes" {
		t.Errorf("at private: %+v, want notes alone", plan.Mounts)
	}
	// A deny covering the path itself: not given at all.
	writeFile(t, dir, "no-notes.toml", "tool = \"list_dir\"\neffect = \"deny\"\nmax_taint = \"secret\"\npaths = [\""+root+"/notes\"]\n")
	plan = g.MCPMounts("notes", []string{root + "/notes"}, State{})
	if len(plan.Mounts) != 0 || !strings.Contains(strings.Join(plan.Skipped, "\n"), root+"/notes: the grant no-notes.toml denies list_dir there") {
		t.Errorf("with notes denied: %+v", plan)
	}
	// Another server is given nothing.
	if plan := g.MCPMounts("other", []string{root}, State{}); len(plan.Mounts) != 0 {
		t.Errorf("another server: %+v", plan)
	}
}

// SplitMCP reads back exactly what MCPName writes, and nothing it would
// not write: a call's name names one server's one tool.
func FuzzSplitMCP(f *testing.F) {
	for _, s := range []string{"mcp__notes__read", "mcp__a__b__c", "mcp____x", "mcp__Notes__x", "mcp__n__", "mcp__n__a b", "read_file", "mcp_n_x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		server, tool, ok := SplitMCP(name)
		if !ok {
			return
		}
		if MCPName(server, tool) != name || len(name) > MaxMCPName || strings.Contains(server, "_") || server == "" || tool == "" {
			t.Fatalf("SplitMCP(%q) = %q, %q", name, server, tool)
		}
		if ps := mcpGrantProblems(server, []string{tool}); len(ps) != 0 {
			t.Fatalf("a callable name %q that no grant could name: %v", name, ps)
		}
	})
}
