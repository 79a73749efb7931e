package broker

import (
	"encoding/json"
	"testing"
)

// The state and domain files are parsers of files brokerd wrote, or an
// operator edited: whatever they hold, reading them never panics, and
// what one yields is written back to what reads the same.
func FuzzStateAndDomainFiles(f *testing.F) {
	f.Add([]byte(`{"taint":"private","untrusted":false,"audit_from":2}`))
	f.Add([]byte(`{"taint":"secret","untrusted":true,"domain":"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}`))
	f.Add([]byte(`{"taint":"public","untrusted":false,"run":"r-1"}`))
	f.Add([]byte(`{"taint":"public","untrusted":false} {}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if sf, err := parseStateFile(data); err == nil {
			out, _ := json.Marshal(struct {
				Taint     string `json:"taint"`
				Untrusted bool   `json:"untrusted"`
				AuditFrom int    `json:"audit_from,omitempty"`
				Domain    string `json:"domain,omitempty"`
			}{sf.Taint.String(), sf.Untrusted, sf.AuditFrom, sf.Domain})
			if again, err := parseStateFile(out); err != nil || again != sf {
				t.Fatalf("%s read as %+v, written as %s, read again as %+v (%v)", data, sf, out, again, err)
			}
		}
		if d, err := parseDomainFile(data); err == nil {
			out, _ := json.Marshal(struct {
				Taint     string `json:"taint"`
				Untrusted bool   `json:"untrusted"`
				Run       string `json:"run,omitempty"`
			}{d.Taint.String(), d.Untrusted, d.Run})
			if again, err := parseDomainFile(out); err != nil || again != d {
				t.Fatalf("%s read as %+v, written as %s, read again as %+v (%v)", data, d, out, again, err)
			}
		}
	})
}
