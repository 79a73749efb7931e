package policy

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A yaag_run is decided as a run is: at the class of every grant that
// overlaps its directory, and at that taint; a deny that reaches a path
// in or above its directory refuses it, since the Run reads the directory
// on the host with nothing to mask the path (issue 23, item 3; D820).
func TestAYaagRunIsAtTheClassOfItsDirectoryAndRefusedByADenyInIt(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"p/pub", "p/sec/keys", "p/den/keys", "p/wr/out", "grants"} {
		mustMkdir(t, root+"/"+d)
	}
	gd := root + "/grants"
	writeGrant(t, gd, "yaag", "yaag_run", "allow", `paths = ["`+root+`/p"]`, "public", "secret", false)
	writeGrant(t, gd, "yaag-low", "yaag_run", "allow", `paths = ["`+root+`/p/sec"]`, "public", "public", false)
	writeGrant(t, gd, "read-sec", "read_file", "allow", `paths = ["`+root+`/p/sec/keys"]`, "secret", "secret", false)
	writeGrant(t, gd, "deny-den", "read_file", "deny", `paths = ["`+root+`/p/den/keys"]`, "", "secret", false)
	writeGrant(t, gd, "deny-wr", "write_file", "deny", `paths = ["`+root+`/p/wr/out"]`, "", "secret", false)
	g := Open(gd)
	defer g.Close()

	tests := []struct {
		target  string
		verdict Effect
		class   Taint
		grant   string
		reason  string
	}{
		{"/p/pub", Allow, Public, "yaag.toml", "the grant yaag.toml allows yaag_run"},
		// A secret file below: the Run is secret, decided at secret
		// (yaag-low stops at public, so yaag.toml decides).
		{"/p/sec", Allow, Secret, "yaag.toml", "which read-sec.toml yields as secret data, so the call is secret"},
		// The directory above holds it too.
		{"/p", Deny, Public, "deny-den.toml", `denies read_file on "` + root + `/p/den/keys", which is inside`},
		{"/p/den", Deny, Public, "deny-den.toml", "a Run reads its directory itself"},
		{"/p/den/keys", Deny, Public, "deny-den.toml", "a deny of read_file reaches yaag_run too"},
		{"/p/wr", Deny, Public, "deny-wr.toml", `denies write_file on "` + root + `/p/wr/out"`},
	}
	for _, tt := range tests {
		d := g.Decide(Call{"yaag_run", root + tt.target}, State{})
		if d.Verdict != tt.verdict || d.Grant != tt.grant || d.Class != tt.class || !strings.Contains(d.Reason, tt.reason) {
			t.Errorf("yaag_run %s: %s by %s, class %s (%s); want %s by %s, class %s, with %q", tt.target, d.Verdict, d.Grant, d.Class, d.Reason,
				tt.verdict, tt.grant, tt.class, tt.reason)
		}
		if d.Masks != nil {
			t.Errorf("yaag_run %s: masks %v: a Run has no container to mask them", tt.target, d.Masks)
		}
	}
}

// bxctl grants check warns about a yaag_run grant whose directory
// overlaps a deny or a grant of a higher class, as it does for run.
func TestCheckWarnsOfAYaagRunOverASecretOrDeniedPath(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"grants", "p/a/keys", "p/b/hidden", "p/c", "other"} {
		mustMkdir(t, root+"/"+d)
	}
	gd := root + "/grants"
	writeGrant(t, gd, "yaag-a", "yaag_run", "allow", `paths = ["`+root+`/p/a"]`, "public", "secret", false)
	writeGrant(t, gd, "yaag-b", "yaag_run", "ask", `paths = ["`+root+`/p/b"]`, "public", "secret", false)
	writeGrant(t, gd, "yaag-c", "yaag_run", "allow", `paths = ["`+root+`/p/c"]`, "public", "public", false)
	writeGrant(t, gd, "yaag-other", "yaag_run", "allow", `paths = ["`+root+`/other"]`, "public", "public", false)
	writeGrant(t, gd, "read-keys", "read_file", "allow", `paths = ["`+root+`/p/a/keys"]`, "secret", "secret", false)
	writeGrant(t, gd, "deny-hidden", "list_dir", "deny", `paths = ["`+root+`/p/b/hidden"]`, "", "secret", false)
	writeGrant(t, gd, "run-p", "run", "allow", `paths = ["`+root+`/p"]`, "private", "secret", false)
	rep := CheckWithWarnings(gd)
	want := []string{
		`yaag-a.toml:3: a Run from "` + root + `/p/a" reads what read-keys.toml calls secret data ("` + root + `/p/a/keys"): the Run is secret, and its Agents' sessions start secret`,
		`yaag-b.toml:3: a Run from "` + root + `/p/b" is refused: deny-hidden.toml denies list_dir on "` + root + `/p/b/hidden", which overlaps it, and a Run reads its directory itself`,
		`yaag-b.toml:3: a Run from "` + root + `/p/b" reads what run-p.toml calls private data ("` + root + `/p"): the Run is private, and its Agents' sessions start private`,
		`yaag-c.toml:3: a Run from "` + root + `/p/c" reads what run-p.toml calls private data ("` + root + `/p"): it is decided at private, above this grant's max_taint public, so such a Run is denied`,
	}
	var got []string
	for _, w := range texts(rep.Warnings) {
		if strings.HasPrefix(w, "yaag-") {
			got = append(got, w)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" || len(rep.Problems) != 0 {
		t.Errorf("problems %v, warnings (-want +got):\n%s", rep.Problems, diff)
	}
}
