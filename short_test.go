package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// slowCommands are the script commands of the crash, race and soak
// suites: a script that runs one skips itself under go test -short
// ("[short] skip" before its first command), as cmd/go's long scripts do.
var slowCommands = []string{"crashsuite", "racesuite", "crashcalls", "crashinit", "memcrash", "gatewaycrash", "yaagcrash", "honchocrash"}

// TestSlowScriptsSkipUnderShort holds every script that runs a slow
// command to a "[short] skip" before its first command.
func TestSlowScriptsSkipUnderShort(t *testing.T) {
	paths, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 10 {
		t.Fatalf("only %d scripts under testdata/script", len(paths))
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if problem := shortSkipProblem(filepath.Base(p), string(txtar.Parse(data).Comment)); problem != "" {
			t.Error(problem)
		}
	}
}

// shortSkipProblem says what is wrong with script (its commands, the
// txtar's comment part): a slow command it runs with no "[short] skip"
// before its first command. "" when nothing is.
func shortSkipProblem(name, script string) string {
	first, skips := true, false
	for n, line := range strings.Split(script, "\n") {
		conds, cmd := scriptCommand(line)
		if cmd == "" {
			continue
		}
		if first && cmd == "skip" && slices.Equal(conds, []string{"short"}) {
			skips = true
		}
		first = false
		if slices.Contains(slowCommands, cmd) && !skips {
			return fmt.Sprintf("%s:%d: runs %s, a crash, race or soak suite, without a \"[short] skip\" before its first command: go test -short must skip it", name, n+1, cmd)
		}
	}
	return ""
}

// scriptCommand is a script line's conditions and command name ("" for a
// blank line or a comment), its "!" and "?" dropped.
func scriptCommand(line string) (conds []string, cmd string) {
	f := strings.Fields(line)
	for len(f) > 0 && strings.HasPrefix(f[0], "[") && strings.HasSuffix(f[0], "]") {
		conds = append(conds, strings.Trim(f[0], "[]"))
		f = f[1:]
	}
	if len(f) > 0 && (f[0] == "!" || f[0] == "?") {
		f = f[1:]
	}
	if len(f) == 0 || strings.HasPrefix(f[0], "#") {
		return nil, ""
	}
	return conds, f[0]
}

func TestShortSkipRule(t *testing.T) {
	tests := []struct {
		script string
		want   string
	}{
		{"# crash\n\n[short] skip 'slow'\n\nexec boxmaker init\ncrashsuite 30\n", ""},
		{"exec boxmaker init\n", ""},
		{"# crash\nexec boxmaker init\n! memcrash 3\n", "s.txtar:3: runs memcrash, a crash, race or soak suite, without a \"[short] skip\" before its first command: go test -short must skip it"},
		{"exec boxmaker init\n[short] skip 'late'\nyaagcrash 4\n", "s.txtar:3: runs yaagcrash, a crash, race or soak suite, without a \"[short] skip\" before its first command: go test -short must skip it"},
		{"[!short] skip 'inverted'\nracesuite\n", "s.txtar:2: runs racesuite, a crash, race or soak suite, without a \"[short] skip\" before its first command: go test -short must skip it"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, shortSkipProblem("s.txtar", tt.script)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.script, diff)
		}
	}
}
