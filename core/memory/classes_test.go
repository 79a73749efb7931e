package memory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func writeAs(t *testing.T, s *Store, session, class string, acts ...Action) Result {
	t.Helper()
	r, err := s.Write(Call{Session: session, Class: class, Actions: acts})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// landAs writes as writeAs does, and accepts the edit as the owner would
// when it was staged: a session above public never writes identity
// directly (decision D831), so its entries land only through review.
func landAs(t *testing.T, s *Store, session, class string, acts ...Action) Result {
	t.Helper()
	r := writeAs(t, s, session, class, acts...)
	if r.Outcome != Staged {
		return r
	}
	a, err := s.Accept(r.Edit)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func entryClasses(t *testing.T, s *Store) map[string]string {
	t.Helper()
	es, err := s.IdentityEntries()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range es {
		out[e.File+": "+e.Text] = e.Class + " " + e.Session
	}
	return out
}

func blockClass(t *testing.T, s *Store) string {
	t.Helper()
	b, err := s.Block()
	if err != nil {
		t.Fatal(err)
	}
	return b.Class
}

// The attack of issue 9: a private session adds an entry to memory.md, and
// every new session, which started public, got it. Now each entry carries
// the class of the session that wrote it, and the block the highest class
// among its entries.
func TestEntriesCarryTheirWritersClass(t *testing.T) {
	s := openStore(t, false)
	if got := blockClass(t, s); got != "public" {
		t.Fatalf("an empty memory's block is %s", got)
	}
	writeAs(t, s, "pub", "public", add("memory", "the project uses pnpm"))
	if got := blockClass(t, s); got != "public" {
		t.Fatalf("a public entry's block is %s", got)
	}
	landAs(t, s, "priv", "private", add("memory", "the staging token is in ~/.tok"))
	if got := blockClass(t, s); got != "private" {
		t.Fatalf("a block with a private entry is %s", got)
	}
	// The owner adds an entry by hand: it counts as the owner's, public.
	f := filepath.Join(s.Dir(), MemoryFile)
	data, _ := os.ReadFile(f)
	os.WriteFile(f, append(data, []byte("§\nthe owner's own note\n")...), 0o600)
	want := map[string]string{
		"memory.md: the project uses pnpm":          "public pub",
		"memory.md: the staging token is in ~/.tok": "private priv",
		"memory.md: the owner's own note":           "public ",
	}
	if diff := cmp.Diff(want, entryClasses(t, s)); diff != "" {
		t.Errorf("classes (-want +got):\n%s", diff)
	}
	// A public session replacing the private entry leaves it private (what
	// it replaced is joined in); removing it makes the block public again.
	writeAs(t, s, "pub2", "public", Action{Action: "replace", File: "memory", Old: "staging token", Text: "the staging token moved"})
	if got := entryClasses(t, s)["memory.md: the staging token moved"]; got != "private pub2" {
		t.Errorf("the replaced entry is %q", got)
	}
	writeAs(t, s, "pub2", "public", Action{Action: "remove", File: "memory", Old: "staging token moved"})
	if got := blockClass(t, s); got != "public" {
		t.Errorf("after the private entry was removed the block is %s", got)
	}
	cls, _ := s.readClasses()
	if n := len(cls[MemoryFile]); n != 1 {
		t.Errorf("classes.json keeps %d records for memory.md, want 1 (the pnpm entry; the owner's has none)", n)
	}
	// user.md's entries count too, and a secret one makes the block secret.
	landAs(t, s, "sec", "secret", add("user", "the owner's bank is X"))
	if got := blockClass(t, s); got != "secret" {
		t.Errorf("a block with a secret user.md entry is %s", got)
	}
}

// A staged write keeps the class its session had when it was staged.
func TestAnAcceptedEditCarriesItsSessionsClass(t *testing.T) {
	s := openStore(t, true)
	r := writeAs(t, s, "priv", "private", add("memory", "staged fact"))
	if r.Outcome != Staged {
		t.Fatalf("%+v", r)
	}
	if _, err := s.Accept(r.Edit); err != nil {
		t.Fatal(err)
	}
	if got := entryClasses(t, s)["memory.md: staged fact"]; got != "private priv" {
		t.Errorf("the accepted entry is %q", got)
	}
}

// A damaged classes.json refuses the block: the class of what it holds is
// not known.
func TestADamagedClassesFileRefusesTheBlock(t *testing.T) {
	s := openStore(t, false)
	landAs(t, s, "priv", "private", add("memory", "fact"))
	for _, bad := range []string{`{"memory.md":[{"sha256":"x","class":"private"}]}`, `{"memory.md":[],"other":1}`, `{`} {
		os.WriteFile(filepath.Join(s.Dir(), ClassesFile), []byte(bad), 0o600)
		if _, err := s.Block(); err == nil || !strings.Contains(err.Error(), "classes.json is damaged") {
			t.Errorf("%s: Block = %v", bad, err)
		}
	}
}

// classes.json's reader takes what its writer writes, and what it takes
// it writes back the same way.
func FuzzParseClasses(f *testing.F) {
	f.Add([]byte(`{"memory.md":[{"sha256":"` + strings.Repeat("a", 64) + `","class":"private","session":"s","edit":"e1"}],"user.md":[]}`))
	f.Add([]byte(`{"memory.md":[],"user.md":[],"x":1}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := parseClasses(b, "classes.json")
		if err != nil {
			return
		}
		again, err := parseClasses([]byte(c.encode()), "classes.json")
		if err != nil {
			t.Fatalf("the encoding of %q does not parse: %v", b, err)
		}
		if diff := cmp.Diff(c.encode(), again.encode()); diff != "" {
			t.Fatalf("re-encoding changes it: %s", diff)
		}
	})
}

// A session that started before a private entry was written must not read
// it in an answer: an answer that quotes entries (an ambiguous piece, a
// file over its limit) or confirms one (already there) says their class.
func TestAnswersQuotingEntriesSayTheirClass(t *testing.T) {
	s := openStore(t, false)
	landAs(t, s, "priv", "private", add("memory", "the vault key is under the stairs"))
	writeAs(t, s, "pub", "public", add("memory", "the stairs are painted"))
	for _, c := range []struct {
		name string
		act  Action
	}{
		{"an ambiguous piece lists the entries", Action{Action: "remove", File: "memory", Old: "stairs"}},
		{"an entry already there is confirmed", add("memory", "the vault key is under the stairs")},
		{"a file over its limit lists its entries", add("memory", strings.Repeat("x", MemoryLimit))},
	} {
		r := writeAs(t, s, "pub2", "public", c.act)
		if r.Outcome != Invalid || r.Shown != "private" {
			t.Errorf("%s: %+v", c.name, r)
		}
	}
	if r := writeAs(t, s, "pub2", "public", Action{Action: "remove", File: "memory", Old: "no such"}); r.Shown != "" {
		t.Errorf("an answer that quotes nothing says %q", r.Shown)
	}
}
