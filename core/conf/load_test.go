package conf

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type testConf struct {
	Home    string `toml:"home"`
	Sockets struct {
		Broker    string   `toml:"broker"`
		AllowUIDs []uint32 `toml:"allow_uids"`
	} `toml:"sockets"`
	Limit int `toml:"limit"`
}

func TestDecodeProblems(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []Problem
	}{
		{
			name: "unknown key names its line",
			doc:  "home = \"/h\"\n\n[sockets]\nbroker = \"/s\"\nbrokr = \"/t\"\n",
			want: []Problem{{Line: 5, Key: "sockets.brokr", Text: "unknown key sockets.brokr"}},
		},
		{
			name: "unknown table",
			doc:  "home = \"/h\"\n[sokets]\nbroker = \"/s\"\n",
			want: []Problem{{Line: 2, Key: "sokets", Text: "unknown key sokets"}},
		},
		{
			name: "key in another case",
			doc:  "Home = \"/h\"\n",
			want: []Problem{{Line: 1, Key: "Home", Text: "unknown key Home (keys are lower case: home)"}},
		},
		{
			name: "wrong type says what is needed",
			doc:  "home = \"/h\"\nlimit = \"ten\"\n",
			want: []Problem{{Line: 2, Key: "limit", Text: "limit: an integer is needed, not a string"}},
		},
		{
			name: "wrong type in a table names the table",
			doc:  "home = \"/h\"\n[sockets]\nbroker = 12\n",
			want: []Problem{{Line: 3, Key: "sockets.broker", Text: "[sockets] broker: a string is needed, not an integer"}},
		},
		{
			name: "a string where a list is needed",
			doc:  "[sockets]\nallow_uids = \"1000\"\n",
			want: []Problem{{Line: 2, Key: "sockets.allow_uids", Text: "[sockets] allow_uids: a list is needed, not a string"}},
		},
		{
			name: "syntax error",
			doc:  "home = \"/h\n",
			want: []Problem{{Line: 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c testConf
			err := Decode("x.toml", []byte(tt.doc), &c)
			var inv *InvalidError
			if !errors.As(err, &inv) {
				t.Fatalf("got %v, want an InvalidError", err)
			}
			got := inv.Problems
			// Type and syntax errors carry go-toml's wording; compare their position and key only.
			for i := range got {
				if i < len(tt.want) && tt.want[i].Text == "" {
					got[i].Text = ""
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if !strings.HasPrefix(err.Error(), "x.toml:") {
				t.Errorf("message %q does not start with the file and line", err)
			}
		})
	}
}

func TestDecodeValid(t *testing.T) {
	var c testConf
	if err := Decode("x.toml", []byte("home = \"/h\"\nlimit = 3\n[sockets]\nbroker = \"/s\"\nallow_uids = [1000]\n"), &c); err != nil {
		t.Fatal(err)
	}
	if c.Home != "/h" || c.Limit != 3 || c.Sockets.Broker != "/s" || len(c.Sockets.AllowUIDs) != 1 {
		t.Errorf("decoded %+v", c)
	}
}

func TestLoadMissingAndInvalid(t *testing.T) {
	dir := t.TempDir()
	var c testConf
	err := Load(filepath.Join(dir, "none.toml"), &c)
	var miss *MissingError
	if !errors.As(err, &miss) || err.Error() != filepath.Join(dir, "none.toml")+": no such file" {
		t.Errorf("missing: %v", err)
	}
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("nope = 1\n"), 0o600)
	err = Load(bad, &c)
	var inv *InvalidError
	if !errors.As(err, &inv) || err.Error() != bad+":1: unknown key nope" {
		t.Errorf("invalid: %v", err)
	}
}

// Every template `boxmaker init` writes must decode strictly into its struct.
func TestTemplatesDecodeStrictly(t *testing.T) {
	for _, r := range Roles {
		t.Run(r.Name.String(), func(t *testing.T) {
			doc := r.Render("/var/lib/boxmaker-test")
			v := r.New()
			if err := Decode(r.Name.String()+".toml", []byte(doc), v); err != nil {
				t.Fatalf("%v\n%s", err, doc)
			}
			if strings.Contains(doc, "{{") {
				t.Errorf("unrendered template text in %s", doc)
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte("home = \"/h\"\n[sockets]\nbroker = \"/s\"\n"))
	f.Add([]byte("Home = 1\n[sockets]\nBROKER = [1]\n"))
	f.Add([]byte("[[x]]\na=1\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		var c testConf
		err := Decode("f.toml", doc, &c)
		var inv *InvalidError
		if err != nil && !errors.As(err, &inv) {
			t.Fatalf("error of another type: %T %v", err, err)
		}
		if inv != nil && len(inv.Problems) == 0 {
			t.Fatal("an invalid file with no problem")
		}
	})
}
