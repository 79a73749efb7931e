package runner

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/policy"
	"boxmaker/runbook"
)

// run on a directory keeps the paths deny grants cover below it from the
// tool: hidden (an empty directory, an unreadable empty file) or
// read-only; the directories above a mask cannot be renamed away from it.
// (Issue 8, item 5.)
func TestRunMasksTheDeniedPathsBelowItsDirectory(t *testing.T) {
	d := resolvedTempDir(t)
	for _, dir := range []string{"keys", "build", "sub", "sub/deep", "sub/deep/keys2"} {
		mkdirOwned(t, d+"/"+dir)
	}
	writeTestFile(t, d+"/keys/id_rsa", "PRIVATE KEY")
	writeTestFile(t, d+"/build/out", "built")
	writeTestFile(t, d+"/sub/deep/keys2/id", "DEEP KEY")
	writeTestFile(t, d+"/secret.txt", "SECRET FILE")
	writeTestFile(t, d+"/ok.txt", "ok")
	masks := []policy.Mask{
		{Path: d + "/absent", Hide: true, Grant: "deny-absent.toml", Tool: policy.ReadFile},
		{Path: d + "/build", Grant: "deny-build.toml", Tool: policy.WriteFile},
		{Path: d + "/keys", Hide: true, Grant: "deny-keys.toml", Tool: policy.ReadFile},
		{Path: d + "/secret.txt", Hide: true, Grant: "deny-secret.toml", Tool: policy.ReadFile},
		{Path: d + "/sub/deep/keys2", Hide: true, Grant: "deny-keys2.toml", Tool: policy.ListDir},
	}
	script := strings.Join([]string{
		"cat keys/id_rsa 2>/dev/null || echo keys: hidden",
		"ls -A keys | wc -l",
		"touch keys/x 2>/dev/null || echo keys: read-only",
		"cat build/out; echo",
		"touch build/new 2>/dev/null || echo build: read-only",
		"cat secret.txt 2>/dev/null || echo secret.txt: unreadable",
		"cat sub/deep/keys2/id 2>/dev/null || echo keys2: hidden",
		"mv sub sub2 2>/dev/null || echo sub: pinned",
		"mv sub/deep sub/deep2 2>/dev/null || echo deep: pinned",
		"cat ok.txt; echo; echo made > made.txt && cat made.txt",
	}, "; ")
	r := newTestRunner(t, nil)
	res, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "run", Paths: []string{d}, Command: script, Masks: masks})
	if err != nil {
		t.Fatal(err)
	}
	want := "keys: hidden\n0\nkeys: read-only\nbuilt\nbuild: read-only\nsecret.txt: unreadable\nkeys2: hidden\nsub: pinned\ndeep: pinned\nok\nmade\n"
	if res.Stdout != want {
		t.Errorf("the tool saw:\n%s\nwant:\n%s(stderr %q)", res.Stdout, want, res.Stderr)
	}
	for p, content := range map[string]string{"/keys/id_rsa": "PRIVATE KEY", "/build/out": "built", "/secret.txt": "SECRET FILE", "/sub/deep/keys2/id": "DEEP KEY"} {
		if data, err := os.ReadFile(d + p); err != nil || string(data) != content {
			t.Errorf("%s on the host: %q %v", p, data, err)
		}
	}
	if _, err := os.Stat(d + "/build/new"); err == nil {
		t.Errorf("run wrote into the read-only build/")
	}
	var notes []string
	for _, m := range res.Mounted[1:] {
		notes = append(notes, strings.TrimPrefix(m, d))
	}
	wantNotes := []string{"/absent absent (deny-absent.toml: read_file)", "/build read-only (deny-build.toml: write_file)",
		"/keys hidden (deny-keys.toml: read_file)", "/secret.txt hidden (deny-secret.toml: read_file)",
		"/sub/deep/keys2 hidden (deny-keys2.toml: list_dir)"}
	if diff := cmp.Diff(wantNotes, notes); diff != "" {
		t.Errorf("what the runner says it masked (-want +got):\n%s", diff)
	}
}

// A mask the runner cannot put in place refuses the call: a path that
// must stay unwritable and does not exist (run could create it), and a
// denied path that runs through a link.
func TestRunIsRefusedWhenADeniedPathCannotBeMasked(t *testing.T) {
	d := resolvedTempDir(t)
	mkdirOwned(t, d+"/real")
	if err := os.Symlink(d+"/real", d+"/link"); err != nil {
		t.Fatal(err)
	}
	r := newTestRunner(t, nil)
	for _, tt := range []struct {
		mask policy.Mask
		why  string
	}{
		{policy.Mask{Path: d + "/build", Grant: "deny-build.toml", Tool: policy.WriteFile},
			d + "/build (denied to write_file by deny-build.toml) does not exist, so run could create it; the call was not run"},
		{policy.Mask{Path: d + "/link/keys", Hide: true, Grant: "deny-keys.toml", Tool: policy.ReadFile},
			d + "/link/keys (denied to read_file by deny-keys.toml) runs through a symbolic link or a file; the call was not run"},
	} {
		_, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "run", Paths: []string{d}, Command: "true", Masks: []policy.Mask{tt.mask}})
		var re *runbook.Refusal
		if e, _ := runbook.EntryOf(err); e != runbook.DenyUnmaskable {
			t.Errorf("%s: got %v, want deny-unmaskable", tt.mask.Path, err)
			continue
		}
		if asRefusal(err, &re); re.Cause == nil || re.Cause.Error() != tt.why {
			t.Errorf("%s: the cause is %v, want %q", tt.mask.Path, re.Cause, tt.why)
		}
	}
}

// The runner checks the object it holds: a file given a second name after
// the decision is refused unless the grant allowed linked files.
func TestFileToolsRefuseAFileLinkedAfterTheDecision(t *testing.T) {
	d := resolvedTempDir(t)
	writeTestFile(t, d+"/a.txt", "a")
	if err := os.Link(d+"/a.txt", d+"/b.txt"); err != nil {
		t.Fatal(err)
	}
	r := newTestRunner(t, nil)
	_, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "read_file", Paths: []string{d + "/a.txt"}})
	if e, _ := runbook.EntryOf(err); e != runbook.HardLinkRefused || !strings.Contains(err.Error(), HardLinkedText) {
		t.Errorf("a linked file: %v, want hard-link-refused", err)
	}
	res, err := r.Run(context.Background(), Call{ID: callID(t), Tool: "read_file", Paths: []string{d + "/a.txt"}, AllowHardLinks: true})
	if err != nil || res.Content != "a" {
		t.Errorf("a linked file the grant allows: %+v %v", res, err)
	}
}
