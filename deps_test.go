package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies holds the layering: core/ and the libraries import no
// role; a role imports no other role (only roles/rolecli, what they share);
// one package alone imports go-sqlite3; production code imports no testing
// and no test peer (core/testpeer/...).
func TestDependencies(t *testing.T) {
	cmd := exec.Command("go", "list", "-json", "-tags", os.Getenv("BOXMAKER_TAGS"), "./...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	type pkg struct {
		ImportPath string
		Imports    []string
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 5 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	var sqliteUsers []string
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			switch {
			case imp == "testing" || strings.HasPrefix(imp, "testing/"):
				t.Errorf("%s imports %s outside its tests", p.ImportPath, imp)
			case strings.HasPrefix(imp, "boxmaker/core/testpeer/") && !strings.HasPrefix(p.ImportPath, "boxmaker/core/testpeer/"):
				t.Errorf("%s imports the test peer %s: test peers are for tests only", p.ImportPath, imp)
			case imp == "github.com/mattn/go-sqlite3":
				sqliteUsers = append(sqliteUsers, p.ImportPath)
			case strings.HasPrefix(imp, "boxmaker/roles/"):
				if problem := roleImport(p.ImportPath, imp); problem != "" {
					t.Errorf("%s imports %s: %s", p.ImportPath, imp, problem)
				}
			}
		}
	}
	if len(sqliteUsers) > 1 {
		t.Errorf("more than one package imports go-sqlite3: %v", sqliteUsers)
	}
}

// roleImport says what is wrong with importer importing a roles/ package,
// or "" when it is allowed.
func roleImport(importer, imported string) string {
	switch {
	case importer == "boxmaker":
		return "" // main dispatches to every role
	case !strings.HasPrefix(importer, "boxmaker/roles/"):
		return "only main and the roles may import a role package"
	case imported == "boxmaker/roles/rolecli":
		return ""
	default:
		return "a role never imports another role"
	}
}

func TestRoleImportRule(t *testing.T) {
	for _, tt := range []struct {
		importer, imported string
		ok                 bool
	}{
		{"boxmaker", "boxmaker/roles/brokerd", true},
		{"boxmaker/roles/brokerd", "boxmaker/roles/rolecli", true},
		{"boxmaker/roles/brokerd", "boxmaker/roles/loopd", false},
		{"boxmaker/core/daemon", "boxmaker/roles/rolecli", false},
		{"boxmaker/sanitize", "boxmaker/roles/bxctl", false},
	} {
		if got := roleImport(tt.importer, tt.imported) == ""; got != tt.ok {
			t.Errorf("%s -> %s: allowed=%v, want %v", tt.importer, tt.imported, got, tt.ok)
		}
	}
}
