package sanitize

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The twelve languages issue 28 names each have every family in their
// file, and every file parses and generates expressions that compile.
func TestLexiconFilesParse(t *testing.T) {
	byLang := map[string]lexiconFile{}
	for _, f := range lexiconFiles() {
		byLang[f.lang] = f
		for _, s := range f.sections {
			for _, p := range f.patterns(s) {
				p.re.get()
			}
		}
	}
	for _, lang := range []string{"es", "fr", "de", "it", "pt", "ru", "el", "hi", "ja", "zh", "ar", "id"} {
		f, ok := byLang[lang]
		if !ok {
			t.Errorf("no lexicon file for %s", lang)
			continue
		}
		for _, family := range []string{"override", "role", "reveal", "secret", "authority", "reader", "extract"} {
			s := f.section(family)
			if len(s.classes) == 0 {
				t.Errorf("%s.lex has no [%s] section", lang, family)
				continue
			}
			if len(f.patterns(s)) == 0 {
				t.Errorf("%s.lex: [%s] generates no rule", lang, family)
			}
		}
	}
}

func TestParseLexiconRefusesMistakes(t *testing.T) {
	for _, tt := range []struct{ name, data, want string }{
		{"no lang", "[override]\nverbs = a\n", "no lang line"},
		{"unknown family", "lang xx\n[recipes]\n", `no family "recipes"`},
		{"unknown class", "lang xx\n[override]\nadverbs = a\n", `no class "adverbs"`},
		{"unknown flag", "lang xx\n[override sideways]\n", `no flag "sideways"`},
		{"class twice", "lang xx\n[override]\nverbs = a\nverbs = b\n", "twice"},
		{"class outside a section", "lang xx\nverbs = a\n", "inside a section"},
		{"continuation without a class", "lang xx\n[override]\n  | a\n", "starts with white space and |"},
		{"empty entry", "lang xx\n[override]\nverbs = a | \u200b\n", "empty entry"},
	} {
		_, err := parseLexicon("x.lex", tt.data)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error with %q", tt.name, err, tt.want)
		}
	}
	f, err := parseLexicon("x.lex", "lang xx\n[secret object-first]\nasks = tell\n  | give\nnouns = clé\n")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(words{"tell", "give"}, f.sections[0].class("asks")); diff != "" {
		t.Error(diff)
	}
	if !f.sections[0].flags["object-first"] {
		t.Error("the flag was not read")
	}
}

func TestFoldedSpellings(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"contraseña", []string{"contrasena"}},
		{"οδηγίες", []string{"οδηγιες", "οδηγίεσ", "οδηγιεσ"}},
		{"नज़रअंदाज़", []string{"नजरअंदाज"}},
		{"أوامر", []string{"اوامر"}},
		{"пароль", nil},
		{"パスワード", nil},
		{"mot de passe", nil},
	} {
		if diff := cmp.Diff(tt.want, foldedSpellings(tt.in)); diff != "" {
			t.Errorf("%s: %s", tt.in, diff)
		}
	}
}
