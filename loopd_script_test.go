package main

// The scripts' commands for loopd: switching the llama-server stand-in
// (core/llamastandin) while it runs, through its own POST /standin/switch.

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// loopdCmds are the commands the loopd scripts add.
var loopdCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"standin":     cmdStandin,
	"waitstandin": cmdWaitstandin,
}

// waitstandin FILE: waits for the address a stand-in started with
// --addr-file FILE writes (it listens on a free port) and sets $STANDIN
// to its URL.
func cmdWaitstandin(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitstandin FILE")
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		data, err := os.ReadFile(ts.MkAbs(args[0]))
		if err == nil && strings.HasSuffix(string(data), "\n") {
			ts.Setenv("STANDIN", "http://"+strings.TrimSpace(string(data)))
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("the stand-in wrote no address to %s: %v", args[0], err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// standin URL JSON: posts JSON (a llamastandin.Switch) to the stand-in's
// URL/standin/switch and fails unless it answers 200. The switch is the
// stand-in's own, no part of llama-server's API.
func cmdStandin(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: standin URL JSON")
	}
	c := &http.Client{Timeout: 20 * time.Second}
	resp, err := c.Post(strings.TrimSuffix(args[0], "/")+"/standin/switch", "application/json", bytes.NewReader([]byte(args[1])))
	if err != nil {
		ts.Fatalf("standin: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		ts.Fatalf("standin: the switch answered %d: %s", resp.StatusCode, body)
	}
}
