package conf

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/secrets"
)

const honchoDoc = `home = "/h"

[honcho]
url = "http://127.0.0.1:8000"
agent = "kyle"
owner = "ann"
trusted = "kyle-trusted"
untrusted = "kyle-untrusted"
fleet = "fleet"

[[honcho.read]]
agent = "bob"
workspace = "bob-trusted"
trust = "trusted"
class = "private"

[secrets.honcho_trusted]
env = "HONCHO_TRUSTED_KEY"

[secrets.honcho_read_bob]
file = "/etc/boxmaker/bob.key"
`

func TestHonchoDecodes(t *testing.T) {
	var m Memoryd
	if err := Decode("m.toml", []byte(honchoDoc), &m); err != nil {
		t.Fatal(err)
	}
	want := &Honcho{URL: "http://127.0.0.1:8000", Agent: "kyle", Owner: "ann", Trusted: "kyle-trusted",
		Untrusted: "kyle-untrusted", Fleet: "fleet",
		Read: []HonchoRead{{Agent: "bob", Workspace: "bob-trusted", Trust: "trusted", Class: "private"}}}
	if diff := cmp.Diff(want, m.Honcho); diff != "" {
		t.Errorf("[honcho] (-want +got):\n%s", diff)
	}
	wantSecrets := map[string]secrets.Source{"honcho_trusted": {Env: "HONCHO_TRUSTED_KEY"}, "honcho_read_bob": {File: "/etc/boxmaker/bob.key"}}
	if diff := cmp.Diff(wantSecrets, m.Secrets); diff != "" {
		t.Errorf("[secrets] (-want +got):\n%s", diff)
	}
	var none Memoryd
	if err := Decode("m.toml", []byte(`home = "/h"`), &none); err != nil || none.Honcho != nil || none.Secrets != nil {
		t.Fatalf("without [honcho]: %v %+v", err, none)
	}
}

func TestHonchoParseErrors(t *testing.T) {
	for _, tt := range []struct {
		name    string
		from    string
		to      string
		problem Problem
	}{
		{"missing url", "url = \"http://127.0.0.1:8000\"\n", "", Problem{Line: 3, Key: "honcho.url", Text: "missing key honcho.url"}},
		{"missing fleet", "fleet = \"fleet\"\n", "", Problem{Line: 3, Key: "honcho.fleet", Text: "missing key honcho.fleet"}},
		{"missing read trust", "trust = \"trusted\"\n", "", Problem{Line: 11, Key: "honcho.read.trust", Text: "missing key honcho.read.trust"}},
		{"unknown honcho key", "owner = \"ann\"\n", "owner = \"ann\"\nowners = \"x\"\n", Problem{Line: 7, Key: "honcho.owners", Text: "unknown key honcho.owners"}},
		{"unknown read key", "class = \"private\"\n", "class = \"private\"\nkey = \"x\"\n", Problem{Line: 16, Key: "honcho.read.key", Text: "unknown key honcho.read.key"}},
		{"unknown secret key", "env = \"HONCHO_TRUSTED_KEY\"\n", "env = \"HONCHO_TRUSTED_KEY\"\nvalue = \"x\"\n", Problem{Line: 19, Key: "secrets.honcho_trusted.value", Text: "unknown key secrets.honcho_trusted.value"}},
		{"secret key in another case", "env = \"HONCHO_TRUSTED_KEY\"\n", "Env = \"HONCHO_TRUSTED_KEY\"\n", Problem{Line: 18, Key: "secrets.honcho_trusted.Env", Text: "unknown key secrets.honcho_trusted.Env (keys are lower case: env)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := replaceOnce(t, honchoDoc, tt.from, tt.to)
			var m Memoryd
			err := Decode("m.toml", []byte(doc), &m)
			var inv *InvalidError
			if !errors.As(err, &inv) {
				t.Fatalf("got %v, want an InvalidError", err)
			}
			if diff := cmp.Diff([]Problem{tt.problem}, inv.Problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
	// A wrong type is reported with its key.
	var m Memoryd
	err := Decode("m.toml", []byte(replaceOnce(t, honchoDoc, "agent = \"kyle\"\n", "agent = 7\n")), &m)
	var inv *InvalidError
	if !errors.As(err, &inv) || len(inv.Problems) != 1 || inv.Problems[0].Line != 5 {
		t.Fatalf("agent = 7: %v", err)
	}
}

func replaceOnce(t *testing.T, s, from, to string) string {
	t.Helper()
	i := strings.Index(s, from)
	if i < 0 {
		t.Fatalf("%q not in the document", from)
	}
	return s[:i] + to + s[i+len(from):]
}
