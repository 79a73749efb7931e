package testsupport

import (
	"strings"
	"testing"
)

// ContainsAll fails the test (and goes on) for each of parts that text,
// what the test calls what, lacks; the message shows text.
func ContainsAll(tb testing.TB, what, text string, parts ...string) {
	tb.Helper()
	for _, p := range parts {
		if !strings.Contains(text, p) {
			tb.Errorf("%s lacks %q:\n%s", what, p, text)
		}
	}
}
