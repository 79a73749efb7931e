package broker

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/audit"
	"boxmaker/core/brokerwire"
	"boxmaker/core/policy"
	"boxmaker/runbook"
)

func TestYaagArguments(t *testing.T) {
	script := func(s string) *string { return &s }
	tests := []struct {
		name    string
		a       arguments
		targets []string
		problem string
	}{
		{"a file is decided on its directory", arguments{File: "/home/o/progs/review.ts"}, []string{"/home/o/progs"}, ""},
		{"a file path is cleaned first", arguments{File: "/home/o/progs/../x/./p.ts"}, []string{"/home/o/x"}, ""},
		{"a script on its dir", arguments{Script: script("export default 1;"), Dir: "/home/o/progs"}, []string{"/home/o/progs"}, ""},
		{"a relative file", arguments{File: "progs/p.ts"}, nil, "yaag_run needs an absolute file"},
		{"a script without dir", arguments{Script: script("x")}, nil, "needs dir"},
		{"both", arguments{File: "/p.ts", Script: script("x")}, nil, "a file or a script, not both"},
		{"neither", arguments{}, nil, "needs a file"},
		{"a script over the limit", arguments{Script: script(strings.Repeat("x", 65537)), Dir: "/d"}, nil, "yaag_run: script is too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, targets, _, problem := yaagArguments(tt.a)
			if diff := cmp.Diff(tt.targets, targets); diff != "" {
				t.Error(diff)
			}
			if (tt.problem == "") != (problem == "") || !strings.Contains(problem, tt.problem) {
				t.Errorf("problem %q, want %q", problem, tt.problem)
			}
		})
	}
}

func TestAForkStartsAtItsParentsState(t *testing.T) {
	f := newFixture(t, nil, time.Minute)
	if _, err := f.b.StartSession(brokerwire.SessionStart{Session: "parent", Taint: "private"}); err != nil {
		t.Fatal(err)
	}
	st, err := f.b.StartSession(brokerwire.SessionStart{Session: "child", Taint: "public", From: "parent"})
	if err != nil || st.Taint != policy.Private {
		t.Fatalf("the fork starts at %+v (%v), want its parent's private", st, err)
	}
	recs := f.records(t)
	if last := recs[len(recs)-1]; last.Type != audit.TypeSessionStart || last.Session != "child" || last.Taint != "private" || !strings.Contains(last.Note, "a fork of session parent") {
		t.Fatalf("the audit record %+v", last)
	}
	if _, err := f.b.StartSession(brokerwire.SessionStart{Session: "child2", Taint: "public", From: "../x"}); err == nil {
		t.Fatal("a fork from a session id that is not one")
	}
}

// A Run reads its directory's files (its program imports text and JSON as
// well as code) and its Agents start public: a yaag_run whose grant says
// the directory is above public is refused before yaag starts, or that
// data would reach sessions below its class.
func TestYaagRunRefusedOnADirectoryAbovePublic(t *testing.T) {
	dir := t.TempDir()
	f := newFixture(t, map[string]string{
		"yaag-private.toml": fmt.Sprintf("tool = \"yaag_run\"\neffect = \"allow\"\npaths = [%q]\nclass = \"private\"\nmax_taint = \"secret\"\n", dir),
	}, time.Minute)
	f.b.cfg.Yaag = &YaagRuns{Binary: filepath.Join(dir, "no-such-binary")}
	a, err := f.b.Call(context.Background(), brokerwire.ToolCall{Session: "s1", CallID: "y1", Tool: "yaag_run",
		Arguments: json.RawMessage(fmt.Sprintf(`{"file":%q}`, filepath.Join(dir, "p.ts")))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Outcome != brokerwire.OutcomeFailed || !strings.HasPrefix(a.Text, YaagClassText+" (yaag-private.toml says "+dir+" is private)") ||
		!strings.HasSuffix(a.Text, runbook.Link(runbook.YaagRunRefused)) {
		t.Fatalf("a Run on a private directory: %+v", a)
	}
}
