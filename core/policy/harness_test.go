package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"boxmaker/runbook"
)

// A grant on the harness's own directories would let a tool write a grant
// or reach a socket: it is invalid, whether its path names the directory,
// a parent of it, something inside it, or reaches it through a link or a
// bind mount. (Issue 8, item 3.)
func TestGrantsOverTheHarnessAreInvalid(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"proj/.state/run/loop-broker", "proj/.state/sessions", "proj/src", "etc/grants",
		"sock/admin", "bind", "proj/.state-evil", "other"} {
		mustMkdir(t, filepath.Join(root, d))
	}
	home := root + "/proj/.state"
	if err := os.Symlink(home, root+"/link-to-home"); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mount(home, root+"/bind", "", unix.MS_BIND, ""); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Unmount(root+"/bind", unix.MNT_DETACH) })
	harness := []Harness{
		{"brokerd's home", home},
		{"brokerd's configuration directory", root + "/etc"},
		{"the grants directory", root + "/etc/grants"},
		{"the admin socket's directory", root + "/sock/admin"},
	}
	tests := []struct {
		name, path string
		want       string // the problem's text after the path; "" for none
	}{
		{"the home", home, `is brokerd's home (` + home + `)`},
		{"the project the home is in", root + "/proj", `contains brokerd's home (` + home + `)`},
		{"a directory inside the home", home + "/sessions", `lies inside brokerd's home (` + home + `)`},
		{"a socket's directory inside the home", home + "/run/loop-broker", `lies inside brokerd's home (` + home + `)`},
		{"the grants directory", root + "/etc/grants", `is the grants directory (` + root + `/etc/grants)`},
		{"a socket's directory elsewhere", root + "/sock/admin", `is the admin socket's directory (` + root + `/sock/admin)`},
		{"a parent of a socket's directory", root + "/sock", `contains the admin socket's directory (` + root + `/sock/admin)`},
		{"a link to the home", root + "/link-to-home", `is brokerd's home (` + home + `)`},
		{"a bind mount of the home", root + "/bind", `is brokerd's home (` + home + `)`},
		{"inside a bind mount of the home", root + "/bind/sessions", `lies inside brokerd's home (` + home + `)`},
		{"a sibling of the project's source", root + "/proj/src", ""},
		{"a name with the home's as prefix", root + "/proj/.state-evil", ""},
		{"elsewhere", root + "/other", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeGrant(t, dir, "run-it", "run", "allow", `paths = ["`+tt.path+`"]`, "public", "secret", false)
			var want []Problem
			if tt.want != "" {
				want = []Problem{{File: "run-it.toml", Line: 3,
					Text: `path "` + tt.path + `" ` + tt.want + `: the harness's own files can never be granted`}}
			}
			if diff := cmp.Diff(want, Check(dir, harness...)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			g := Open(dir, harness...)
			defer g.Close()
			d := g.Decide(Call{"run", tt.path + "/x"}, State{})
			if tt.want != "" && (d.Verdict != Deny || d.Err == nil || !strings.Contains(d.Err.Error(), runbook.Link(runbook.GrantsInvalid))) {
				t.Errorf("a call under the grant: %+v, want grants-invalid", d)
			}
		})
	}
}
