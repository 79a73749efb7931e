package boxmaker

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"boxmaker/audit"
	"boxmaker/core/broker"
	"boxmaker/core/conf"
	"boxmaker/core/daemon"
	"boxmaker/core/home"
	"boxmaker/core/llamastandin"
	"boxmaker/core/loop"
	"boxmaker/core/runner"
	"boxmaker/core/termsafe"
	"boxmaker/roles/rolecli"
)

// demoRoles are the daemons the demo needs, in the order up starts them.
var demoRoles = []string{"brokerd", "memoryd", "inferproxy", "loopd"}

// demoModel is the model's name the demo gives the stand-in and loopd.
const demoModel = "qwen3.5"

func demoCommand(roles []string) *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "show the whole stack at work in a temporary home (the README's first command)",
		Description: "demo builds and loads the tools image if Podman does not have it, makes a\n" +
			"temporary home with grants of its own, starts brokerd, memoryd, inferproxy and\n" +
			"loopd (as boxmaker up does), and plays a conversation through loopd's loop\n" +
			"socket: a granted read, a read outside the grants, an ask that the demo\n" +
			"approves, a write the session's taint forbids, a memory entry and its recall.\n" +
			"It ends with bxctl audit verify and a table of the calls, stops everything and\n" +
			"removes the home (unless --keep). It exits 1 naming the first step that did\n" +
			"not do what it should.\n\n" +
			"Without --model-url the model is a scripted stand-in whose replies are written\n" +
			"in advance; with it, a real llama-server answers the same messages.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "model-url", Usage: "drive the llama-server at `URL` (such as http://127.0.0.1:8080) instead of the scripted stand-in"},
			&cli.StringFlag{Name: "model", Usage: "the model's `NAME` at --model-url (default: the first of its /v1/models)"},
			&cli.BoolFlag{Name: "keep", Usage: "keep the temporary home (configs, audit log, sessions, memory, daemon output)"},
			&cli.StringFlag{Name: "home", Usage: "make the home at `DIR`, which must not exist, instead of a temporary one (removed at the end unless --keep)"},
			&cli.StringFlag{Name: "busybox", Value: defaultBusybox, Usage: "the static busybox `FILE` for the tools image"},
			&cli.StringFlag{Name: "podman", Value: "podman", Usage: "the Podman `PROGRAM`"},
		},
		Action: func(c *cli.Context) error {
			if err := rolecli.ExactArgs(c, 0, "no arguments"); err != nil {
				return err
			}
			if u := c.String("model-url"); u != "" {
				if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
					return rolecli.Usagef("--model-url %q is not an http:// or https:// URL", u)
				}
			}
			ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runDemo(ctx, demoOptions{
				ModelURL: strings.TrimRight(c.String("model-url"), "/"),
				Model:    c.String("model"),
				Keep:     c.Bool("keep"),
				Home:     c.String("home"),
				Busybox:  c.String("busybox"),
				Podman:   c.String("podman"),
			}, roles, os.Stdout)
		},
	}
}

// demoOptions are the demo's flags.
type demoOptions struct {
	ModelURL string // empty: the scripted stand-in
	Model    string
	Keep     bool
	Home     string // empty: a temporary directory
	Busybox  string
	Podman   string
}

// demoFiles are the files the conversation is about, in files/ beside
// the home: a grant can never cover brokerd's home.
type demoFiles struct {
	Root                          string // <demo dir>/files
	Project                       string // granted: read allowed (private), write allowed while the taint is private
	Secrets                       string // read asks the owner (secret)
	Outside                       string // no grant
	Readme, Token, Diary, Summary string
}

func newDemoFiles(dir string) demoFiles {
	f := demoFiles{Root: filepath.Join(dir, "files")}
	f.Project = filepath.Join(f.Root, "project")
	f.Secrets = filepath.Join(f.Root, "secrets")
	f.Outside = filepath.Join(f.Root, "outside")
	f.Readme = filepath.Join(f.Project, "README.md")
	f.Summary = filepath.Join(f.Project, "SUMMARY.md")
	f.Token = filepath.Join(f.Secrets, "api-token.txt")
	f.Diary = filepath.Join(f.Outside, "diary.txt")
	return f
}

// What the files hold; the checks look for the markers in what the agent
// was given.
const (
	readmeMarker = "Lighthouse watches a directory of logs"
	tokenMarker  = "staging.example.org"
	memoryEntry  = "The Lighthouse tests run with make check."
	memoryKey    = "make check" // what a model that words the entry its own way still writes
	recallWords  = "Lighthouse tests"
)

// write makes the files as the owner's, uid:gid (brokerd's tools act for
// that user).
func (f demoFiles) write(uid, gid int) error {
	files := []struct{ path, text string }{
		{f.Readme, "# Lighthouse\n\n" + readmeMarker + " and rings a bell when one of them says ERROR.\nIts tests run with `make check`.\n"},
		{f.Token, "demo token for " + tokenMarker + ": not-a-real-token-0000\n"},
		{f.Diary, "Dear diary: this file is outside every grant.\n"},
	}
	for _, x := range files {
		if err := os.MkdirAll(filepath.Dir(x.path), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(x.path, []byte(x.text), 0o600); err != nil {
			return err
		}
	}
	for _, p := range []string{f.Root, f.Project, f.Secrets, f.Outside, f.Readme, f.Token, f.Diary} {
		if err := os.Lchown(p, uid, gid); err != nil {
			return err
		}
	}
	return nil
}

// demoOwner is the user the demo's brokerd acts for: the one running the
// demo, or nobody (65534) when that is root, since tools never act as root.
func demoOwner() (uid, gid int) {
	if os.Geteuid() != 0 {
		return os.Geteuid(), os.Getegid()
	}
	return 65534, 65534
}

// demoGrant is one grant file the demo writes.
type demoGrant struct {
	file, tool, effect, path, class, maxTaint string
}

func (f demoFiles) grants() []demoGrant {
	return []demoGrant{
		{"read-project.toml", "read_file", "allow", f.Project, "private", "secret"},
		{"write-project.toml", "write_file", "allow", f.Project, "private", "private"},
		{"read-secrets.toml", "read_file", "ask", f.Secrets, "secret", "secret"},
		// A session that holds a secret may not write memory: every new
		// session's prompt carries memory.md. recall may find anything any
		// session saw, so what it yields is secret.
		{"memory.toml", "memory", "allow", "", "private", "private"},
		{"recall.toml", "recall", "allow", "", "secret", "secret"},
	}
}

func (g demoGrant) toml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# written by boxmaker demo\ntool = %q\neffect = %q\n", g.tool, g.effect)
	if g.path != "" {
		fmt.Fprintf(&b, "paths = [%q]\n", g.path)
	}
	fmt.Fprintf(&b, "class = %q\nmax_taint = %q\n", g.class, g.maxTaint)
	return b.String()
}

// demoStep is one message of the person and what must come of it.
type demoStep struct {
	title      string
	person     string
	newSession bool
	startTaint string // a new session's taint at its start: its memory block's class
	tool       string // the call the step is about
	target     string // its path; empty for memory and recall
	outcome    string // what brokerd must answer
	effect     string // the decision the audit log must hold
	taintAfter string // the session's taint after the call
	approve    bool   // the call waits on an approval the demo gives
	inBlock    bool   // the session's memory block must hold the memory entry
	gets       string // a text the agent must have been given
	script     []llamastandin.Turn
}

func demoSteps(f demoFiles) []demoStep {
	call := func(name string, args any) llamastandin.Turn {
		raw, _ := json.Marshal(args)
		return llamastandin.Turn{ToolCalls: []llamastandin.ToolCall{{Name: name, Arguments: raw}}}
	}
	say := func(text string) llamastandin.Turn { return llamastandin.Turn{Content: text} }
	return []demoStep{
		{
			title:  "a file the grants allow",
			person: fmt.Sprintf("Read %s and tell me in one sentence what the project is.", f.Readme),
			tool:   "read_file", target: f.Readme, outcome: broker.OutcomeAllowed, effect: "allow", taintAfter: "private",
			gets: readmeMarker,
			script: []llamastandin.Turn{
				call("read_file", map[string]string{"path": f.Readme}),
				say("Lighthouse watches a directory of logs and rings a bell when one of them says ERROR."),
			},
		},
		{
			title:  "a file outside the grants",
			person: fmt.Sprintf("Now read %s.", f.Diary),
			tool:   "read_file", target: f.Diary, outcome: broker.OutcomeDenied, effect: "deny", taintAfter: "private",
			gets: "no grant allows read_file",
			script: []llamastandin.Turn{
				call("read_file", map[string]string{"path": f.Diary}),
				say("I may not read that file: no grant covers it, so I will leave it alone."),
			},
		},
		{
			title:  "a secret the owner must approve",
			person: fmt.Sprintf("Read %s and tell me which server the token is for.", f.Token),
			tool:   "read_file", target: f.Token, outcome: broker.OutcomeApproved, effect: "ask", taintAfter: "secret",
			approve: true, gets: tokenMarker,
			script: []llamastandin.Turn{
				call("read_file", map[string]string{"path": f.Token}),
				say("You approved it: the token is for staging.example.org. This conversation now holds a secret."),
			},
		},
		{
			title:  "a write the session's taint forbids",
			person: fmt.Sprintf("Write a one-line summary of the project to %s.", f.Summary),
			tool:   "write_file", target: f.Summary, outcome: broker.OutcomeDenied, effect: "deny", taintAfter: "secret",
			gets: "once the session's taint is secret",
			script: []llamastandin.Turn{
				call("write_file", map[string]string{"path": f.Summary, "content": "Lighthouse rings a bell on ERROR lines.\n"}),
				say("I could not write it: this session holds a secret now, and the write grant stops at private data."),
			},
		},
		{
			title:      "a memory entry, in a new session",
			person:     fmt.Sprintf("This is a new conversation. Use your memory tool to remember this: %q", memoryEntry),
			newSession: true, startTaint: "public",
			tool: "memory", outcome: broker.OutcomeAllowed, effect: "allow", taintAfter: "private",
			script: []llamastandin.Turn{
				call("memory", map[string]any{"actions": []map[string]string{{"action": "add", "file": "memory", "text": memoryEntry}}}),
				say("Noted in my memory."),
			},
		},
		{
			title:      "recalling it, in another new session",
			person:     fmt.Sprintf("Another new conversation. Use recall to search past conversations for %q and tell me what you find.", recallWords),
			newSession: true, inBlock: true, startTaint: "public",
			tool: "recall", outcome: broker.OutcomeAllowed, effect: "allow", taintAfter: "secret",
			gets: memoryKey,
			script: []llamastandin.Turn{
				call("recall", map[string]any{"query": recallWords}),
				say("I found it in our earlier conversation: the Lighthouse tests run with make check."),
			},
		},
	}
}

// standinScript is the stand-in's part: loopd's selftest probe, then each
// step's replies in order.
func standinScript(steps []demoStep) llamastandin.Script {
	s := llamastandin.Script{Turns: []llamastandin.Turn{
		{When: loop.ProbePrompt, ToolCalls: []llamastandin.ToolCall{{Name: loop.ProbeTool, Arguments: json.RawMessage(`{"text":"ok"}`)}}},
		{When: loop.ProbeResult, Content: "ok"},
	}}
	for _, st := range steps {
		s.Turns = append(s.Turns, st.script...)
	}
	return s
}

// demoRun is the state of one demo.
type demoRun struct {
	o     demoOptions
	out   io.Writer
	exe   string
	h     home.Home
	files demoFiles
	rows  []demoRow
}

// demoRow is one tool call as the table shows it.
type demoRow struct {
	call, tool, target, outcome, approval string
}

func (d *demoRun) say(format string, args ...any) {
	fmt.Fprintf(d.out, format+"\n", args...)
}

// short shows a path of the demo relative to its files directory.
func (d *demoRun) short(p string) string {
	if rel, err := filepath.Rel(d.files.Root, p); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return p
}

func runDemo(ctx context.Context, o demoOptions, roles []string, out io.Writer) (err error) {
	for _, r := range demoRoles {
		if !slices.Contains(roles, r) {
			return fmt.Errorf("this binary has no %s role, which the demo needs (it has %s)", r, strings.Join(roles, ", "))
		}
	}
	d := &demoRun{o: o, out: out}
	if d.exe, err = executable(); err != nil {
		return err
	}
	if o.ModelURL == "" {
		d.say("demo: the model is a SCRIPTED STAND-IN (core/llamastandin), not a language model: its replies")
		d.say("demo: were written in advance. Every decision, audit record, container and memory write below")
		d.say("demo: is real. Run 'boxmaker demo --model-url URL' to drive a real llama-server instead.")
	} else {
		d.say("demo: the model is the llama-server at %s; its replies are its own", o.ModelURL)
	}

	// A real server is asked first: a wrong --model-url is told at once,
	// before the tools image is built.
	upstream, model := o.ModelURL, o.Model
	var props loop.Props
	if upstream != "" {
		if model == "" {
			if model, err = firstModel(ctx, upstream); err != nil {
				return err
			}
		}
		if props, err = modelProps(ctx, upstream, model); err != nil {
			return err
		}
	}
	image, err := d.toolsImage(ctx)
	if err != nil {
		return fmt.Errorf("the tools image: %w", err)
	}

	dir, err := demoHomeDir(o.Home)
	if err != nil {
		return err
	}
	d.h = home.Home{Dir: filepath.Join(dir, "home")}
	d.files = newDemoFiles(dir)
	defer func() {
		if o.Keep {
			d.say("demo: kept the home %s (--keep)", dir)
			return
		}
		if rerr := os.RemoveAll(dir); rerr != nil && err == nil {
			err = fmt.Errorf("cannot remove the demo's home: %w", rerr)
		}
	}()
	steps := demoSteps(d.files)

	if upstream == "" {
		srv, err := llamastandin.Start(llamastandin.Options{Model: demoModel, Script: standinScript(steps)})
		if err != nil {
			return fmt.Errorf("cannot start the stand-in: %w", err)
		}
		defer srv.Close()
		upstream, model = srv.URL(), demoModel
		if props, err = modelProps(ctx, upstream, model); err != nil {
			return err
		}
	}
	if err := d.makeHome(image, upstream, model, props); err != nil {
		return fmt.Errorf("cannot prepare the demo's home: %w", err)
	}
	d.say("demo: home %s (files the agent works on: %s)", dir, d.files.Root)
	d.say("demo: grants (etc/grants):")
	for _, g := range d.files.grants() {
		target := "-"
		if g.path != "" {
			target = d.short(g.path)
		}
		d.say("  %-20s %-10s %-5s %-8s class %-7s max_taint %s", g.file, g.tool, g.effect, target, g.class, g.maxTaint)
	}
	d.say("  (no grant covers %s: a call there is denied)", d.short(d.files.Outside))

	stack, err := d.startStack(ctx)
	if err != nil {
		return err
	}
	convErr := d.converse(ctx, steps)
	stopErr := stack.stop()
	if convErr != nil {
		stack.showTail(d.out)
		return convErr
	}
	if stopErr != nil {
		stack.showTail(d.out)
		return stopErr
	}
	if err := d.checkStopped(); err != nil {
		return err
	}
	if err := d.auditVerify(ctx); err != nil {
		return err
	}
	if err := d.table(steps); err != nil {
		return err
	}
	d.say("demo: ok: every step did what it should")
	return nil
}

// demoHomeDir makes the demo's home: dir, which must not exist, or a
// temporary directory. A socket's path must stay under 108 bytes, so a
// long $TMPDIR gives way to /tmp.
func demoHomeDir(dir string) (string, error) {
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", err
		}
		if err := os.Mkdir(abs, 0o700); err != nil {
			return "", fmt.Errorf("--home must name a directory that does not exist yet: %w", err)
		}
		return abs, nil
	}
	parent := os.TempDir()
	if len(filepath.Join(parent, "bxdemo-0123456789", home.SocketMemoryTools)) >= 108 {
		parent = "/tmp"
	}
	return os.MkdirTemp(parent, "bxdemo-")
}

// toolsImage builds and loads the tools image unless Podman has it.
func (d *demoRun) toolsImage(ctx context.Context) (string, error) {
	if err := runner.CheckStatic(d.exe); err != nil {
		return "", err
	}
	img := runner.ToolsImage{Executor: d.exe, Busybox: d.o.Busybox}
	id, err := img.ID()
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, d.o.Podman, "image", "exists", id)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		d.say("demo: the tools image %s is loaded", id)
		return id, nil
	case errors.As(err, &ee) && ee.ExitCode() == 1: // podman image exists: 1 is "no such image", 125 a failure
	default:
		return "", fmt.Errorf("%s image exists: %v %s", d.o.Podman, err, strings.TrimSpace(stderr.String()))
	}
	d.say("demo: building and loading the tools image (boxmaker tools-image)")
	if _, err := buildToolsImage(ctx, img, "", d.o.Podman, true); err != nil {
		return "", err
	}
	d.say("demo: the tools image %s is loaded", id)
	return id, nil
}

// firstModel is the first model a server lists at /v1/models.
func firstModel(ctx context.Context, base string) (string, error) {
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := getJSON(ctx, base+"/v1/models", &list); err != nil {
		return "", err
	}
	if len(list.Data) == 0 || list.Data[0].ID == "" {
		return "", fmt.Errorf("%s/v1/models lists no model; name one with --model", base)
	}
	return list.Data[0].ID, nil
}

// modelProps is what loopd's [expect] must say of the server: the demo
// pins it to what the server reports, since it is the server the person
// named (a deployment writes [expect] by hand; docs/inference-contract.md).
func modelProps(ctx context.Context, base, model string) (loop.Props, error) {
	var p struct {
		ChatTemplate string `json:"chat_template"`
		Default      struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
		TotalSlots int `json:"total_slots"`
	}
	if err := getJSON(ctx, base+"/props?model="+url.QueryEscape(model), &p); err != nil {
		return loop.Props{}, err
	}
	if p.ChatTemplate == "" || p.Default.NCtx == 0 || p.TotalSlots == 0 {
		return loop.Props{}, fmt.Errorf("%s/props has no chat_template, n_ctx or total_slots: is it llama-server?", base)
	}
	return loop.Props{ChatTemplate: p.ChatTemplate, NCtx: p.Default.NCtx, TotalSlots: p.TotalSlots}, nil
}

func getJSON(ctx context.Context, u string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return modelServerError(req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s: %s", u, resp.Status, strings.TrimSpace(string(body)))
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("GET %s: the answer is not JSON: %v", u, err)
	}
	return nil
}

// modelServerError says why the model server at u could not be asked, in
// the operator's words rather than the dialer's, and what to do.
func modelServerError(u *url.URL, err error) error {
	server := u.Scheme + "://" + u.Host
	standin := "or run boxmaker demo without --model-url: the scripted stand-in needs no model"
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return rolecli.WithHint(fmt.Errorf("no model server answers at %s: nothing listens there", server),
			"start llama-server there (llama-server -m MODEL.gguf --port "+u.Port()+"), or give --model-url where it listens", standin)
	case errors.As(err, &dnsErr):
		return rolecli.WithHint(fmt.Errorf("cannot find the model server's host %s: %v", u.Hostname(), dnsErr.Err), "check --model-url", standin)
	case errors.Is(err, context.DeadlineExceeded), os.IsTimeout(err):
		return rolecli.WithHint(fmt.Errorf("the model server at %s did not answer within 30s", server),
			"a server still loading its model answers 503 at once; one that says nothing may be another program", standin)
	}
	return rolecli.WithHint(fmt.Errorf("cannot ask the model server at %s: %v", server, errors.Unwrap(err)), standin)
}

// makeHome makes the home as boxmaker init does, then sets what the demo
// needs in the configs, the files and the grants. Each config is decoded
// strictly afterwards and checked, so a template that changed under the
// demo fails here rather than in a daemon.
func (d *demoRun) makeHome(image, upstream, model string, props loop.Props) error {
	if err := d.h.Create(); err != nil {
		return err
	}
	sum := sha256.Sum256([]byte(props.ChatTemplate))
	uid, gid := demoOwner()
	set := map[string][][2]string{
		"brokerd": {{"image", fmt.Sprintf("%q", image)}, {"expire_after", `"2m"`},
			{"owner_uid", fmt.Sprint(uid)}, {"owner_gid", fmt.Sprint(gid)}},
		"inferproxy": {{"upstream", fmt.Sprintf("%q", upstream)}},
		"loopd": {{"model", fmt.Sprintf("%q", model)}, {"chat_template_sha256", fmt.Sprintf("%q", hex.EncodeToString(sum[:]))},
			{"n_ctx_per_slot", fmt.Sprint(props.NCtx)}, {"slots", fmt.Sprint(props.TotalSlots)}},
	}
	for _, r := range conf.Roles {
		if !slices.Contains(demoRoles, r.Name) {
			continue
		}
		doc := r.RenderWith(conf.TemplateData{Home: d.h.Dir, ToolsImage: image})
		for _, kv := range set[r.Name] {
			re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(kv[0]) + ` = .*$`)
			if n := len(re.FindAllStringIndex(doc, -1)); n != 1 {
				return fmt.Errorf("%s.toml's template has %d lines setting %s, not 1", r.Name, n, kv[0])
			}
			doc = re.ReplaceAllLiteralString(doc, kv[0]+" = "+kv[1])
		}
		path := d.h.Path("etc", r.Name+".toml")
		v := r.New()
		if err := conf.Decode(path, []byte(doc), v); err != nil {
			return err
		}
		if err := checkDemoConfig(v, image, upstream, model); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
			return err
		}
	}
	if err := d.files.write(uid, gid); err != nil {
		return err
	}
	for _, g := range d.files.grants() {
		if err := os.WriteFile(d.h.Path("etc", "grants", g.file), []byte(g.toml()), 0o600); err != nil {
			return err
		}
	}
	return nil
}

func checkDemoConfig(v any, image, upstream, model string) error {
	switch c := v.(type) {
	case *conf.Brokerd:
		if c.Runner.Image != image || c.Approvals.ExpireAfter != "2m" {
			return fmt.Errorf("[runner] image or [approvals] expire_after did not take the demo's value")
		}
	case *conf.Inferproxy:
		if c.Upstream != upstream {
			return fmt.Errorf("upstream did not take the demo's value")
		}
	case *conf.Loopd:
		if c.Model != model || c.Expect.NCtxPerSlot == 0 || c.Expect.Slots == 0 {
			return fmt.Errorf("model or [expect] did not take the demo's values")
		}
	}
	return nil
}

// demoStack is the daemons, run by up in the background.
type demoStack struct {
	cancel context.CancelFunc
	done   chan error
	log    *tailWriter
	path   string
}

// tailWriter keeps the daemons' output in a file and its last lines in
// memory, to show them when something fails.
type tailWriter struct {
	mu    sync.Mutex
	f     *os.File
	lines []string
	part  string
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.f.Write(p)
	t.part += string(p)
	for {
		i := strings.IndexByte(t.part, '\n')
		if i < 0 {
			break
		}
		t.lines = append(t.lines, t.part[:i])
		t.part = t.part[i+1:]
		if len(t.lines) > 40 {
			t.lines = t.lines[len(t.lines)-40:]
		}
	}
	return len(p), nil
}

func (t *tailWriter) tail() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.lines)
}

func (s *demoStack) showTail(out io.Writer) {
	fmt.Fprintf(out, "demo: the daemons' last lines (all of them are in %s; --keep keeps it):\n", s.path)
	for _, l := range s.log.tail() {
		fmt.Fprintf(out, "  %s\n", l)
	}
}

// stop stops the daemons (up sends each SIGTERM, last started first) and
// waits for them.
func (s *demoStack) stop() error {
	s.cancel()
	err := <-s.done
	s.log.f.Close()
	if err != nil {
		return fmt.Errorf("stopping the daemons: %w", err)
	}
	return nil
}

// startStack runs up on the demo's home and waits until every daemon
// answers on its socket (loopd answers only after its selftest).
func (d *demoRun) startStack(ctx context.Context) (*demoStack, error) {
	path := d.h.Path("daemons.log")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	upCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &demoStack{cancel: cancel, done: make(chan error, 1), log: &tailWriter{f: f}, path: path}
	d.say("demo: starting %s (as boxmaker up does; their output goes to %s)", strings.Join(demoRoles, ", "), path)
	go func() { s.done <- up(upCtx, d.h, demoRoles, s.log, upOptions{}) }()
	sockets := []string{
		d.h.Path(home.SocketBrokerTools), d.h.Path(home.SocketMemoryBlock), d.h.Path(home.SocketLoop),
	}
	deadline := time.Now().Add(3 * time.Minute)
	for _, sock := range sockets {
		for {
			cctx, ccancel := context.WithTimeout(ctx, time.Second)
			err := daemon.Call(cctx, sock, "ping", nil, nil, nil)
			ccancel()
			if err == nil {
				break
			}
			select {
			case uerr := <-s.done:
				s.log.f.Close()
				s.showTail(d.out)
				if uerr == nil {
					uerr = errors.New("up returned before every daemon answered")
				}
				return nil, fmt.Errorf("the stack did not start: %w", uerr)
			case <-ctx.Done():
				s.stop()
				return nil, errors.New("interrupted while the daemons started")
			case <-time.After(100 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				s.stop()
				s.showTail(d.out)
				return nil, fmt.Errorf("the stack did not start: nothing answered on %s within 3 minutes: %v", sock, err)
			}
		}
	}
	d.say("demo: brokerd, memoryd, inferproxy and loopd are up (loopd's selftest passed against the model)")
	return s, nil
}

// turnLog is what one turn showed.
type turnLog struct {
	calls   []loop.Event // tool_call events
	results map[string]loop.Event
	asked   map[string]string // call id -> approval id
	reply   string
}

// converse plays the steps, each one turn, and checks each.
func (d *demoRun) converse(ctx context.Context, steps []demoStep) error {
	session, earlier := "", ""
	loopSock := d.h.Path(home.SocketLoop)
	for i, st := range steps {
		n := i + 1
		if st.newSession {
			earlier, session = session, ""
		}
		d.say("")
		d.say("== %d. %s", n, st.title)
		d.say("person: %s", st.person)
		tl := turnLog{results: map[string]loop.Event{}, asked: map[string]string{}}
		var res loop.TurnResult
		midLine := false
		endLine := func() {
			if midLine {
				fmt.Fprintln(d.out)
				midLine = false
			}
		}
		tctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		err := daemon.Call(tctx, loopSock, "turn", loop.TurnRequest{Session: session, Who: "owner", Text: st.person}, &res, func(raw json.RawMessage) error {
			var e loop.Event
			if err := json.Unmarshal(raw, &e); err != nil {
				return err
			}
			switch e.Event {
			case "session":
				if e.Session != session {
					endLine()
					d.say("  (session %s)", e.Session)
				}
			case "text":
				if !midLine {
					fmt.Fprint(d.out, "agent: ")
				}
				fmt.Fprint(d.out, termsafe.Text(e.Text))
				midLine = !strings.HasSuffix(e.Text, "\n")
			case "tool_call":
				endLine()
				tl.calls = append(tl.calls, e)
				d.say("  tool call %s: %s %s", e.CallID, e.Tool, d.shortArgs(e.Arguments))
			case "asked":
				endLine()
				tl.asked[e.CallID] = e.Approval
				d.say("  call %s waits for the owner: approval %s", e.CallID, e.Approval)
				if st.approve {
					if err := d.approve(tctx, e.Approval, e.CallID); err != nil {
						return fmt.Errorf("step %d (%s): %w", n, st.title, err)
					}
				}
			case "tool_result":
				endLine()
				tl.results[e.CallID] = e
				text := strings.ReplaceAll(strings.TrimSpace(e.Text), "\n", " | ")
				if len(text) > 160 {
					text = text[:160] + "..."
				}
				d.say("  call %s %s: %s", e.CallID, strings.ToUpper(e.Outcome), termsafe.Line(text))
			}
			return nil
		})
		cancel()
		endLine()
		switch {
		case err != nil && ctx.Err() != nil:
			return fmt.Errorf("interrupted at step %d (%s)", n, st.title)
		case err != nil:
			return fmt.Errorf("step %d (%s): the turn failed: %w", n, st.title, err)
		}
		session = res.Session
		tl.reply = res.Reply
		if st.newSession {
			if err := d.checkStart(session, st.startTaint); err != nil {
				return fmt.Errorf("step %d (%s): %w", n, st.title, err)
			}
		}
		if st.inBlock {
			if err := d.checkBaseline(session); err != nil {
				return fmt.Errorf("step %d (%s): %w", n, st.title, err)
			}
		}
		if err := d.check(st, tl, earlier); err != nil {
			return fmt.Errorf("step %d (%s): %w", n, st.title, err)
		}
	}
	return nil
}

// shortArgs shows a call's arguments with the demo's paths shortened.
func (d *demoRun) shortArgs(raw json.RawMessage) string {
	s := string(raw)
	s = strings.ReplaceAll(s, d.files.Root+"/", "")
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return termsafe.Line(s)
}

// checkStart makes sure brokerd recorded the new session's starting taint
// (the class of its memory block, which memoryd told loopd) before its
// first call, and says what it was.
func (d *demoRun) checkStart(session, want string) error {
	recs, err := d.auditRecords()
	if err != nil {
		return fmt.Errorf("cannot read the audit log: %w", err)
	}
	for i, r := range recs {
		if r.Type != audit.TypeSessionStart || r.Session != session {
			continue
		}
		for _, later := range recs[:i] {
			if later.Type == audit.TypeDecision && later.Session == session {
				return fmt.Errorf("the session %s had a call decided before its start was recorded", session)
			}
		}
		if r.Taint != want {
			return fmt.Errorf("the new session started at taint %s, not %s", r.Taint, want)
		}
		d.say("  check: the new session started at taint %s (%s)", r.Taint, r.Note)
		return nil
	}
	return fmt.Errorf("the audit log holds no session_start for the new session %s", session)
}

// approve answers an approval on brokerd's admin socket as 'bxctl
// approve' does, after checking that 'bxctl approvals' would list it.
func (d *demoRun) approve(ctx context.Context, id, call string) error {
	admin := d.h.Path(home.SocketBrokerAdmin)
	var list broker.ApprovalsList
	if err := daemon.Call(ctx, admin, broker.KindApprovalsList, nil, &list, nil); err != nil {
		return fmt.Errorf("bxctl approvals: %w", err)
	}
	var p *broker.Pending
	for i := range list.Approvals {
		if list.Approvals[i].ID == id {
			p = &list.Approvals[i]
		}
	}
	if p == nil {
		return fmt.Errorf("the approval %s is not among those pending (%d)", id, len(list.Approvals))
	}
	if p.Call != call {
		return fmt.Errorf("the approval %s is for call %s, not %s", id, p.Call, call)
	}
	d.say("  demo, as the owner: bxctl approvals lists %s (%s on %s); running 'bxctl approve %s'", id, p.Tool, d.short(p.Target), id)
	var ans broker.Pending
	if err := daemon.Call(ctx, admin, broker.KindApprovalAnswer, broker.ApprovalAnswer{ID: id, Answer: "approve"}, &ans, nil); err != nil {
		return fmt.Errorf("bxctl approve %s: %w", id, err)
	}
	d.say("  approve: %s approved (call %s: %s on %s)", ans.ID, ans.Call, ans.Tool, d.short(ans.Target))
	return nil
}

// check says whether a step did what it should: the model made the call,
// brokerd answered the outcome, the audit log holds the decision and the
// taint, and the agent was given what it should have been.
func (d *demoRun) check(st demoStep, tl turnLog, earlier string) error {
	var call *loop.Event
	for i, c := range tl.calls {
		if c.Tool != st.tool {
			continue
		}
		if st.target != "" {
			var a struct {
				Path string `json:"path"`
			}
			if json.Unmarshal(c.Arguments, &a) != nil || a.Path != st.target {
				continue
			}
		}
		call = &tl.calls[i]
		break
	}
	if call == nil {
		what := st.tool + " call"
		if st.target != "" {
			what += " on " + st.target
		}
		return fmt.Errorf("the model made no %s (it made %d tool calls)", what, len(tl.calls))
	}
	res, ok := tl.results[call.CallID]
	if !ok {
		return fmt.Errorf("call %s has no result", call.CallID)
	}
	approval := tl.asked[call.CallID]
	if st.approve && approval == "" {
		return fmt.Errorf("call %s did not wait for an approval", call.CallID)
	}
	if !st.approve && approval != "" {
		return fmt.Errorf("call %s waited for approval %s, which no grant should have asked", call.CallID, approval)
	}
	if res.Outcome != st.outcome {
		return fmt.Errorf("call %s was %s (%s), not %s", call.CallID, res.Outcome, res.Text, st.outcome)
	}
	if st.gets != "" && !strings.Contains(res.Text, st.gets) {
		return fmt.Errorf("call %s gave the agent %q, which lacks %q", call.CallID, res.Text, st.gets)
	}
	recs, err := d.auditCalls()
	if err != nil {
		return err
	}
	a, ok := recs[call.CallID]
	switch {
	case !ok:
		return fmt.Errorf("the audit log holds no decision for call %s", call.CallID)
	case a.effect != st.effect:
		return fmt.Errorf("the audit log holds the decision %s for call %s, not %s", a.effect, call.CallID, st.effect)
	case a.taintAfter() != st.taintAfter:
		return fmt.Errorf("the session's taint after call %s is %s, not %s", call.CallID, a.taintAfter(), st.taintAfter)
	}
	if st.tool == "memory" {
		data, err := os.ReadFile(d.h.Path("memory", "memory.md"))
		if err != nil || !strings.Contains(string(data), memoryKey) {
			return fmt.Errorf("memory/memory.md does not hold the entry (%q) (%v)", memoryKey, err)
		}
		d.say("  check: memory/memory.md holds the entry")
	}
	if st.tool == "recall" && earlier != "" {
		if !strings.Contains(res.Text, "session "+earlier) {
			return fmt.Errorf("recall found nothing of the earlier session %s: %q", earlier, res.Text)
		}
		d.say("  check: recall found the earlier session %s", earlier)
	}
	d.rows = append(d.rows, demoRow{call: call.CallID, tool: call.Tool, target: a.target, outcome: res.Outcome, approval: approval})
	d.say("  check: ok (%s, decision %s, taint now %s)", res.Outcome, a.effect, a.taintAfter())
	return nil
}

// checkBaseline makes sure a new session started with the memory entry in
// its memory block: its log's baseline record holds what memoryd gave.
func (d *demoRun) checkBaseline(session string) error {
	path := loop.LogPath(d.h.Path("sessions"), session, 0)
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	recs, err := loop.ParseLog(path, data)
	if err != nil {
		return err
	}
	if len(recs) == 0 || recs[0].Type != loop.TypeBaseline || !strings.Contains(recs[0].Memory, memoryKey) {
		return fmt.Errorf("the new session's memory block (the baseline of %s) lacks the entry (%q)", path, memoryKey)
	}
	d.say("  check: the new session's memory block holds the entry (memoryd gave it to loopd)")
	return nil
}

// auditCall is what the audit log says of one call.
type auditCall struct {
	tool, target, effect, grant, taint string
	result                             *audit.Record
}

// taintAfter is the session's taint after the call: its result's, or
// when it did not run, the taint it was decided at.
func (a auditCall) taintAfter() string {
	if a.result != nil && a.result.TaintAfter != "" {
		return a.result.TaintAfter
	}
	return a.taint
}

// auditRecords reads every record of the home's audit log, in order.
func (d *demoRun) auditRecords() ([]audit.Record, error) {
	dir := d.h.Path("audit")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if regexp.MustCompile(`^[0-9]{6,}\.jsonl$`).MatchString(e.Name()) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var recs []audit.Record
	for _, n := range names {
		f, err := os.Open(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			r, err := audit.ParseLine(sc.Bytes())
			if err != nil {
				continue // a line being written; bxctl audit verify judges the chain
			}
			recs = append(recs, r)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	return recs, nil
}

func (d *demoRun) auditCalls() (map[string]*auditCall, error) {
	recs, err := d.auditRecords()
	if err != nil {
		return nil, fmt.Errorf("cannot read the audit log: %w", err)
	}
	calls := map[string]*auditCall{}
	for i := range recs {
		r := &recs[i]
		switch r.Type {
		case audit.TypeDecision:
			calls[r.Call] = &auditCall{tool: r.Tool, target: r.Target, effect: r.Effect, grant: r.Grant, taint: r.Taint}
		case audit.TypeResult:
			if c, ok := calls[r.Call]; ok {
				c.result = r
			}
		}
	}
	return calls, nil
}

// checkStopped makes sure every daemon let go of its lock and brokerd
// wrote its stop record last.
func (d *demoRun) checkStopped() error {
	for _, r := range demoRoles {
		path := d.h.Lock(r)
		if r == "inferproxy" {
			path = d.h.Path(home.SocketInfer) + ".lock"
		}
		l, err := daemon.TakeLock(r, path)
		if err != nil {
			return fmt.Errorf("%s did not stop: %w", r, err)
		}
		l.Release()
	}
	recs, err := d.auditRecords()
	if err != nil {
		return fmt.Errorf("cannot read the audit log: %w", err)
	}
	if len(recs) == 0 || recs[len(recs)-1].Type != audit.TypeStop {
		return errors.New("brokerd did not write its stop record: it did not stop cleanly")
	}
	d.say("")
	d.say("demo: the daemons stopped cleanly")
	return nil
}

// auditVerify runs 'bxctl audit verify' on the home, as the operator would.
func (d *demoRun) auditVerify(ctx context.Context) error {
	cfg := d.h.Path("etc", "brokerd.toml")
	d.say("demo: bxctl --broker-config %s audit verify", cfg)
	cmd := exec.CommandContext(ctx, d.exe, "bxctl", "--broker-config", cfg, "audit", "verify")
	out, err := cmd.CombinedOutput()
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		d.say("  %s", l)
	}
	if err != nil {
		return fmt.Errorf("bxctl audit verify failed: %v", err)
	}
	if !strings.HasPrefix(string(out), "audit: ok") {
		return errors.New("bxctl audit verify did not say audit: ok")
	}
	return nil
}

// table prints what happened, one row per call, from the audit log.
func (d *demoRun) table(steps []demoStep) error {
	calls, err := d.auditCalls()
	if err != nil {
		return err
	}
	d.say("")
	d.say("demo: what happened (decisions and taint from the audit log)")
	w := tabwriter.NewWriter(d.out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "  STEP\tCALL\tTOOL\tTARGET\tDECISION\tOUTCOME\tTAINT AFTER")
	for i, r := range d.rows {
		a := calls[r.call]
		target := "-"
		if a.target != "" {
			target = d.short(a.target)
		}
		decision := a.effect
		if a.grant != "" {
			decision += " (" + strings.TrimSuffix(a.grant, ".toml") + ")"
		} else {
			decision += " (no grant)"
		}
		outcome := r.outcome
		if r.approval != "" {
			outcome += " (" + r.approval + ")"
		}
		fmt.Fprintf(w, "  %d\t%s\t%s\t%s\t%s\t%s\t%s\n", i+1, r.call, r.tool, target, decision, outcome, a.taintAfter())
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if len(d.rows) != len(steps) {
		return fmt.Errorf("the table has %d calls, the demo %d steps", len(d.rows), len(steps))
	}
	return nil
}
