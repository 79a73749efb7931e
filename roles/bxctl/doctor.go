package bxctl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"boxmaker/audit"
	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/core/gateway"
	"boxmaker/core/home"
	"boxmaker/core/policy"
	"boxmaker/core/role"
	"boxmaker/core/runner"
	"boxmaker/core/secrets"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
	"boxmaker/runbook"
)

func doctorCommands() []*cli.Command {
	return []*cli.Command{{
		Name:  "doctor",
		Usage: "check every daemon of a home: configs, sockets, Podman, the tools image, the grants, the audit chain",
		Description: "doctor reads each daemon's config (--home, --broker-config, ...; gatewayd's\n" +
			"only when it is configured: it is optional), asks each daemon on each of its\n" +
			"sockets whether it answers, checks that the daemons' configs name the same\n" +
			"sockets for each other, asks Podman about [runner] (the program, the tools\n" +
			"image, the runtime, the egress network), checks the grants, and verifies the\n" +
			"audit log's chain (as bxctl audit verify does, with the heads in [audit]\n" +
			"witness_file). It prints one line per finding, ok, warning or problem, each\n" +
			"problem with its runbook entry, and exits 1 when there is a problem. It\n" +
			"changes nothing and may run beside the daemons.",
		Flags: []cli.Flag{rolecli.JSONFlag},
		Action: rolecli.NoArgs(func(c *cli.Context) error {
			d := &doctor{}
			d.run(c)
			return d.report(c.App.Writer, rolecli.WantsJSON(c))
		}),
	}}
}

// finding is one line of the doctor's report.
type finding struct {
	Level string        `json:"level"` // ok, warning or problem
	About string        `json:"about"` // the daemon, or runner, grants, sockets
	Text  string        `json:"text"`
	Entry string        `json:"entry,omitempty"` // entry's name, for --json
	entry runbook.Entry // its runbook entry, if any
}

type doctor struct {
	findings []finding
}

func (d *doctor) ok(about, format string, args ...any) {
	d.findings = append(d.findings, finding{Level: "ok", About: about, Text: fmt.Sprintf(format, args...)})
}

func (d *doctor) warn(about, format string, args ...any) {
	d.findings = append(d.findings, finding{Level: "warning", About: about, Text: fmt.Sprintf(format, args...)})
}

// problem records err; a refusal brings its entry, or entry is used.
func (d *doctor) problem(about string, entry runbook.Entry, err error) {
	d.add("problem", about, entry, err)
}

// warnErr records err as a warning, with its entry as problem does.
func (d *doctor) warnErr(about string, err error) { d.add("warning", about, runbook.Entry{}, err) }

func (d *doctor) add(level, about string, entry runbook.Entry, err error) {
	f := finding{Level: level, About: about, Text: err.Error(), entry: entry}
	var r *runbook.Refusal
	if errors.As(err, &r) {
		f.Text, f.entry = r.Text, r.Entry
		if r.Cause != nil {
			f.Text += ": " + r.Cause.Error()
		}
	}
	f.Entry = f.entry.String()
	d.findings = append(d.findings, f)
}

// socketCheck is one socket a daemon serves: ping answers for all but
// inferproxy's, which is HTTP and only accepts.
type socketCheck struct {
	name, path string
	ping       bool
}

func (d *doctor) run(c *cli.Context) {
	var (
		b       conf.Brokerd
		m       conf.Memoryd
		l       conf.Loopd
		ip      conf.Inferproxy
		have    = map[role.Role]bool{}
		configs = []struct {
			daemonConfig
			v any
		}{{brokerConfig, &b}, {memoryConfig, &m}, {inferproxyConfig, &ip}, {loopConfig, &l}}
	)
	// The shape first (D880): what follows is what root's daemons see.
	if uid := os.Geteuid(); uid != 0 {
		d.problem("shape", runbook.RunAsRoot, runbook.Refuse(runbook.RunAsRoot,
			"bxctl doctor runs as uid %d: Boxmaker's daemons run as root, and the doctor checks what they see (root's Podman and the tools image, the audit log): run it with sudo (sudo env PATH=\"$PATH\" BOXMAKER_HOME=\"$BOXMAKER_HOME\" bxctl doctor)", uid))
		return
	}
	for _, cf := range configs {
		r := cf.role.Name
		path, err := cf.path(c)
		if err != nil {
			d.problem(r.String(), runbook.Entry{}, err)
			return // the home itself is wrong; nothing else can be found
		}
		var missing *conf.MissingError
		switch err := conf.Load(path, cf.v); {
		case errors.As(err, &missing):
			d.warn(r.String(), "no config at %s: not checked", path)
		case err != nil:
			d.problem(r.String(), cf.role.StartFailed, fmt.Errorf("%s", strings.ReplaceAll(err.Error(), "\n", "; ")))
		default:
			have[r] = true
			d.ok(r.String(), "%s is valid", path)
		}
	}
	// gatewayd is optional: checked only when its config sets something.
	var gw *gateway.Config
	if path, err := gatewayConfig.path(c); err == nil {
		gw = d.gatewaydConfig(path)
	}
	if have[role.Brokerd] {
		if err := (home.Home{Dir: b.Home}).RootOwned(); err != nil {
			d.problem("shape", runbook.RunAsRoot, err)
			return
		}
	}
	ctx, cancel := context.WithTimeout(c.Context, time.Minute)
	defer cancel()
	if have[role.Brokerd] {
		d.sockets(ctx, role.Brokerd, []socketCheck{{"broker", b.Sockets.Broker, true}, {"admin", b.Sockets.Admin, true}, {"state", b.Sockets.State, true}})
	}
	if have[role.Memoryd] {
		d.sockets(ctx, role.Memoryd, []socketCheck{{"block", m.Sockets.Block, true}, {"broker", m.Sockets.Broker, true}, {"admin", m.Sockets.Admin, true}})
	}
	inferproxyUp := false
	if have[role.Inferproxy] {
		inferproxyUp = d.sockets(ctx, role.Inferproxy, []socketCheck{{"listen", ip.Listen, false}})
	}
	if have[role.Loopd] {
		d.sockets(ctx, role.Loopd, []socketCheck{{"loop", l.Sockets.Loop, true}})
	}
	if have[role.Inferproxy] && have[role.Loopd] {
		d.model(ctx, ip, l, inferproxyUp)
	}
	if gw != nil {
		d.sockets(ctx, role.Gatewayd, []socketCheck{{"gateway", gw.Socket, true}})
	}
	// brokerd's courier hands approvals to gatewayd when brokerd.toml has
	// a [gateway] (its socket defaults to the home's gateway.sock).
	brokerGateway := ""
	if have[role.Brokerd] && b.Gateway != nil {
		brokerGateway = b.Gateway.SocketIn(b.Home)
	}
	switch {
	case gw == nil && brokerGateway != "":
		d.warn(role.Brokerd.String(), "[gateway] hands approvals to gatewayd at %s, but gatewayd is not configured: the courier retries in vain (remove [gateway] or configure gatewayd)", brokerGateway)
	case gw != nil && have[role.Brokerd] && brokerGateway == "" && len(gw.Approvers) > 0:
		d.warn(role.Gatewayd.String(), "[approvals] users are named, but brokerd.toml has no [gateway]: no approval is posted in Mattermost")
	}
	gwSocket, gwLoop := "", ""
	if gw != nil {
		gwSocket, gwLoop = gw.Socket, gw.LoopSocket
	}
	// Each client's config must name the socket its server's names.
	for _, p := range []struct {
		ok       bool
		client   role.Role
		ckey, cv string
		server   role.Role
		skey, sv string
		entry    runbook.Entry
	}{
		{have[role.Loopd] && have[role.Brokerd], role.Loopd, "[broker] socket", l.Broker.Socket, role.Brokerd, "[sockets] broker", b.Sockets.Broker, runbook.BrokerUnavailable},
		{have[role.Loopd] && have[role.Memoryd], role.Loopd, "[memory] socket", l.Memory.Socket, role.Memoryd, "[sockets] block", m.Sockets.Block, runbook.MemoryUnavailable},
		{have[role.Loopd] && have[role.Inferproxy], role.Loopd, "[inference] socket", l.Inference.Socket, role.Inferproxy, "listen", ip.Listen, runbook.LoopdStartFailed},
		{have[role.Brokerd] && have[role.Memoryd], role.Brokerd, "[memory] socket", b.Memory.Socket, role.Memoryd, "[sockets] broker", m.Sockets.Broker, runbook.MemorydUnreachable},
		{have[role.Memoryd] && have[role.Brokerd], role.Memoryd, "[broker] state", m.Broker.State, role.Brokerd, "[sockets] state", b.Sockets.State, runbook.MemoryUnavailable},
		{gw != nil && have[role.Loopd], role.Gatewayd, "[loop] socket", gwLoop, role.Loopd, "[sockets] loop", l.Sockets.Loop, runbook.LoopUnavailable},
		{gw != nil && brokerGateway != "", role.Brokerd, "[gateway] socket", brokerGateway, role.Gatewayd, "[approvals] socket", gwSocket, runbook.GatewayUnreachable},
	} {
		switch {
		case !p.ok:
		case p.cv != p.sv:
			d.problem(p.client.String(), p.entry, fmt.Errorf("%s's %s is %q, but %s's %s is %q: they must name the same socket", p.client, p.ckey, p.cv, p.server, p.skey, p.sv))
		default:
			d.ok(p.client.String(), "%s names %s's %s", p.ckey, p.server, p.skey)
		}
	}
	if !have[role.Brokerd] {
		return
	}
	rcfg := runner.ConfigFrom(b, runner.Instance(b.Home))
	rcfg.Store = runner.StoreFor(b.Home, rcfg.Instance) // brokerd's, as it sets it
	run, err := runner.New(rcfg)
	if err != nil {
		d.problem("runner", runbook.BrokerdStartFailed, err)
	} else if found := run.Check(ctx); len(found) > 0 {
		for _, err := range found {
			d.problem("runner", runbook.Entry{}, err)
		}
	} else {
		d.ok("runner", "podman runs and the tools image %s is loaded", b.Runner.Image)
		d.ok("runner", "Podman store %s, OCI runtime %s", rcfg.Store.Root, run.Runtime())
	}
	rep := policy.CheckWithWarnings(b.Paths.Grants)
	for _, p := range rep.Problems {
		d.problem("grants", runbook.GrantsInvalid, errors.New(p.String()))
	}
	for _, w := range rep.Warnings {
		d.warn("grants", "%s", w)
	}
	if len(rep.Problems) == 0 {
		d.ok("grants", "%d valid %s in %s", rep.Grants, plural(rep.Grants, "grant", "grants"), b.Paths.Grants)
	}
	d.auditChain(filepath.Join(b.Home, home.DirAudit), b.Audit.WitnessFile)
}

// gatewaydConfig judges gatewayd's config as gatewayd would at start
// (its token's shape, not the token: that is read only in gatewayd's
// unit), or says gatewayd is not configured. It returns nil unless the
// config is valid.
func (d *doctor) gatewaydConfig(path string) *gateway.Config {
	empty, err := conf.SetsNothing(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		d.ok(role.Gatewayd.String(), "no config at %s: gatewayd is not configured (it is optional)", path)
		return nil
	case err == nil && empty:
		d.ok(role.Gatewayd.String(), "%s sets nothing (every line is a comment): gatewayd is not configured", path)
		return nil
	}
	var raw conf.Gatewayd
	if err := conf.Load(path, &raw); err != nil {
		d.problem(role.Gatewayd.String(), runbook.GatewaydStartFailed, fmt.Errorf("%s", strings.ReplaceAll(err.Error(), "\n", "; ")))
		return nil
	}
	cfg, err := gateway.CheckConfig(path, raw)
	if err != nil {
		d.problem(role.Gatewayd.String(), runbook.GatewaydStartFailed, err)
		return nil
	}
	d.ok(role.Gatewayd.String(), "%s is valid", path)
	if w := secrets.Warning(cfg.TokenName, cfg.Token); w != nil {
		d.warnErr(role.Gatewayd.String(), w)
	}
	return cfg
}

// auditChain verifies the audit log as bxctl audit verify does, against
// the heads brokerd witnessed in witnessFile when it keeps one.
func (d *doctor) auditChain(dir, witnessFile string) {
	var o audit.VerifyOptions
	if witnessFile != "" {
		ws, _, err := readWitnessSource(witnessFile, nil)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// brokerd writes it at its first start.
		case err != nil:
			d.problem("audit", runbook.AuditWitnessMismatch, err)
		default:
			o.Witnesses = ws
		}
	}
	rep, err := audit.VerifyWith(dir, o)
	switch {
	case err != nil:
		d.problem("audit", runbook.AuditChainBroken, fmt.Errorf("cannot read the audit log: %w", err))
	case len(rep.Errors) > 0:
		d.problem("audit", runbook.AuditChainBroken, fmt.Errorf("the chain of %s fails at %d %s, the first %s (bxctl audit verify lists them)",
			dir, len(rep.Errors), plural(len(rep.Errors), "line", "lines"), rep.Errors[0]))
	case len(rep.WitnessErrors) > 0:
		d.problem("audit", runbook.AuditWitnessMismatch, fmt.Errorf("%s does not hold %d of the %d heads witnessed in %s, the first %s",
			dir, len(rep.WitnessErrors), rep.Witnessed, witnessFile, rep.WitnessErrors[0]))
	default:
		d.ok("audit", "the chain of %d %s in %s holds (%d witnessed %s)", rep.Records, plural(rep.Records, "record", "records"),
			dir, rep.Witnessed, plural(rep.Witnessed, "head", "heads"))
	}
}

// sockets asks role on each of its sockets, and says whether every one
// answered.
func (d *doctor) sockets(ctx context.Context, r role.Role, socks []socketCheck) bool {
	var answered, silent []string
	var why error
	for _, s := range socks {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		var err error
		if s.ping {
			err = daemon.Call(cctx, s.path, daemon.PingKind, nil, nil, nil)
		} else {
			var conn net.Conn
			if conn, err = (&net.Dialer{}).DialContext(cctx, "unix", s.path); err == nil {
				conn.Close()
			}
		}
		cancel()
		if err != nil {
			silent = append(silent, s.path)
			if why == nil && !errors.Is(err, syscall.ENOENT) && !errors.Is(err, syscall.ECONNREFUSED) {
				why = callError(r, s.path, err)
			}
			continue
		}
		answered = append(answered, s.path)
	}
	switch {
	case len(silent) == 0:
		d.ok(r.String(), "answers on %s", strings.Join(answered, ", "))
		return true
	case len(answered) == 0 && why == nil:
		d.problem(r.String(), runbook.DaemonNotRunning, fmt.Errorf("%s is not running: nothing listens on %s", r, strings.Join(silent, ", ")))
	case len(answered) == 0:
		d.problem(r.String(), runbook.DaemonNotRunning, fmt.Errorf("%s does not answer on %s: %v", r, strings.Join(silent, ", "), why))
	default:
		d.problem(r.String(), runbook.DaemonNotRunning, fmt.Errorf("%s answers on %s but not on %s", r, strings.Join(answered, ", "), strings.Join(silent, ", ")))
	}
	return false
}

func (d *doctor) report(w io.Writer, asJSON bool) error {
	problems, warnings := 0, 0
	for _, f := range d.findings {
		switch f.Level {
		case "problem":
			problems++
		case "warning":
			warnings++
		}
	}
	if asJSON {
		if err := rolecli.WriteJSON(w, struct {
			OK       bool      `json:"ok"`
			Findings []finding `json:"findings"`
		}{problems == 0, d.findings}); err != nil {
			return err
		}
	} else {
		for _, f := range d.findings {
			line := fmt.Sprintf("%s: %s: %s", f.Level, f.About, f.Text)
			if f.entry != (runbook.Entry{}) {
				line += "; " + runbook.Link(f.entry)
			}
			fmt.Fprintln(w, termsafe.Line(line))
		}
	}
	if problems > 0 {
		return fmt.Errorf("doctor: %d %s, %d %s", problems, plural(problems, "problem", "problems"), warnings, plural(warnings, "warning", "warnings"))
	}
	if !asJSON {
		fmt.Fprintf(w, "doctor: ok (%d %s)\n", warnings, plural(warnings, "warning", "warnings"))
	}
	return nil
}
