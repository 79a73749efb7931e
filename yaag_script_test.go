package main

// The scripts' commands for yaag: finding the address of a stand-in that
// listens on port 0.

import (
	"os"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// yaagCmds are the commands the yaag scripts add.
var yaagCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"addrvar": cmdAddrvar,
}

// addrvar VAR FILE: waits (10 s at most) for FILE, which a server started
// with --listen 127.0.0.1:0 writes its address to (llama-standin
// --addr-file), and sets VAR to that address.
func cmdAddrvar(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: addrvar VAR FILE")
	}
	path := ts.MkAbs(args[1])
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, err := os.ReadFile(path)
		if err == nil && strings.HasSuffix(string(data), "\n") {
			ts.Setenv(args[0], strings.TrimSpace(string(data)))
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("addrvar: %s was not written within 10 s", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
