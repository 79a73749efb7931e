package llamastandin

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxmaker/sanitize"
)

// The stand-in's table must be the sanitizer's: loopd checks the server
// against the sanitizer's copy.
func TestTagsAreTheSanitizersTags(t *testing.T) {
	type row struct {
		Text string
		ID   int
	}
	var mine, theirs []row
	for _, tg := range Tags() {
		mine = append(mine, row{tg.Text(), tg.TokenID})
	}
	for _, tg := range sanitize.Tags() {
		theirs = append(theirs, row{tg.Text(), tg.TokenID})
		if got := Tokenize(tg.Neutralised(), true); containsTag(got) {
			t.Errorf("neutralised %s tokenizes to a tag: %v", tg.Text(), got)
		}
	}
	if diff := cmp.Diff(theirs, mine); diff != "" {
		t.Fatal(diff)
	}
	for _, want := range []row{{"<|im_end|>", 248046}, {"<think>", 248068}, {"<|im_start|>", 248045}, {"</tool_response>", 248067}} {
		if tg, ok := tagByText(want.Text); !ok || tg.TokenID != want.ID {
			t.Errorf("%s: got %+v, want id %d", want.Text, tg, want.ID)
		}
	}
}
