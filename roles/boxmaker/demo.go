package boxmaker

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/home"
	"boxmaker/core/loop"
	"boxmaker/core/role"
	"boxmaker/roles/rolecli"
)

// demoRoles are the daemons the demo needs, in the order up starts them:
// those init writes a whole config for (conf.Roles).
var demoRoles = func() []role.Role {
	var names []role.Role
	for _, r := range conf.Roles {
		names = append(names, r.Name)
	}
	return names
}()

// demoModel is the model's name the demo gives the stand-in and loopd.
const demoModel = "qwen3.5"

func demoCommand(roles []role.Role) *cli.Command {
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
			modelFlag,
			&cli.BoolFlag{Name: "keep", Usage: "keep the temporary home (configs, audit log, sessions, memory, daemon output)"},
			&cli.StringFlag{Name: "home", Usage: "make the home at `DIR`, which must not exist, instead of a temporary one (removed at the end unless --keep)"},
			busyboxFlag,
			podmanFlag,
		},
		Action: rolecli.NoArgs(func(c *cli.Context) error {
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
		}),
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

// demoRun is the state of one demo, filled in by its stages.
type demoRun struct {
	o     demoOptions
	out   io.Writer
	exe   string
	dir   string // the demo's directory: home/ and files/
	h     home.Home
	files demoFiles
	steps []demoStep
	rows  []demoRow

	upstream, model string // the model server loopd reaches through inferproxy
	props           loop.Props
	image           string // the tools image's ID
	stack           *demoStack
	undo            []func() error // what the stages leave to be undone, in order
}

// demoStage is one stage of the demo: what it does, and the words its
// failure is put after ("" when the failure says where it happened).
type demoStage struct {
	run  func(*demoRun, context.Context) error
	wrap string
}

// demoStages are the demo, in order. A real server is asked first, so a
// wrong --model-url is told at once, before the tools image is built.
var demoStages = []demoStage{
	{(*demoRun).askModel, ""},
	{(*demoRun).loadToolsImage, "the tools image"},
	{(*demoRun).makeDir, ""},
	{(*demoRun).startModel, "cannot start the stand-in"},
	{(*demoRun).makeHome, "cannot prepare the demo's home"},
	{(*demoRun).startStack, ""},
	{(*demoRun).converse, ""},
	{(*demoRun).stopStack, ""},
	{(*demoRun).checkStopped, ""},
	{(*demoRun).auditVerify, ""},
	{(*demoRun).table, ""},
}

func runDemo(ctx context.Context, o demoOptions, roles []role.Role, out io.Writer) (err error) {
	for _, r := range demoRoles {
		if !slices.Contains(roles, r) {
			return fmt.Errorf("this binary has no %s role, which the demo needs (it has %s)", r, strings.Join(role.Names(roles), ", "))
		}
	}
	d := &demoRun{o: o, out: out}
	if d.exe, err = executable(); err != nil {
		return err
	}
	defer func() {
		for i := len(d.undo) - 1; i >= 0; i-- {
			if uerr := d.undo[i](); uerr != nil && err == nil {
				err = uerr
			}
		}
	}()
	if o.ModelURL == "" {
		d.say("demo: the model is a SCRIPTED STAND-IN (core/llamastandin), not a language model: its replies")
		d.say("demo: were written in advance. Every decision, audit record, container and memory write below")
		d.say("demo: is real. Run 'boxmaker demo --model-url URL' to drive a real llama-server instead.")
	} else {
		d.say("demo: the model is the llama-server at %s; its replies are its own", o.ModelURL)
	}
	for _, st := range demoStages {
		if err := st.run(d, ctx); err != nil {
			if st.wrap != "" {
				err = fmt.Errorf("%s: %w", st.wrap, err)
			}
			return err
		}
	}
	d.say("demo: ok: every step did what it should")
	return nil
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

// askModel learns the model's name and what loopd's [expect] must say
// from the server --model-url names; the stand-in is asked once started.
func (d *demoRun) askModel(ctx context.Context) (err error) {
	if d.o.ModelURL == "" {
		return nil
	}
	d.upstream, d.model = d.o.ModelURL, d.o.Model
	if d.model == "" {
		if d.model, err = firstModel(ctx, d.upstream); err != nil {
			return err
		}
	}
	d.props, err = modelProps(ctx, d.upstream, d.model)
	return err
}
