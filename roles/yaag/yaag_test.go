package yaag

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/urfave/cli/v2"

	"boxmaker/core/role"
	"boxmaker/core/yaag/runs"
)

// The command line brokerd's yaag_run writes (runs.Command) is one yaag
// run reads as meant: each value in its flag, the program as the one
// argument or the descriptor.
func TestRunReadsTheCommandBrokerdWrites(t *testing.T) {
	type read struct {
		Root, Host, Input, Profile string
		JSON, ForkHost             bool
		EvalFD                     int
		Args                       []string
	}
	for _, tt := range []struct {
		name string
		cmd  runs.Command
		want read
	}{
		{"a file", runs.Command{Root: "/srv/p", HostSession: "s-1", File: "-odd.ts"},
			read{Root: "/srv/p", Host: "s-1", JSON: true, EvalFD: -1, Args: []string{"-odd.ts"}}},
		{"a script with everything", runs.Command{Root: "/srv/p", HostSession: "s-2", ForkHost: true, Input: json.RawMessage(`{"a":1}`), Profile: "fast", Inline: true, EvalFD: 3},
			read{Root: "/srv/p", Host: "s-2", Input: `{"a":1}`, Profile: "fast", JSON: true, ForkHost: true, EvalFD: 3, Args: []string{}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.cmd.Args()
			if args[0] != role.Yaag.String() {
				t.Fatalf("the command line %q does not start with the role yaag", args)
			}
			var got read
			cmd := runCommand()
			cmd.Action = func(c *cli.Context) error {
				got = read{Root: c.String(runs.FlagRoot), Host: c.String(runs.FlagHostSession), Input: c.String(runs.FlagInput),
					Profile: c.String(runs.FlagProfile), JSON: c.Bool(runs.FlagJSON), ForkHost: c.Bool(runs.FlagForkHost),
					EvalFD: c.Int(runs.FlagEvalFD), Args: append([]string{}, c.Args().Slice()...)}
				return nil
			}
			app := &cli.App{Name: "yaag", Commands: []*cli.Command{cmd}}
			if err := app.Run(args); err != nil {
				t.Fatalf("yaag run refused %q: %v", args, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%q read as (-want +got):\n%s", args, diff)
			}
		})
	}
}

// An answers file is read as a socket's body is (D733): a key twice is
// refused, not its last answer taken.
func TestAnAnswersFileWithAKeyTwiceIsRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ data, want string }{
		{`{"A1/2/q1": "a.txt", "A1/2/q1": "b.txt"}`, `the key "A1/2/q1" appears twice; see docs/yaag/troubleshooting.md#answer-refused`},
		{` {"A1/2/q1": "b.txt"}` + "\n", ""},
	} {
		path := filepath.Join(dir, "answers.json")
		if err := os.WriteFile(path, []byte(tt.data), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := readAnswers(path)
		switch {
		case tt.want == "" && (err != nil || got["A1/2/q1"] != "b.txt"):
			t.Errorf("%s: %v %v", tt.data, got, err)
		case tt.want != "" && (err == nil || !strings.HasSuffix(err.Error(), tt.want)):
			t.Errorf("%s: got %v, want ...%s", tt.data, err, tt.want)
		}
	}
}
