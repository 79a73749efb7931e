package recall

import (
	"testing"

	"boxmaker/core/policy"
)

// Another source's hits raise the answer as local ones do: to the higher
// taint, untrusted when either part is.
func TestJoinRaisesTheAnswerToBothParts(t *testing.T) {
	for _, tt := range []struct {
		name          string
		local         policy.Taint
		localTainted  bool
		more          policy.Taint
		moreUntrusted bool
		wantTop       policy.Taint
		wantTainted   bool
	}{
		{"a secret remote part raises a public answer", policy.Public, false, policy.Secret, false, policy.Secret, false},
		{"a public remote part does not lower a private one", policy.Private, false, policy.Public, false, policy.Private, false},
		{"an untrusted remote part taints the answer", policy.Public, false, policy.Public, true, policy.Public, true},
		{"a tainted local part stays tainted", policy.Public, true, policy.Public, false, policy.Public, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &Result{Taint: tt.local, Tainted: tt.localTainted}
			text, top, tainted := r.Join("honcho: one hit\n", tt.more, tt.moreUntrusted)
			if top != tt.wantTop || tainted != tt.wantTainted {
				t.Errorf("Join = %v, %v; want %v, %v", top, tainted, tt.wantTop, tt.wantTainted)
			}
			if text == "" || text[len(text)-1] != '\n' {
				t.Errorf("text = %q", text)
			}
		})
	}
}
