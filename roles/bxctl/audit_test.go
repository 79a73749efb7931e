package bxctl

import (
	"bytes"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/audit"
	"boxmaker/core/testsupport"
	"boxmaker/runbook"
)

// TestAuditVerifyListsRecoveriesAndBreaks builds a log that went through a
// crash (a torn line recovered) and an edit (a break accepted), and checks
// what the operator reads.
func TestAuditVerifyListsRecoveriesAndBreaks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "audit")
	now := func() time.Time { return time.Date(2026, 9, 18, 12, 0, 0, 0, time.UTC) }
	appendAll := func(opts audit.Options, recs ...audit.Record) {
		t.Helper()
		opts.Now = now
		l, err := audit.Open(dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		for _, r := range recs {
			if _, err := l.Append(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	file := filepath.Join(dir, "000001.jsonl")

	appendAll(audit.Options{},
		audit.Record{Type: audit.TypeStart},
		audit.Record{Type: audit.TypeDecision, Call: "c1", Tool: "read_file", Target: "/src/a", Effect: "allow"},
		audit.Record{Type: audit.TypeResult, Call: "c1", Outcome: "ran"})
	testsupport.EditFile(t, file, func(b []byte) []byte { return b[:len(b)-10] }) // a crash tears line 3
	appendAll(audit.Options{}, audit.Record{Type: audit.TypeStop})
	testsupport.EditFile(t, file, func(b []byte) []byte { return bytes.Replace(b, []byte(`"type":"start"`), []byte(`"type":"stop" `), 1) })
	appendAll(audit.Options{AcceptBreak: true}, audit.Record{Type: audit.TypeStart})

	var out bytes.Buffer
	if err := auditVerify(&out, dir, audit.VerifyOptions{}, nil, false); err != nil {
		t.Fatalf("auditVerify: %v\n%s", err, out.String())
	}
	want := "audit: ok (6 records in 1 file)\n" +
		"recovered torn lines (each described by the recovery record after it):\n" +
		"  000001.jsonl:3 (NN bytes)\n" +
		"accepted breaks:\n" +
		"  000001.jsonl:6 accepts the failure at 000001.jsonl:2 (prev is not the hash of 000001.jsonl:1); it covers 000001.jsonl:2 to 000001.jsonl:6:\n" +
		"    000001.jsonl:2: prev is not the hash of 000001.jsonl:1\n" +
		"running or unfinished calls (allowed to run, no result recorded):\n" +
		"  000001.jsonl:2: call c1 (read_file /src/a) in session -\n"
	got := regexp.MustCompile(`\(\d+ bytes\)`).ReplaceAllString(out.String(), "(NN bytes)")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}

	// Damage after the break: each failure on its own line, and the error.
	testsupport.EditFile(t, file, func(b []byte) []byte { // a space after the last record's closing brace
		return append(b[:len(b)-1:len(b)-1], ' ', '\n')
	})
	out.Reset()
	err := auditVerify(&out, dir, audit.VerifyOptions{}, nil, false)
	if e, _ := runbook.EntryOf(err); e != runbook.AuditChainBroken || err.Error() != "audit: the chain fails at 1 line; "+runbook.Link(runbook.AuditChainBroken) {
		t.Fatalf("auditVerify = %v, want audit-chain-broken", err)
	}
	if !regexp.MustCompile(`(?m)^000001\.jsonl:7: not a record: byte \d+: text after the end of the object$`).MatchString(out.String()) {
		t.Errorf("the finding is not printed as <file>:<line>: <what>:\n%s", out.String())
	}
}

// Progress appears only once the check has taken a second, not more than
// ten times a second, and its line is wiped when the check ends.
func TestVerifyProgressOnATerminal(t *testing.T) {
	var out bytes.Buffer
	clock := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	p := progress(&out, func() time.Time { return clock })
	p(0, 4e9)
	clock = clock.Add(900 * time.Millisecond)
	p(1e9, 4e9)
	if out.Len() != 0 {
		t.Fatalf("progress within the first second: %q", out.String())
	}
	clock = clock.Add(200 * time.Millisecond)
	p(2e9, 4e9)
	clock = clock.Add(50 * time.Millisecond)
	p(2.5e9, 4e9)
	clock = clock.Add(100 * time.Millisecond)
	p(3e9, 4e9)
	p(4e9, 4e9)
	want := "\raudit: verifying: 2000.0 of 4000.0 MB (50%) \raudit: verifying: 3000.0 of 4000.0 MB (75%) \r\x1b[K"
	if out.String() != want {
		t.Errorf("got %q\nwant %q", out.String(), want)
	}
	// A check that ends within a second shows nothing at all.
	out.Reset()
	p = progress(&out, func() time.Time { return clock })
	p(0, 10)
	p(10, 10)
	if out.Len() != 0 {
		t.Errorf("a short check showed %q", out.String())
	}
}
