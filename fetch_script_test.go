package main

// The scripts' command for http_fetch: a web site on a Podman network of
// its own, for the egress proxy to fetch from.

import (
	"crypto/rand"
	"encoding/hex"
	"os/exec"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// fetchCmds are the commands the http_fetch scripts add.
var fetchCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"egresssite": cmdEgresssite,
}

// egresssite DIR: creates a Podman network of this script's own and
// starts busybox httpd on it, in a container from $TOOLS_IMAGE (run
// toolsimage first), serving DIR. $WEB_NET is the network, $WEB the web
// container's name (a DNS name on that network), $WEB_IP its address.
// Both are removed when the script ends.
func cmdEgresssite(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: egresssite DIR")
	}
	image := ts.Getenv("TOOLS_IMAGE")
	if image == "" {
		ts.Fatalf("egresssite: no $TOOLS_IMAGE: run toolsimage first")
	}
	var b [4]byte
	rand.Read(b[:])
	suffix := hex.EncodeToString(b[:])
	network, web := "bxegress-script-"+suffix, "bxweb-script-"+suffix
	podman := func(args ...string) string {
		out, err := exec.Command("podman", args...).CombinedOutput()
		if err != nil {
			ts.Fatalf("podman %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	podman("network", "create", network)
	ts.Defer(func() { exec.Command("podman", "network", "rm", "-f", network).Run() })
	ts.Defer(func() { exec.Command("podman", "rm", "-f", "-t", "0", web).Run() })
	podman("run", "-d", "--rm", "--pull", "never", "--name", web, "--network", network,
		"--runtime", "runc", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=256:256",
		"-v", ts.MkAbs(args[0])+":/www:ro", image, "/bin/busybox", "httpd", "-f", "-p", "80", "-h", "/www")
	ip := podman("inspect", "--format", `{{(index .NetworkSettings.Networks "`+network+`").IPAddress}}`, web)
	ts.Setenv("WEB_NET", network)
	ts.Setenv("WEB", web)
	ts.Setenv("WEB_IP", ip)
}
