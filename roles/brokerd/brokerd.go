// Package brokerd is the brokerd role's wiring: its flags, its config and
// its sockets. The decision path itself is core/broker, and so is its time
// of service (Broker.Serve: leftovers, start-up checks, the start and stop
// records); the ledger is package audit.
package brokerd

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"

	"boxmaker/audit"
	"boxmaker/core/broker"
	"boxmaker/core/brokerwire"
	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/core/home"
	"boxmaker/core/mcpserve"
	"boxmaker/core/policy"
	"boxmaker/core/role"
	"boxmaker/core/runner"
	"boxmaker/core/secrets"
	"boxmaker/roles/rolecli"
	"boxmaker/runbook"
)

// App is brokerd's command line.
func App() *cli.App {
	return rolecli.NewApp(rolecli.Brokerd.Name.String(), "decide, record and run the model's tool calls",
		rolecli.ServeCommand(rolecli.Brokerd, "serve the tool, admin and state sockets until stopped",
			"brokerd takes its lock run/brokerd.lock, then opens the audit log (taking the\n"+
				"log's own lock audit/.lock, checking the latest file, recovering a torn last\n"+
				"line), and removes the containers a killed brokerd left behind before it serves.",
			[]cli.Flag{
				&cli.BoolFlag{Name: rolecli.AcceptBreakFlag, Usage: "check the whole audit log and, if its chain is broken, record an accepted_break and go on (see docs/runbook.md, audit-chain-broken)"},
			}, serve))
}

func serve(c *cli.Context, path string, cfg conf.Brokerd) error {
	expire, _ := cfg.Approvals.Expire() // Validate checked it
	witness := cfg.Audit.Witness(cfg.Home)
	h := home.Home{Dir: cfg.Home}
	rcfg := runner.ConfigFrom(cfg, runner.Instance(cfg.Home))
	// Outside the home: a brokerd killed mid-call leaves its staging
	// mounts until it starts again, and an `rm -rf` of the home must not
	// reach through them into the owner's granted directories.
	rcfg.StageDir = runner.StageDir(rcfg.Instance)
	rcfg.Store = runner.StoreFor(cfg.Home, rcfg.Instance)
	rcfg.SeccompProfile = h.Path("run", "tools-seccomp.json")
	// The podman service's socket: root's alone, in the home, so never
	// granted or mounted (core/runner/servicerun.go).
	rcfg.ServiceDir = h.Path("run", "podman")
	// The service reads its own containers.conf, made from the one
	// Podman reads for brokerd (D1121).
	rcfg.ContainersConf = os.Getenv("CONTAINERS_CONF")
	rcfg.PeerUIDs = cfg.Sockets.AllowUIDs
	harness := append(policy.BrokerdHarness(cfg, path), policy.Harness{What: "the runner's staging directory", Path: rcfg.StageDir},
		policy.Harness{What: "the run-time directory of brokerd's Podman store", Path: filepath.Dir(rcfg.Store.RunRoot)})
	rcfg.Protected = policy.Protect(harness)
	if rolecli.CheckingConfig(c) {
		rcfg.SeccompProfile = "" // checks only: nothing is written
		rcfg.CgroupRoot = ""     // nor any cgroup made
	}
	run, err := runner.New(rcfg)
	if err != nil {
		return runbook.Refuse(runbook.BrokerdStartFailed, "%s: %v", path, err)
	}
	if rolecli.CheckingConfig(c) {
		return rolecli.Brokerd.ConfigValid(path)
	}
	defer run.Close() // the podman service ends with brokerd

	// The home's brokerd lock first, as every daemon's (already-running):
	// a second brokerd is told which lock it met before it touches the
	// log. The ledger's own lock stays a second guard, for a home whose
	// run/brokerd.lock was deleted under a running brokerd
	// (brokerd-already-running; docs/decisions.md, D900).
	d := rolecli.Brokerd.Daemon(cfg.Home, cfg.Sockets.AllowUIDs)
	defer d.Close()
	if err := d.Lock(); err != nil {
		return err
	}
	// All of brokerd's containers run under one cgroup parent holding
	// [runner] total_cpus and total_memory_mb: none runs without it.
	if err := run.PrepareCgroupParent(); err != nil {
		return runbook.Refuse(runbook.BrokerdStartFailed, "%s: [runner]: %v", path, err)
	}
	defer run.RemoveCgroupParent() // an empty one, after the calls
	if why := run.NoCgroupParent(); why != "" {
		fmt.Fprintf(rolecli.Log, "brokerd: runner: no cgroup parent: %s; each container keeps its own cpus and memory_mb, nothing bounds them together (set [runner] total_cpus to refuse to start here instead)\n", why)
	} else {
		fmt.Fprintf(rolecli.Log, "brokerd: runner: all containers under cgroup %s: %v CPUs, %d MiB\n", run.CgroupParent(), rcfg.TotalCPUs, rcfg.TotalMemoryMB)
	}
	// The ledger's lines are brokerd's ("brokerd: audit: ..."), but for
	// its heads, written whole for --witness to read from the journal.
	led, err := audit.Open(h.Path(home.DirAudit), audit.Options{AcceptBreak: c.Bool(rolecli.AcceptBreakFlag),
		Log: rolecli.LogAs(rolecli.Brokerd.Name), Heads: rolecli.Log,
		MaxFileSize: int64(cfg.Audit.MaxFileMB) << 20, WitnessFile: witness, WitnessEvery: cfg.Audit.WitnessEvery,
		Reserve: cfg.Audit.Reserve()})
	if err != nil {
		return err
	}
	defer led.Close()
	for _, n := range led.Notices() {
		fmt.Fprintf(rolecli.Log, "brokerd: %s\n", n)
	}
	grants := policy.Open(cfg.Paths.Grants, harness...)
	defer grants.Close()
	var courier *broker.Courier
	if cfg.Gateway != nil {
		courier = &broker.Courier{Socket: cfg.Gateway.SocketIn(cfg.Home), Log: func(format string, args ...any) {
			fmt.Fprintf(rolecli.Log, "brokerd: "+format+"\n", args...)
		}}
	}
	yaag := &broker.YaagRuns{Runner: run, Limits: cfg.Yaag.Limits(), LoopSocket: loopSocket(cfg.Home), Wait: cfg.Yaag.Wait(), Home: cfg.Home,
		Log: rolecli.Log, Free: freeSpace(cfg.Home), MinFree: cfg.Audit.MinFree()}
	// The MCP servers' tools: one container per (session, server), started
	// at a session's first call (docs/mcp.md); broker.Serve stops them.
	mcpPool := mcpserve.New(mcpserve.Config{Runner: run, Home: cfg.Home, Dir: cfg.Paths.MCPDir(), Harness: harness,
		Secrets: secrets.ProcessEnv(), Idle: cfg.MCP.Idle(), CallTimeout: cfg.MCP.CallTimeout(), Lifetime: cfg.MCP.Lifetime(),
		MaxServers: cfg.MCP.MaxServers, OutputLimit: rcfg.OutputLimit, Log: func(format string, args ...any) {
			fmt.Fprintf(rolecli.Log, "brokerd: "+format+"\n", args...)
		}})
	defer mcpPool.Close()
	b, err := broker.New(broker.Config{
		MCP:    mcpPool,
		Yaag:   yaag,
		Ledger: led, Grants: grants, Runner: run,
		SessionsDir:   h.Path(home.DirBrokerSessions),
		DomainsDir:    h.Path(home.DirBrokerDomains),
		MemorySocket:  cfg.Memory.Socket,
		MemoryTimeout: time.Duration(cfg.Memory.TimeoutMS) * time.Millisecond,
		ExpireAfter:   expire,
		OwnerUID:      cfg.Runner.OwnerUID, OwnerGID: cfg.Runner.OwnerGID,
		Log:     rolecli.Log,
		Decided: led.Decided(),
		Courier: courier,
		MinFree: cfg.Audit.MinFree(),
		Free:    freeSpace(h.Path(home.DirAudit)),
	})
	if err != nil {
		return err
	}
	d.Socket("broker", cfg.Sockets.Broker, map[string]daemon.Handler{brokerwire.KindToolCall: toolCall(b), brokerwire.KindSessionStart: sessionStart(b),
		brokerwire.KindToolsGranted: daemon.NoBody(func(context.Context, daemon.Peer, json.RawMessage, *daemon.Stream) (any, error) {
			return b.Granted(), nil
		}),
		brokerwire.KindMCPTools: daemon.Takes(func(_ context.Context, _ daemon.Peer, q brokerwire.MCPToolsRequest, _ *daemon.Stream) (any, error) {
			return b.MCPTools(q.Session)
		})})
	d.Socket("admin", cfg.Sockets.Admin, map[string]daemon.Handler{
		brokerwire.KindApprovalsList: daemon.NoBody(approvalsList(b)), brokerwire.KindApprovalShow: approvalShow(b),
		brokerwire.KindApprovalAnswer: approvalAnswer(b),
		brokerwire.KindSessionsState: daemon.Takes(func(_ context.Context, _ daemon.Peer, q brokerwire.SessionsStateRequest, _ *daemon.Stream) (any, error) {
			return b.SessionStates(q.Sessions)
		})})
	d.Socket("state", cfg.Sockets.State, map[string]daemon.Handler{brokerwire.KindSessionState: sessionState(b)})
	d.Ready = fmt.Sprintf("brokerd: serving tools on %s and approvals on %s", cfg.Sockets.Broker, cfg.Sockets.Admin)
	if err := d.Start(); err != nil {
		return err
	}
	// The store before the leftovers are looked for in it; a store that
	// cannot be made leaves every call runner-unavailable.
	fmt.Fprintf(rolecli.Log, "brokerd: runner: Podman store %s, OCI runtime %s\n", rcfg.Store.Root, run.Runtime())
	pctx, cancel := context.WithTimeout(c.Context, prepareWait)
	did, err := run.PrepareStore(pctx)
	cancel()
	switch {
	case err != nil:
		fmt.Fprintf(rolecli.Log, "brokerd: warning: %v\n", err)
	case did != "":
		fmt.Fprintf(rolecli.Log, "brokerd: %s\n", did)
	}
	return b.Serve(c.Context, run, d)
}

// prepareWait bounds brokerd's Podman store's preparation at start: the
// tools image's copy into it (seconds) on the first start of a home.
const prepareWait = 2 * time.Minute

// freeSpace measures what the file system of dir has free for an
// unprivileged user: what a tool writing as the owner can still fill.
func freeSpace(dir string) func() (int64, error) {
	return func() (int64, error) {
		var st unix.Statfs_t
		if err := unix.Statfs(dir, &st); err != nil {
			return 0, err
		}
		return int64(st.Bavail) * st.Bsize, nil
	}
}

func toolCall(b *broker.Broker) daemon.Handler {
	return daemon.Takes(func(ctx context.Context, _ daemon.Peer, tc brokerwire.ToolCall, s *daemon.Stream) (any, error) {
		return b.Call(broker.WithCallerGone(ctx, s.Gone()), tc, func(id string) {
			s.Send(brokerwire.Asked{Event: brokerwire.EventAsked, Approval: id})
		})
	})
}

func approvalsList(b *broker.Broker) daemon.Handler {
	return func(context.Context, daemon.Peer, json.RawMessage, *daemon.Stream) (any, error) {
		return brokerwire.ApprovalsList{Approvals: b.Pending()}, nil
	}
}

func approvalShow(b *broker.Broker) daemon.Handler {
	return daemon.Takes(func(_ context.Context, _ daemon.Peer, q brokerwire.ApprovalShow, _ *daemon.Stream) (any, error) {
		return b.Approval(q.ID)
	})
}

func approvalAnswer(b *broker.Broker) daemon.Handler {
	return daemon.Takes(func(_ context.Context, peer daemon.Peer, a brokerwire.ApprovalAnswer, _ *daemon.Stream) (any, error) {
		if a.Answer != brokerwire.Approve && a.Answer != brokerwire.Refuse {
			return nil, fmt.Errorf("the answer %q is neither approve nor refuse", a.Answer)
		}
		by := fmt.Sprintf("bxctl (uid %d, pid %d)", peer.UID, peer.PID)
		return b.AnswerApproval(a.ID, a.Answer == brokerwire.Approve, by, a.Why)
	})
}

func sessionStart(b *broker.Broker) daemon.Handler {
	return daemon.Takes(func(_ context.Context, _ daemon.Peer, s brokerwire.SessionStart, _ *daemon.Stream) (any, error) {
		st, err := b.StartSession(s)
		if err != nil {
			return nil, err
		}
		return brokerwire.SessionState{Taint: st.Taint.String(), Untrusted: st.Untrusted}, nil
	})
}

func sessionState(b *broker.Broker) daemon.Handler {
	return daemon.Takes(func(_ context.Context, _ daemon.Peer, q brokerwire.SessionStateRequest, _ *daemon.Stream) (any, error) {
		st, err := b.SessionState(q.Session)
		if err != nil {
			return nil, err
		}
		return brokerwire.SessionState{Taint: st.Taint.String(), Untrusted: st.Untrusted}, nil
	})
}

// loopSocket is the loop socket of this home's loopd, as yaag finds it
// for the owner: loopd's config's, else the home's default. brokerd gives
// it to the Runs it starts, which take no path from their directory.
func loopSocket(dir string) string {
	if p, err := rolecli.FindConfig("", dir, role.Loopd); err == nil {
		var l conf.Loopd
		if conf.Load(p, &l) == nil && l.Sockets.Loop != "" {
			return l.Sockets.Loop
		}
	}
	return home.Home{Dir: dir}.Path(home.SocketLoop)
}
