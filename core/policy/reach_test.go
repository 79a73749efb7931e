package policy

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxmaker/runbook"
)

// A deny covers more than its own tool: a path denied to read_file cannot
// be listed or read through run, one denied to write_file cannot be
// written through run, one denied to list_dir or run cannot be reached
// through run; run's mounts mask such paths below its target. Each row of
// docs/specs/grants.md's table, section 3. (Issue 8, item 5.)
func TestADenyReachesEveryToolThatCouldUseItsPath(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"w/keys", "w/build", "w/hidden", "w/bin", "w/src", "grants"} {
		mustMkdir(t, root+"/"+d)
	}
	for _, f := range []string{"w/keys/id", "w/build/out", "w/hidden/f", "w/bin/tool", "w/src/a"} {
		mustWrite(t, root+"/"+f, f)
	}
	gd := root + "/grants"
	w := `paths = ["` + root + `/w"]`
	for name, tool := range map[string]string{"read": "read_file", "write": "write_file", "list": "list_dir", "run": "run"} {
		writeGrant(t, gd, "allow-"+name, tool, "allow", w, "public", "secret", false)
	}
	writeGrant(t, gd, "deny-keys", "read_file", "deny", `paths = ["`+root+`/w/keys"]`, "", "secret", false)
	writeGrant(t, gd, "deny-build", "write_file", "deny", `paths = ["`+root+`/w/build"]`, "", "secret", false)
	writeGrant(t, gd, "deny-hidden", "list_dir", "deny", `paths = ["`+root+`/w/hidden"]`, "", "secret", false)
	writeGrant(t, gd, "deny-bin", "run", "deny", `paths = ["`+root+`/w/bin"]`, "", "secret", false)
	g := Open(gd)
	defer g.Close()

	tests := []struct {
		tool, target string
		verdict      Effect
		grant        string
	}{
		// deny read_file reaches read_file, list_dir and run.
		{"read_file", "/w/keys/id", Deny, "deny-keys.toml"},
		{"list_dir", "/w/keys", Deny, "deny-keys.toml"},
		{"run", "/w/keys", Deny, "deny-keys.toml"},
		{"write_file", "/w/keys/id", Allow, "allow-write.toml"},
		// deny write_file reaches write_file and run.
		{"write_file", "/w/build/out", Deny, "deny-build.toml"},
		{"run", "/w/build", Deny, "deny-build.toml"},
		{"read_file", "/w/build/out", Allow, "allow-read.toml"},
		{"list_dir", "/w/build", Allow, "allow-list.toml"},
		// deny list_dir reaches list_dir and run.
		{"list_dir", "/w/hidden", Deny, "deny-hidden.toml"},
		{"run", "/w/hidden", Deny, "deny-hidden.toml"},
		{"read_file", "/w/hidden/f", Allow, "allow-read.toml"},
		// deny run reaches run only.
		{"run", "/w/bin", Deny, "deny-bin.toml"},
		{"read_file", "/w/bin/tool", Allow, "allow-read.toml"},
		{"list_dir", "/w/bin", Allow, "allow-list.toml"},
		{"write_file", "/w/bin/tool", Allow, "allow-write.toml"},
	}
	for _, tt := range tests {
		d := g.Decide(Call{tt.tool, root + tt.target}, State{})
		if d.Verdict != tt.verdict || d.Grant != tt.grant {
			t.Errorf("%s %s: %s by %q (%s), want %s by %s", tt.tool, tt.target, d.Verdict, d.Grant, d.Reason, tt.verdict, tt.grant)
		}
	}

	// run on the parent: each denied path below it is masked, hidden, or
	// read-only where only write_file is denied.
	d := g.Decide(Call{"run", root + "/w"}, State{})
	want := []Mask{
		{Path: root + "/w/bin", Hide: true, Grant: "deny-bin.toml", Tool: Run},
		{Path: root + "/w/build", Hide: false, Grant: "deny-build.toml", Tool: WriteFile},
		{Path: root + "/w/hidden", Hide: true, Grant: "deny-hidden.toml", Tool: ListDir},
		{Path: root + "/w/keys", Hide: true, Grant: "deny-keys.toml", Tool: ReadFile},
	}
	if d.Verdict != Allow {
		t.Fatalf("run on the parent: %+v", d)
	}
	if diff := cmp.Diff(want, d.Masks); diff != "" {
		t.Errorf("run's masks (-want +got):\n%s", diff)
	}
	if d := g.Decide(Call{"run", root + "/w/src"}, State{}); d.Verdict != Allow || d.Masks != nil {
		t.Errorf("run on a directory with no deny below: %+v", d)
	}
}

// A regular file with more than one link may have another name outside
// every grant: read_file and write_file refuse it unless the grant says
// allow_hard_links. (Issue 8, item 7.)
func TestFileToolsRefuseAHardLinkedFile(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"g", "outside", "grants", "linked"} {
		mustMkdir(t, root+"/"+d)
	}
	mustWrite(t, root+"/outside/secret", "secret")
	mustWrite(t, root+"/g/plain", "plain")
	if err := os.Link(root+"/outside/secret", root+"/g/link"); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(root+"/outside/secret", root+"/linked/link"); err != nil {
		t.Fatal(err)
	}
	gd := root + "/grants"
	writeGrant(t, gd, "read-g", "read_file", "allow", `paths = ["`+root+`/g"]`, "public", "secret", false)
	writeGrant(t, gd, "write-g", "write_file", "allow", `paths = ["`+root+`/g"]`, "public", "secret", false)
	mustWrite(t, gd+"/read-linked.toml", "tool = \"read_file\"\neffect = \"allow\"\npaths = [\""+root+"/linked\"]\nclass = \"public\"\nmax_taint = \"secret\"\nallow_hard_links = true\n")
	g := Open(gd)
	defer g.Close()
	for _, tt := range []struct {
		tool, target string
		verdict      Effect
		reason       string
	}{
		{"read_file", "/g/link", Deny, `"` + root + `/g/link" has 3 hard links: another name for the file may lie outside every grant, and the grant read-g.toml does not allow linked files (allow_hard_links); ` + runbook.Link(runbook.HardLinkRefused)},
		{"write_file", "/g/link", Deny, `"` + root + `/g/link" has 3 hard links: another name for the file may lie outside every grant, and the grant write-g.toml does not allow linked files (allow_hard_links); ` + runbook.Link(runbook.HardLinkRefused)},
		{"read_file", "/g/plain", Allow, `the grant read-g.toml allows read_file on "` + root + `/g/plain"`},
		{"read_file", "/linked/link", Allow, `the grant read-linked.toml allows read_file on "` + root + `/linked/link"`},
	} {
		d := g.Decide(Call{tt.tool, root + tt.target}, State{})
		if d.Verdict != tt.verdict || d.Reason != tt.reason {
			t.Errorf("%s %s: %s %q, want %s %q", tt.tool, tt.target, d.Verdict, d.Reason, tt.verdict, tt.reason)
		}
		if want := tt.target == "/linked/link"; d.HardLinks != want {
			t.Errorf("%s %s: HardLinks %v", tt.tool, tt.target, d.HardLinks)
		}
	}
	// The key is for the file tools only.
	if _, ps := Parse("run-x.toml", []byte("tool = \"run\"\neffect = \"allow\"\npaths = [\"/x\"]\nclass = \"public\"\nmax_taint = \"secret\"\nallow_hard_links = true\n")); len(ps) != 1 ||
		ps[0].String() != "run-x.toml:6: allow_hard_links is for read_file and write_file grants: a run grant never refuses a linked file" {
		t.Errorf("problems %v", ps)
	}
}

// A run reads its whole tree, so it is at the class of every grant of a
// tool that yields data (read_file, list_dir, run) on a path overlapping
// it: below it, the same path, or a directory above it; a write_file
// grant's class and a deny's do not count. (Issue 8, item 4, one target.)
func TestARunIsAtTheClassOfWhatItsTreeHolds(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"w/secrets", "w/names", "w/out", "v/k", "u/in", "grants"} {
		mustMkdir(t, root+"/"+d)
	}
	gd := root + "/grants"
	for _, d := range []string{"w", "v", "u/in"} {
		writeGrant(t, gd, "run-"+d[:1], "run", "allow", `paths = ["`+root+`/`+d+`"]`, "public", "secret", false)
	}
	writeGrant(t, gd, "read-secrets", "read_file", "allow", `paths = ["`+root+`/w/secrets"]`, "secret", "secret", false)
	writeGrant(t, gd, "list-names", "list_dir", "ask", `paths = ["`+root+`/w/names"]`, "private", "secret", false)
	writeGrant(t, gd, "write-out", "write_file", "allow", `paths = ["`+root+`/w/out", "`+root+`/v"]`, "secret", "secret", false)
	writeGrant(t, gd, "deny-v", "read_file", "deny", `paths = ["`+root+`/v/k"]`, "secret", "secret", false)
	writeGrant(t, gd, "read-u", "read_file", "allow", `paths = ["`+root+`/u"]`, "private", "secret", false)
	g := Open(gd)
	defer g.Close()
	tests := []struct {
		target     string
		class      Taint
		classGrant string
	}{
		{"/w", Secret, "read-secrets.toml"},      // a secret grant below the run's tree
		{"/w/names", Private, "list-names.toml"}, // the same path, another tool
		{"/w/out", Public, ""},                   // a write grant's class is not data the run reads
		{"/v", Public, ""},                       // nor is a deny's
		{"/u/in", Private, "read-u.toml"},        // a directory above it
	}
	for _, tt := range tests {
		d := g.Decide(Call{"run", root + tt.target}, State{})
		if d.Verdict == Deny || d.Class != tt.class || d.ClassGrant != tt.classGrant {
			t.Errorf("run on %s: %s, class %s raised by %q, want class %s raised by %q (%s)", tt.target, d.Verdict, d.Class, d.ClassGrant, tt.class, tt.classGrant, d.Reason)
		}
	}
}
