package sanitize_test

import "testing"

// The fourth held-out collection (sanitize/testdata/heldout4/, README.md
// there says who wrote it and how): a second red team's attacks on a
// guarded-secret game and an "Access Granted" defence game, in English and
// fifteen other languages, and the hard negatives beside them. Each
// group's floor is the cases written (issue 28 asked for at least 200 of
// each).
var heldOut4Groups = []heldOutGroup{
	{"game.txt", 309, `^(password|extract|hijack|roleplay|mix)-(` + heldOut4Langs + `)-[0-9]+$`, []string{"family", "lang"},
		append([]string{"family:password", "family:extract", "family:hijack", "family:roleplay", "family:mix"}, heldOut4WantLangs...)},
	{"benign.txt", 281, `^(email|chat|code|doc|fiction|quiz|article|note)-(` + heldOut4Langs + `)-[0-9]+$`, []string{"carrier", "lang"},
		append([]string{"carrier:email", "carrier:chat", "carrier:code", "carrier:doc", "carrier:fiction", "carrier:quiz", "carrier:article", "carrier:note"}, heldOut4WantLangs...)},
}

const heldOut4Langs = `en|es|fr|de|pt|it|ru|zh|ja|ko|ar|hi|tr|id|pl|vi`

// Every language the collection was written in must keep a case in each group.
var heldOut4WantLangs = []string{"lang:en", "lang:es", "lang:fr", "lang:de", "lang:pt", "lang:it", "lang:ru", "lang:zh",
	"lang:ja", "lang:ko", "lang:ar", "lang:hi", "lang:tr", "lang:id", "lang:pl", "lang:vi"}

// TestHeldOutRound4 measures every rule (flag and refuse) against the
// fourth held-out collection, per group, family, carrier and language, as
// TestHeldOutRound3 does the third; a text the third collection already
// holds is an error too, so that the two stay independent measures. It
// fails on nothing about recall. The misses are listed under -v:
//
//	go test -tags "$BOXMAKER_TAGS" -run TestHeldOutRound4 -v ./sanitize/
func TestHeldOutRound4(t *testing.T) {
	seen := map[string]string{}
	heldOutTexts(t, "heldout3", heldOut3Groups, seen)
	measureHeldOut(t, "heldout4", heldOut4Groups, seen)
}
