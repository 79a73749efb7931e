package role

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestAllAreSortedAndEachIsFoundByItsName(t *testing.T) {
	names := make([]string, 0, len(all))
	for _, r := range All() {
		if r.String() == "" {
			t.Errorf("a role has no name: %#v", r)
		}
		got, ok := Lookup(r.String())
		if !ok || got != r {
			t.Errorf("Lookup(%q) = %v, %v; want %v, true", r, got, ok, r)
		}
		names = append(names, r.String())
	}
	if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Errorf("All() = %v: want the names sorted, each once", names)
	}
	want := []string{"brokerd", "bxctl", "gatewayd", "inferproxy", "loopd", "memoryd", "yaag"}
	if !slices.Equal(names, want) {
		t.Errorf("All() = %v, want %v", names, want)
	}
}

func TestLookupRefusesWhatIsNotARole(t *testing.T) {
	for _, name := range []string{"", "boxmaker", "Brokerd", "brokerd ", "brokerd.toml", "brokred"} {
		if r, ok := Lookup(name); ok {
			t.Errorf("Lookup(%q) = %v, true: want no role", name, r)
		}
	}
}

func TestAllIsACopy(t *testing.T) {
	a := All()
	a[0] = Yaag
	if All()[0] != Brokerd {
		t.Error("changing All()'s result changed the list")
	}
}

func TestARoleInJSONIsItsName(t *testing.T) {
	b, err := json.Marshal(map[string]any{"role": Loopd, "roles": []Role{Brokerd, Yaag}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"role":"loopd","roles":["brokerd","yaag"]}`; string(b) != want {
		t.Errorf("marshalled %s, want %s", b, want)
	}
}
