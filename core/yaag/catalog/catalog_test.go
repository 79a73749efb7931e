package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boxmaker/core/yaag/runerr"
)

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, ".yaag", "registry.toml")
	os.MkdirAll(filepath.Dir(reg), 0o755)
	os.WriteFile(reg, []byte("[[agents]]\nname = \"r\"\nfile = \"agents/r.ts\"\n\n[[agents]]\nname = \"abs\"\nfile = \"/opt/a.ts\"\nexportName = \"a\"\n"), 0o644)
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[[agents]]\nname = \"r\"\nfiel = \"x\"\n"), 0o644)
	c := Catalog{Files: map[string]string{"project": reg, "global": bad}}
	f, err := c.Resolve("project", "r")
	if err != nil || f.Module != filepath.Join(dir, "agents/r.ts") || f.ExportName != "default" {
		t.Fatalf("%+v %v", f, err)
	}
	if f, err := c.Resolve("project", "abs"); err != nil || f.Module != "/opt/a.ts" || f.ExportName != "a" {
		t.Fatalf("%+v %v", f, err)
	}
	_, err = c.Resolve("global", "r")
	if re, ok := runerr.As(err); !ok || re.Code != runerr.CatalogEntryNotFound || !strings.Contains(err.Error(), "bad.toml:3: unknown key agents.fiel") {
		t.Fatalf("an invalid Registry File: %v", err)
	}
	if _, err := c.Resolve("team", "r"); err == nil || !strings.Contains(err.Error(), "no such scope") {
		t.Fatalf("an unknown scope: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("[[agents]]\nname = \"a\"\nfile = \"a.ts\"\nexportName = \"x\"\ndescription = \"d\"\n")
	f.Add("[[agents]]\nname = \"\"\nfile = \"a.ts\"\n")
	f.Add("agents = 3\n")
	f.Add("[agents]\nname = \"a\"\n")
	f.Fuzz(func(t *testing.T, data string) {
		file, err := Parse("r.toml", []byte(data))
		if err != nil {
			if !strings.Contains(err.Error(), "r.toml") {
				t.Fatalf("an error that does not name the file: %v", err)
			}
			return
		}
		for _, e := range file.Agents {
			if strings.TrimSpace(e.Name) == "" || strings.TrimSpace(e.File) == "" {
				t.Fatalf("accepted an entry without name or file: %+v", e)
			}
		}
	})
}
