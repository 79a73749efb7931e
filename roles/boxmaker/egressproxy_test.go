package boxmaker

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/role"
	"boxmaker/core/runner"
)

func TestServeEgressMakesItsSocketAndEndsWithStdin(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "proxy.sock")
	stdin, closeStdin := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serveEgress(sock, &runner.EgressProxy{Hosts: []string{"docs.example"}, Timeout: time.Second, MaxBytes: 1}, stdin, time.Minute)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		fi, err := os.Lstat(sock)
		if err == nil {
			if fi.Mode().Type() != fs.ModeSocket || fi.Mode().Perm() != 0o600 {
				t.Fatalf("%s is %v, want a socket of mode 0600", sock, fi.Mode())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no socket within 10 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	closeStdin.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serveEgress: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serveEgress did not end when its stdin ended")
	}
	if _, err := os.Lstat(sock); err == nil {
		t.Errorf("the socket is still there after the proxy ended")
	}
}

func TestServeEgressEndsAtItsLifetime(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "proxy.sock")
	stdin, _ := io.Pipe() // never ends
	done := make(chan error, 1)
	go func() {
		done <- serveEgress(sock, &runner.EgressProxy{Hosts: []string{"docs.example"}, Timeout: time.Second, MaxBytes: 1}, stdin, 200*time.Millisecond)
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serveEgress: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("serveEgress with a lifetime of 200 ms did not end in a minute")
	}
}

func TestServeEgressRefusesAFileInTheSocketsPlace(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "proxy.sock")
	os.WriteFile(sock, []byte("x"), 0o600)
	err := serveEgress(sock, &runner.EgressProxy{}, nil, time.Second)
	if err == nil || err.Error() != sock+" exists and is not a socket" {
		t.Errorf("got %v, want a refusal of the file", err)
	}
}

// The egress proxy's command line the runner writes (ProxyArgs) is one
// the egress-proxy command reads as meant: each value in its flag.
func TestEgressProxyReadsTheLineTheRunnerWrites(t *testing.T) {
	var b conf.Brokerd
	for _, f := range conf.Roles {
		if f.Name == role.Brokerd {
			if err := conf.Decode("brokerd.toml", []byte(f.Render("/h")), &b); err != nil {
				t.Fatal(err)
			}
		}
	}
	b.Runner.OwnerUID, b.Runner.OwnerGID, b.Runner.EgressAllowPrivate = 1000, 1000, true
	rcfg := runner.ConfigFrom(b, runner.Instance(b.Home))
	rcfg.SeccompProfile = "" // nothing is run or written
	r, err := runner.New(rcfg)
	if err != nil {
		t.Fatal(err)
	}
	line := r.ProxyArgs("NAME", "/srv/egress/c", []string{"docs.example", "api.example"})
	i := slices.Index(line, runner.ExecutorPath)
	if i < 0 {
		t.Fatalf("no %s in %q", runner.ExecutorPath, line)
	}
	type read struct {
		Socket                string
		Hosts                 []string
		AllowPrivate          bool
		TimeoutMS, LifetimeMS int
		MaxBytes              int64
	}
	var got read
	cmd := egressProxyCommand()
	cmd.Action = func(c *cli.Context) error {
		got = read{c.String(runner.ProxyFlagSocket), c.StringSlice(runner.ProxyFlagHost), c.Bool(runner.ProxyFlagAllowPrivate),
			c.Int(runner.ProxyFlagTimeoutMS), c.Int(runner.ProxyFlagLifetimeMS), c.Int64(runner.ProxyFlagMaxBytes)}
		return nil
	}
	app := &cli.App{Name: "boxmaker", Commands: []*cli.Command{cmd}}
	if err := app.Run(append([]string{"boxmaker"}, line[i+1:]...)); err != nil {
		t.Fatalf("egress-proxy refused %q: %v", line[i+1:], err)
	}
	if got.Socket == "" || got.TimeoutMS <= 0 || got.LifetimeMS <= got.TimeoutMS || got.MaxBytes <= 0 {
		t.Errorf("%q read as %+v: a socket, and a lifetime beyond the timeout, expected", line[i+1:], got)
	}
	if diff := cmp.Diff(read{got.Socket, []string{"docs.example", "api.example"}, true, got.TimeoutMS, got.LifetimeMS, got.MaxBytes}, got); diff != "" {
		t.Errorf("%q read as (-want +got):\n%s", line[i+1:], diff)
	}
}
