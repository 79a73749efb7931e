// Package conf reads Boxmaker's TOML configuration files strictly and holds
// the shape of every role's file, with the commented development default
// that `boxmaker init` writes.
//
// Strict means: an unknown key, a key spelt in another case, a value of
// the wrong type, and a key missing from a table whose field is tagged
// `required:"true"` are errors that name the file, the line and the key. A
// missing file (MissingError) is told apart from an invalid one
// (InvalidError), because the fixes differ.
package conf

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// MissingError says the configuration file does not exist.
type MissingError struct{ Path string }

func (e *MissingError) Error() string { return e.Path + ": no such file" }

// InvalidError says the file exists but cannot be used. Problems are in
// file order, each "line N: ...".
type InvalidError struct {
	Path     string
	Problems []Problem
}

// Problem is one finding in a configuration file.
type Problem struct {
	Line int // 0 when the problem has no line (a read error)
	Key  string
	Text string
}

func (e *InvalidError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("\n")
		}
		if p.Line > 0 {
			fmt.Fprintf(&b, "%s:%d: %s", e.Path, p.Line, p.Text)
		} else {
			fmt.Fprintf(&b, "%s: %s", e.Path, p.Text)
		}
	}
	return b.String()
}

// Load reads the TOML file at path into v (a pointer to a struct) strictly.
func Load(path string, v any) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &MissingError{Path: path}
	}
	if err != nil {
		return &InvalidError{Path: path, Problems: []Problem{{Text: err.Error()}}}
	}
	return Decode(path, data, v)
}

// Decode parses data (the contents of the file named path) into v strictly.
func Decode(path string, data []byte, v any) error {
	// Keys in another case and unknown keys are all reported, in line
	// order: one does not hide the others.
	problems := exactKeys(data, reflect.TypeOf(v))
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if c, ok := v.(valueChecker); ok {
			problems = append(problems, c.checkValues(data)...)
			sort.SliceStable(problems, func(i, j int) bool { return problems[i].Line < problems[j].Line })
		}
		if len(problems) > 0 {
			return &InvalidError{Path: path, Problems: problems}
		}
		return nil
	}

	var strict *toml.StrictMissingError
	var de *toml.DecodeError
	switch {
	case errors.As(err, &strict):
		for _, e := range strict.Errors {
			row, _ := e.Position()
			key := strings.Join(e.Key(), ".")
			problems = append(problems, Problem{Line: row, Key: key, Text: fmt.Sprintf("unknown key %s", key)})
		}
	case errors.As(err, &de):
		row, _ := de.Position()
		key := strings.Join(de.Key(), ".")
		text := de.Error()
		if want, got, ok := wrongType(text); ok {
			text = fmt.Sprintf("%s is needed, not %s", want, got)
		}
		if key != "" {
			text = fmt.Sprintf("%s: %s", tableKey(de.Key()), text)
		}
		problems = append(problems, Problem{Line: row, Key: key, Text: text})
	default:
		line, key := typeErrorPosition(data, err)
		text := err.Error()
		if want, got, ok := wrongType(text); ok && key != "" {
			text = fmt.Sprintf("%s: %s is needed, not %s", key, want, got)
		}
		problems = append(problems, Problem{Line: line, Key: key, Text: text})
	}
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].Line < problems[j].Line })
	return &InvalidError{Path: path, Problems: problems}
}

// valueChecker is a configuration with values decoding cannot judge
// that are checked at decoding all the same, so that the problem names
// its line (a range that depends on the host, say): Decode calls
// checkValues with the file's bytes after a decode without error.
type valueChecker interface {
	checkValues(data []byte) []Problem
}

var wrongTypeRE = regexp.MustCompile(`cannot decode TOML ([a-z ]+?) into (?:struct field .* of type |a |an )?(\S+)$`)

// wrongType reads go-toml's "cannot decode TOML string into struct field
// conf.Runner.TimeoutMS of type int" as what the operator must write ("an
// integer") and what they wrote ("a string").
func wrongType(text string) (want, got string, ok bool) {
	m := wrongTypeRE.FindStringSubmatch(text)
	if m == nil {
		return "", "", false
	}
	got = article(strings.ReplaceAll(m[1], " ", "-"))
	goType := strings.TrimPrefix(m[2], "*")
	switch {
	case strings.HasPrefix(goType, "[]"), goType == "slice":
		want = "a list"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"):
		want = "an integer"
	case strings.HasPrefix(goType, "float"):
		want = "a number"
	case goType == "string":
		want = "a string"
	case goType == "bool":
		want = "true or false"
	case strings.HasPrefix(goType, "map"), strings.Contains(goType, "."), goType == "struct":
		want = "a table"
	default:
		return "", "", false
	}
	return want, got, true
}

// article names a TOML kind as a phrase: "an integer", "a string".
func article(kind string) string {
	switch kind {
	case "integer", "array", "inline-table":
		return "an " + strings.ReplaceAll(kind, "-", " ")
	case "bool", "boolean":
		return "true or false"
	}
	return "a " + strings.ReplaceAll(kind, "-", " ")
}

// tableKey writes a dotted key as the file shows it: "[runner] timeout_ms",
// or the key alone at the top level.
func tableKey(key []string) string {
	if len(key) < 2 {
		return strings.Join(key, ".")
	}
	return "[" + strings.Join(key[:len(key)-1], ".") + "] " + key[len(key)-1]
}

var fieldInErrorRE = regexp.MustCompile(`struct field \S+\.(\S+) of type`)

// typeErrorPosition finds the line of a value of the wrong type: go-toml
// reports such errors without a position, but names the Go field.
func typeErrorPosition(data []byte, err error) (int, string) {
	m := fieldInErrorRE.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, ""
	}
	return keyLine(data, strings.ToLower(m[1]))
}

// keyLine finds the first line that assigns key (compared without case).
func keyLine(data []byte, key string) (int, string) {
	for i, l := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(l)
		k, _, ok := strings.Cut(t, "=")
		if ok && strings.EqualFold(strings.Trim(strings.TrimSpace(k), `"'`), key) {
			return i + 1, strings.TrimSpace(k)
		}
	}
	return 0, key
}

// tableKeyLine finds the line that assigns key in table: `key = ` below
// the header `[table]`, or `table.key = ` at the top level. It is the
// table's header line when no line does (an inline table), and 0 when
// there is no header either.
func tableKeyLine(data []byte, table, key string) int {
	current := ""
	for i, l := range strings.Split(string(data), "\n") {
		t, _, _ := strings.Cut(strings.TrimSpace(l), "#")
		if strings.HasPrefix(t, "[") {
			current = strings.Trim(strings.ReplaceAll(strings.TrimSpace(t), " ", ""), "[]")
			continue
		}
		k, _, ok := strings.Cut(t, "=")
		if !ok {
			continue
		}
		k = strings.NewReplacer(" ", "", "\t", "", `"`, "", "'", "").Replace(k)
		if current != "" {
			k = current + "." + k
		}
		if k == table+"."+key {
			return i + 1
		}
	}
	return tableLine(data, table, 0)
}

// exactKeyLine finds the first line that assigns key spelt exactly so:
// "Effect" is not the line of "effect".
func exactKeyLine(data []byte, key string) int {
	for i, l := range strings.Split(string(data), "\n") {
		k, _, ok := strings.Cut(strings.TrimSpace(l), "=")
		if ok && strings.Trim(strings.TrimSpace(k), `"'`) == key {
			return i + 1
		}
	}
	line, _ := keyLine(data, key)
	return line
}

// exactKeys reports keys that go-toml would match to a field only because it
// compares names without case: a config key is spelt as documented or not
// at all. It parses the document generically and walks it beside the type.
func exactKeys(data []byte, t reflect.Type) []Problem {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil // the strict decode reports syntax errors with positions
	}
	var problems []Problem
	walkKeys(data, doc, t, "", 0, &problems)
	sort.Slice(problems, func(i, j int) bool { return problems[i].Line < problems[j].Line })
	return problems
}

// walkKeys checks node, the table prefix names (nth: which of an array of
// tables, from 1; 0 for a plain table), against t.
func walkKeys(data []byte, node map[string]any, t reflect.Type, prefix string, nth int, problems *[]Problem) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Map && t.Key().Kind() == reflect.String {
		// A table of named tables, such as [secrets.<name>]: each is
		// walked as the map's element type.
		for key, val := range node {
			if m, ok := val.(map[string]any); ok {
				walkKeys(data, m, t.Elem(), prefix+key+".", 0, problems)
			}
		}
		return
	}
	if t.Kind() != reflect.Struct {
		return
	}
	fields := map[string]reflect.Type{}
	lower := map[string]string{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
		lower[strings.ToLower(name)] = name
		if _, ok := node[name]; !ok && f.Tag.Get("required") == "true" && prefix != "" {
			table := strings.TrimSuffix(prefix, ".")
			*problems = append(*problems, Problem{Line: tableLine(data, table, nth), Key: prefix + name,
				Text: fmt.Sprintf("missing key %s%s", prefix, name)})
		}
	}
	for key, val := range node {
		ft, ok := fields[key]
		if !ok {
			if want, near := lower[strings.ToLower(key)]; near {
				line := exactKeyLine(data, key)
				*problems = append(*problems, Problem{Line: line, Key: prefix + key,
					Text: fmt.Sprintf("unknown key %s%s (keys are lower case: %s)", prefix, key, want)})
			}
			continue // truly unknown keys are reported by the strict decoder with their position
		}
		switch v := val.(type) {
		case map[string]any:
			walkKeys(data, v, ft, prefix+key+".", 0, problems)
		case []any:
			et := ft
			if et.Kind() == reflect.Slice {
				et = et.Elem()
			}
			for i, item := range v {
				if m, ok := item.(map[string]any); ok {
					walkKeys(data, m, et, prefix+key+".", i+1, problems)
				}
			}
		}
	}
}

// tableLine finds the line of the header of table (dotted, such as
// "honcho" or "honcho.read"): `[table]`, or for nth > 0 the nth
// `[[table]]`. It is 0 for a table that has no header of its own (made by
// a dotted key or by a sub-table).
func tableLine(data []byte, table string, nth int) int {
	want, seen := "["+table+"]", 0
	if nth > 0 {
		want = "[[" + table + "]]"
	}
	for i, l := range strings.Split(string(data), "\n") {
		l, _, _ = strings.Cut(l, "#")
		if strings.ReplaceAll(strings.TrimSpace(l), " ", "") != want {
			continue
		}
		if seen++; nth == 0 || seen == nth {
			return i + 1
		}
	}
	return 0
}
