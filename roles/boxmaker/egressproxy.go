package boxmaker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"boxmaker/core/runner"
	"boxmaker/roles/rolecli"
)

// egressProxyCommand is http_fetch's egress proxy, run by the runner in a
// container of its own on [runner] egress_network: it listens on a unix
// socket the tool's container can reach and tunnels CONNECT requests to
// the granted hosts only. It runs until its stdin ends (the runner's
// stop) or its lifetime is over. It is hidden: a person has no use for it.
func egressProxyCommand() *cli.Command {
	return &cli.Command{
		Name:   runner.CommandEgressProxy,
		Hidden: true,
		Usage:  "tunnel http_fetch's connections to the granted hosts (run by the runner in a container)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: runner.ProxyFlagSocket, Required: true, Usage: "the unix socket `PATH` to listen on"},
			&cli.StringSliceFlag{Name: runner.ProxyFlagHost, Required: true, Usage: "a granted `HOST` (lower case); repeat for more"},
			&cli.BoolFlag{Name: runner.ProxyFlagAllowPrivate, Usage: "let names resolve to loopback, link-local and private addresses"},
			&cli.IntFlag{Name: runner.ProxyFlagTimeoutMS, Value: 30000, Usage: "one tunnel's time"},
			&cli.IntFlag{Name: runner.ProxyFlagLifetimeMS, Value: 60000, Usage: "the proxy's whole time"},
			&cli.Int64Flag{Name: runner.ProxyFlagMaxBytes, Value: 1 << 20, Usage: "bytes one tunnel carries from the server"},
		},
		Action: rolecli.NoArgs(func(c *cli.Context) error {
			hosts := c.StringSlice(runner.ProxyFlagHost)
			for _, h := range hosts {
				if h == "" || strings.ToLower(h) != h {
					return rolecli.Usagef("--host %q: a granted host is a lower-case DNS name", h)
				}
			}
			if c.Int(runner.ProxyFlagTimeoutMS) <= 0 || c.Int(runner.ProxyFlagLifetimeMS) <= 0 || c.Int64(runner.ProxyFlagMaxBytes) <= 0 {
				return rolecli.Usagef("--timeout-ms, --lifetime-ms and --max-bytes must be more than 0")
			}
			p := &runner.EgressProxy{
				Hosts: hosts, AllowPrivate: c.Bool(runner.ProxyFlagAllowPrivate),
				Timeout:  time.Duration(c.Int(runner.ProxyFlagTimeoutMS)) * time.Millisecond,
				MaxBytes: c.Int64(runner.ProxyFlagMaxBytes),
				Log:      rolecli.Log,
			}
			return serveEgress(c.String(runner.ProxyFlagSocket), p, os.Stdin, time.Duration(c.Int(runner.ProxyFlagLifetimeMS))*time.Millisecond)
		}),
	}
}

// serveEgress listens on path and serves until stdin ends or lifetime
// passes.
func serveEgress(path string, p *runner.EgressProxy, stdin io.Reader, lifetime time.Duration) error {
	if fi, err := os.Lstat(path); err == nil && fi.Mode().Type() == fs.ModeSocket {
		os.Remove(path)
	} else if err == nil {
		return fmt.Errorf("%s exists and is not a socket", path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	// The socket is made under a temporary name and renamed: the runner
	// waits for the final name, which then always accepts.
	tmp := path + ".tmp"
	os.Remove(tmp)
	ln, err := net.Listen("unix", tmp)
	if err != nil {
		return err
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	defer ln.Close()
	if err := os.Chmod(tmp, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	defer os.Remove(path)
	ctx, cancel := context.WithTimeout(context.Background(), lifetime)
	defer cancel()
	go func() {
		io.Copy(io.Discard, stdin)
		cancel()
	}()
	return p.Serve(ctx, ln)
}
