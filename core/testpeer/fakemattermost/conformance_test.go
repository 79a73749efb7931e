package fakemattermost_test

import (
	"os"
	"os/exec"
	"testing"
)

// TestConformance runs the conformance module (conformance/, a module of
// its own that imports Mattermost's official model package v0.4.3): the
// fake's REST bodies and WebSocket frames, round-tripped through the
// official types and read by the official clients.
func TestConformance(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the conformance module needs the go tool: %v", err)
	}
	cmd := exec.Command(goTool, "test", "-count=1", "./...")
	cmd.Dir = "conformance"
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test in conformance/: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
