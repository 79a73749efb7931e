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
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"boxmaker/core/role"
	"boxmaker/runbook"
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

// The one shape Boxmaker supports (D880): the daemons run as root (the
// tools run in root's Podman; rootless Podman is not supported), on a
// home root made, for one owner who is not root. The owner's bxctl reaches
// the home through the sockets its daemons' allow_uids open to the owner,
// and reads the configs through the home's group, the owner's (Share).

// RootOwned refuses a home whose directory is not root's: one an
// ordinary user made, which root's daemons must not serve (its configs
// and grants would be that user's to rewrite). A home that does not exist
// yet is fine.
func (h Home) RootOwned() error {
	fi, err := os.Stat(h.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read the home %s: %w", h.Dir, err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if ok && st.Uid != 0 {
		return runbook.Refuse(runbook.RunAsRoot,
			"the home %s belongs to uid %d, not root: the daemons run as root and serve only a home root made; make one as root (sudo boxmaker init --home NEWDIR) and move your grants there", h.Dir, st.Uid)
	}
	return nil
}

// Share gives the owner's group what the owner's bxctl needs of a home
// root made: the home, etc/, etc/grants/ and run/ become root:gid 0750,
// and etc/'s configs root:gid 0640 (they hold no secret: those are in
// [secrets] sources outside the home). Nothing below a link is touched:
// each entry must be a real directory or regular file of root's.
func (h Home) Share(gid int, configs []string) error {
	for _, d := range []string{h.Dir, h.Path("etc"), h.Grants(), h.Path("run")} {
		if err := shareOne(d, gid, 0o750, true); err != nil {
			return err
		}
	}
	for _, p := range configs {
		if err := shareOne(p, gid, 0o640, false); err != nil {
			return err
		}
	}
	return nil
}

func shareOne(p string, gid int, mode os.FileMode, dir bool) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return fmt.Errorf("cannot share %s with the owner's group: %w", p, err)
	}
	st, _ := fi.Sys().(*syscall.Stat_t)
	switch {
	case dir && !fi.IsDir(), !dir && !fi.Mode().IsRegular():
		return fmt.Errorf("cannot share %s with the owner's group: it is a link or not a %s", p, map[bool]string{true: "directory", false: "regular file"}[dir])
	case st == nil || st.Uid != 0:
		return fmt.Errorf("cannot share %s with the owner's group: it is not root's", p)
	}
	if err := os.Lchown(p, 0, gid); err != nil {
		return fmt.Errorf("cannot share %s with the owner's group: %w", p, err)
	}
	if err := os.Chmod(p, mode); err != nil {
		return fmt.Errorf("cannot share %s with the owner's group: %w", p, err)
	}
	return nil
}
