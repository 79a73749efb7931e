// Package secrets reads the values that a daemon's `[secrets.<name>]`
// tables point to: a Mattermost token for gatewayd, a Honcho key for
// memoryd, an upstream key for inferproxy. It is the one place in
// Boxmaker that reads a secret, so every role gets the same checks and the
// same messages.
//
// A table names exactly one source:
//
//	[secrets.honcho_trusted]
//	credential = "honcho-trusted"   # $CREDENTIALS_DIRECTORY/honcho-trusted (systemd LoadCredential[Encrypted]=)
//	# env = "HONCHO_TRUSTED_KEY"    # an environment variable of the daemon
//	# file = "/etc/boxmaker/honcho-trusted.key"   # a file: absolute, not a link, regular,
//	                                              # the daemon's own, mode 0600 or 0400
//
// Check judges the table's shape alone, without reading anything (a
// config check). Read fetches the value where it is used; a value that
// cannot be had is a `secret-unavailable` refusal naming the secret and
// the reason. A file source is a `secret-in-a-file` warning, which the
// role prints at every start (Warning).
//
// A value is never printed, logged, or put in an error: Value formats as
// "[secret]" and marshals to it, and the refusals name the source (a
// variable, a path), never what it holds. The package reads no
// environment of its own accord: the role passes what the process was
// started with in Env.
package secrets

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"boxmaker/core/patherror"
	"boxmaker/runbook"
)

// Source is one `[secrets.<name>]` table: exactly one of its fields is set.
type Source struct {
	// Credential is the name of a systemd credential, read from
	// $CREDENTIALS_DIRECTORY/<name>.
	Credential string `toml:"credential"`
	// Env is the name of an environment variable.
	Env string `toml:"env"`
	// File is an absolute path to a file holding the value.
	File string `toml:"file"`
}

// MaxSize is the most bytes a value may have. A token or a key is far
// smaller; a larger file is the wrong file.
const MaxSize = 64 << 10

var (
	envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// systemd's credential names: a file name, at most 255 bytes; we
	// also keep to printable ASCII without spaces so the name is safe to
	// show. The length is checked apart (maxCredentialName): `{1,255}`
	// compiles to 255 copies of the class, paid at every process start.
	credentialNameRE = regexp.MustCompile(`^[A-Za-z0-9_.@:+-]+$`)
)

const maxCredentialName = 255

// Check says what is wrong with the table's shape, or nil: not exactly
// one source, or a source that is not well formed (a credential that is
// not a file name, an env that is not a variable name, a file that is not
// an absolute path). It reads nothing. The error's text starts with what
// is wrong, for the caller to put after the secret's name.
func (s Source) Check() error {
	n := 0
	for _, v := range []string{s.Credential, s.Env, s.File} {
		if v != "" {
			n++
		}
	}
	switch {
	case n == 0:
		return errors.New("names no source: set one of credential, env or file")
	case n > 1:
		return errors.New("names more than one source: set only one of credential, env or file")
	case s.Credential != "" && (len(s.Credential) > maxCredentialName || !credentialNameRE.MatchString(s.Credential) || s.Credential == "." || s.Credential == ".."):
		return errors.New("credential is not a credential's name (a file name in $CREDENTIALS_DIRECTORY: letters, digits and _ . @ : + -)")
	case s.Env != "" && !envNameRE.MatchString(s.Env):
		return errors.New("env is not an environment variable's name (letters, digits and _, not starting with a digit)")
	case s.File != "" && (!filepath.IsAbs(s.File) || strings.ContainsRune(s.File, 0)):
		return fmt.Errorf("file %s is not an absolute path", quotePath(s.File))
	}
	return nil
}

// Kind is "credential", "env" or "file": which source the table names.
func (s Source) Kind() string {
	switch {
	case s.Credential != "":
		return "credential"
	case s.Env != "":
		return "env"
	default:
		return "file"
	}
}

// Env is what the daemon was started with, which Read looks in. The role
// fills it from its process (core/ reads no environment itself).
type Env struct {
	// CredentialsDir is $CREDENTIALS_DIRECTORY ("" when unset).
	CredentialsDir string
	// Lookup is os.LookupEnv, or a stand-in in tests.
	Lookup func(name string) (string, bool)
	// UID is the user the daemon runs as (its effective uid): a file
	// source must be owned by it.
	UID int
}

// ProcessEnv is the Env of the running process.
func ProcessEnv() Env {
	return Env{CredentialsDir: os.Getenv("CREDENTIALS_DIRECTORY"), Lookup: os.LookupEnv, UID: os.Geteuid()}
}

// Value holds a secret. It prints and marshals as "[secret]" in every
// form; only Reveal gives what it holds, at the one place that uses it.
type Value struct{ b []byte }

const redacted = "[secret]"

// Reveal is the value itself.
func (v Value) Reveal() string { return string(v.b) }

// Len is the value's length in bytes (for checks that must not show it).
func (v Value) Len() int { return len(v.b) }

func (v Value) String() string               { return redacted }
func (v Value) GoString() string             { return redacted }
func (v Value) Format(f fmt.State, _ rune)   { io.WriteString(f, redacted) }
func (v Value) MarshalText() ([]byte, error) { return []byte(redacted), nil }
func (v Value) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

func unavailable(name, format string, args ...any) error {
	return runbook.Refuse(runbook.SecretUnavailable, "secret %s: "+format, append([]any{name}, args...)...)
}

// Read fetches the value of the secret name from its source s (which
// Check has passed). One line ending (\n or \r\n) at the end is dropped,
// as `echo` and editors leave one. The error is a `secret-unavailable`
// refusal "secret <name>: <reason>"; it names the source, never the
// value.
func Read(name string, s Source, env Env) (Value, error) {
	if err := s.Check(); err != nil {
		return Value{}, unavailable(name, "%v", err)
	}
	var v Value
	var err error
	switch s.Kind() {
	case "credential":
		v, err = readCredential(name, s.Credential, env)
	case "env":
		v, err = readEnv(name, s.Env, env)
	default:
		v, err = readFile(name, s.File, env)
	}
	if err != nil {
		return Value{}, err
	}
	v.b = bytes.TrimSuffix(bytes.TrimSuffix(v.b, []byte("\n")), []byte("\r"))
	if len(v.b) == 0 {
		return Value{}, unavailable(name, "%s is empty", describe(s))
	}
	if len(v.b) > MaxSize {
		return Value{}, unavailable(name, "%s is larger than %d bytes: it is not a key", describe(s), MaxSize)
	}
	if bytes.ContainsFunc(v.b, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		// A key or token is one line of printable text; a control
		// character would end or forge a header line where it is sent.
		return Value{}, unavailable(name, "%s holds a control character or more than one line", describe(s))
	}
	return v, nil
}

// describe names a source for a message: never its value.
func describe(s Source) string {
	switch s.Kind() {
	case "credential":
		return "credential " + s.Credential
	case "env":
		return "environment variable " + s.Env
	default:
		return quotePath(s.File)
	}
}

func readEnv(name, variable string, env Env) (Value, error) {
	if env.Lookup == nil {
		return Value{}, unavailable(name, "environment variable %s is unset", variable)
	}
	val, ok := env.Lookup(variable)
	if !ok {
		return Value{}, unavailable(name, "environment variable %s is unset", variable)
	}
	return Value{b: []byte(val)}, nil
}

func readCredential(name, cred string, env Env) (Value, error) {
	if env.CredentialsDir == "" {
		return Value{}, unavailable(name, "CREDENTIALS_DIRECTORY is unset: the daemon was not started by systemd with credential %s", cred)
	}
	p := filepath.Join(env.CredentialsDir, cred)
	f, err := openNoFollow(p)
	if errors.Is(err, fs.ErrNotExist) {
		return Value{}, unavailable(name, "credential %s is not in $CREDENTIALS_DIRECTORY (%s)", cred, quotePath(env.CredentialsDir))
	}
	if err != nil {
		return Value{}, unavailable(name, "cannot open credential %s: %s", cred, patherror.Reason(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Value{}, unavailable(name, "cannot read credential %s: %s", cred, patherror.Reason(err))
	}
	if !st.Mode().IsRegular() {
		return Value{}, unavailable(name, "credential %s in $CREDENTIALS_DIRECTORY is not a regular file", cred)
	}
	return readAll(name, "credential "+cred, f)
}

// readFile reads a file source. Every check is made on the opened file
// (O_NOFOLLOW, then fstat), so the file judged is the file read.
func readFile(name, path string, env Env) (Value, error) {
	qp := quotePath(path)
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return Value{}, unavailable(name, "%s is a symbolic link: name the file itself", qp)
	}
	f, err := openNoFollow(path)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return Value{}, unavailable(name, "%s is a symbolic link: name the file itself", qp)
	case errors.Is(err, fs.ErrNotExist):
		return Value{}, unavailable(name, "%s does not exist", qp)
	case err != nil:
		return Value{}, unavailable(name, "cannot open %s: %s", qp, patherror.Reason(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Value{}, unavailable(name, "cannot read %s: %s", qp, patherror.Reason(err))
	}
	if !st.Mode().IsRegular() {
		return Value{}, unavailable(name, "%s is not a regular file", qp)
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return Value{}, unavailable(name, "cannot tell who owns %s", qp)
	}
	if int(sys.Uid) != env.UID {
		return Value{}, unavailable(name, "%s is owned by uid %d, not by uid %d that this daemon runs as", qp, sys.Uid, env.UID)
	}
	if perm := sys.Mode & 0o7777; perm != 0o600 && perm != 0o400 {
		return Value{}, unavailable(name, "%s has mode %04o: only 0600 or 0400 are accepted (no group or other permission)", qp, perm)
	}
	return readAll(name, qp, f)
}

func openNoFollow(path string) (*os.File, error) {
	// O_NONBLOCK: a FIFO put in the file's place must not hang the daemon
	// before fstat shows it is not a regular file.
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

func readAll(name, what string, f *os.File) (Value, error) {
	b, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return Value{}, unavailable(name, "cannot read %s: %s", what, patherror.Reason(err))
	}
	return Value{b: b}, nil
}

// quotePath shows a path as it is when it is plain, else quoted, so a
// name with a newline or an escape sequence cannot forge a log line.
func quotePath(p string) string {
	if strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f || r == ' ' || r == '"' }) {
		return fmt.Sprintf("%q", p)
	}
	return p
}

// Warning is the `secret-in-a-file` warning for a file source (nil for
// the others), which the role prints at every start:
// "secret <name> is read in plaintext from <path>; a systemd credential
// keeps it encrypted at rest". It is a warning: the daemon runs.
func Warning(name string, s Source) error {
	if s.Kind() != "file" || s.File == "" {
		return nil
	}
	return runbook.Refuse(runbook.SecretInAFile,
		"secret %s is read in plaintext from %s; a systemd credential keeps it encrypted at rest", name, quotePath(s.File))
}
