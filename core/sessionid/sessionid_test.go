package sessionid

import (
	"strings"
	"testing"
)

func TestTheRule(t *testing.T) {
	for _, tt := range []struct {
		id            string
		session, call bool
	}{
		{"s1", true, true},
		{"a-b-0", true, true},
		{strings.Repeat("a", 64), true, true},
		{strings.Repeat("a", 65), false, false},
		{"", false, false},
		{"A1", false, true},
		{"s_1", false, true}, // "_" joins a session and a call in container names
		{"../x", false, false},
		{"s.1", false, false},
		{"call-3-1", true, true},
		{"aZ09aZ09aZ09aZ09aZ09aZ09aZ09aZ09", false, true},
	} {
		if got := Valid(tt.id); got != tt.session {
			t.Errorf("Valid(%q) = %v", tt.id, got)
		}
		if got := ValidCall(tt.id); got != tt.call {
			t.Errorf("ValidCall(%q) = %v", tt.id, got)
		}
		if (Check(tt.id) == nil) != tt.session || (CheckCall(tt.id) == nil) != tt.call {
			t.Errorf("Check/CheckCall(%q) disagree with Valid", tt.id)
		}
	}
}
