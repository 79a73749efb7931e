package sanitize_test

import (
	"os"
	"path/filepath"
	"testing"

	"boxmaker/sanitize"
)

// The fifth held-out collection (sanitize/testdata/heldout5/, README.md
// there says who wrote it and how): the held halves of four red-team
// writers' game attacks and hard negatives, whose other halves the rule
// builders of the same round developed on. The writer is a label, so a
// rule that fits one writer's phrasings shows as such.
var heldOut5Groups = []heldOutGroup{
	{"game.txt", heldOut5Attacks, `^(password|extract|hijack|roleplay|mix)-([a-z]{2}|hinglish)-(tt|gd|ml|ob)-[0-9]+$`, []string{"family", "lang", "writer"},
		[]string{"family:password", "family:extract", "family:hijack", "family:roleplay", "family:mix", "writer:tt", "writer:gd", "writer:ml", "writer:ob"}},
	{"benign.txt", heldOut5Benign, `^(email|chat|code|doc|fiction|quiz|article|note)-([a-z]{2}|hinglish)-(tt|gd|ml|ob)-[0-9]+$`, []string{"carrier", "lang", "writer"},
		[]string{"carrier:email", "carrier:chat", "carrier:code", "carrier:doc", "carrier:fiction", "carrier:quiz", "carrier:article", "writer:tt", "writer:gd", "writer:ml", "writer:ob"}},
}

// The cases written: a group may not shrink.
const heldOut5Attacks, heldOut5Benign = 663, 317

// TestHeldOutRound5 measures every rule against the fifth held-out
// collection, per group, family, carrier, language and writer, as
// TestHeldOutRound3 does the third; a text the third or fourth collection
// holds is an error. It fails on nothing about recall:
//
//	go test -tags "$BOXMAKER_TAGS" -run TestHeldOutRound5 -v ./sanitize/
func TestHeldOutRound5(t *testing.T) {
	seen := map[string]string{}
	heldOutTexts(t, "heldout3", heldOut3Groups, seen)
	heldOutTexts(t, "heldout4", heldOut4Groups, seen)
	measureHeldOut(t, "heldout5", heldOut5Groups, seen)
}

// heldOutTexts adds every case text of a collection to seen (text ->
// where), so that a later collection repeating one fails; the
// collection's own test reports its problems.
func heldOutTexts(t *testing.T, collection string, groups []heldOutGroup, seen map[string]string) {
	t.Helper()
	for _, g := range groups {
		data, err := os.ReadFile(filepath.Join("testdata", collection, g.file))
		if err != nil {
			t.Fatal(err)
		}
		cases, _ := sanitize.ParseCorpus(collection+"/"+g.file, string(data), false)
		for _, c := range cases {
			seen[c.Text] = collection + "/" + g.file + ":" + c.Name
		}
	}
}
