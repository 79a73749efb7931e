package rolecli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/role"
	"boxmaker/runbook"
)

func TestDefaultHome(t *testing.T) {
	checkout := t.TempDir()
	os.WriteFile(filepath.Join(checkout, "go.mod"), []byte("module boxmaker\n\ngo 1.26\n"), 0o644)
	sub := filepath.Join(checkout, "core", "daemon")
	os.MkdirAll(sub, 0o755)
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/other\n"), 0o644)

	for _, tt := range []struct {
		name, env, cwd, want string
	}{
		{"the variable wins", "/srv/bx", sub, "/srv/bx"},
		// The test binary is in no checkout's bin/: the working directory,
		// inside a checkout or not, does not choose the home.
		{"a checkout as working directory does not choose", "", sub, "/var/lib/boxmaker"},
		{"another module: deployed", "", other, "/var/lib/boxmaker"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("BOXMAKER_HOME", tt.env)
			t.Chdir(tt.cwd)
			if got := DefaultHome(); got != tt.want {
				t.Errorf("DefaultHome() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestConfigPath(t *testing.T) {
	home := t.TempDir()
	t.Setenv("BOXMAKER_HOME", home)
	if got := ConfigPath("/x/brokerd.toml", role.Brokerd); got != "/x/brokerd.toml" {
		t.Errorf("--config: %q", got)
	}
	if got := ConfigPath("", role.Brokerd); got != "/etc/boxmaker/brokerd.toml" {
		t.Errorf("no file in the home: %q", got)
	}
	os.MkdirAll(filepath.Join(home, "etc"), 0o700)
	os.WriteFile(filepath.Join(home, "etc", "brokerd.toml"), nil, 0o600)
	if got := ConfigPath("", role.Brokerd); got != filepath.Join(home, "etc", "brokerd.toml") {
		t.Errorf("the home's file: %q", got)
	}
}

func TestNearest(t *testing.T) {
	names := []string{"log", "review", "accept", "reject", "verify", "check", "up", "approve", "approvals"}
	for _, tt := range []struct{ word, want string }{
		{"reveiw", "review"}, // two letters swapped
		{"verfy", "verify"},  // one dropped
		{"chek", "check"},
		{"upx", "up"},
		{"lgo", "log"},
		{"lxx", ""},  // two edits of a short name
		{"zzqx", ""}, // nothing near
		{"approv", "approve"},
		{"approvls", "approvals"},
	} {
		if got := Nearest(tt.word, names); got != tt.want {
			t.Errorf("Nearest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

// The default home follows the binary, not the working directory: a
// binary in a checkout's bin/ uses that checkout's .state.
func TestCheckoutOfFollowsTheBinary(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "bin"), 0o700)
	os.MkdirAll(filepath.Join(root, "elsewhere"), 0o700)
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module boxmaker\n\ngo 1.26\n"), 0o600)
	other := t.TempDir()
	os.MkdirAll(filepath.Join(other, "bin"), 0o700)
	os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/other\n"), 0o600)
	for _, tt := range []struct {
		exe  string
		want string
	}{
		{filepath.Join(root, "bin", "boxmaker"), root},
		{filepath.Join(root, "elsewhere", "boxmaker"), ""}, // not bin/
		{filepath.Join(other, "bin", "boxmaker"), ""},      // another module
		{"/usr/local/bin/boxmaker", ""},
	} {
		got, ok := checkoutOf(tt.exe)
		if !ok {
			got = ""
		}
		if got != tt.want {
			t.Errorf("checkoutOf(%s) = %q, want %q", tt.exe, got, tt.want)
		}
	}
}

// A child's refusal reaches its starter as the same refusal: the entry a
// value again (not parsed out of a line of output), the text whole.
func TestReasonCrossesAProcessBoundary(t *testing.T) {
	var b strings.Builder
	err := fmt.Errorf("selftest: %w", runbook.Refuse(runbook.LoopdSelftestFailed, "FAILED: the template"))
	WriteReason(&b, err)
	r := ReadReason(strings.NewReader(b.String()))
	if r == nil || r.Entry != runbook.LoopdSelftestFailed || r.Text != "selftest: FAILED: the template" || r.Error() != err.Error() {
		t.Fatalf("ReadReason = %+v", r)
	}
	b.Reset()
	WriteReason(&b, errors.New("no refusal"))
	if b.Len() != 0 {
		t.Errorf("an error that is no refusal wrote %q", b.String())
	}
	// Its link not at the end: no entry to pair the text with (the
	// starter shows the child's last line instead).
	WriteReason(&b, fmt.Errorf("%w (while starting)", runbook.Refuse(runbook.LoopdSelftestFailed, "FAILED")))
	if b.Len() != 0 {
		t.Errorf("a refusal whose message does not end with its link wrote %q", b.String())
	}
	if r := ReadReason(strings.NewReader(`{"entry":"no-such-entry","text":"x"}`)); r != nil {
		t.Errorf("an unknown entry was made: %+v", r)
	}
}

func TestEveryDaemonHasItsRole(t *testing.T) {
	roles := map[role.Role]Role{}
	for _, r := range []Role{Brokerd, Memoryd, Loopd, Gatewayd, Inferproxy} {
		roles[r.Name] = r
	}
	flags := map[string]bool{}
	for _, name := range conf.Daemons() {
		r, ok := roles[name]
		if !ok {
			t.Errorf("conf.Daemons names %s, but rolecli has no Role for it", name)
			continue
		}
		if r.StartFailed.String() != name.String()+"-start-failed" {
			t.Errorf("%s's StartFailed is %s, want %s-start-failed", name, r.StartFailed, name)
		}
		if r.ListenerLost.String() == "" {
			t.Errorf("%s has no ListenerLost entry", name)
		}
		if !strings.HasSuffix(r.BxctlFlag, "-config") || flags[r.BxctlFlag] {
			t.Errorf("%s's BxctlFlag is %q: want a flag of its own that ends in -config", name, r.BxctlFlag)
		}
		flags[r.BxctlFlag] = true
		delete(roles, name)
	}
	for name := range roles {
		t.Errorf("rolecli has a Role for %s, which conf.Daemons does not name", name)
	}
}

func TestArgsAndLateFlags(t *testing.T) {
	for _, tt := range []struct {
		name       string
		args       []string
		wantArgs   []string
		wantJSON   bool
		wantWhy    string
		wantErrHas string
	}{
		{name: "no late flags", args: []string{"ID"}, wantArgs: []string{"ID"}},
		{name: "a boolean after the argument", args: []string{"ID", "--json"}, wantArgs: []string{"ID"}, wantJSON: true},
		{name: "one dash", args: []string{"ID", "-json"}, wantArgs: []string{"ID"}, wantJSON: true},
		{name: "a value from the next word", args: []string{"ID", "--why", "too wide", "X"}, wantArgs: []string{"ID", "X"}, wantWhy: "too wide"},
		{name: "a value after =", args: []string{"ID", "--why=-x", "--json=false"}, wantArgs: []string{"ID"}, wantWhy: "-x"},
		{name: "early and late", args: []string{"--json", "ID", "--why", "w"}, wantArgs: []string{"ID"}, wantJSON: true, wantWhy: "w"},
		{name: "-- ends the flags", args: []string{"ID", "--", "--json", "-"}, wantArgs: []string{"ID", "--json", "-"}},
		{name: "a lone dash is an argument", args: []string{"ID", "-"}, wantArgs: []string{"ID", "-"}},
		{name: "an unknown flag", args: []string{"ID", "--jsn"}, wantErrHas: "show: unknown flag --jsn after the arguments (see t show --help)"},
		{name: "a value missing", args: []string{"ID", "--why"}, wantErrHas: "show: the flag --why needs a value"},
		{name: "a value a boolean cannot take", args: []string{"ID", "--json=maybe"}, wantErrHas: "show: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			var gotJSON bool
			var gotWhy string
			app := NewApp("t", "test", &cli.Command{
				Name:  "show",
				Flags: []cli.Flag{&cli.BoolFlag{Name: "json"}, &cli.StringFlag{Name: "why"}},
				Action: func(c *cli.Context) error {
					args, err := ArgsAndLateFlags(c)
					got, gotJSON, gotWhy = args, c.Bool("json"), c.String("why")
					return err
				},
			})
			err := app.Run(append([]string{"t", "show"}, tt.args...))
			if tt.wantErrHas != "" {
				var ue *UsageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.wantErrHas) {
					t.Fatalf("err = %v, want a usage error with %q", err, tt.wantErrHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.wantArgs) || gotJSON != tt.wantJSON || gotWhy != tt.wantWhy {
				t.Errorf("args %q json %v why %q, want %q %v %q", got, gotJSON, gotWhy, tt.wantArgs, tt.wantJSON, tt.wantWhy)
			}
		})
	}
}

// The lines boxmaker up and install run a daemon with (ServeArgs,
// CheckConfigArgs) are read by the serve every daemon has as meant: the
// role, the config, --check-config, and a flag of the role's own.
func TestServeReadsTheLinesThatRunIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "brokerd.toml")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	type read struct {
		path             string
		checking, accept bool
	}
	for _, tt := range []struct {
		name string
		args []string
		want read
	}{
		{"up", ServeArgs(role.Brokerd, path), read{path: path}},
		{"up --accept-break", ServeArgs(role.Brokerd, path, "--"+AcceptBreakFlag), read{path: path, accept: true}},
		{"install's check", CheckConfigArgs(role.Brokerd, path), read{path: path, checking: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got read
			app := NewApp(Brokerd.Name.String(), "test", ServeCommand(Brokerd, "serve", "serves",
				[]cli.Flag{&cli.BoolFlag{Name: AcceptBreakFlag}},
				func(c *cli.Context, path string, _ struct{}) error {
					got = read{path: path, checking: CheckingConfig(c), accept: c.Bool(AcceptBreakFlag)}
					return nil
				}))
			if err := app.Run(tt.args); err != nil {
				t.Fatalf("%q: %v", tt.args, err)
			}
			if got != tt.want {
				t.Errorf("%q read as %+v, want %+v", tt.args, got, tt.want)
			}
		})
	}
}
