package llamastandin

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The embedded template is the copy published with the Jinja engine's Go
// module (D180, D562): byte for byte the module's testdata file, which
// go.sum pins, and the hash the real server was measured with.
func TestTheTemplateIsTheJinjaModulesCopy(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/ardanlabs/jinja").Output()
	if err != nil {
		t.Fatalf("go list -m github.com/ardanlabs/jinja: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		t.Fatal("github.com/ardanlabs/jinja is not in the module cache (go mod download)")
	}
	published, err := os.ReadFile(filepath.Join(dir, "testdata", "templates", "Qwen3.5-35B-A3B-Q8_0.jinja"))
	if err != nil {
		t.Fatal(err)
	}
	if string(published) != QwenTemplate {
		t.Errorf("qwen35.jinja differs from the copy published with %s", dir)
	}
	const measured = "a4aee8afcf2e0711942cf848899be66016f8d14a889ff9ede07bca099c28f715"
	if got := fmt.Sprintf("%x", sha256.Sum256([]byte(QwenTemplate))); got != measured {
		t.Errorf("qwen35.jinja's sha256 is %s, not the measured template's %s", got, measured)
	}
}
