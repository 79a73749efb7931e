package broker

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
