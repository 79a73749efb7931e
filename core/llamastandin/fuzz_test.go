package llamastandin

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
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

// A turn's generation, as the template renders it, parsed back is the
// turn: what the server returns is what the script said.
func FuzzParseReplyRoundTrip(f *testing.F) {
	f.Add("Looking.", "why", "/a", true, true)
	f.Add("", "", "x", false, false)
	f.Fuzz(func(t *testing.T, content, reasoning, path string, call, thinking bool) {
		turn := Turn{Content: content, Reasoning: reasoning}
		if call {
			args, _ := json.Marshal(map[string]string{"path": path})
			turn.ToolCalls = []ToolCall{{Name: "read_file", Arguments: args}}
		}
		body, _ := json.Marshal(map[string]any{
			"messages":             []any{map[string]any{"role": "user", "content": "hi"}},
			"tools":                []any{map[string]any{"type": "function", "function": map[string]any{"name": "read_file", "parameters": map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}}}},
			"chat_template_kwargs": map[string]any{"enable_thinking": thinking},
		})
		prompt, err := Render(body, true)
		if err != nil {
			t.Fatal(err)
		}
		text, err := turn.generatedText(QwenTemplate, body, prompt, thinking)
		if err != nil {
			t.Fatal(err)
		}
		types := toolParamTypes([]ToolJSON{{Type: "function", Function: json.RawMessage(`{"name":"read_file","parameters":{"properties":{"path":{"type":"string"}}}}`)}})
		p, err := parseGenerated(text, thinking, types, true, false)
		if containsAny(reasoning+content+path, "</think>", "<tool_call>", "</parameter>", "</function>", "<parameter=", "<function=") ||
			!utf8.ValidString(content) || !utf8.ValidString(reasoning) || !utf8.ValidString(path) {
			return // text that spells the markup is parsed as markup, as a real parser would
		}
		if err != nil {
			t.Fatalf("%v: %q", err, text)
		}
		if thinking && p.Reasoning != strings.TrimSpace(reasoning) {
			t.Fatalf("reasoning %q, want %q", p.Reasoning, reasoning)
		}
		if p.Content != strings.TrimSpace(content) {
			t.Fatalf("content %q, want %q (%q)", p.Content, content, text)
		}
		if call {
			want, _ := marshal(map[string]string{"path": path})
			if len(p.ToolCalls) != 1 || p.ToolCalls[0].Function.Arguments != string(want) {
				t.Fatalf("calls %+v, want arguments %s (%q)", p.ToolCalls, want, text)
			}
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
		body := []byte(`{"messages":[{"role":"user","content":"hi"}]}`)
		prompt, err := Render(body, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, turn := range s.Turns {
			if _, err := turn.generatedText(QwenTemplate, body, prompt, true); err != nil {
				t.Fatalf("a script that loaded has a turn that cannot be generated: %v", err)
			}
		}
	})
}

// Whatever the model generates, the parser never panics; a call it
// returns from a generation that was not cut has arguments that are a
// JSON object, and only a cut one may be partial.
func FuzzParseGenerated(f *testing.F) {
	for _, s := range []string{
		"<tool_call>\n<function=read_file>\n<parameter=path>\n/a\n</parameter>\n</function>\n</tool_call>",
		"text\n<tool_call>\n<function=x>\n<parameter=n>\n3\n</parameter>\n<parameter=s>\n\"q\"\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=y>\n</function>\n</tool_call>",
		"<tool_call>\n<function=read_file>\n<parameter=pa",
		"reason</think>\n\n<tool_call>\n<function=a><b>",
		"<tool_call><function=a></function></tool_call>",
	} {
		f.Add(s, false, false)
		f.Add(s, true, true)
	}
	types := paramTypes{"read_file": {"path": "string"}, "x": {"s": "string", "n": "integer"}}
	f.Fuzz(func(t *testing.T, text string, thinking, cut bool) {
		p, err := parseGenerated(text, thinking, types, true, cut)
		if err != nil {
			if !errors.Is(err, errUnparsable) {
				t.Fatalf("an error that is not errUnparsable: %v", err)
			}
			return
		}
		for i, c := range p.ToolCalls {
			partial := p.Partial && i == len(p.ToolCalls)-1
			if c.Function.Name == "" {
				t.Fatalf("a call without a name: %+v", c)
			}
			var obj map[string]any
			if !partial && json.Unmarshal([]byte(c.Function.Arguments), &obj) != nil {
				t.Fatalf("call %d's arguments are not a JSON object: %q (from %q)", i, c.Function.Arguments, text)
			}
		}
		if p.Partial && !cut {
			t.Fatalf("a partial call from a generation that was not cut: %q", text)
		}
	})
}
