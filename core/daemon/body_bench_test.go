package daemon

import (
	"encoding/json"
	"strings"
	"testing"
)

// benchLines are request lines as loopd sends them: a read_file, and a
// write_file of 8 MiB, the largest content a call may carry.
func benchLines() map[string][]byte {
	lines := map[string][]byte{}
	for name, args := range map[string]map[string]string{
		"read_file":       {"path": "/home/owner/src/notes.md"},
		"write_file_8MiB": {"path": "/home/owner/big.txt", "content": strings.Repeat("line of text\n", 8<<20/13)},
	} {
		raw, _ := json.Marshal(args)
		body, _ := json.Marshal(map[string]any{"session": "20261201-101500-1a2b3c4d", "call_id": "k2Qx", "tool": name, "arguments": json.RawMessage(raw)})
		lines[name], _ = json.Marshal(Request{Kind: "tool.call", Body: body})
	}
	return lines
}

type benchCall struct {
	Session   string          `json:"session"`
	CallID    string          `json:"call_id"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

// BenchmarkReadRequest reads a tool call's request line and then its
// body, as brokerd does: with DecodeBody, and (the anchor) with
// json.Unmarshal, as the framing and brokerd read them before.
func BenchmarkReadRequest(b *testing.B) {
	for name, line := range benchLines() {
		for _, read := range []struct {
			how  string
			read func([]byte, any) error
		}{
			{"Unmarshal", func(data []byte, v any) error { return json.Unmarshal(data, v) }},
			{"DecodeBody", func(data []byte, v any) error { return DecodeBody(data, v) }},
		} {
			b.Run("call="+name+"/read="+read.how, func(b *testing.B) {
				b.SetBytes(int64(len(line)))
				b.ReportAllocs()
				for b.Loop() {
					var req Request
					var c benchCall
					if read.read(line, &req) != nil || read.read(req.Body, &c) != nil {
						b.Fatal("not read")
					}
				}
			})
		}
	}
}
