package llamastandin

import (
	"encoding/json"
	"os"
	"testing"
)

// The stand-in renders as the real server renders: every case of
// testdata/apply-template-b9928.json is a request sent to a real
// llama-server's POST /apply-template (build 9928, the Qwen3.5 template)
// and the prompt it answered, byte for byte.
func TestRenderIsTheRealServersRendering(t *testing.T) {
	data, err := os.ReadFile("testdata/apply-template-b9928.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Cases []struct {
			Name    string          `json:"name"`
			Request json.RawMessage `json:"request"`
			Prompt  string          `json:"prompt"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range rec.Cases {
		t.Run(c.Name, func(t *testing.T) {
			got, err := Render(c.Request, true)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.Prompt {
				t.Errorf("rendered\n%q\nthe real server\n%q", got, c.Prompt)
			}
		})
	}
}
