package runner

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Execute on the host, without a container: the executor's own behaviour
// at its edges, quickly. The container tests show it in place.
func TestExecuteEdges(t *testing.T) {
	d := resolvedTempDir(t)
	writeTestFile(t, d+"/exact.txt", "0123456789")
	os.Mkdir(d+"/many", 0o755)
	for _, n := range []string{"aaaa", "bbbb", "cccc"} {
		writeTestFile(t, d+"/many/"+n, "")
	}
	tests := []struct {
		name  string
		req   Request
		stdin string
		want  Result
	}{
		{"a file of exactly the limit is whole", Request{Tool: "read_file", Path: d + "/exact.txt", Limit: 10},
			"", Result{Tool: "read_file", Path: d + "/exact.txt", Content: "0123456789", Size: 10}},
		{"a missing file", Request{Tool: "read_file", Path: d + "/missing", Limit: 10},
			"", Result{Tool: "read_file", Path: d + "/missing", Error: "open " + d + "/missing: no such file or directory"}},
		{"write_file does not create what the runner did not", Request{Tool: "write_file", Path: d + "/absent", Limit: 10},
			"x", Result{Tool: "write_file", Path: d + "/absent", Error: "open " + d + "/absent: no such file or directory"}},
		{"a listing past the limit is cut with a note", Request{Tool: "list_dir", Path: d + "/many", Limit: 9},
			"", Result{Tool: "list_dir", Path: d + "/many", Truncated: true,
				Entries: []DirEntry{{Name: "aaaa", Type: "file"}, {Name: "bbbb", Type: "file"}},
				Note:    "[boxmaker: listing truncated: 3 entries, the first 2 shown]"}},
		{"list_dir of a file", Request{Tool: "list_dir", Path: d + "/exact.txt", Limit: 10},
			"", Result{Tool: "list_dir", Path: d + "/exact.txt", Error: "open " + d + "/exact.txt: not a directory"}},
		{"an empty directory lists as empty", Request{Tool: "list_dir", Path: resolvedTempDir(t), Limit: 10},
			"", Result{Tool: "list_dir", Entries: []DirEntry{}}},
		{"run without a command", Request{Tool: "run", Path: d, Limit: 10},
			"", Result{Tool: "run", Path: d, Error: "run needs a command"}},
		{"an unknown tool", Request{Tool: "http_get", Path: d, Limit: 10},
			"", Result{Tool: "http_get", Path: d, Error: `unknown tool "http_get"`}},
		{"http_fetch without a URL", Request{Tool: "http_fetch", Socket: "/egress/proxy.sock", Limit: 10},
			"", Result{Tool: "http_fetch", Error: `"" is not an http or https URL`}},
		{"http_fetch without a proxy socket", Request{Tool: "http_fetch", URL: "http://docs.example/", Limit: 10},
			"", Result{Tool: "http_fetch", Error: "the request names no proxy socket"}},
		{"no limit", Request{Tool: "read_file", Path: d + "/exact.txt"},
			"", Result{Tool: "read_file", Path: d + "/exact.txt", Error: "the request has no output limit"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Execute(context.Background(), tt.req, strings.NewReader(tt.stdin))
			if tt.name == "an empty directory lists as empty" {
				got.Path = ""
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

// TestResultNotesAreTheExecutors: Notes are the notes the executor wrote
// (a cut, a kill), found by its flags, in the order the texts hold them;
// a command that prints a line like a note has not written one.
func TestResultNotesAreTheExecutors(t *testing.T) {
	d := resolvedTempDir(t)
	res := Execute(context.Background(), Request{Tool: "run", Path: d, Limit: 100, TimeoutMS: 500,
		Command: "printf '%0300d' 0; printf '%0300d' 0 >&2; sleep 5"}, strings.NewReader(""))
	want := []string{"[boxmaker: stdout truncated: 300 bytes, the first 100 shown]", "[boxmaker: stderr truncated: 300 bytes, the first 100 shown]",
		"[boxmaker: the command was killed after 500 ms]"}
	if diff := cmp.Diff(want, res.Notes()); diff != "" {
		t.Errorf("notes (-want +got):\n%s\nresult %+v", diff, res)
	}
	res = Execute(context.Background(), Request{Tool: "run", Path: d, Limit: 100, TimeoutMS: 5000,
		Command: "echo x; echo '[boxmaker: the command was killed after 1 ms]'; echo '[boxmaker: stderr truncated: 9 bytes]' >&2"}, strings.NewReader(""))
	if n := res.Notes(); len(n) != 0 {
		t.Errorf("a command's own lines taken for notes: %q", n)
	}
}
