// Package schema compiles the JSON Schemas of yaag programs (input,
// output and an Ask's outputSchema, as TypeBox writes them) and validates
// JSON against them, with github.com/santhosh-tekuri/jsonschema/v6 and
// draft 2019-09 for a schema that names no $schema: the one draft under
// which every JSON-representable TypeBox schema compiles (Tuple's
// items-array form and Cyclic's $defs both). Formats are annotations, as
// the draft says, and not asserted.
//
// A schema TypeBox can express but JSON cannot (Date, Uint8Array, BigInt,
// Undefined, Function, Symbol, Void, Constructor: "type" values JSON
// Schema does not have) is
// refused by name, before the metaschema is asked.
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schema is a compiled schema and the JSON it was compiled from.
type Schema struct {
	JSON   json.RawMessage
	schema *jsonschema.Schema
}

// nonJSON are the "type" values TypeBox writes for values JSON cannot hold.
var nonJSON = map[string]string{
	"undefined":   "Undefined",
	"bigint":      "BigInt",
	"Date":        "Date",
	"date":        "Date",
	"Uint8Array":  "Uint8Array",
	"uint8array":  "Uint8Array",
	"function":    "Function",
	"symbol":      "Symbol",
	"void":        "Void",
	"constructor": "Constructor",
}

// Compile compiles raw, a JSON Schema document. what names it in errors
// ("the outputSchema of ask A1/2").
func Compile(what string, raw json.RawMessage) (*Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s is not JSON: %v", what, err)
	}
	if path, name, ok := findNonJSON(doc, ""); ok {
		return nil, fmt.Errorf("%s uses %s at %s, which JSON cannot represent; use a JSON type (a string for a date, an array of integers for bytes)",
			what, name, orRoot(path))
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2019)
	c.UseLoader(refuseLoader{})
	const url = "mem://yaag/schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("%s: %v", what, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("%s is not a valid JSON Schema (draft 2019-09): %v", what, err)
	}
	return &Schema{JSON: raw, schema: s}, nil
}

func orRoot(p string) string {
	if p == "" {
		return "the top"
	}
	return p
}

// findNonJSON looks for a "type" (a string or in an array) JSON Schema
// does not have, anywhere in the document.
func findNonJSON(v any, path string) (string, string, bool) {
	switch v := v.(type) {
	case map[string]any:
		switch t := v["type"].(type) {
		case string:
			if n, ok := nonJSON[t]; ok {
				return path, n, true
			}
		case []any:
			for _, e := range t {
				if s, ok := e.(string); ok {
					if n, ok := nonJSON[s]; ok {
						return path, n, true
					}
				}
			}
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k == "const" || k == "default" || k == "examples" || k == "enum" {
				continue
			}
			if p, n, ok := findNonJSON(v[k], path+"/"+k); ok {
				return p, n, true
			}
		}
	case []any:
		for i, e := range v {
			if p, n, ok := findNonJSON(e, fmt.Sprintf("%s/%d", path, i)); ok {
				return p, n, true
			}
		}
	}
	return "", "", false
}

// refuseLoader loads nothing: a schema's $ref reaches only the schema
// itself (its $id and $defs), never a file or the network.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("a schema may refer only to itself, not to %s", url)
}

// Validate checks data, a JSON text, against s. The error lists each
// failure as "<instance pointer>: <reason>", which is what the model is
// told on a retry.
func (s *Schema) Validate(data []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	err = s.schema.Validate(v)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return err
	}
	var lines []string
	collect(ve.BasicOutput(), &lines)
	if len(lines) == 0 {
		return err
	}
	return fmt.Errorf("%s", strings.Join(lines, "; "))
}

func collect(u *jsonschema.OutputUnit, lines *[]string) {
	if u == nil {
		return
	}
	if u.Error != nil && len(u.Errors) == 0 {
		loc := u.InstanceLocation
		if loc == "" {
			loc = "/"
		}
		*lines = append(*lines, loc+": "+u.Error.String())
	}
	for i := range u.Errors {
		collect(&u.Errors[i], lines)
	}
}
