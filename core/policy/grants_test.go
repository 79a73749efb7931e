package policy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxmaker/runbook"
)

// grantsDir makes a grants directory holding one valid grant (read_file
// allow on root/data) and returns root and the directory.
func grantsDir(t testing.TB) (root, gdir string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mustMkdir(t, root+"/data")
	mustWrite(t, root+"/data/f", "x")
	gdir = root + "/grants"
	mustMkdir(t, gdir)
	writeGrant(t, gdir, "read-data", "read_file", "allow", `paths = ["`+root+`/data"]`, "private", "secret", false)
	return root, gdir
}

// Every kind of entry a grants directory can hold, and what it does.
func TestDirectoryEntries(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, root, gdir string)
		want  []string // problems; none means the call is allowed
	}{
		{"a valid grant alone", func(*testing.T, string, string) {}, nil},
		{"a hidden file is ignored", func(t *testing.T, _, gdir string) {
			mustWrite(t, gdir+"/.read-data.toml.swp", "not toml")
		}, nil},
		{"a hidden directory is ignored", func(t *testing.T, _, gdir string) {
			mustMkdir(t, gdir+"/.git")
		}, nil},
		{"an editor backup is ignored", func(t *testing.T, _, gdir string) {
			mustWrite(t, gdir+"/read-data.toml~", "old")
		}, nil},
		{"an editor autosave is ignored", func(t *testing.T, _, gdir string) {
			mustWrite(t, gdir+"/#read-data.toml#", "draft")
		}, nil},
		{"an invalid grant", func(t *testing.T, _, gdir string) {
			mustWrite(t, gdir+"/bad.toml", "tool = \"read_file\"\neffect = \"allow\"\npaths = [\"rel\"]\nclass = \"public\"\nmax_taint = \"secret\"\n")
		}, []string{`bad.toml:3: path "rel" is relative: grant paths are absolute`}},
		{"a file that is not a grant", func(t *testing.T, _, gdir string) {
			mustWrite(t, gdir+"/README", "notes")
		}, []string{"README: not a grant file: grant files are named [a-z0-9-]+.toml, and other files do not belong in the grants directory"}},
		{"a grant with a misspelt extension", func(t *testing.T, _, gdir string) {
			mustWrite(t, gdir+"/deny-ssh.tml", "tool = \"read_file\"\n")
		}, []string{"deny-ssh.tml: not a grant file: grant files are named [a-z0-9-]+.toml, and other files do not belong in the grants directory"}},
		{"a grant with a bad name", func(t *testing.T, root, gdir string) {
			writeGrant(t, gdir, "Read_Data", "read_file", "allow", `paths = ["`+root+`/data"]`, "private", "secret", false)
		}, []string{`Read_Data.toml: the file name "Read_Data.toml" has characters outside [a-z0-9-]: grant files are named [a-z0-9-]+.toml`}},
		{"a subdirectory", func(t *testing.T, _, gdir string) {
			mustMkdir(t, gdir+"/more")
		}, []string{"more: a directory: grants are read from the grants directory itself, not from directories in it; move it out"}},
		{"a subdirectory named like a grant", func(t *testing.T, _, gdir string) {
			mustMkdir(t, gdir+"/x.toml")
		}, []string{"x.toml: a directory: grants are read from the grants directory itself, not from directories in it; move it out"}},
		{"a symlinked grant", func(t *testing.T, root, gdir string) {
			writeGrant(t, root, "elsewhere", "read_file", "deny", `paths = ["`+root+`/data"]`, "", "secret", false)
			if err := os.Symlink(root+"/elsewhere.toml", gdir+"/elsewhere.toml"); err != nil {
				t.Fatal(err)
			}
		}, []string{"elsewhere.toml: a symbolic link: a grant must be a regular file in the grants directory, so that a change to it is always seen"}},
		{"a hard-linked grant", func(t *testing.T, root, gdir string) {
			if err := os.Link(gdir+"/read-data.toml", root+"/copy.toml"); err != nil {
				t.Fatal(err)
			}
		}, []string{"read-data.toml: has 2 hard links: a grant changed through another link could go unseen; copy it instead"}},
		{"a FIFO does not block the reading", func(t *testing.T, _, gdir string) {
			if err := syscall.Mkfifo(gdir+"/fifo.toml", 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{"fifo.toml: not a regular file: only grant files belong in the grants directory"}},
		{"an oversized file", func(t *testing.T, _, gdir string) {
			mustWrite(t, gdir+"/big.toml", "# "+strings.Repeat("x", 70<<10)+"\n")
		}, []string{"big.toml: larger than 64 KiB: not a grant"}},
		{"an unreadable file", func(t *testing.T, _, gdir string) {
			mustWrite(t, gdir+"/locked.toml", "tool = \"read_file\"\n")
			if err := os.Chmod(gdir+"/locked.toml", 0); err != nil {
				t.Fatal(err)
			}
			if os.Geteuid() == 0 {
				// root reads it anyway; make it fail as a bad grant would
				mustWrite(t, gdir+"/locked.toml", "tool = \"read_file\"\neffect = \"allow\"\n")
			}
		}, nil /* filled below */},
		{"two bad files and every problem", func(t *testing.T, _, gdir string) {
			mustWrite(t, gdir+"/a.toml", "tool = \"read_file\"\neffect = \"deny\"\npaths = [\"/etc\"]\nmax_taint = \"public\"\n")
			mustWrite(t, gdir+"/b.toml", validRead+"secret = \"x\"\n")
		}, []string{
			`a.toml:4: a deny grant must have max_taint = "secret": with "public" it would stop denying once the session's taint rose above it`,
			"b.toml:6: secret is not supported yet (it comes with M4): remove it",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, gdir := grantsDir(t)
			tt.setup(t, root, gdir)
			want := tt.want
			if tt.name == "an unreadable file" {
				if os.Geteuid() == 0 {
					want = []string{"locked.toml: max_taint is missing: the highest session taint at which this grant applies (public, private or secret)",
						"locked.toml: class is missing: say what the data this grant yields is (public, private or secret)",
						"locked.toml: paths is missing: a read_file grant names the absolute paths it covers"}
				} else {
					want = []string{"locked.toml: cannot read it: permission denied"}
				}
			}
			for _, mode := range []string{"watched", "unwatched"} {
				g := Open(gdir)
				if mode == "unwatched" {
					g.Close()
					g = openUnwatched(gdir)
				}
				d := g.Decide(Call{"read_file", root + "/data/f"}, State{})
				var got []string
				for _, p := range g.Problems() {
					got = append(got, p.String())
				}
				if diff := cmp.Diff(want, got, sortedStrings); diff != "" {
					t.Errorf("%s: problems (-want +got):\n%s", mode, diff)
				}
				checkProblemsDecision(t, d, want)
				g.Close()
			}
			if diff := cmp.Diff(len(want), len(Check(gdir))); diff != "" {
				t.Errorf("Check found a different number of problems: %s", diff)
			}
		})
	}
}

var sortedStrings = cmp.Transformer("sorted", func(in []string) []string {
	out := append([]string(nil), in...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
})

// checkProblemsDecision checks the decision when the grants have the
// problems want (none: the one grant allows the call).
func checkProblemsDecision(t *testing.T, d Decision, want []string) {
	t.Helper()
	if len(want) == 0 {
		if d.Verdict != Allow || d.Err != nil {
			t.Errorf("decision %+v, want allow", d)
		}
		return
	}
	if d.Verdict != Deny || d.Reason != "the grant files have an error" || d.Grant != "" {
		t.Errorf("decision %+v, want deny because the grant files have an error", d)
	}
	if e, ok := runbook.EntryOf(d.Err); !ok || e != runbook.GrantsInvalid {
		t.Errorf("Err = %v, want a grants-invalid refusal", d.Err)
	}
	if d.Err.Error() != "the grant files have an error; "+runbook.Link(runbook.GrantsInvalid) {
		t.Errorf("Err text %q", d.Err.Error())
	}
	var inv *InvalidError
	if !errors.As(d.Err, &inv) || len(inv.Problems) != len(want) {
		t.Errorf("Err's cause %v does not list the %d problems", d.Err, len(want))
	}
}

// One invalid file denies every call, even calls another grant allows.
func TestOneInvalidFileDeniesEverything(t *testing.T) {
	root, gdir := grantsDir(t)
	writeGrant(t, gdir, "recall", "recall", "allow", "", "public", "secret", false)
	g := Open(gdir)
	defer g.Close()
	calls := []Call{{"read_file", root + "/data/f"}, {"recall", "x"}}
	for _, c := range calls {
		if d := g.Decide(c, State{}); d.Verdict != Allow {
			t.Fatalf("before: %+v", d)
		}
	}
	mustWrite(t, gdir+"/typo.toml", "tol = \"read_file\"\n")
	for _, c := range calls {
		d := g.Decide(c, State{})
		checkProblemsDecision(t, d, []string{
			"typo.toml:1: unknown key tol",
			"typo.toml: tool is missing: it is one of read_file, write_file, list_dir, run, http_fetch, recall, memory, yaag_run, yaag_status, yaag_stop, yaag_pause, yaag_setup_workspace, mcp",
			"typo.toml: effect is missing: it is allow, ask or deny",
			"typo.toml: max_taint is missing: the highest session taint at which this grant applies (public, private or secret)",
		})
	}
	if err := os.Remove(gdir + "/typo.toml"); err != nil {
		t.Fatal(err)
	}
	for _, c := range calls {
		if d := g.Decide(c, State{}); d.Verdict != Allow {
			t.Errorf("after the fix: %+v", d)
		}
	}
}

func TestMissingDirectoryDeniesEverything(t *testing.T) {
	root, gdir := grantsDir(t)
	missing := root + "/nothing"
	g := Open(missing)
	defer g.Close()
	d := g.Decide(Call{"read_file", root + "/data/f"}, State{})
	checkProblemsDecision(t, d, []string{"x"})
	want := Problem{File: missing, Text: "cannot read the grants directory: no such file or directory"}
	if diff := cmp.Diff([]Problem{want}, g.Problems()); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	// Creating it later is seen at the next call.
	if err := os.Rename(gdir, missing); err != nil {
		t.Fatal(err)
	}
	if d := g.Decide(Call{"read_file", root + "/data/f"}, State{}); d.Verdict != Allow {
		t.Errorf("after the directory appeared: %+v", d)
	}
}

func TestInotifyIsUsed(t *testing.T) {
	_, gdir := grantsDir(t)
	g := Open(gdir)
	defer g.Close()
	g.Decide(Call{"recall", ""}, State{})
	if !g.Watched() {
		t.Fatal("no inotify watch on this system: every call reads every grant file (see docs/specs/grants.md)")
	}
}

// The mutations of a grant that a decision must never miss. Each takes
// the directory from "allow" to "deny" (want) or back, and the call right
// after must see it. Many rounds, so that changes within one clock tick,
// which file times cannot tell apart, are among them.
type mutation struct {
	name  string
	apply func(t *testing.T, root, gdir string, deny bool)
}

// grantText is the same size whether it allows or denies, so that only
// the content (not the size) tells them apart.
func grantText(root string, deny bool) string {
	effect := `"allow"`
	if deny {
		effect = `"deny" `
	}
	return fmt.Sprintf("tool = \"read_file\"\neffect = %s\npaths = [\"%s/data\"]\nclass = \"private\"\nmax_taint = \"secret\"\n", effect, root)
}

var mutations = []mutation{
	{"a same-size edit in place", func(t *testing.T, root, gdir string, deny bool) {
		f, err := os.OpenFile(gdir+"/read-data.toml", os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt([]byte(grantText(root, deny)), 0); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}},
	{"a truncate and write", func(t *testing.T, root, gdir string, deny bool) {
		mustWrite(t, gdir+"/read-data.toml", grantText(root, deny))
	}},
	{"a rename over", func(t *testing.T, root, gdir string, deny bool) {
		mustWrite(t, gdir+"/.tmp", grantText(root, deny))
		if err := os.Rename(gdir+"/.tmp", gdir+"/read-data.toml"); err != nil {
			t.Fatal(err)
		}
	}},
	{"a rename in from outside", func(t *testing.T, root, gdir string, deny bool) {
		mustWrite(t, root+"/incoming", grantText(root, deny))
		if err := os.Rename(root+"/incoming", gdir+"/read-data.toml"); err != nil {
			t.Fatal(err)
		}
	}},
	{"a delete and a new deny grant", func(t *testing.T, root, gdir string, deny bool) {
		if deny {
			mustWrite(t, gdir+"/zz-deny.toml", grantText(root, true))
		} else if err := os.Remove(gdir + "/zz-deny.toml"); err != nil {
			t.Fatal(err)
		}
	}},
	{"a delete of the allow grant", func(t *testing.T, root, gdir string, deny bool) {
		if deny {
			if err := os.Rename(gdir+"/read-data.toml", root+"/parked.toml"); err != nil {
				t.Fatal(err)
			}
		} else if err := os.Rename(root+"/parked.toml", gdir+"/read-data.toml"); err != nil {
			t.Fatal(err)
		}
	}},
	{"a permission change making it unreadable", func(t *testing.T, root, gdir string, deny bool) {
		// root reads a mode 0 file; a file turned into a directory's
		// neighbour of the wrong kind is the same change of attributes:
		// chmod, then a content change within the same tick.
		if err := os.Chmod(gdir+"/read-data.toml", 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(gdir+"/read-data.toml", os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteAt([]byte(grantText(root, deny)), 0)
		f.Close()
		if err := os.Chmod(gdir+"/read-data.toml", 0o644); err != nil {
			t.Fatal(err)
		}
	}},
	{"the whole directory replaced", func(t *testing.T, root, gdir string, deny bool) {
		mustMkdir(t, root+"/grants.new")
		mustWrite(t, root+"/grants.new/read-data.toml", grantText(root, deny))
		if err := os.Rename(gdir, root+"/grants.old"); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(root+"/grants.new", gdir); err != nil {
			t.Fatal(err)
		}
		if err := os.RemoveAll(root + "/grants.old"); err != nil {
			t.Fatal(err)
		}
	}},
	{"the old directory kept and edited after the swap", func(t *testing.T, root, gdir string, deny bool) {
		mustMkdir(t, root+"/grants.new")
		mustWrite(t, root+"/grants.new/read-data.toml", grantText(root, deny))
		os.RemoveAll(root + "/grants.old")
		if err := os.Rename(gdir, root+"/grants.old"); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(root+"/grants.new", gdir); err != nil {
			t.Fatal(err)
		}
		// a change to the directory no longer in place must not count
		mustWrite(t, root+"/grants.old/read-data.toml", grantText(root, !deny))
	}},
}

func TestNoStaleVerdict(t *testing.T) {
	const rounds = 150
	for _, m := range mutations {
		for _, mode := range []string{"watched", "unwatched"} {
			t.Run(m.name+"/"+mode, func(t *testing.T) {
				root, gdir := grantsDir(t)
				mustWrite(t, gdir+"/read-data.toml", grantText(root, false))
				g := Open(gdir)
				if mode == "unwatched" {
					g.Close()
					g = openUnwatched(gdir)
				}
				defer g.Close()
				call := Call{"read_file", root + "/data/f"}
				if d := g.Decide(call, State{}); d.Verdict != Allow {
					t.Fatalf("at the start: %+v", d)
				}
				for i := range rounds {
					deny := i%2 == 0
					m.apply(t, root, gdir, deny)
					want := Allow
					if deny {
						want = Deny
					}
					if d := g.Decide(call, State{}); d.Verdict != want {
						t.Fatalf("round %d: decided %s (%s), want %s", i, d.Verdict, d.Reason, want)
					}
				}
				if mode == "watched" && !g.Watched() {
					t.Errorf("the watch was dropped")
				}
			})
		}
	}
}

// The grants directory named through a symlink that is pointed elsewhere.
func TestNoStaleVerdictThroughASymlinkedDirectory(t *testing.T) {
	root, _ := grantsDir(t)
	for _, name := range []string{"a", "b"} {
		mustMkdir(t, root+"/"+name)
		mustWrite(t, root+"/"+name+"/read-data.toml", grantText(root, name == "b"))
	}
	link := root + "/current"
	if err := os.Symlink(root+"/a", link); err != nil {
		t.Fatal(err)
	}
	g := Open(link)
	defer g.Close()
	call := Call{"read_file", root + "/data/f"}
	for i := range 100 {
		target, want := root+"/a", Allow
		if i%2 == 0 {
			target, want = root+"/b", Deny
		}
		os.Remove(link + ".new")
		if err := os.Symlink(target, link+".new"); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(link+".new", link); err != nil {
			t.Fatal(err)
		}
		if d := g.Decide(call, State{}); d.Verdict != want {
			t.Fatalf("round %d: %s, want %s", i, d.Verdict, want)
		}
	}
}

// More events than the kernel queues (an overflow) still end in a fresh
// reading.
func TestNoStaleVerdictAfterAnOverflow(t *testing.T) {
	root, gdir := grantsDir(t)
	mustWrite(t, gdir+"/read-data.toml", grantText(root, false))
	g := Open(gdir)
	defer g.Close()
	call := Call{"read_file", root + "/data/f"}
	if d := g.Decide(call, State{}); d.Verdict != Allow {
		t.Fatalf("at the start: %+v", d)
	}
	max := 16384
	if b, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events"); err == nil {
		fmt.Sscan(string(b), &max)
	}
	for i := range max + 10 {
		if err := os.Chmod(gdir+"/read-data.toml", os.FileMode(0o600|i%2*0o044)); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(t, gdir+"/read-data.toml", grantText(root, true))
	if d := g.Decide(call, State{}); d.Verdict != Deny {
		t.Fatalf("after the overflow: %+v", d)
	}
}

// Concurrent calls while the grants change: every verdict is one the
// grants held at some moment during the call, and the race detector has
// its say.
func TestConcurrentDecisions(t *testing.T) {
	root, gdir := grantsDir(t)
	g := Open(gdir)
	defer g.Close()
	call := Call{"read_file", root + "/data/f"}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if d := g.Decide(call, State{}); d.Verdict != Allow && d.Verdict != Deny {
					t.Errorf("verdict %s", d.Verdict)
				}
			}
		}()
	}
	for i := range 200 {
		mustWrite(t, gdir+"/read-data.toml", grantText(root, i%2 == 0))
	}
	mustWrite(t, gdir+"/read-data.toml", grantText(root, true))
	if d := g.Decide(call, State{}); d.Verdict != Deny {
		t.Errorf("after the last write: %s", d.Verdict)
	}
	close(stop)
	wg.Wait()
}
