package boxmaker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"boxmaker/core/conf"
	"boxmaker/core/home"
	"boxmaker/core/llamastandin"
	"boxmaker/core/loop"
	"boxmaker/core/policy"
	"boxmaker/core/runner"
)

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

// demoGrant is one grant file the demo writes, in a grant's TOML shape.
type demoGrant struct {
	File     string        `toml:"-"`
	Tool     policy.Tool   `toml:"tool"`
	Effect   policy.Effect `toml:"effect"`
	Paths    []string      `toml:"paths,omitempty"`
	Class    policy.Taint  `toml:"class"`
	MaxTaint policy.Taint  `toml:"max_taint"`
}

func (f demoFiles) grants() []demoGrant {
	return []demoGrant{
		{"read-project.toml", policy.ReadFile, policy.Allow, []string{f.Project}, policy.Private, policy.Secret},
		{"write-project.toml", policy.WriteFile, policy.Allow, []string{f.Project}, policy.Private, policy.Private},
		{"read-secrets.toml", policy.ReadFile, policy.Ask, []string{f.Secrets}, policy.Secret, policy.Secret},
		// A session that holds a secret may not write memory: every new
		// session's prompt carries memory.md. recall may find anything any
		// session saw, so what it yields is secret.
		{"memory.toml", policy.Memory, policy.Allow, nil, policy.Private, policy.Private},
		{"recall.toml", policy.Recall, policy.Allow, nil, policy.Secret, policy.Secret},
	}
}

// makeDir makes the demo's directory (removed at the end unless --keep)
// and names its home and files.
func (d *demoRun) makeDir(context.Context) (err error) {
	if d.dir, err = demoHomeDir(d.o.Home); err != nil {
		return err
	}
	d.h = home.Home{Dir: filepath.Join(d.dir, "home")}
	d.files = newDemoFiles(d.dir)
	d.steps = demoSteps(d.files)
	d.undo = append(d.undo, func() error {
		if d.o.Keep {
			d.say("demo: kept the home %s (--keep)", d.dir)
			return nil
		}
		if err := os.RemoveAll(d.dir); err != nil {
			return fmt.Errorf("cannot remove the demo's home: %w", err)
		}
		return nil
	})
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

// loadToolsImage builds and loads the tools image unless Podman has it.
func (d *demoRun) loadToolsImage(ctx context.Context) error {
	if err := runner.CheckStatic(d.exe); err != nil {
		return err
	}
	img := runner.ToolsImage{Executor: d.exe, Busybox: d.o.Busybox}
	id, err := img.ID()
	if err != nil {
		return err
	}
	d.image = id
	cmd := exec.CommandContext(ctx, d.o.Podman, "image", "exists", id)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		d.say("demo: the tools image %s is loaded", id)
		return nil
	case errors.As(err, &ee) && ee.ExitCode() == 1: // podman image exists: 1 is "no such image", 125 a failure
	default:
		return fmt.Errorf("%s image exists: %v %s", d.o.Podman, err, strings.TrimSpace(stderr.String()))
	}
	d.say("demo: building and loading the tools image (boxmaker tools-image)")
	if _, err := buildToolsImage(ctx, img, "", d.o.Podman, true); err != nil {
		return err
	}
	d.say("demo: the tools image %s is loaded", id)
	return nil
}

// startModel starts the scripted stand-in, unless --model-url named a
// server, and asks it what loopd's [expect] must say.
func (d *demoRun) startModel(ctx context.Context) error {
	if d.upstream != "" {
		return nil
	}
	srv, err := llamastandin.Start(llamastandin.Options{Model: demoModel, Script: standinScript(d.steps)})
	if err != nil {
		return err
	}
	d.undo = append(d.undo, func() error { srv.Close(); return nil })
	d.upstream, d.model = srv.URL(), demoModel
	d.props, err = modelProps(ctx, d.upstream, d.model)
	return err
}

// makeHome makes the home as boxmaker init does, with the configs init
// writes decoded into their structs, the demo's values set there and the
// structs written back with go-toml; then the files and the grants.
func (d *demoRun) makeHome(context.Context) error {
	if err := d.h.Create(); err != nil {
		return err
	}
	uid, gid := demoOwner()
	for _, r := range conf.Roles {
		if !slices.Contains(demoRoles, r.Name) {
			continue
		}
		path := d.h.Config(r.Name)
		v := r.New()
		if err := conf.Decode(path, []byte(r.Render(d.h.Dir)), v); err != nil {
			return err
		}
		switch c := v.(type) {
		case *conf.Brokerd:
			c.Runner.Image = d.image
			c.Runner.OwnerUID, c.Runner.OwnerGID = uid, gid
			c.Approvals.ExpireAfter = "2m"
		case *conf.Inferproxy:
			c.Upstream = d.upstream
		case *conf.Loopd:
			// The demo pins [expect] to what the server reports, since it
			// is the server the person named (a deployment writes it by
			// hand or with init --model-url; docs/inference-contract.md).
			c.Model = d.model
			c.Expect.ChatTemplateSHA256 = loop.TemplateSHA256(d.props.ChatTemplate)
			c.Expect.NCtxPerSlot, c.Expect.Slots = d.props.NCtx, d.props.TotalSlots
		}
		if err := writeTOML(path, "# written by boxmaker demo from "+r.Name.String()+".toml's defaults\n", v); err != nil {
			return err
		}
	}
	if err := d.files.write(uid, gid); err != nil {
		return err
	}
	for _, g := range d.files.grants() {
		if err := writeTOML(filepath.Join(d.h.Grants(), g.File), "# written by boxmaker demo\n", g); err != nil {
			return err
		}
	}
	d.say("demo: home %s (files the agent works on: %s)", d.dir, d.files.Root)
	d.say("demo: grants (etc/grants):")
	for _, g := range d.files.grants() {
		target := "-"
		if len(g.Paths) > 0 {
			target = d.short(g.Paths[0])
		}
		d.say("  %-20s %-10s %-5s %-8s class %-7s max_taint %s", g.File, g.Tool, g.Effect, target, g.Class, g.MaxTaint)
	}
	d.say("  (no grant covers %s: a call there is denied)", d.short(d.files.Outside))
	return nil
}

// writeTOML writes v with go-toml, after a comment, as a 0600 file.
func writeTOML(path, comment string, v any) error {
	raw, err := toml.Marshal(v)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, append([]byte(comment), raw...), 0o600)
}
