package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tree writes files under a temporary root.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// gateProblems are the gate's problems on a tree of files, as it prints
// them.
func gateProblems(t *testing.T, files map[string]string) []string {
	t.Helper()
	problems, err := Check(tree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	return got
}

const entriesGo = `package runbook

var (
	Alpha = newEntry("alpha")
	Beta  = newEntry("beta")
)
`

const useGo = `package core

import "x/runbook"

var _ = runbook.Alpha
var _ = runbook.Beta

// a message quoted by the runbook
const msg = "alpha went wrong: %s"
`

const goodRunbook = "# Runbook\n\n## alpha\n\n<!-- quote: core/use.go -->\n\n> alpha went wrong: %s\n\n## beta\n\ntext\n\n## procedure-x\n\n<!-- procedure -->\n"

func TestGate(t *testing.T) {
	link := "docs/runbook" + ".md#alpha"
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name:  "a consistent tree passes",
			files: map[string]string{"runbook/entries.go": entriesGo, "core/use.go": useGo, "docs/runbook.md": goodRunbook},
		},
		{
			name: "an entry with no heading",
			files: map[string]string{"runbook/entries.go": entriesGo, "core/use.go": useGo,
				"docs/runbook.md": strings.Replace(goodRunbook, "## beta\n", "", 1)},
			want: []string{`runbook/entries.go:5: entry "beta" (Beta) has no heading "## beta" in docs/runbook.md`},
		},
		{
			name: "an orphan heading",
			files: map[string]string{"runbook/entries.go": entriesGo, "core/use.go": useGo,
				"docs/runbook.md": goodRunbook + "\n## gamma\n\ntext\n"},
			want: []string{`docs/runbook.md:17: entry "gamma" has no constant in runbook/ and no code uses it (mark a procedure with <!-- procedure -->)`},
		},
		{
			name: "a heading whose constant no code uses",
			files: map[string]string{"runbook/entries.go": entriesGo, "docs/runbook.md": goodRunbook,
				"core/use.go":      strings.Replace(useGo, "var _ = runbook.Beta\n", "", 1),
				"core/use_test.go": "package core\n\nvar _ = runbook.Beta\n"},
			want: []string{`docs/runbook.md:9: entry "beta" is used by no code (runbook.Beta is never referred to)`},
		},
		{
			name: "a stale quote",
			files: map[string]string{"runbook/entries.go": entriesGo, "docs/runbook.md": goodRunbook,
				"core/use.go": strings.Replace(useGo, "alpha went wrong", "alpha failed", 1)},
			want: []string{`docs/runbook.md:5: quoted text "alpha went wrong: %s" no longer appears in core/use.go`},
		},
		{
			name: "a link written by hand",
			files: map[string]string{"runbook/entries.go": entriesGo, "docs/runbook.md": goodRunbook,
				"core/use.go":                useGo + "\nconst l = \"see " + link + "\"\n",
				"core/testdata/script.txtar": "stdout 'see " + link + "'\n",
				"runbook/refusal_example.go": "package runbook\n\nconst l = \"" + link + "\"\n",
				"docs/other.md":              "see " + link + "\n",
				"scripts/check.sh":           "echo " + link + "\n",
			},
			want: []string{
				"core/use.go:11: writes the runbook link by hand; use runbook.Link or a runbook.Refusal",
				"scripts/check.sh:1: writes the runbook link by hand; use runbook.Link or a runbook.Refusal",
			},
		},
	}
	tests = append(tests, struct {
		name  string
		files map[string]string
		want  []string
	}{
		name: "entries made with newEntry, and one named by a string in code",
		files: map[string]string{"docs/runbook.md": goodRunbook,
			"runbook/entries.go": "package runbook\n\nvar (\n\tAlpha = newEntry(\"alpha\")\n\tBeta  = newEntry(\"beta\")\n)\n",
			"core/use.go":        useGo + "\nvar e, _ = runbook.Lookup(\"alpah\")\n",
		},
		want: []string{`core/use.go:11: names a runbook entry by a string (runbook.Lookup("alpah")): use its value, runbook.<Entry>`},
	}, struct {
		name  string
		files map[string]string
		want  []string
	}{
		// Every way code could spell an entry as a string gets past the
		// compiler; the gate refuses each. A name that came in from
		// outside (a field, a variable) passes, even where the package
		// has a constant of the same name as the field.
		name: "entries made from strings in code, however written",
		files: map[string]string{"docs/runbook.md": goodRunbook,
			"runbook/entries.go": "package runbook\n\nvar (\n\tAlpha = newEntry(\"alpha\")\n\tBeta  = newEntry(\"beta\")\n)\n",
			"core/use.go":        useGo + "\nconst Entry = \"alpah\"\n",
			"core/spell.go": `package core

import (
	"fmt"

	rb "x/runbook"
)

type line struct{ Entry string }

func spelt(l line, role string, e rb.Entry) {
	rb.Lookup(Entry)
	rb.Lookup("al" + "pha")
	rb.Lookup(fmt.Sprintf("%s-failed", role))
	rb.Lookup(string(Entry))
	e = rb.Entry{} // the zero Entry: no entry
	e.UnmarshalText([]byte("beta"))
	rb.Lookup(l.Entry)
	e.UnmarshalText([]byte(l.Entry))
}
`,
			"core/dot.go": "package core\n\nimport . \"x/runbook\"\n\nvar d, _ = Lookup(\"beta\")\n",
		},
		want: []string{
			`core/dot.go:5: names a runbook entry by a string (runbook.Lookup("beta")): use its value, runbook.<Entry>`,
			`core/spell.go:12: names a runbook entry by a string (runbook.Lookup(Entry)): use its value, runbook.<Entry>`,
			`core/spell.go:13: names a runbook entry by a string (runbook.Lookup("al" + "pha")): use its value, runbook.<Entry>`,
			`core/spell.go:14: names a runbook entry by a string (runbook.Lookup(fmt.Sprintf("%s-failed", role))): use its value, runbook.<Entry>`,
			`core/spell.go:15: names a runbook entry by a string (runbook.Lookup(string(Entry))): use its value, runbook.<Entry>`,
			`core/spell.go:17: names a runbook entry by a string (e.UnmarshalText([]byte("beta"))): use its value, runbook.<Entry>`,
		},
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, gateProblems(t, tt.files)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// The project itself passes its gate.
func TestGateOnProject(t *testing.T) {
	problems, err := Check("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}
