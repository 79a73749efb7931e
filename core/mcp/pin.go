package mcp

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"boxmaker/core/mcppin"
	"boxmaker/sanitize"
)

// Tool is one tool of a server's list as Boxmaker keeps it: what the
// model or the owner could be shown of it, in canonical JSON, and its
// hash. The server's _meta and icons are left out: they are never passed
// on.
type Tool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema"`
	// OutputSchema and Annotations are absent when the server gave none.
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	// Hash is "sha256:<hex>" of the tool's canonical JSON (the fields
	// above, keys sorted, no insignificant space, no HTML escaping).
	Hash string `json:"-"`
}

// ToolList is a server's tools, sorted by name, and the pin of the whole
// list: Hash is "sha256:<hex>" of the canonical JSON array of the tools.
// A tool added, removed or renamed, or any change to a name, title,
// description, schema or annotation, changes it; the order in which the
// server listed the tools does not.
type ToolList struct {
	Tools []Tool
	Hash  string
}

// Pin makes the ToolList of tools as a server listed them. Two tools of
// one name are an error: which of them a call would reach is not known.
func Pin(tools []*sdk.Tool) (ToolList, error) {
	out := make([]Tool, 0, len(tools))
	for _, t := range tools {
		if t == nil {
			return ToolList{}, fmt.Errorf("the server listed an empty tool")
		}
		ct := Tool{Name: t.Name, Title: t.Title, Description: t.Description}
		var err error
		if ct.InputSchema, err = canonical(t.InputSchema); err != nil {
			return ToolList{}, fmt.Errorf("tool %q: input schema: %w", t.Name, err)
		}
		if t.OutputSchema != nil {
			if ct.OutputSchema, err = canonical(t.OutputSchema); err != nil {
				return ToolList{}, fmt.Errorf("tool %q: output schema: %w", t.Name, err)
			}
		}
		if t.Annotations != nil {
			if ct.Annotations, err = canonical(t.Annotations); err != nil {
				return ToolList{}, fmt.Errorf("tool %q: annotations: %w", t.Name, err)
			}
		}
		b, err := marshal(ct)
		if err != nil {
			return ToolList{}, err
		}
		ct.Hash = digest(b)
		out = append(out, ct)
	}
	slices.SortFunc(out, func(a, b Tool) int { return strings.Compare(a.Name, b.Name) })
	for i := 1; i < len(out); i++ {
		if out[i].Name == out[i-1].Name {
			return ToolList{}, fmt.Errorf("the server lists two tools named %q", out[i].Name)
		}
	}
	b, err := marshal(out)
	if err != nil {
		return ToolList{}, err
	}
	return ToolList{Tools: out, Hash: digest(b)}, nil
}

// canonical is v as JSON with object keys sorted and numbers as written.
func canonical(v any) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	return marshal(tree)
}

// marshal is encoding/json's form (map keys sorted) without HTML escaping
// and without the trailing newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Hashes are the list's pin and each tool's hash by name, as core/mcppin
// judges them.
func (l ToolList) Hashes() (list string, tools map[string]string) {
	tools = make(map[string]string, len(l.Tools))
	for _, t := range l.Tools {
		tools[t.Name] = t.Hash
	}
	return l.Hash, tools
}

// Listed is the list as core/mcppin judges and accepts it: the pin, each
// tool's hash, and each tool's definition as the model is offered it.
func (l ToolList) Listed() mcppin.Listed {
	list, tools := l.Hashes()
	defs := make([]mcppin.Def, len(l.Tools))
	for i, t := range l.Tools {
		defs[i] = mcppin.Def{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: t.InputSchema}
	}
	return mcppin.Listed{Hash: list, Tools: tools, Defs: defs}
}

// Flags are the sanitizer's rules that fire on what the model would read
// of the tool: its title, its description, and every string of its input
// schema (parameters carry descriptions of their own, where instructions
// hide as well as in the tool's). Both kinds of rule count: the flag
// rules (instructions, exfiltration), and the refuse rules, which here
// flag too (invisible and direction-changing characters, chat-template
// tags, what looks like a secret), since a description is not written
// anywhere to be refused. The owner is shown a flagged tool as such
// before accepting it.
func (t Tool) Flags() []sanitize.Finding {
	texts := []string{t.Title, t.Description}
	var tree any
	dec := json.NewDecoder(bytes.NewReader(t.InputSchema))
	dec.UseNumber()
	if dec.Decode(&tree) == nil {
		texts = appendStrings(texts, tree)
	}
	seen := map[string]bool{}
	var out []sanitize.Finding
	for _, text := range texts {
		for _, f := range append(sanitize.Refusals(text), sanitize.Flags(text)...) {
			if !seen[f.Rule] {
				seen[f.Rule] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// appendStrings appends every string in v, keys and values, depth first
// in key order.
func appendStrings(out []string, v any) []string {
	switch v := v.(type) {
	case string:
		return append(out, v)
	case []any:
		for _, e := range v {
			out = appendStrings(out, e)
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			out = appendStrings(append(out, k), v[k])
		}
	}
	return out
}

// Visible is s with every format character (zero-width, direction
// changes, Unicode tags: text a reader cannot see but the model reads)
// written as its escape, \u200b or \U000e0041, so the owner sees all a
// description holds. Control characters are left to core/termsafe.
func Visible(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r > 0xffff && unicode.Is(unicode.Cf, r):
			fmt.Fprintf(&b, "\\U%08x", r)
		case unicode.Is(unicode.Cf, r):
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
