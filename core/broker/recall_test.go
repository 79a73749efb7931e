package broker

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/audit"
	"boxmaker/core/brokerwire"
	"boxmaker/core/policy"
)

// A recall answer raises the session to the higher of the grant's class
// and the taint memoryd says the hits' sources have; it never lowers it.
// An answer that does not say, or says a taint brokerd does not know, is
// not given to the model, and the session stays as it was.
func TestRecallRaisesTheSessionToItsHitsTaint(t *testing.T) {
	tests := []struct {
		name    string
		class   string // the recall grant's
		before  string // the session's taint before the call; "" for a new session
		query   string // what the fake memoryd answers by
		outcome string
		after   policy.State
		note    string // the result record's note
	}{
		{name: "secret hits in a public session through a public grant", class: "public", query: "taint:secret",
			outcome: brokerwire.OutcomeAllowed, after: policy.State{Taint: policy.Secret},
			note: "the recall hits' sources are secret, above the grant's class public"},
		{name: "secret hits through a private grant", class: "private", query: "taint:secret",
			outcome: brokerwire.OutcomeAllowed, after: policy.State{Taint: policy.Secret},
			note: "the recall hits' sources are secret, above the grant's class private"},
		{name: "private hits through a public grant", class: "public", query: "taint:private",
			outcome: brokerwire.OutcomeAllowed, after: policy.State{Taint: policy.Private},
			note: "the recall hits' sources are private, above the grant's class public"},
		{name: "public hits: the grant's class", class: "private", query: "taint:public",
			outcome: brokerwire.OutcomeAllowed, after: policy.State{Taint: policy.Private}},
		{name: "hits below the session's taint do not lower it", class: "public", before: "secret", query: "taint:private",
			outcome: brokerwire.OutcomeAllowed, after: policy.State{Taint: policy.Secret},
			note: "the recall hits' sources are private, above the grant's class public"},
		{name: "an answer without the hits' taint is withheld", class: "public", query: "no-taint",
			outcome: brokerwire.OutcomeFailed, after: policy.State{}},
		{name: "an answer with an unknown taint is withheld", class: "public", query: "taint:top-secret",
			outcome: brokerwire.OutcomeFailed, after: policy.State{}},
		{name: "an answer with a taint in capitals is withheld", class: "public", before: "private", query: "taint:SECRET",
			outcome: brokerwire.OutcomeFailed, after: policy.State{Taint: policy.Private}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, map[string]string{"recall.toml": grant("recall", "allow", tc.class, "secret", false)}, time.Minute)
			if tc.before != "" {
				taint, _ := policy.ParseTaint(tc.before)
				if err := f.b.sessions.write("s1", policy.State{Taint: taint}); err != nil {
					t.Fatal(err)
				}
			}
			args, _ := json.Marshal(map[string]string{"query": tc.query})
			a, err := f.b.Call(context.Background(), brokerwire.ToolCall{Session: "s1", CallID: "c1", Tool: "recall", Arguments: args}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if a.Outcome != tc.outcome {
				t.Fatalf("outcome %q (%s), want %q", a.Outcome, a.Text, tc.outcome)
			}
			if tc.outcome == brokerwire.OutcomeAllowed && a.Text != "ok: "+tc.query {
				t.Errorf("text %q", a.Text)
			}
			if tc.outcome == brokerwire.OutcomeFailed && (strings.Contains(a.Text, "ok:") || !strings.HasPrefix(a.Text, MemoryUnavailableText)) {
				t.Errorf("a withheld answer's text: %q", a.Text)
			}
			st, err := f.b.SessionState("s1")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.after, st); diff != "" {
				t.Errorf("session state (-want +got):\n%s", diff)
			}
			var res *audit.Record
			for _, r := range f.records(t) {
				if r.Type == audit.TypeResult && r.Call == "c1" {
					res = &r
				}
			}
			if res == nil {
				t.Fatal("no result record")
			}
			if res.TaintAfter != tc.after.Taint.String() {
				t.Errorf("result record's taint_after %q, want %q", res.TaintAfter, tc.after.Taint)
			}
			if tc.outcome == brokerwire.OutcomeAllowed && res.Note != tc.note {
				t.Errorf("result record's note %q, want %q", res.Note, tc.note)
			}
		})
	}
}

// Once recall made a session secret, grants that stop at a lower taint no
// longer apply to it: the raise is what keeps the recalled text from
// leaving through a less trusted tool.
func TestRecalledSecretClosesLowerGrants(t *testing.T) {
	f := newFixture(t, map[string]string{
		"recall.toml": grant("recall", "allow", "public", "secret", false),
		"memory.toml": grant("memory", "allow", "public", "private", false),
	}, time.Minute)
	for i, tc := range []struct{ tool, args, outcome string }{
		{"memory", `{"actions":[{"action":"note","text":"before"}]}`, brokerwire.OutcomeAllowed},
		{"recall", `{"query":"taint:secret"}`, brokerwire.OutcomeAllowed},
		{"memory", `{"actions":[{"action":"note","text":"after"}]}`, brokerwire.OutcomeDenied},
	} {
		a, err := f.b.Call(context.Background(), brokerwire.ToolCall{Session: "s1", CallID: fmt.Sprint("c", i), Tool: tc.tool,
			Arguments: json.RawMessage(tc.args)}, nil)
		if err != nil || a.Outcome != tc.outcome {
			t.Fatalf("call %d (%s): %+v %v; want %s", i, tc.tool, a, err, tc.outcome)
		}
	}
}
