package boxmaker

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"boxmaker/core/testsupport"
)

// The demo is tested as a person runs it: the static binary that
// scripts/build.sh makes, real Podman, real daemons.

// staticBinary is the static boxmaker of the test run.
func staticBinary(t *testing.T) string {
	t.Helper()
	exe, err := testsupport.StaticBinary()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// runDemoBinary runs `boxmaker demo args...` and returns its output and
// exit status.
func runDemoBinary(t *testing.T, args ...string) (string, int) {
	t.Helper()
	exe := staticBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, append([]string{"demo"}, args...)...)
	cmd.Dir = t.TempDir()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	code, err := testsupport.ExitCode(cmd.Run())
	if err != nil {
		t.Fatalf("boxmaker demo: %v\n%s", err, out.String())
	}
	return out.String(), code
}

// demoHome is the temporary home the demo named; it must be gone after.
func demoHome(t *testing.T, out string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^demo: home (\S+) `).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the demo did not name its home:\n%s", out)
	}
	return m[1]
}

func TestDemoOnTheStandIn(t *testing.T) {
	out, code := runDemoBinary(t)
	if code != 0 {
		t.Fatalf("boxmaker demo exited %d:\n%s", code, out)
	}
	want := []string{
		`(?m)^demo: the model is a SCRIPTED STAND-IN`,
		`(?m)^demo: the tools image sha256:[0-9a-f]{64} is loaded$`,
		`(?m)^demo: brokerd, memoryd, inferproxy and loopd are up`,
		// each step's call, its outcome, and the check
		`(?m)^  call \S+ ALLOWED: # Lighthouse`,
		`(?m)^  call \S+ DENIED: denied: no grant allows read_file on "\S+/files/outside/diary.txt"$`,
		`(?m)^  call \S+ waits for the owner: approval [a-z2-7]{6}$`,
		`(?m)^  approve: [a-z2-7]{6} approved \(call \S+: read_file on secrets/api-token.txt\)$`,
		`(?m)^  call \S+ APPROVED: demo token for staging.example.org`,
		`(?m)^  call \S+ DENIED: denied: no grant allows write_file on "\S+/files/project/SUMMARY.md" once the session's taint is secret$`,
		`(?m)^  check: memory/memory.md holds the entry$`,
		`(?m)^  check: the new session's memory block holds the entry`,
		`(?m)^  check: the new session started at taint public \(a new session; its memory block is public\)$`,
		`(?m)^  check: recall found the earlier session \S+$`,
		`(?m)^demo: the daemons stopped cleanly$`,
		`(?m)^  audit: ok \(\d+ records in 1 file\)$`,
		// the table, from the audit log
		`(?m)^  1 +\S+ +read_file +project/README.md +allow \(read-project\) +allowed +private$`,
		`(?m)^  2 +\S+ +read_file +outside/diary.txt +deny \(no grant\) +denied +private$`,
		`(?m)^  3 +\S+ +read_file +secrets/api-token.txt +ask \(read-secrets\) +approved \([a-z2-7]{6}\) +secret$`,
		`(?m)^  4 +\S+ +write_file +project/SUMMARY.md +deny \(no grant\) +denied +secret$`,
		`(?m)^  5 +\S+ +memory +- +allow \(memory\) +allowed +private$`,
		`(?m)^  6 +\S+ +recall +- +allow \(recall\) +allowed +secret$`,
		`(?m)^demo: ok: every step did what it should$`,
	}
	for _, re := range want {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("the output lacks %s", re)
		}
	}
	if n := strings.Count(out, "  check: the new session started at taint "); n != 2 {
		t.Errorf("%d new sessions said where they started, want 2 (steps 5 and 6)", n)
	}
	if n := strings.Count(out, "  check: ok ("); n != 6 {
		t.Errorf("%d steps checked ok, want 6", n)
	}
	if _, err := os.Stat(demoHome(t, out)); !os.IsNotExist(err) {
		t.Errorf("the temporary home was not removed: %v", err)
	}
	if t.Failed() {
		t.Logf("the output:\n%s", out)
	}
}

// A model that does not do what a step needs fails the demo, naming the
// step, after stopping the stack and removing the home. The model here is
// the stand-in run as its own process and named by --model-url, as a real
// llama-server would be, so this is also the path of a real model.
func TestDemoFailsLoudlyWhenAStepGoesWrong(t *testing.T) {
	exe := staticBinary(t)
	script := filepath.Join(t.TempDir(), "script.json")
	// The probe answers; the first step gets a reply without a tool call.
	os.WriteFile(script, []byte(`{"turns": [
  {"when": "probe: call the echo tool", "tool_calls": [{"name": "echo", "arguments": {"text": "ok"}}]},
  {"when": "probe: echo answered ok", "content": "ok"},
  {"content": "I would rather not read files today."}
]}`), 0o600)
	addr := startStandin(t, exe, script)

	out, code := runDemoBinary(t, "--model-url", "http://"+addr)
	if code != 1 {
		t.Fatalf("boxmaker demo exited %d, want 1:\n%s", code, out)
	}
	for _, re := range []string{
		`(?m)^demo: the model is the llama-server at http://` + regexp.QuoteMeta(addr) + `; its replies are its own$`,
		`(?m)^agent: I would rather not read files today.$`,
		`(?m)^boxmaker: step 1 \(a file the grants allow\): the model made no read_file call on \S+/files/project/README.md \(it made 0 tool calls\)$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("the output lacks %s", re)
		}
	}
	if strings.Contains(out, "demo: ok") {
		t.Error("a failed demo said ok")
	}
	if _, err := os.Stat(demoHome(t, out)); !os.IsNotExist(err) {
		t.Errorf("the temporary home was not removed: %v", err)
	}
	if t.Failed() {
		t.Logf("the output:\n%s", out)
	}
}

// startStandin runs `boxmaker llama-standin` as its own process, as a
// llama-server the demo is pointed at with --model-url, and returns its
// address.
func startStandin(t *testing.T, exe, script string) string {
	t.Helper()
	addrFile := filepath.Join(t.TempDir(), "standin.addr")
	standin := exec.Command(exe, "llama-standin", "--listen", "127.0.0.1:0", "--addr-file", addrFile, "--model", "some-model", "--script", script)
	var out bytes.Buffer
	standin.Stdout, standin.Stderr = &out, &out
	if err := standin.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		standin.Process.Signal(os.Interrupt)
		standin.Wait()
	})
	for i := 0; ; i++ {
		if data, err := os.ReadFile(addrFile); err == nil && strings.HasSuffix(string(data), "\n") {
			return strings.TrimSpace(string(data))
		}
		if i > 200 {
			t.Fatalf("the stand-in did not write its address to %s:\n%s", addrFile, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// With --model-url the demo drives the server it names, through
// inferproxy, with [expect] and the model's name taken from it. The
// server here is the stand-in as its own process, given the demo's own
// replies (so the run can pass), in a home named with --home so the
// replies can name its files.
func TestDemoOnAServerNamedByURL(t *testing.T) {
	exe := staticBinary(t)
	dir := filepath.Join(t.TempDir(), "h")
	data, err := json.Marshal(standinScript(demoSteps(newDemoFiles(dir))))
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(script, data, 0o600); err != nil {
		t.Fatal(err)
	}
	addr := startStandin(t, exe, script)

	out, code := runDemoBinary(t, "--model-url", "http://"+addr, "--home", dir)
	if code != 0 {
		t.Fatalf("boxmaker demo exited %d:\n%s", code, out)
	}
	for _, re := range []string{
		`(?m)^demo: the model is the llama-server at http://` + regexp.QuoteMeta(addr) + `; its replies are its own$`,
		`(?m)^demo: home ` + regexp.QuoteMeta(dir) + ` `,
		`(?m)^  audit: ok `,
		`(?m)^demo: ok: every step did what it should$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("the output lacks %s", re)
		}
	}
	if strings.Contains(out, "SCRIPTED STAND-IN") {
		t.Error("the demo said it runs its own stand-in")
	}
	if n := strings.Count(out, "  check: the new session started at taint "); n != 2 {
		t.Errorf("%d new sessions said where they started, want 2 (steps 5 and 6)", n)
	}
	if n := strings.Count(out, "  check: ok ("); n != 6 {
		t.Errorf("%d steps checked ok, want 6", n)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the home named by --home was not removed: %v", err)
	}
	if t.Failed() {
		t.Logf("the output:\n%s", out)
	}
}
