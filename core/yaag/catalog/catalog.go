// Package catalog reads Registry Files: the Catalog of Agent Definitions
// a program imports with `await $yaag.<scope>.importAgent(name)`.
//
// A Registry File is TOML, read strictly (an unknown key is an error):
//
//	[[agents]]
//	name = "reviewer"               # what importAgent is given
//	file = "agents/reviewer.ts"     # the module (relative: see Base)
//	exportName = "reviewer"         # its export; "default" when absent
//	description = "reads a diff"    # optional
//
// Each scope has one Registry File: "project" is .yaag/registry.toml in
// the Program Directory, "global" is yaag-registry.toml beside yaag's
// global config (docs/yaag/configuration.md).
package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"boxmaker/core/conf"
	"boxmaker/core/yaag/runerr"
	"boxmaker/core/yaag/snapshot"
	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const (
	textNotFound   runbook.Quoted = "no agent entry has this name in"
	textAmbiguous  runbook.Quoted = "agent entries have this name in"
	textUnresolved runbook.Quoted = "did not resolve:"
)

// File is a Registry File's contents.
type File struct {
	Agents []Entry `toml:"agents"`
}

// Entry is one agents entry.
type Entry struct {
	Name        string `toml:"name"`
	File        string `toml:"file"`
	ExportName  string `toml:"exportName"`
	Description string `toml:"description"`
}

// Catalog maps each scope to its Registry File.
type Catalog struct {
	Files map[string]string
	// Tree, when set, holds the Registry Files (a confined Run's): they
	// are read from it, never by path.
	Tree *snapshot.Tree
}

// Found is an entry found, with its module's path resolved.
type Found struct {
	Entry
	Registry string // the Registry File
	Module   string // the entry's file, absolute
}

// Parse reads a Registry File's contents strictly; path names it.
func Parse(path string, data []byte) (File, error) {
	var f File
	if err := conf.Decode(path, data, &f); err != nil {
		return File{}, err
	}
	for i, e := range f.Agents {
		switch {
		case strings.TrimSpace(e.Name) == "":
			return File{}, fmt.Errorf("%s: agents entry %d has no name", path, i+1)
		case strings.TrimSpace(e.File) == "":
			return File{}, fmt.Errorf("%s: agents entry %d (%q) has no file", path, i+1, e.Name)
		}
	}
	return f, nil
}

// Resolve finds the entry of name in scope's Registry File.
func (c Catalog) Resolve(scope, name string) (Found, error) {
	path, ok := c.Files[scope]
	if !ok {
		return Found{}, runerr.New(runerr.CatalogEntryNotFound, runbook.YaagCatalogNotFound,
			"$yaag.%s: there is no such scope (the scopes are project and global)", scope)
	}
	data, err := c.read(path)
	var refused *runbook.Refusal
	switch {
	case errors.As(err, &refused):
		return Found{}, err
	case errors.Is(err, fs.ErrNotExist):
		return Found{}, runerr.New(runerr.CatalogEntryNotFound, runbook.YaagCatalogNotFound,
			"$yaag.%s.importAgent(%q): %s %s (the file does not exist)", scope, name, textNotFound, path)
	case err != nil:
		return Found{}, runerr.New(runerr.CatalogEntryNotFound, runbook.YaagCatalogNotFound,
			"$yaag.%s.importAgent(%q): %s %s, which cannot be read: %v", scope, name, textNotFound, path, err).WithCause(err)
	}
	f, err := Parse(path, data)
	if err != nil {
		return Found{}, runerr.New(runerr.CatalogEntryNotFound, runbook.YaagCatalogNotFound,
			"$yaag.%s.importAgent(%q): %s %s, which is not a valid Registry File: %v", scope, name, textNotFound, path, err).WithCause(err)
	}
	var hits []Entry
	for _, e := range f.Agents {
		if e.Name == name {
			hits = append(hits, e)
		}
	}
	switch len(hits) {
	case 0:
		return Found{}, runerr.New(runerr.CatalogEntryNotFound, runbook.YaagCatalogNotFound,
			"$yaag.%s.importAgent(%q): %s %s", scope, name, textNotFound, path)
	case 1:
	default:
		files := make([]string, len(hits))
		for i, h := range hits {
			files[i] = h.File
		}
		return Found{}, runerr.New(runerr.CatalogEntryAmbiguous, runbook.YaagCatalogAmbiguous,
			"$yaag.%s.importAgent(%q): %d %s %s; their files: %s", scope, name, len(hits), textAmbiguous, path, strings.Join(files, ", "))
	}
	e := hits[0]
	if e.ExportName == "" {
		e.ExportName = "default"
	}
	module := e.File
	if !filepath.IsAbs(module) {
		module = filepath.Join(Base(path), module)
	}
	return Found{Entry: e, Registry: path, Module: module}, nil
}

func (c Catalog) read(path string) ([]byte, error) {
	if c.Tree == nil {
		return os.ReadFile(path)
	}
	data, err := c.Tree.ReadFile(path)
	if terr := c.Tree.Err(); terr != nil {
		return nil, terr
	}
	return data, err
}

// Entries are the entries of scope's Registry File; none when it does not
// exist. A confined Run reads them all as it begins.
func (c Catalog) Entries(scope string) ([]Found, error) {
	path, ok := c.Files[scope]
	if !ok {
		return nil, nil
	}
	data, err := c.read(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	}
	f, err := Parse(path, data)
	if err != nil {
		return nil, nil // importAgent says so, when the program asks
	}
	var out []Found
	for _, e := range f.Agents {
		module := e.File
		if !filepath.IsAbs(module) {
			module = filepath.Join(Base(path), module)
		}
		out = append(out, Found{Entry: e, Registry: path, Module: module})
	}
	return out, nil
}

// Base is the directory a Registry File's relative paths start from: the
// Program Directory for a project file (.yaag/registry.toml), else the
// file's own directory.
func Base(registry string) string {
	dir := filepath.Dir(registry)
	if filepath.Base(dir) == ".yaag" {
		return filepath.Dir(dir)
	}
	return dir
}

// Unresolvable is the error of an entry found whose module or export
// cannot be used; cause says why.
func Unresolvable(scope string, f Found, cause error) *runerr.Error {
	return runerr.New(runerr.CatalogEntryUnresolvable, runbook.YaagCatalogUnresolved,
		"$yaag.%s.importAgent(%q): the entry of %s %s %v", scope, f.Name, f.Registry, textUnresolved, cause).WithCause(cause)
}
