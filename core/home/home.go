// Package home is the layout of a Boxmaker home ($BOXMAKER_HOME): where
// each daemon keeps its files, its lock and its sockets.
//
//	audit/                     brokerd's hash-chained log (audit/.lock)
//	broker/sessions/<id>.json  each session's taint, written atomically
//	broker/domains/<id>.json   each yaag Run's taint domain (core/broker)
//	sessions/<id>/<epoch>.jsonl loopd's session logs
//	memory/{soul,memory,user,notes}.md
//	index/memory.sqlite3       the recall index (disposable)
//	gateway/state.json
//	etc/                       development configuration (and etc/grants/)
//	run/<role>.lock            single-instance locks
//	run/<socket-dir>/<name>.sock  one directory per socket, 0700
package home

import (
	"fmt"
	"os"
	"path/filepath"

	"boxmaker/core/role"
)

// Home is one Boxmaker home directory.
type Home struct{ Dir string }

// Path joins parts under the home.
func (h Home) Path(parts ...string) string {
	return filepath.Join(append([]string{h.Dir}, parts...)...)
}

// Lock is the single-instance lock file of a role.
func (h Home) Lock(r role.Role) string { return h.Path("run", r.String()+".lock") }

// Config is a role's configuration file in a development home, where
// boxmaker init writes it and every client looks first.
func (h Home) Config(r role.Role) string { return h.Path("etc", r.String()+".toml") }

// Grants is a development home's grants directory.
func (h Home) Grants() string { return h.Path("etc", "grants") }

// The default socket of each connection, relative to the home. Each socket
// has a directory of its own, named after who talks to whom.
const (
	SocketBrokerTools = "run/loop-broker/broker.sock"   // loopd -> brokerd
	SocketBrokerAdmin = "run/broker-admin/admin.sock"   // bxctl -> brokerd
	SocketBrokerState = "run/memory-broker/state.sock"  // memoryd -> brokerd
	SocketMemoryBlock = "run/loop-memory/memory.sock"   // loopd -> memoryd
	SocketMemoryTools = "run/broker-memory/memory.sock" // brokerd -> memoryd
	SocketMemoryAdmin = "run/memory-admin/admin.sock"   // bxctl -> memoryd
	SocketLoop        = "run/loop/loop.sock"            // gatewayd, bxctl chat -> loopd
	SocketInfer       = "run/infer/infer.sock"          // loopd -> inferproxy
	SocketGateway     = "run/gateway/gateway.sock"      // brokerd -> gatewayd
)

// The directories more than one part reads or writes, relative to the
// home: the writer and its readers name them by these.
const (
	DirAudit          = "audit"           // brokerd's log; bxctl audit verify, bxctl doctor
	DirBrokerSessions = "broker/sessions" // brokerd's session state files
	DirBrokerDomains  = "broker/domains"  // brokerd's yaag Runs' taint domains
	DirSessions       = "sessions"        // loopd's session logs; recall and the Honcho outbox read them
	DirMemory         = "memory"          // memoryd's identity files and notes; recall and the outbox read them
)

// Dirs are the directories a home has from the start.
var Dirs = []string{DirAudit, "broker", DirBrokerSessions, DirSessions, DirMemory, "index", "gateway", "run", "etc", "etc/grants"}

// Create makes the home's directories, private to the user (0700).
func (h Home) Create() error {
	if err := os.MkdirAll(h.Dir, 0o700); err != nil {
		return fmt.Errorf("cannot create %s: %w", h.Dir, err)
	}
	for _, d := range Dirs {
		p := h.Path(d)
		if err := os.MkdirAll(p, 0o700); err != nil {
			return fmt.Errorf("cannot create %s: %w", p, err)
		}
		if err := os.Chmod(p, 0o700); err != nil {
			return fmt.Errorf("cannot make %s private: %w", p, err)
		}
	}
	return nil
}
