package gate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const yaagEntriesGo = `package runbook

type Quoted string

var Alpha = newEntry("alpha")

var Limits = newYaagEntry("limits")
`

const yaagUseGo = `package core

import "x/runbook"

var _ = runbook.Alpha
var _ = runbook.Limits

const textTooLarge runbook.Quoted = "script is too large"
`

const goodYaagPage = "# yaag\n\n## limits\n\n<!-- quote: core/use.go -->\n\n> script is too large\n\nWhy and fix.\n\n## no-bun\n\n<!-- procedure -->\n\nNot a state.\n"

func TestGateYaagPage(t *testing.T) {
	base := map[string]string{"runbook/entries.go": yaagEntriesGo, "core/use.go": yaagUseGo,
		"docs/runbook.md": "# Runbook\n\n## alpha\n\ntext\n", "docs/yaag/troubleshooting.md": goodYaagPage}
	with := func(over map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for k, v := range over {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{name: "a consistent tree passes", files: base},
		{
			name:  "a quoted text no longer in its source fails",
			files: with(map[string]string{"core/use.go": strings.Replace(yaagUseGo, "script is too large", "script is too big", 1)}),
			want: []string{
				`core/use.go:8: message "script is too big" (textTooLarge) is quoted by no page: add it under a "<!-- quote: core/use.go -->" marker`,
				`docs/yaag/troubleshooting.md:5: quoted text "script is too large" no longer appears in core/use.go`,
			},
		},
		{
			name:  "a message the page does not quote is listed",
			files: with(map[string]string{"core/other.go": "package core\n\nimport \"x/runbook\"\n\nconst textNew runbook.Quoted = \"a new refusal\"\n"}),
			want:  []string{`core/other.go:5: message "a new refusal" (textNew) is quoted by no page: add it under a "<!-- quote: core/other.go -->" marker`},
		},
		{
			name:  "a quote naming another file than the one declaring the text",
			files: with(map[string]string{"core/other.go": "package core\n\nconst s = \"script is too large\"\n", "docs/yaag/troubleshooting.md": strings.Replace(goodYaagPage, "core/use.go", "core/other.go", 1)}),
			want:  []string{`core/use.go:8: message "script is too large" (textTooLarge) is quoted by no page: add it under a "<!-- quote: core/use.go -->" marker`},
		},
		{
			name:  "a constant with no heading",
			files: with(map[string]string{"docs/yaag/troubleshooting.md": strings.Replace(goodYaagPage, "## limits\n", "", 1)}),
			want:  []string{`runbook/entries.go:7: entry "limits" (Limits) has no heading "## limits" in docs/yaag/troubleshooting.md`},
		},
		{
			name:  "a heading with no constant",
			files: with(map[string]string{"docs/yaag/troubleshooting.md": goodYaagPage + "\n## gamma\n\ntext\n"}),
			want:  []string{`docs/yaag/troubleshooting.md:17: entry "gamma" has no constant in runbook/ and no code uses it (mark a procedure with <!-- procedure -->)`},
		},
		{
			name:  "an entry longer than ten lines",
			files: with(map[string]string{"docs/yaag/troubleshooting.md": strings.Replace(goodYaagPage, "Why and fix.\n", strings.Repeat("line\n", 10), 1)}),
			want:  []string{`docs/yaag/troubleshooting.md:3: entry "limits" has 11 lines; an entry of this page has at most 10 (markers and blank lines not counted)`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, gateProblems(t, tt.files)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
