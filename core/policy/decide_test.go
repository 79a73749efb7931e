package policy

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// attackTree builds a small file system and the grants over it, and
// returns its root (resolved, so that expected targets are exact).
//
//	src/          read_file allow (private, up to private), list_dir allow
//	src/secret/   read_file deny
//	src-evil/     nothing
//	ssh/          read_file deny
//	etc/          nothing
//	out/          write_file allow
func attackTree(t testing.TB) (root string, g *Grants) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"src/secret", "src-evil", "ssh", "etc", "out", "grants"} {
		mustMkdir(t, filepath.Join(root, d))
	}
	for _, f := range []string{"src/a.txt", "src/secret/key", "src-evil/x.txt", "ssh/id", "etc/passwd", "out/existing.txt"} {
		mustWrite(t, filepath.Join(root, f), "contents of "+f)
	}
	links := map[string]string{
		"src/link-to-ssh":  root + "/ssh/id",
		"src/link-to-etc":  root + "/etc",
		"src/dir-link":     root + "/ssh",
		"src/dangling":     root + "/ssh/new",
		"src/chain1":       root + "/src/chain2",
		"src/chain2":       "../ssh/id",
		"src/rel-up":       "../etc/passwd",
		"src/inside":       "a.txt",
		"out/dangling-out": root + "/etc/new",
		"out/link-out":     root + "/etc/passwd",
		"out/dir-out":      root + "/etc",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	gdir := filepath.Join(root, "grants")
	writeGrant(t, gdir, "read-src", "read_file", "allow", `paths = ["`+root+`/src"]`, "private", "private", false)
	writeGrant(t, gdir, "deny-src-secret", "read_file", "deny", `paths = ["`+root+`/src/secret"]`, "", "secret", false)
	writeGrant(t, gdir, "deny-ssh", "read_file", "deny", `paths = ["`+root+`/ssh"]`, "", "secret", false)
	writeGrant(t, gdir, "list-src", "list_dir", "allow", `paths = ["`+root+`/src"]`, "public", "secret", false)
	writeGrant(t, gdir, "write-out", "write_file", "allow", `paths = ["`+root+`/out"]`, "private", "secret", false)
	writeGrant(t, gdir, "ask-docs", "http_fetch", "ask", `hosts = ["docs.python.org"]`, "public", "secret", true)
	writeGrant(t, gdir, "recall", "recall", "allow", "", "private", "secret", false)
	g = Open(gdir)
	t.Cleanup(func() { g.Close() })
	return root, g
}

func writeGrant(t testing.TB, dir, name, tool, effect, target, class, maxTaint string, untrusted bool) {
	t.Helper()
	s := fmt.Sprintf("tool = %q\neffect = %q\n%s\nmax_taint = %q\nuntrusted = %v\n", tool, effect, target, maxTaint, untrusted)
	if class != "" {
		s += fmt.Sprintf("class = %q\n", class)
	}
	mustWrite(t, filepath.Join(dir, name+".toml"), s)
}

func mustWrite(t testing.TB, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustMkdir(t testing.TB, path string) {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestDecide(t *testing.T) {
	root, g := attackTree(t)
	r := func(p string) string { return root + p }
	type want = Decision
	allow := func(grant, target string, class Taint, untrusted bool, reason string) want {
		return want{Verdict: Allow, Grant: grant, Target: target, Class: class, Untrusted: untrusted, Reason: reason}
	}
	tests := []struct {
		name  string
		call  Call
		state State
		want  want
	}{
		{"a granted file", Call{"read_file", r("/src/a.txt")}, State{},
			allow("read-src.toml", r("/src/a.txt"), Private, false, `the grant read-src.toml allows read_file on "`+r("/src/a.txt")+`"`)},
		{"the granted directory itself", Call{"list_dir", r("/src")}, State{},
			allow("list-src.toml", r("/src"), Public, false, `the grant list-src.toml allows list_dir on "`+r("/src")+`"`)},
		{"a sibling with the grant's name as prefix", Call{"read_file", r("/src-evil/x.txt")}, State{},
			want{Verdict: Deny, Target: r("/src-evil/x.txt"), Reason: `no grant allows read_file on "` + r("/src-evil/x.txt") + `"`}},
		{"dot-dot out of the grant", Call{"read_file", r("/src/../etc/passwd")}, State{},
			want{Verdict: Deny, Target: r("/etc/passwd"), Reason: `no grant allows read_file on "` + r("/src/../etc/passwd") + `"`}},
		{"dot-dot into a denied path", Call{"read_file", r("/src/../ssh/id")}, State{},
			want{Verdict: Deny, Grant: "deny-ssh.toml", Target: r("/ssh/id"), Reason: `the grant deny-ssh.toml denies read_file on "` + r("/src/../ssh/id") + `"`}},
		{"dot-dot above the root", Call{"read_file", "/../../../" + r("/src/a.txt")}, State{},
			allow("read-src.toml", r("/src/a.txt"), Private, false, `the grant read-src.toml allows read_file on "`+r("/src/a.txt")+`"`)},
		{"a symlinked file into a denied path", Call{"read_file", r("/src/link-to-ssh")}, State{},
			want{Verdict: Deny, Grant: "deny-ssh.toml", Target: r("/ssh/id"), Reason: `the grant deny-ssh.toml denies read_file on "` + r("/src/link-to-ssh") + `"`}},
		{"a relative symlink out of the grant", Call{"read_file", r("/src/rel-up")}, State{},
			want{Verdict: Deny, Target: r("/etc/passwd"), Reason: `no grant allows read_file on "` + r("/src/rel-up") + `"`}},
		{"a symlinked directory into an ungranted path", Call{"read_file", r("/src/link-to-etc/passwd")}, State{},
			want{Verdict: Deny, Target: r("/etc/passwd"), Reason: `no grant allows read_file on "` + r("/src/link-to-etc/passwd") + `"`}},
		{"a symlinked directory into a denied path", Call{"list_dir", r("/src/dir-link")}, State{},
			want{Verdict: Deny, Grant: "deny-ssh.toml", Target: r("/ssh"), Reason: `the grant deny-ssh.toml denies read_file on "` + r("/src/dir-link") + `", and a deny of read_file reaches list_dir too`}},
		{"a chain of links into a denied path", Call{"read_file", r("/src/chain1")}, State{},
			want{Verdict: Deny, Grant: "deny-ssh.toml", Target: r("/ssh/id"), Reason: `the grant deny-ssh.toml denies read_file on "` + r("/src/chain1") + `"`}},
		{"a dangling link to read", Call{"read_file", r("/src/dangling")}, State{},
			want{Verdict: Deny, Reason: "the target does not exist"}},
		{"a dangling link to write through", Call{"write_file", r("/out/dangling-out")}, State{},
			want{Verdict: Deny, Reason: "the target is a symbolic link that leads nowhere"}},
		{"a link to write through to an ungranted file", Call{"write_file", r("/out/link-out")}, State{},
			want{Verdict: Deny, Target: r("/etc/passwd"), Reason: `no grant allows write_file on "` + r("/out/link-out") + `"`}},
		{"a new file under a linked directory", Call{"write_file", r("/out/dir-out/new")}, State{},
			want{Verdict: Deny, Target: r("/etc/new"), Reason: `no grant allows write_file on "` + r("/out/dir-out/new") + `"`}},
		{"a link inside the grant", Call{"read_file", r("/src/inside")}, State{},
			allow("read-src.toml", r("/src/a.txt"), Private, false, `the grant read-src.toml allows read_file on "`+r("/src/a.txt")+`"`)},
		{"doubled slashes", Call{"read_file", root + "//src///a.txt"}, State{},
			allow("read-src.toml", r("/src/a.txt"), Private, false, `the grant read-src.toml allows read_file on "`+r("/src/a.txt")+`"`)},
		{"a trailing slash", Call{"list_dir", r("/src/")}, State{},
			allow("list-src.toml", r("/src"), Public, false, `the grant list-src.toml allows list_dir on "`+r("/src")+`"`)},
		{"a dot component", Call{"read_file", r("/src/./a.txt")}, State{},
			allow("read-src.toml", r("/src/a.txt"), Private, false, `the grant read-src.toml allows read_file on "`+r("/src/a.txt")+`"`)},
		{"a NUL in the name", Call{"read_file", r("/src/a.txt\x00/../../ssh/id")}, State{},
			want{Verdict: Deny, Reason: "the target has a NUL byte"}},
		{"a name that is not UTF-8", Call{"read_file", r("/src/\xff\xfe")}, State{},
			want{Verdict: Deny, Reason: "the target is not valid UTF-8"}},
		{"a relative target", Call{"read_file", "src/a.txt"}, State{},
			want{Verdict: Deny, Reason: "the target is not an absolute path"}},
		{"an empty target", Call{"read_file", ""}, State{},
			want{Verdict: Deny, Reason: "the target is empty"}},
		{"the root", Call{"list_dir", "/"}, State{},
			want{Verdict: Deny, Target: "/", Reason: `no grant allows list_dir on "/"`}},
		{"an existing file outside every grant, written unclean", Call{"read_file", r("/etc//passwd")}, State{},
			want{Verdict: Deny, Target: r("/etc/passwd"), Reason: `no grant allows read_file on "` + r("/etc//passwd") + `"`}},
		{"a missing file outside every grant", Call{"read_file", r("/etc/shadow")}, State{},
			want{Verdict: Deny, Reason: `no grant allows read_file on "` + r("/etc/shadow") + `"`}},
		{"a tool name with a trailing space", Call{"read_file ", r("/src/a.txt")}, State{},
			want{Verdict: Deny, Reason: `there is no tool "read_file "`}},
		{"a tool name with a Cyrillic e", Call{"r\u0435ad_file", r("/src/a.txt")}, State{},
			want{Verdict: Deny, Reason: `there is no tool "rеad_file"`}},
		{"a tool name in upper case", Call{"READ_FILE", r("/src/a.txt")}, State{},
			want{Verdict: Deny, Reason: `there is no tool "READ_FILE"`}},
		{"an unknown tool", Call{"shell", "ls"}, State{},
			want{Verdict: Deny, Reason: `there is no tool "shell"`}},
		{"a deny under a broader allow", Call{"read_file", r("/src/secret/key")}, State{},
			want{Verdict: Deny, Grant: "deny-src-secret.toml", Target: r("/src/secret/key"), Reason: `the grant deny-src-secret.toml denies read_file on "` + r("/src/secret/key") + `"`}},
		{"a deny at the top taint", Call{"read_file", r("/src/secret/key")}, State{Taint: Secret},
			want{Verdict: Deny, Grant: "deny-src-secret.toml", Target: r("/src/secret/key"), Reason: `the grant deny-src-secret.toml denies read_file on "` + r("/src/secret/key") + `"`}},
		{"an allow at its max_taint", Call{"read_file", r("/src/a.txt")}, State{Taint: Private},
			allow("read-src.toml", r("/src/a.txt"), Private, false, `the grant read-src.toml allows read_file on "`+r("/src/a.txt")+`"`)},
		{"an allow above its max_taint", Call{"read_file", r("/src/a.txt")}, State{Taint: Secret},
			want{Verdict: Deny, Target: r("/src/a.txt"), Reason: `no grant allows read_file on "` + r("/src/a.txt") + `" once the session's taint is secret`}},
		{"a grant of another tool", Call{"write_file", r("/src/a.txt")}, State{},
			want{Verdict: Deny, Target: r("/src/a.txt"), Reason: `no grant allows write_file on "` + r("/src/a.txt") + `"`}},
		{"a new file in a granted directory", Call{"write_file", r("/out/new.txt")}, State{},
			allow("write-out.toml", r("/out/new.txt"), Private, false, `the grant write-out.toml allows write_file on "`+r("/out/new.txt")+`"`)},
		{"a new file in a missing directory", Call{"write_file", r("/out/nodir/new.txt")}, State{},
			want{Verdict: Deny, Reason: "the target's directory does not exist"}},
		{"a new file out of the grant by dot-dot", Call{"write_file", r("/out/../etc/new")}, State{},
			want{Verdict: Deny, Target: r("/etc/new"), Reason: `no grant allows write_file on "` + r("/out/../etc/new") + `"`}},
		{"a granted host", Call{"http_fetch", "https://docs.python.org/3/"}, State{Taint: Secret},
			want{Verdict: Ask, Grant: "ask-docs.toml", Target: "https://docs.python.org/3/", Class: Public, Untrusted: true, Reason: `the grant ask-docs.toml asks the owner before http_fetch on "https://docs.python.org/3/"`}},
		{"a host in upper case", Call{"http_fetch", "https://DOCS.Python.org/3/"}, State{},
			want{Verdict: Ask, Grant: "ask-docs.toml", Target: "https://docs.python.org/3/", Class: Public, Untrusted: true, Reason: `the grant ask-docs.toml asks the owner before http_fetch on "https://docs.python.org/3/"`}},
		{"the scheme's own port", Call{"http_fetch", "https://docs.python.org:443/"}, State{},
			want{Verdict: Ask, Grant: "ask-docs.toml", Target: "https://docs.python.org/", Class: Public, Untrusted: true, Reason: `the grant ask-docs.toml asks the owner before http_fetch on "https://docs.python.org/"`}},
		{"another port", Call{"http_fetch", "https://docs.python.org:8443/"}, State{},
			want{Verdict: Deny, Reason: "grants cover a host's default port only"}},
		{"a subdomain of a granted host", Call{"http_fetch", "https://www.docs.python.org/"}, State{},
			want{Verdict: Deny, Target: "https://www.docs.python.org/", Reason: `no grant allows http_fetch on "https://www.docs.python.org/"`}},
		{"a host ending in a granted host's name", Call{"http_fetch", "https://evildocs.python.org/"}, State{},
			want{Verdict: Deny, Target: "https://evildocs.python.org/", Reason: `no grant allows http_fetch on "https://evildocs.python.org/"`}},
		{"user info before a granted host", Call{"http_fetch", "https://docs.python.org@evil.example/"}, State{},
			want{Verdict: Deny, Reason: "the URL has user information"}},
		{"an IP address", Call{"http_fetch", "http://127.0.0.1/"}, State{},
			want{Verdict: Deny, Reason: "the URL's host is not a DNS name"}},
		{"a look-alike host", Call{"http_fetch", "https://docs.pyth\u043en.org/"}, State{},
			want{Verdict: Deny, Reason: "the URL's host is not ASCII: write it in its xn-- form"}},
		{"a file URL", Call{"http_fetch", "file:///etc/passwd"}, State{},
			want{Verdict: Deny, Reason: "only http and https URLs can be fetched"}},
		{"a recall", Call{"recall", "anything"}, State{Taint: Secret},
			allow("recall.toml", "anything", Private, false, `the grant recall.toml allows recall on "anything"`)},
		{"a tool with no grant", Call{"memory", "soul"}, State{},
			want{Verdict: Deny, Target: "soul", Reason: `no grant allows memory on "soul"`}},
		{"a tool with no grant and no target reads without one", Call{"memory", ""}, State{},
			want{Verdict: Deny, Reason: `no grant allows memory`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := g.Decide(tt.call, tt.state)
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Decision{}, "Err")); diff != "" {
				t.Errorf("Decide(%q, %q) (-want +got):\n%s", tt.call.Tool, tt.call.Target, diff)
			}
			if got.Err != nil {
				t.Errorf("Err = %v, want none", got.Err)
			}
		})
	}
}

// The link swapped between decision and run: what the runner is given is
// the resolved target, so swapping the link afterwards changes nothing it
// reads. (That the runner mounts Decision.Target, and opens it without
// following a link swapped in its place, is the runner's test.)
func TestDecideTargetOutlivesASwappedLink(t *testing.T) {
	root, g := attackTree(t)
	link := root + "/src/swap"
	if err := os.Symlink(root+"/src/a.txt", link); err != nil {
		t.Fatal(err)
	}
	d := g.Decide(Call{"read_file", link}, State{})
	if d.Verdict != Allow || d.Target != root+"/src/a.txt" {
		t.Fatalf("decision %+v, want allow on %s/src/a.txt", d, root)
	}
	tmp := root + "/src/swap.new"
	if err := os.Symlink(root+"/ssh/id", tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, link); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(d.Target)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != "contents of src/a.txt" {
		t.Errorf("the decided target now reads %q", data)
	}
	if again := g.Decide(Call{"read_file", link}, State{}); again.Verdict != Deny || again.Grant != "deny-ssh.toml" {
		t.Errorf("after the swap: %+v, want deny by deny-ssh.toml", again)
	}
}

// Fields the model adds to a call cannot reach a decision: the call has
// no field to carry them.
func TestCallCarriesToolAndTargetOnly(t *testing.T) {
	var fields []string
	ct := reflect.TypeOf(Call{})
	for i := range ct.NumField() {
		fields = append(fields, ct.Field(i).Name)
	}
	if diff := cmp.Diff([]string{"Tool", "Target"}, fields); diff != "" {
		t.Errorf("Call's fields (-want +got):\n%s", diff)
	}
	// A model's call with a grant and a taint of its own, decoded the way
	// brokerd would decode it into a Call, keeps neither.
	var c Call
	if err := json.Unmarshal([]byte(`{"Tool":"read_file","Target":"/x","Grant":"read-src.toml","Taint":"public"}`), &c); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Call{Tool: "read_file", Target: "/x"}, c); diff != "" {
		t.Errorf("decoded call (-want +got):\n%s", diff)
	}
}

// Of several grants of one effect, the one that raises the state most
// decides; ties go to the first file name.
func TestDecideChoosesTheStrictestOfEqualEffects(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mustMkdir(t, root+"/data")
	mustWrite(t, root+"/data/f", "x")
	gdir := root + "/grants"
	mustMkdir(t, gdir)
	paths := `paths = ["` + root + `/data"]`
	writeGrant(t, gdir, "a-public", "read_file", "allow", paths, "public", "secret", false)
	writeGrant(t, gdir, "b-secret", "read_file", "allow", paths, "secret", "secret", false)
	writeGrant(t, gdir, "c-secret-untrusted", "read_file", "allow", paths, "secret", "secret", true)
	writeGrant(t, gdir, "d-secret-untrusted", "read_file", "allow", paths, "secret", "secret", true)
	g := Open(gdir)
	defer g.Close()
	d := g.Decide(Call{"read_file", root + "/data/f"}, State{})
	if d.Verdict != Allow || d.Grant != "c-secret-untrusted.toml" || d.Class != Secret || !d.Untrusted {
		t.Errorf("decision %+v, want allow by c-secret-untrusted.toml (secret, untrusted)", d)
	}
	writeGrant(t, gdir, "z-ask", "read_file", "ask", paths, "public", "secret", false)
	if d := g.Decide(Call{"read_file", root + "/data/f"}, State{}); d.Verdict != Ask || d.Grant != "z-ask.toml" {
		t.Errorf("decision %+v, want ask by z-ask.toml (ask beats allow)", d)
	}
}

func TestStateOnlyRises(t *testing.T) {
	tests := []struct {
		name      string
		from      State
		class     Taint
		untrusted bool
		want      State
	}{
		{"public to private", State{Taint: Public}, Private, false, State{Taint: Private}},
		{"secret stays secret", State{Taint: Secret}, Public, false, State{Taint: Secret}},
		{"private stays above public", State{Taint: Private}, Public, false, State{Taint: Private}},
		{"untrusted is set", State{}, Public, true, State{Untrusted: true}},
		{"untrusted is never cleared", State{Untrusted: true}, Public, false, State{Untrusted: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.from.Raise(tt.class, tt.untrusted)); diff != "" {
				t.Errorf("Raise (-want +got):\n%s", diff)
			}
			d := Decision{Verdict: Allow, Class: tt.class, Untrusted: tt.untrusted}
			if diff := cmp.Diff(tt.want, tt.from.After(d)); diff != "" {
				t.Errorf("After (-want +got):\n%s", diff)
			}
		})
	}
	if got := (State{Taint: Private}).After(Decision{Verdict: Deny, Class: Secret, Untrusted: true}); got != (State{Taint: Private}) {
		t.Errorf("a denied call changed the state to %+v", got)
	}
}

func TestStateJSON(t *testing.T) {
	b, err := json.Marshal(State{Taint: Private})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"taint":"private","untrusted":false}` {
		t.Errorf("marshalled %s", b)
	}
	var s State
	if err := json.Unmarshal([]byte(`{"taint":"secret","untrusted":true}`), &s); err != nil || s != (State{Taint: Secret, Untrusted: true}) {
		t.Errorf("unmarshalled %+v, %v", s, err)
	}
	for _, bad := range []string{`{"taint":"Secret"}`, `{"taint":"top"}`, `{"taint":2}`, `{"taint":""}`} {
		if err := json.Unmarshal([]byte(bad), &s); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
}

func TestIsTaintTakesOnlyTheThreeNames(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"public", true}, {"private", true}, {"secret", true},
		{"Public", false}, {"SECRET", false}, {"", false}, {" public", false}, {"public\n", false}, {"top", false}, {"taint(3)", false},
	} {
		if got := IsTaint(tt.s); got != tt.want {
			t.Errorf("IsTaint(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

// realPath agrees with filepath.EvalSymlinks on every path of the attack
// tree, by either of its ways (openat2, then open and /proc).
func TestRealPathAgreesWithEvalSymlinks(t *testing.T) {
	root, _ := attackTree(t)
	paths := []string{"/src/a.txt", "/src", "/src/link-to-ssh", "/src/link-to-etc/passwd", "/src/dir-link",
		"/src/chain1", "/src/rel-up", "/src/inside", "/src/dangling", "/out/link-out", "/out/missing", "/src/a.txt/x"}
	for _, slow := range []bool{false, true} {
		noOpenat2.Store(slow)
		for _, p := range paths {
			want, wantErr := filepath.EvalSymlinks(root + p)
			got, err := realPath(root + p)
			if got != want || (err == nil) != (wantErr == nil) {
				t.Errorf("openat2 off=%v: realPath(%s) = %q, %v; EvalSymlinks: %q, %v", slow, p, got, err, want, wantErr)
			}
		}
	}
	noOpenat2.Store(false)
}
