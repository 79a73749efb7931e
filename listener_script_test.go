package main

import (
	"net"
	"strconv"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// held are the connections holdconns keeps open, per script.
var held = struct {
	sync.Mutex
	conns map[*testscript.TestScript][]net.Conn
}{conns: map[*testscript.TestScript][]net.Conn{}}

// holdconns PATH N: opens N connections to the socket at PATH and keeps
// them open without sending anything, as a client flooding a daemon
// would; releaseconns closes them.
func cmdHoldconns(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: holdconns PATH N")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("holdconns: %v", err)
	}
	held.Lock()
	defer held.Unlock()
	for range n {
		c, err := net.Dial("unix", ts.MkAbs(args[0]))
		if err != nil {
			ts.Fatalf("holdconns: %v", err)
		}
		held.conns[ts] = append(held.conns[ts], c)
	}
	ts.Defer(func() { releaseConns(ts) })
}

func cmdReleaseconns(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: releaseconns")
	}
	releaseConns(ts)
}

func releaseConns(ts *testscript.TestScript) {
	held.Lock()
	defer held.Unlock()
	for _, c := range held.conns[ts] {
		c.Close()
	}
	delete(held.conns, ts)
}
