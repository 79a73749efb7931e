package main

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// crashCmds are the crash and race suites: SIGKILL rounds and racing
// callers against the real binary, with real sockets and real Podman,
// which take minutes each. Only TestCrashSuites' scripts can run them.
var crashCmds = map[string]scriptCmd{
	"crashsuite":   cmdCrashsuite,   // brokerd-crash
	"racesuite":    cmdRacesuite,    // brokerd-race
	"crashcalls":   cmdCrashcalls,   // brokerd-leftovers
	"crashinit":    cmdCrashinit,    // brokerd-leftovers
	"memcrash":     cmdMemcrash,     // memoryd-crash
	"gatewaycrash": cmdGatewaycrash, // gatewayd-crash
	"yaagcrash":    cmdYaagcrash,    // yaag-crash
	"honchocrash":  cmdHonchocrash,  // honcho-crash
}

// TestCrashSuites runs the crash and race suites, testdata/crash/*.txtar,
// each a subtest by its script's name, so that one can be run, skipped
// and timed alone:
//
//	go test -tags "$BOXMAKER_TAGS" -run 'TestCrashSuites/brokerd-crash$' -v .
//
// They use the harness of TestScripts and its commands, and crashCmds
// besides. go test -short skips them all.
func TestCrashSuites(t *testing.T) {
	if testing.Short() {
		t.Skip("the crash and race suites (testdata/crash): go test without -short runs them")
	}
	testscript.Run(t, scriptParams(t, "testdata/crash", crashCmds))
}
