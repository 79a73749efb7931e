package boxmaker

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

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
