package secrets

import (
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"boxmaker/runbook"
)

// value is what the tests' secrets hold: no error may ever show it.
const value = "hx-4f9c1e7a-TOKEN"

func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		name string
		src  Source
		want string // "" when well formed
	}{
		{"credential", Source{Credential: "honcho-trusted"}, ""},
		{"env", Source{Env: "HONCHO_KEY"}, ""},
		{"file", Source{File: "/etc/boxmaker/honcho.key"}, ""},
		{"nothing", Source{}, "names no source: set one of credential, env or file"},
		{"two", Source{Env: "A", File: "/a"}, "names more than one source: set only one of credential, env or file"},
		{"three", Source{Credential: "a", Env: "A", File: "/a"}, "names more than one source"},
		{"credential with a slash", Source{Credential: "../etc/passwd"}, "credential is not a credential's name"},
		{"credential dot dot", Source{Credential: ".."}, "credential is not a credential's name"},
		{"credential with a space", Source{Credential: "a b"}, "credential is not a credential's name"},
		{"credential of 255 bytes", Source{Credential: strings.Repeat("c", 255)}, ""},
		{"credential of 256 bytes", Source{Credential: strings.Repeat("c", 256)}, "credential is not a credential's name"},
		{"env with a dash", Source{Env: "HONCHO-KEY"}, "env is not an environment variable's name"},
		{"env starting with a digit", Source{Env: "1KEY"}, "env is not an environment variable's name"},
		{"relative file", Source{File: "honcho.key"}, "file honcho.key is not an absolute path"},
		{"file with NUL", Source{File: "/a\x00b"}, `file "/a\x00b" is not an absolute path`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.src.Check()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Check: %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
				t.Fatalf("Check: %v, want %q...", err, tt.want)
			}
		})
	}
}

// writeSecret writes data to a new file of the given mode in dir.
func writeSecret(t *testing.T, dir, name, data string, mode uint32) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Chmod(p, mode); err != nil { // raw bits: 0o4600 is setuid
		t.Fatal(err)
	}
	return p
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	creds := filepath.Join(dir, "creds")
	if err := os.Mkdir(creds, 0o700); err != nil {
		t.Fatal(err)
	}
	writeSecret(t, creds, "honcho", value+"\n", 0o400)
	writeSecret(t, creds, "empty", "", 0o400)
	if err := os.Mkdir(filepath.Join(creds, "adir"), 0o700); err != nil {
		t.Fatal(err)
	}
	good := writeSecret(t, dir, "good.key", value+"\n", 0o600)
	crlf := writeSecret(t, dir, "crlf.key", value+"\r\n", 0o400)
	bare := writeSecret(t, dir, "bare.key", value, 0o600)
	open := writeSecret(t, dir, "open.key", value, 0o644)
	group := writeSecret(t, dir, "group.key", value, 0o640)
	setuid := writeSecret(t, dir, "setuid.key", value, 0o4600)
	exec := writeSecret(t, dir, "exec.key", value, 0o700)
	empty := writeSecret(t, dir, "empty.key", "\n", 0o600)
	twoLines := writeSecret(t, dir, "two.key", value+"\nsecond\n", 0o600)
	big := writeSecret(t, dir, "big.key", strings.Repeat("k", MaxSize+1), 0o600)
	link := filepath.Join(dir, "link.key")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.key")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	uid := os.Geteuid()
	env := Env{
		CredentialsDir: creds,
		UID:            uid,
		Lookup: func(n string) (string, bool) {
			switch n {
			case "HONCHO_KEY":
				return value, true
			case "EMPTY_KEY":
				return "", true
			case "NL_KEY":
				return value + "\n", true
			}
			return "", false
		},
	}
	for _, tt := range []struct {
		name string
		src  Source
		env  Env
		want string // the refusal's text, or "" for the value
	}{
		{"credential", Source{Credential: "honcho"}, env, ""},
		{"env", Source{Env: "HONCHO_KEY"}, env, ""},
		{"env with a newline", Source{Env: "NL_KEY"}, env, ""},
		{"file 0600", Source{File: good}, env, ""},
		{"file 0400 with CRLF", Source{File: crlf}, env, ""},
		{"file without a newline", Source{File: bare}, env, ""},

		{"no credentials directory", Source{Credential: "honcho"}, Env{UID: uid},
			"secret honcho_x: CREDENTIALS_DIRECTORY is unset: the daemon was not started by systemd with credential honcho"},
		{"credential missing", Source{Credential: "other"}, env,
			"secret honcho_x: credential other is not in $CREDENTIALS_DIRECTORY (" + creds + ")"},
		{"credential empty", Source{Credential: "empty"}, env, "secret honcho_x: credential empty is empty"},
		{"credential a directory", Source{Credential: "adir"}, env,
			"secret honcho_x: credential adir in $CREDENTIALS_DIRECTORY is not a regular file"},
		{"env unset", Source{Env: "NO_SUCH_KEY"}, env, "secret honcho_x: environment variable NO_SUCH_KEY is unset"},
		{"env empty", Source{Env: "EMPTY_KEY"}, env, "secret honcho_x: environment variable EMPTY_KEY is empty"},
		{"file relative", Source{File: "good.key"}, env, "secret honcho_x: file good.key is not an absolute path"},
		{"file missing", Source{File: dir + "/none.key"}, env, "secret honcho_x: " + dir + "/none.key does not exist"},
		{"file a symlink", Source{File: link}, env, "secret honcho_x: " + link + " is a symbolic link: name the file itself"},
		{"file a directory", Source{File: creds}, env, "secret honcho_x: " + creds + " is not a regular file"},
		{"file a FIFO", Source{File: fifo}, env, "secret honcho_x: " + fifo + " is not a regular file"},
		{"file of another user", Source{File: good}, Env{UID: uid + 1},
			fmt.Sprintf("secret honcho_x: %s is owned by uid %d, not by uid %d that this daemon runs as", good, uid, uid+1)},
		{"file 0644", Source{File: open}, env,
			"secret honcho_x: " + open + " has mode 0644: only 0600 or 0400 are accepted (no group or other permission)"},
		{"file 0640", Source{File: group}, env, "secret honcho_x: " + group + " has mode 0640: only 0600 or 0400"},
		{"file setuid", Source{File: setuid}, env, "secret honcho_x: " + setuid + " has mode 4600: only 0600 or 0400"},
		{"file 0700", Source{File: exec}, env, "secret honcho_x: " + exec + " has mode 0700: only 0600 or 0400"},
		{"file empty", Source{File: empty}, env, "secret honcho_x: " + empty + " is empty"},
		{"file of two lines", Source{File: twoLines}, env,
			"secret honcho_x: " + twoLines + " holds a control character or more than one line"},
		{"file too big", Source{File: big}, env, "secret honcho_x: " + big + " is larger than 65536 bytes: it is not a key"},
		{"two sources", Source{Env: "HONCHO_KEY", File: good}, env, "secret honcho_x: names more than one source"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Read("honcho_x", tt.src, tt.env)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Read: %v", err)
				}
				if v.Reveal() != value {
					t.Fatalf("Read gave %d bytes, not the value", v.Len())
				}
				return
			}
			if err == nil {
				t.Fatalf("Read gave a value, want %q", tt.want)
			}
			if e, _ := runbook.EntryOf(err); e != runbook.SecretUnavailable {
				t.Fatalf("entry %q, want secret-unavailable", e)
			}
			var r *runbook.Refusal
			errors.As(err, &r)
			if !strings.HasPrefix(r.Text, tt.want) {
				t.Fatalf("Read: %q\nwant:  %q...", r.Text, tt.want)
			}
			if !strings.HasSuffix(err.Error(), "; "+runbook.Link(runbook.SecretUnavailable)) {
				t.Fatalf("no runbook link: %q", err)
			}
			if strings.Contains(err.Error(), value) || strings.Contains(fmt.Sprintf("%+v %#v", err, err), value) {
				t.Fatalf("the error shows the value: %q", err)
			}
			if !v.isZero() {
				t.Fatalf("a refused read returned a value")
			}
		})
	}
}

func (v Value) isZero() bool { return len(v.b) == 0 }

// TestValueNeverPrints: every way a value might be printed or serialised
// shows "[secret]".
func TestValueNeverPrints(t *testing.T) {
	v := Value{b: []byte(value)}
	type holder struct {
		Key Value `json:"key"`
		P   *Value
	}
	h := holder{Key: v, P: &v}
	var logged strings.Builder
	log.New(&logged, "", 0).Printf("%v %s", v, h)
	js, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{
		fmt.Sprint(v), fmt.Sprintf("%v|%+v|%#v|%s|%q|%x|%X|%d", v, v, v, v, v, v, v, v),
		fmt.Sprintf("%v|%+v|%#v", h, h, &h), fmt.Sprintln(v, &v), string(js), logged.String(),
		fmt.Errorf("wrapped: %w %v", errors.New("x"), v).Error(),
	} {
		if strings.Contains(out, value) || strings.Contains(out, fmt.Sprintf("%x", value)) {
			t.Errorf("the value shows in %q", out)
		}
		if !strings.Contains(out, "[secret]") {
			t.Errorf("%q does not say [secret]", out)
		}
	}
}

func TestWarning(t *testing.T) {
	if w := Warning("honcho_trusted", Source{Env: "K"}); w != nil {
		t.Fatalf("env source warned: %v", w)
	}
	if w := Warning("honcho_trusted", Source{Credential: "k"}); w != nil {
		t.Fatalf("credential source warned: %v", w)
	}
	w := Warning("honcho_trusted", Source{File: "/etc/boxmaker/honcho.key"})
	want := "secret honcho_trusted is read in plaintext from /etc/boxmaker/honcho.key; a systemd credential keeps it encrypted at rest; " + runbook.Link(runbook.SecretInAFile)
	if w == nil || w.Error() != want {
		t.Fatalf("Warning: %v\nwant %s", w, want)
	}
	// A path made to forge a line is shown quoted.
	w = Warning("x", Source{File: "/tmp/a\nmemoryd: serving"})
	if w == nil || strings.Contains(w.Error(), "\n") {
		t.Fatalf("Warning let a newline through: %q", w)
	}
}

// FuzzRead: whatever a variable holds, Read either gives it back (one line
// end trimmed) or refuses without showing it.
func FuzzRead(f *testing.F) {
	for _, s := range []string{value, "", "\n", "a\nb", "tok\r\n", "\x1b[2J", strings.Repeat("x", 70000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		env := Env{Lookup: func(string) (string, bool) { return s, true }}
		v, err := Read("k", Source{Env: "K"}, env)
		if err != nil {
			if len(s) >= 4 && strings.Contains(err.Error(), s) {
				t.Fatalf("the error shows the value: %q", err)
			}
			return
		}
		want := strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r")
		if v.Reveal() != want {
			t.Fatalf("Read(%q) = %d bytes, want %q", s, v.Len(), want)
		}
	})
}
