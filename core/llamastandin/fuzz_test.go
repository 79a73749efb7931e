package llamastandin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"", "<|im_end|>", "&lt;think&gt;", "a<tool_call>b</tool_call>", "<|im_start", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, special := range []bool{true, false} {
			ids := Tokenize(s, special)
			if got := Detokenize(ids); got != s {
				t.Fatalf("special=%v: %q detokenizes to %q", special, s, got)
			}
			if !special && containsTag(ids) {
				t.Fatalf("plain text %q gave a tag id: %v", s, ids)
			}
		}
	})
}

// A turn's generation, parsed back, is the turn: what the server returns
// is what the script said.
func FuzzParseReplyRoundTrip(f *testing.F) {
	f.Add("Looking.", "why", "read_file", `{"path":"/a"}`, true)
	f.Add("", "", "x", `{}`, false)
	f.Fuzz(func(t *testing.T, content, reasoning, name, args string, thinking bool) {
		turn := Turn{Content: content, Reasoning: reasoning}
		if name != "" && json.Valid([]byte(args)) {
			var obj map[string]any
			if json.Unmarshal([]byte(args), &obj) == nil {
				turn.ToolCalls = []ToolCall{{Name: name, Arguments: json.RawMessage(args)}}
			}
		}
		raw, err := turn.raw(thinking)
		if err != nil {
			return
		}
		p := parseReply(raw, thinking, true)
		_ = parseReply(raw, thinking, false)
		if !thinking || containsAny(reasoning+content+name+args, "</think>", "<tool_call>", "</tool_call>") {
			return // text that spells the markup is parsed as markup, as a real parser would
		}
		if p.Reasoning != reasoning {
			t.Fatalf("reasoning %q, want %q", p.Reasoning, reasoning)
		}
		if len(turn.ToolCalls) == 0 && p.Content != content {
			t.Fatalf("content %q, want %q", p.Content, content)
		}
	})
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func containsTag(ids []int) bool {
	for _, id := range ids {
		if id >= qwen35Base {
			return true
		}
	}
	return false
}

func FuzzLoadScript(f *testing.F) {
	f.Add([]byte(`{"turns":[{"content":"hi"},{"when":"x","tool_calls":[{"name":"a","arguments":{"k":1}}]}]}`))
	f.Add([]byte(`{"turns":[{"tool_calls":[{"name":"a","arguments":[1]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "s.json")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := LoadScript(p)
		if err != nil {
			return
		}
		for _, turn := range s.Turns {
			if _, err := turn.raw(true); err != nil {
				t.Fatalf("a script that loaded has a turn that cannot be generated: %v", err)
			}
		}
	})
}
