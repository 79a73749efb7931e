package policy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Warnings leave the grants valid; each says why a grant may match
// nothing.
func TestCheckWithWarnings(t *testing.T) {
	root := t.TempDir()
	gdir := filepath.Join(root, "grants")
	os.Mkdir(gdir, 0o700)
	rep := CheckWithWarnings(gdir)
	if diff := cmp.Diff([]string{gdir + ": no grant files: every call is denied until a grant allows it (docs/specs/grants.md)"}, texts(rep.Warnings)); diff != "" || len(rep.Problems) != 0 {
		t.Errorf("empty directory: problems %v, warnings (-want +got):\n%s", rep.Problems, diff)
	}

	os.MkdirAll(filepath.Join(root, "usr", "bin"), 0o755)
	os.Symlink("usr/bin", filepath.Join(root, "bin"))
	os.Mkdir(filepath.Join(root, "src"), 0o755)
	mustWrite(t, filepath.Join(gdir, "read.toml"), `tool = "read_file"
effect = "allow"
paths = [
  "`+root+`/src",
  "`+root+`/bin",
  "`+root+`/nowhere",
  "`+root+`/bin/nothing",
]
class = "private"
max_taint = "private"
`)
	rep = CheckWithWarnings(gdir)
	want := []string{
		"read.toml:5: path \"" + root + "/bin\" runs through a symbolic link to \"" + root + "/usr/bin\": calls are decided on the resolved path, so it matches nothing; write \"" + root + "/usr/bin\"",
		"read.toml:6: path \"" + root + "/nowhere\" does not exist: the grant matches nothing there until it does",
		"read.toml:7: path \"" + root + "/bin/nothing\" does not exist, and runs through a symbolic link: it matches nothing",
	}
	if diff := cmp.Diff(want, texts(rep.Warnings)); diff != "" || len(rep.Problems) != 0 || rep.Grants != 1 {
		t.Errorf("problems %v, grants %d, warnings (-want +got):\n%s", rep.Problems, rep.Grants, diff)
	}
	// The grants stay valid: a warning denies nothing.
	if p := Check(gdir); len(p) != 0 {
		t.Errorf("Check: %v", p)
	}
}

func texts(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return out
}

// A grant that may write at a low taint where another grant yields data
// of a higher class is a warning: data can cross from one to the other.
// (Issue 8, item 4.)
func TestCheckWarnsOfAWriteGrantBelowAnOverlappingClass(t *testing.T) {
	root := t.TempDir()
	gdir := filepath.Join(root, "grants")
	for _, d := range []string{"grants", "w/pub", "w/sec", "other"} {
		mustMkdir(t, filepath.Join(root, d))
	}
	writeGrant(t, gdir, "run-pub", "run", "allow", `paths = ["`+root+`/w/pub"]`, "public", "public", false)
	writeGrant(t, gdir, "read-w", "read_file", "allow", `paths = ["`+root+`/w"]`, "secret", "secret", false)
	writeGrant(t, gdir, "write-other", "write_file", "ask", `paths = ["`+root+`/other"]`, "public", "public", false)
	writeGrant(t, gdir, "read-sec", "read_file", "allow", `paths = ["`+root+`/w/sec"]`, "secret", "secret", false)
	writeGrant(t, gdir, "write-sec", "write_file", "allow", `paths = ["`+root+`/w/sec"]`, "secret", "secret", false)
	writeGrant(t, gdir, "deny-w", "read_file", "deny", `paths = ["`+root+`/other"]`, "", "secret", false)
	rep := CheckWithWarnings(gdir)
	want := []string{`run-pub.toml:3: a run over "` + root + `/w/pub" reads what read-w.toml calls secret data ("` + root + `/w"): it is decided at secret, above this grant's max_taint public, so such a run is denied`}
	if diff := cmp.Diff(want, texts(rep.Warnings)); diff != "" || len(rep.Problems) != 0 {
		t.Errorf("problems %v, warnings (-want +got):\n%s", rep.Problems, diff)
	}
}
