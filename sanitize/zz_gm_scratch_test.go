package sanitize_test

import (
	"fmt"
	"os"
	"testing"

	"boxmaker/sanitize"
)

func TestGMScratch(t *testing.T) {
	path := os.Getenv("GM_CASES")
	if path == "" {
		t.Skip()
	}
	data, _ := os.ReadFile(path)
	cases, probs := sanitize.ParseCorpus(path, string(data), false)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	n, hit := 0, 0
	for _, c := range cases {
		var rules []string
		for _, f := range append(sanitize.Refusals(c.Text), sanitize.Flags(c.Text)...) {
			rules = append(rules, f.Rule)
		}
		n++
		if len(rules) > 0 {
			hit++
		}
		fmt.Printf("%-28s %v\n", c.Name, rules)
	}
	fmt.Printf("TOTAL %d fired %d\n", n, hit)
}
