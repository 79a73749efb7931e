package approval

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"boxmaker/core/jsonkeys"
	"boxmaker/core/policy"
)

// fieldNames are the keys Arguments and Action read.
var fieldNames = []string{"path", "content", "command", "paths", "url", "actions", "query", "limit", "action", "file", "text", "old",
	"script", "dir", "input", "profile", "forkHost"}

// CheckKeys refuses arguments whose meaning depends on how they are read:
// a key that appears twice in one object, or a key that is one of the
// field names in another case ("PATH", "pathſ"). encoding/json takes the
// last of two keys and matches field names without regard to case, so
// {"path":"/a","PATH":"/b"} would be shown to the owner as one path and
// run on the other; brokerd denies such a call instead. The walk is
// jsonkeys', the one every daemon's request bodies are read with.
func CheckKeys(raw []byte) error {
	if !json.Valid(raw) {
		return errors.New("the arguments are not JSON")
	}
	return jsonkeys.CheckNames(raw, fieldNames)
}

// otherKeys are the top-level keys of raw that tool does not read, in
// order, each with its value as compact JSON.
func otherKeys(tool string, raw []byte) [][2]string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	read := map[string]bool{}
	for _, k := range toolFields[policy.Tool(tool)] {
		read[k] = true
	}
	var out [][2]string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return out
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			if err != io.EOF {
				out = append(out, [2]string{k.(string), "(not JSON)"})
			}
			return out
		}
		if key := k.(string); !read[key] {
			out = append(out, [2]string{key, Compact(v)})
		}
	}
	return out
}

// toolFields are the keys each tool reads.
var toolFields = map[policy.Tool][]string{
	policy.ReadFile:   {"path"},
	policy.ListDir:    {"path"},
	policy.WriteFile:  {"path", "content"},
	policy.Run:        {"command", "paths"},
	policy.HTTPFetch:  {"url"},
	policy.Memory:     {"actions"},
	policy.Recall:     {"query", "limit"},
	policy.YaagRun:    {"file", "script", "dir", "input", "profile", "forkHost"},
	policy.YaagStatus: {"id"},
	policy.YaagStop:   {"id"},
	policy.YaagPause:  {"id"},
	// It reads dir alone.
	policy.YaagSetupWorkspace: {"dir"},
}
