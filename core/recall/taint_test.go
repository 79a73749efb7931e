package recall

import (
	"errors"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxmaker/core/policy"
)

// Each hit gets its source's taint: a session record its session's taint
// as the SessionTaints answer says, a note its header's class (or secret
// when the header says none); the result gets the highest.
func TestSetTaintsGivesEachHitItsSourceTaint(t *testing.T) {
	home := t.TempDir()
	appendFile(t, logPath(home, "read-vault", 0), logLine(1, "tool", "the osprey code is 4471"))
	appendFile(t, logPath(home, "chatty", 0), logLine(1, "user", "the osprey flew past"))
	appendFile(t, logPath(home, "unknown", 0), logLine(1, "assistant", "an osprey again"))
	appendFile(t, filepath.Join(home, "memory", "notes.md"),
		"§ noted 2026-09-24T10:11:12Z in session s9 · private\nosprey nest on the mast\n"+
			"§ noted 2026-09-24T10:11:13Z in session s9 · public\nosprey seen at dawn\n"+
			"§ a header memoryd did not write\nosprey by hand\n")
	ix := openIndex(t, home)

	tests := []struct {
		name     string
		query    string
		sessions map[string]policy.Taint // what brokerd answers
		want     map[string]policy.Taint // hit (session or note text) -> taint
		top      policy.Taint
		asked    []string
	}{
		{
			name:     "a secret session's record makes the result secret",
			query:    "osprey code",
			sessions: map[string]policy.Taint{"read-vault": policy.Secret},
			want:     map[string]policy.Taint{"read-vault": policy.Secret},
			top:      policy.Secret,
			asked:    []string{"read-vault"},
		},
		{
			name:     "a public session's record and a public note stay public",
			query:    "flew dawn",
			sessions: map[string]policy.Taint{"chatty": policy.Public},
			want:     map[string]policy.Taint{"chatty": policy.Public, "note:public": policy.Public},
			top:      policy.Public,
			asked:    []string{"chatty"},
		},
		{
			name:     "a note's class, not its session's taint",
			query:    "nest mast",
			sessions: map[string]policy.Taint{"s9": policy.Secret},
			want:     map[string]policy.Taint{"note:private": policy.Private},
			top:      policy.Private,
		},
		{
			name:     "a note without a class counts as secret",
			query:    "hand",
			sessions: map[string]policy.Taint{},
			want:     map[string]policy.Taint{"note:": policy.Secret},
			top:      policy.Secret,
		},
		{
			name:     "a session the answer leaves out counts as secret",
			query:    "again",
			sessions: map[string]policy.Taint{},
			want:     map[string]policy.Taint{"unknown": policy.Secret},
			top:      policy.Secret,
			asked:    []string{"unknown"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ix.Search(tc.query, 10)
			if err != nil {
				t.Fatal(err)
			}
			var asked []string
			err = r.SetTaints(func(s []string) (map[string]policy.Taint, error) {
				asked = append(asked, s...)
				out := map[string]policy.Taint{}
				for _, id := range s {
					if v, ok := tc.sessions[id]; ok {
						out[id] = v
					}
				}
				return out, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]policy.Taint{}
			for _, h := range r.Hits {
				key := h.Session
				if h.Kind == "note" {
					key = "note:" + h.Class
				}
				got[key] = h.Taint
			}
			sort.Strings(asked)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("hits' taints (-want +got):\n%s", diff)
			}
			if r.Taint != tc.top {
				t.Errorf("result taint %s, want %s", r.Taint, tc.top)
			}
			if diff := cmp.Diff(tc.asked, asked); diff != "" {
				t.Errorf("sessions asked (-want +got):\n%s", diff)
			}
		})
	}
}

// Each session is asked about once, however many of its records match;
// when the question fails, nothing is set and the error comes back.
func TestSetTaintsAsksOnceAndPassesFailures(t *testing.T) {
	home := t.TempDir()
	for i := 1; i <= 5; i++ {
		appendFile(t, logPath(home, "s1", 0), logLine(i, "user", "heron number"))
	}
	appendFile(t, logPath(home, "s2", 0), logLine(1, "user", "heron"))
	ix := openIndex(t, home)
	r, err := ix.Search("heron", 10)
	if err != nil || len(r.Hits) != 6 {
		t.Fatalf("%d hits, %v", len(r.Hits), err)
	}
	calls := 0
	err = r.SetTaints(func(s []string) (map[string]policy.Taint, error) {
		calls++
		sort.Strings(s)
		if diff := cmp.Diff([]string{"s1", "s2"}, s); diff != "" {
			t.Errorf("asked (-want +got):\n%s", diff)
		}
		return map[string]policy.Taint{"s1": policy.Private, "s2": policy.Public}, nil
	})
	if err != nil || calls != 1 || r.Taint != policy.Private {
		t.Fatalf("calls %d, taint %s, %v", calls, r.Taint, err)
	}

	r, _ = ix.Search("heron", 10)
	broken := errors.New("brokerd did not answer")
	if err := r.SetTaints(func([]string) (map[string]policy.Taint, error) { return nil, broken }); !errors.Is(err, broken) {
		t.Fatalf("err %v", err)
	}

	// No session records among the hits: nothing to ask.
	r = Result{}
	if err := r.SetTaints(func([]string) (map[string]policy.Taint, error) {
		t.Error("asked with no hits")
		return nil, nil
	}); err != nil || r.Taint != policy.Public {
		t.Fatalf("%s %v", r.Taint, err)
	}
}
