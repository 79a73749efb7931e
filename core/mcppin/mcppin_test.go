package mcppin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/mcpconf"
)

var server = mcpconf.Server{Name: "notes", Image: "localhost/mcp@sha256:" + strings.Repeat("a", 64), Command: []string{"node", "/app/index.js"}}

var accepted = Listed{Hash: "sha256:list1", Tools: map[string]string{"echo": "sha256:e1", "sum": "sha256:s1"}}

func TestJudge(t *testing.T) {
	a := Accept(server, accepted)
	otherImage := server
	otherImage.Image = "localhost/mcp@sha256:" + strings.Repeat("b", 64)
	otherEnv := server
	otherEnv.Env = map[string]string{"MODE": "v2"}
	otherCommand := server
	otherCommand.Command = []string{"node", "/app/index.js", "--all"}
	for _, tc := range []struct {
		name string
		a    *Acceptance
		s    mcpconf.Server
		now  Listed
		want Verdict
	}{
		{"never accepted", nil, server, accepted,
			Verdict{Withheld: "its tools were never accepted", Added: []string{"echo", "sum"}}},
		{"as accepted", &a, server, accepted,
			Verdict{Offer: []string{"echo", "sum"}}},
		{"a description changed: every tool is withheld", &a, server,
			Listed{Hash: "sha256:list2", Tools: map[string]string{"echo": "sha256:e2", "sum": "sha256:s1"}},
			Verdict{Withheld: "its tool list is not the one accepted", Changed: []string{"echo"}}},
		{"a tool renamed", &a, server,
			Listed{Hash: "sha256:list3", Tools: map[string]string{"echo2": "sha256:e1", "sum": "sha256:s1"}},
			Verdict{Withheld: "its tool list is not the one accepted", Added: []string{"echo2"}, Removed: []string{"echo"}}},
		{"another image, the same list", &a, otherImage, accepted,
			Verdict{Withheld: "its image is not the one accepted"}},
		{"another command, the same list", &a, otherCommand, accepted,
			Verdict{Withheld: "its command is not the one accepted"}},
		{"another environment, the same list", &a, otherEnv, accepted,
			Verdict{Withheld: "its environment is not the one accepted"}},
		{"the list's pin alone differs", &a, server,
			Listed{Hash: "sha256:other", Tools: accepted.Tools},
			Verdict{Withheld: "its tool list is not the one accepted"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Judge(tc.a, tc.s, tc.now)); diff != "" {
				t.Error(diff)
			}
		})
	}
}

func TestSaveAndLoad(t *testing.T) {
	home := t.TempDir()
	if _, ok, err := Load(home, "notes"); ok || err != nil {
		t.Fatalf("before any: ok %v, err %v", ok, err)
	}
	a := Accept(server, accepted)
	if err := Save(home, a); err != nil {
		t.Fatal(err)
	}
	got, ok, err := Load(home, "notes")
	if !ok || err != nil {
		t.Fatalf("ok %v, err %v", ok, err)
	}
	if diff := cmp.Diff(a, got); diff != "" {
		t.Error(diff)
	}
	fi, err := os.Stat(Path(home, "notes"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, err %v", fi.Mode(), err)
	}
	if di, err := os.Stat(filepath.Dir(Path(home, "notes"))); err != nil || di.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v, err %v", di.Mode(), err)
	}
	if _, _, err := Load(home, "../notes"); err == nil {
		t.Error("a name with a path was read")
	}
}

func TestAFileThatIsNotAnAcceptanceAcceptsNothing(t *testing.T) {
	home := t.TempDir()
	if err := Save(home, Accept(server, accepted)); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"another server's": `{"server":"other","image":"x","command":["y"],"hash":"sha256:1","tools":{}}`,
		"an unknown field": `{"server":"notes","image":"x","command":["y"],"hash":"sha256:1","tools":{},"trust":true}`,
		"no hash":          `{"server":"notes","image":"x","command":["y"],"tools":{}}`,
		"not JSON":         `notes`,
	} {
		if err := os.WriteFile(Path(home, "notes"), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := Load(home, "notes"); ok || err == nil {
			t.Errorf("%s: ok %v, err %v", name, ok, err)
		}
	}
}
