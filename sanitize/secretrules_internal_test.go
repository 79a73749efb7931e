package sanitize

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// secrets looks up every other pair of bytes (D1227): it must try the
// keywords at the offsets reading every pair does, in the same order, and
// so report the same first offsets, with the map and without.
func FuzzSecretsReadEveryOtherPair(f *testing.F) {
	// Keys are built from pieces (TestSourceHoldsNoWholeKeyOrTag).
	token, aws, slack := "aB3x", "AK"+"IAIOSFODNN7EXAMPLF", "xo"+"xb-1234567890-1234567890-abc"
	for _, s := range []string{
		"", "gh", "ghp", "xghp_" + strings.Repeat(token, 9), "ghp_" + strings.Repeat(token, 9),
		"a " + aws + " b", aws, "xAKIA IOSFODNN7EXAMPLF\n",
		"gh p_" + strings.Repeat(token, 9), " gh\n p_" + strings.Repeat(token, 9) + " gho_" + strings.Repeat(token, 9),
		"-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat("QUJD", 16), "x-----BEGIN EC PRIVATE KEY-----\n" + strings.Repeat("QUJD", 16),
		slack, "y" + slack, "sk-ant-api03-" + strings.Repeat("a", 93) + "AA",
		"a glpat-" + strings.Repeat("b", 20), "xxa" + "pp-1-A1-1-a", "tokens start with ghp_ and gho_", "xA3", "xAK", "T3BlbkFJ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, at := range []func(int) int{nil, func(o int) int { return 2*o + 1 }} {
			got, want := wholeOf(text), wholeOf(text)
			got.secrets(text, at)
			keys := secretKeys()
			for i := 0; i+1 < len(text); i++ {
				if keys.pairs[pair(text, i)] {
					want.secretAt(text, i, keys, at)
				}
			}
			if diff := cmp.Diff(want.first, got.first); diff != "" {
				t.Fatalf("secrets(%q) (-every pair +every other pair):\n%s", text, diff)
			}
		}
	})
}
