package main

// The scripts' commands for the audit log: damage as someone covering
// their tracks would do it.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"

	"github.com/rogpeppe/go-internal/testscript"

	"boxmaker/audit"
)

var auditCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"auditrechain": cmdAuditRechain,
}

// auditrechain FILE SESSION CALL: removes every record of the call from
// the log file and recomputes every later seq and prev, so that the chain
// holds again (what `bxctl audit verify` alone cannot see).
func cmdAuditRechain(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: auditrechain FILE SESSION CALL")
	}
	path := ts.MkAbs(args[0])
	data, err := os.ReadFile(path)
	ts.Check(err)
	var out bytes.Buffer
	var seq uint64
	prev := ""
	dropped := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		r, err := audit.ParseLine(sc.Bytes())
		ts.Check(err)
		if seq == 0 {
			seq, prev = r.Seq, r.Prev
		}
		if r.Session == args[1] && r.Call == args[2] {
			dropped++
			continue
		}
		r.Seq, r.Prev = seq, prev
		line, err := json.Marshal(r)
		ts.Check(err)
		sum := sha256.Sum256(line)
		seq, prev = seq+1, hex.EncodeToString(sum[:])
		out.Write(append(line, '\n'))
	}
	ts.Check(sc.Err())
	if dropped == 0 {
		ts.Fatalf("auditrechain: no record of call %s of session %s in %s", args[2], args[1], args[0])
	}
	ts.Check(os.WriteFile(path, out.Bytes(), 0o600))
}
