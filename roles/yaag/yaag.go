// Package yaag is the yaag role's wiring: its commands and flags, finding
// its config files, the Registry Files and loopd's socket, and printing a
// Run's events. Loading programs, running them and their Agents is
// core/yaag.
package yaag

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"boxmaker/core/conf"
	"boxmaker/core/home"
	"boxmaker/core/jsonkeys"
	"boxmaker/core/loopwire"
	"boxmaker/core/role"
	"boxmaker/core/termsafe"
	"boxmaker/core/yaag/agent"
	"boxmaker/core/yaag/cassette"
	"boxmaker/core/yaag/catalog"
	"boxmaker/core/yaag/config"
	"boxmaker/core/yaag/engine"
	"boxmaker/core/yaag/program"
	"boxmaker/core/yaag/runs"
	"boxmaker/core/yaag/snapshot"
	"boxmaker/roles/rolecli"
	"boxmaker/runbook"
)

// App is yaag's command line.
func App() *cli.App {
	return rolecli.NewApp(role.Yaag.String(), "runs agent programs (TypeScript) whose Agents are Boxmaker loop sessions",
		runCommand(), describeCommand(), setupWorkspaceCommand(),
		runsCommand(), statusCommand(), pauseCommand(), stopCommand(), reattachCommand(), answerCommand())
}

// Texts the troubleshooting page quotes.
const textNeedsProgram runbook.Quoted = "needs the program too: give <program.ts>, --eval <source>, or --eval-fd <n>."

// ExitPaused is the exit status of a Run that stopped for the person's
// answers (or a pause): its Checkpoint is written.
const ExitPaused = 3

// usage is a usage error, with the command's usage text printed first.
// jsonWhere is a JSON parse error in words, with the byte it stopped at.
func jsonWhere(err error) string {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("%v (at byte %d)", se, se.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "it ends too soon"
	}
	return err.Error()
}

func usage(c *cli.Context, format string, args ...any) error {
	cli.HelpPrinter(c.App.ErrWriter, cli.CommandHelpTemplate, c.Command)
	return rolecli.Usagef(format, args...)
}

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      runs.RunCommand,
		Usage:     "run a program: a file, or an inline program",
		ArgsUsage: "<program.ts> | --eval SOURCE | --eval-fd N",
		Description: "run bundles the program (types stripped, imports resolved from its directory),\n" +
			"runs it in the binary, and prints its result as JSON. Each Agent it spawns is a\n" +
			"hermetic loopd session: every tool call is decided by brokerd's grants, audited\n" +
			"and run in a container. An inline program is at most 65536 bytes and may import\n" +
			"@yaag/runtime and typebox only. Config: the global file, .yaag/config.toml in\n" +
			"the Program Directory, then --config (docs/yaag/configuration.md).\n\n" +
			"Every Run is recorded: its steps go to a journal beside its Cassette as they\n" +
			"complete, and the Cassette is published at the end (--record PATH, else\n" +
			"$BOXMAKER_HOME/yaag/runs/<run>.cassette.json). --replay CASSETTE answers every\n" +
			"step from the Cassette, offline; --resume CASSETTE replays the steps that still\n" +
			"match and runs the rest live (a Checkpoint needs its answers: --answers FILE).\n" +
			"A Cassette never holds the program: give it too. yaag status|pause|stop RUN\n" +
			"use the Run's Control Channel (docs/yaag/cli.md).\n" +
			"Exit status: 0 done, 1 the Run or a config file failed, 2 usage, 3 the Run\n" +
			"waits for answers (or was paused): its Checkpoint says how to go on.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "eval", Usage: "run the inline program `SOURCE`"},
			&cli.IntFlag{Name: runs.FlagEvalFD, Value: -1, Usage: "run the inline program read from file descriptor `N`"},
			&cli.StringFlag{Name: "config", Usage: "read the config `FILE` last (it must exist)"},
			&cli.BoolFlag{Name: "no-config", Usage: "skip the global and the project config files"},
			&cli.StringFlag{Name: runs.FlagProfile, Usage: "run with the Profile `NAME`"},
			&cli.StringFlag{Name: runs.FlagInput, Usage: "the program's input, `JSON` checked against its input schema"},
			&cli.BoolFlag{Name: runs.FlagJSON, Usage: "print the Run's events and its result as JSON lines"},
			&cli.StringFlag{Name: "record", Usage: "publish the Run's Cassette at `PATH` (its directory is made)"},
			&cli.StringFlag{Name: "replay", Usage: "answer every step from the Cassette at `PATH`, offline"},
			&cli.StringFlag{Name: "resume", Usage: "continue the Run of the Cassette or Checkpoint at `PATH`"},
			&cli.StringFlag{Name: "answers", Usage: "answer a Checkpoint's questions from the JSON `FILE` {\"<key>\": \"<answer>\"} (with --resume)"},
			// brokerd's yaag_run: read no file outside the decided directory.
			&cli.StringFlag{Name: runs.FlagRoot, Hidden: true, Usage: "read program files only under `DIR`"},
			&cli.StringFlag{Name: runs.FlagHostSession, Hidden: true, Usage: "the `SESSION` whose yaag_run started the Run"},
			&cli.BoolFlag{Name: runs.FlagForkHost, Hidden: true, Usage: "copy the host session for fork: ctx.host"},
			&cli.StringFlag{Name: runs.FlagLoopSocket, Hidden: true, Usage: "connect to loopd's loop socket `PATH` (brokerd's, with --root)"},
			&cli.BoolFlag{Name: runs.FlagManifest, Hidden: true, Usage: "with --root: print the files the Run would read, with their SHA-256, and run nothing"},
			&cli.StringFlag{Name: runs.FlagApproved, Hidden: true, Usage: "with --root: run only when the files read have the manifest SHA-256 `HASH`"},
			&cli.StringFlag{Name: runs.FlagRunID, Hidden: true, Usage: "the Run's `ID`, chosen by brokerd"},
			&cli.IntFlag{Name: runs.FlagControlUID, Value: -1, Hidden: true, Usage: "a `UID` the Control Channel lets in besides the Run's own"},
		},
		Action: runAction,
	}
}

// source is a program as the command line gives it.
type source struct {
	file   string
	inline []byte
	dir    string
}

// lateFlags reads the flags given after the program (`yaag run p.ts
// --json`) as rolecli.ArgsAndLateFlags does, and returns the arguments
// that are left; on a usage error it prints the command's usage first, as
// yaag's other usage errors do.
func lateFlags(c *cli.Context) ([]string, error) {
	args, err := rolecli.ArgsAndLateFlags(c)
	if err != nil {
		cli.HelpPrinter(c.App.ErrWriter, cli.CommandHelpTemplate, c.Command)
	}
	return args, err
}

func readSource(c *cli.Context) (source, error) {
	args, err := lateFlags(c)
	if err != nil {
		return source{}, err
	}
	given := 0
	if len(args) > 0 {
		given++
	}
	if c.IsSet("eval") {
		given++
	}
	if c.IsSet(runs.FlagEvalFD) {
		given++
	}
	if given == 0 && (c.IsSet("replay") || c.IsSet("resume")) {
		flag := "--replay"
		if c.IsSet("resume") {
			flag = "--resume"
		}
		return source{}, usage(c, "%s %s", flag, runbook.Refuse(runbook.YaagNeedsProgram, "%s A Cassette holds the steps of a Run, never its program", textNeedsProgram))
	}
	if given != 1 || len(args) > 1 {
		return source{}, usage(c, "run takes one program: <program.ts>, --eval SOURCE or --eval-fd N")
	}
	var s source
	switch {
	case c.IsSet("eval"):
		s.inline = []byte(c.String("eval"))
	case c.IsSet(runs.FlagEvalFD):
		fd := c.Int(runs.FlagEvalFD)
		if fd < 0 {
			return s, usage(c, "--eval-fd %d is not a file descriptor", fd)
		}
		f := os.NewFile(uintptr(fd), "fd "+strconv.Itoa(fd))
		data, err := io.ReadAll(io.LimitReader(f, program.MaxInline+1))
		f.Close()
		if err != nil {
			return s, fmt.Errorf("cannot read the inline program from file descriptor %d: %v", fd, err)
		}
		s.inline = data
	default:
		s.file = args[0]
	}
	if s.file == "" {
		if err := program.CheckInline(s.inline); err != nil {
			return s, err
		}
		wd, err := os.Getwd()
		if err != nil {
			return s, err
		}
		s.dir = wd
	} else {
		abs, err := filepath.Abs(s.file)
		if err != nil {
			return s, err
		}
		s.dir = filepath.Dir(abs)
	}
	return s, nil
}

// bundle bundles the program: from the Tree for a confined Run, else
// read by esbuild (the owner's).
func (s source) bundle(tree *snapshot.Tree) (*program.Bundle, error) {
	switch {
	case s.file == "":
		return program.Inline(s.inline, s.dir)
	case tree != nil:
		abs, err := filepath.Abs(s.file)
		if err != nil {
			return nil, err
		}
		return program.FileIn(tree, abs)
	}
	return program.File(s.file)
}

// confine reads a confined Run's files once, beneath root: the project
// config (cfg is read from the Tree), the program and its imports, the
// Registry File and every module it names; then it seals the Tree, so
// that the Run reads nothing more, and checks the manifest against the
// approved one. manifest is set when only the manifest was asked for.
func confine(c *cli.Context, tree *snapshot.Tree, src source, cat catalog.Catalog) (*program.Bundle, *snapshot.Manifest, error) {
	b, err := src.bundle(tree)
	if err != nil {
		return nil, nil, err
	}
	entries, err := cat.Entries("project")
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		// A module that does not bundle fails its importAgent, from the
		// Tree, as it would have; a file refused stops the Run now.
		program.ModuleIn(tree, e.Module, "confine")
		if err := tree.Err(); err != nil {
			return nil, nil, err
		}
	}
	tree.Seal()
	m := tree.Manifest()
	if c.Bool(runs.FlagManifest) {
		return nil, &m, nil
	}
	if c.IsSet(runs.FlagApproved) {
		if err := m.Check(c.String(runs.FlagApproved)); err != nil {
			return nil, nil, err
		}
	}
	return b, nil, nil
}

// globalConfig is yaag's global config file.
func globalConfig() string { return rolecli.ConfigPath("", role.Yaag) }

// registries are the Catalog's Registry Files for a Program Directory;
// a Run confined to a root has the project scope only.
func registries(dir, root string) catalog.Catalog {
	files := map[string]string{"project": filepath.Join(dir, ".yaag", "registry.toml")}
	if root == "" {
		files["global"] = filepath.Join(filepath.Dir(globalConfig()), "yaag-registry.toml")
	}
	return catalog.Catalog{Files: files}
}

// loopSocket is loopd's loop socket: the config's, else loopd's own
// config's, else the home's default.
func loopSocket(cfg config.Config) string {
	if cfg.LoopSocket != "" {
		return cfg.LoopSocket
	}
	var l conf.Loopd
	if conf.Load(rolecli.ConfigPath("", role.Loopd), &l) == nil && l.Sockets.Loop != "" {
		return l.Sockets.Loop
	}
	return home.Home{Dir: rolecli.DefaultHome()}.Path(home.SocketLoop)
}

func newRunID() string {
	var b [4]byte
	rand.Read(b[:])
	return "r-" + time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// store is the Runs of this home.
func store() runs.Store { return runs.Store{Home: rolecli.DefaultHome()} }

func runAction(c *cli.Context) error {
	src, err := readSource(c)
	if err != nil {
		return err
	}
	if c.IsSet("replay") && c.IsSet("resume") {
		return usage(c, "--replay and --resume: give one")
	}
	if c.IsSet("answers") && !c.IsSet("resume") {
		return usage(c, "--answers answers a Checkpoint: give it with --resume")
	}
	if c.IsSet("replay") && c.IsSet("record") {
		return usage(c, "--replay records nothing: it is offline and makes no new steps")
	}
	var input json.RawMessage
	if c.IsSet(runs.FlagInput) {
		input = json.RawMessage(c.String(runs.FlagInput))
		// The parser's own words and where, not the usage: the command
		// line was right, the JSON in it was not.
		var v any
		if err := json.Unmarshal(input, &v); err != nil {
			return rolecli.Usagef("--input is not JSON: %s: %s", jsonWhere(err), clip(c.String(runs.FlagInput), 80))
		}
	}
	var answers map[string]string
	if p := c.String("answers"); p != "" {
		if answers, err = readAnswers(p); err != nil {
			return err
		}
	}
	root := c.String(runs.FlagRoot)
	var tree *snapshot.Tree
	if root != "" {
		if tree, err = snapshot.Open(root, snapshot.DefaultLimits); err != nil {
			return err
		}
		defer tree.Seal()
		if src.file == "" {
			src.dir = root // an inline program's directory is the decided one
		}
	} else if c.Bool(runs.FlagManifest) || c.IsSet(runs.FlagApproved) || c.IsSet(runs.FlagLoopSocket) {
		return usage(c, "--%s, --%s and --%s go with --%s", runs.FlagManifest, runs.FlagApproved, runs.FlagLoopSocket, runs.FlagRoot)
	}
	cfg, err := config.Load(config.Sources{
		Global: globalConfig(), Project: filepath.Join(src.dir, ".yaag", "config.toml"),
		Explicit: c.String("config"), NoConfig: c.Bool("no-config"), Tree: tree,
	})
	if err != nil {
		return err
	}
	if c.IsSet(runs.FlagProfile) {
		cfg.Profile, cfg.ProfileOrigin = c.String(runs.FlagProfile), "--"+runs.FlagProfile
	}
	if c.IsSet(runs.FlagLoopSocket) {
		cfg.LoopSocket = c.String(runs.FlagLoopSocket)
	}
	cat := registries(src.dir, root)
	cat.Tree = tree
	var b *program.Bundle
	if tree != nil {
		var m *snapshot.Manifest
		if b, m, err = confine(c, tree, src, cat); err != nil {
			return err
		}
		if m != nil {
			data, _ := json.Marshal(m)
			fmt.Fprintf(c.App.Writer, "%s\n", data)
			return nil
		}
	} else if b, err = src.bundle(nil); err != nil {
		return err
	}
	run := newRunID()
	if c.IsSet(runs.FlagRunID) {
		if run = c.String(runs.FlagRunID); !cassette.ValidRunID(run) {
			return usage(c, "--%s %q is not a Run id", runs.FlagRunID, clip(run, 80))
		}
		cpuLimit()
	}
	var controlUIDs []uint32
	if u := c.Int(runs.FlagControlUID); u >= 0 {
		controlUIDs = []uint32{uint32(u)}
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	out := &printer{w: c.App.Writer, errw: c.App.ErrWriter, json: c.Bool(runs.FlagJSON)}
	var seed [8]byte
	rand.Read(seed[:])
	program := "inline"
	if src.file != "" {
		program, _ = filepath.Abs(src.file)
	}
	sum := sha256.Sum256([]byte(b.Code))
	spec := runs.Spec{
		Store: store(),
		Engine: engine.Options{
			Bundle: b, Input: input, Run: run,
			Profile: cfg.Profile, ProfileOrigin: cfg.ProfileOrigin,
			Agents:  agent.Loopd{Socket: loopSocket(cfg)},
			Catalog: cat, Tree: tree,
			Wall: cfg.Wall, Seed: int64(binary.BigEndian.Uint64(seed[:]) >> 1),
			Events:      out.event,
			AskDefaults: engine.AskDefaults{Stall: cfg.Stall, Retries: cfg.OutputRetries},
		},
		Program: program, ProgramHash: "sha256:" + hex.EncodeToString(sum[:]),
		Record: c.String("record"), Replay: c.String("replay"), Resume: c.String("resume"), Answers: answers,
		KeepPrompts: cfg.KeepPrompts, Host: c.String(runs.FlagHostSession), ForkHost: c.Bool(runs.FlagForkHost),
		ControlUIDs: controlUIDs,
	}
	end, err := runs.Execute(ctx, spec)
	if err != nil {
		return out.failedStart(run, err)
	}
	return out.end(end)
}

// ExitCPULimit is yaag run's status when a Run that brokerd started
// reached its CPU-time limit (RLIMIT_CPU's soft limit, SIGXCPU): brokerd
// tells it from the kernel's kill at the memory limit by it.
const ExitCPULimit = 5

// cpuLimit ends the process at SIGXCPU, which the Go runtime otherwise
// ignores: the hard limit's SIGKILL would follow, and look like any
// other kill.
func cpuLimit() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGXCPU)
	go func() {
		<-ch
		fmt.Fprintln(os.Stderr, "yaag: the Run reached its CPU-time limit")
		os.Exit(ExitCPULimit)
	}()
}

// readAnswers reads an answers file: {"<question key>": "<answer>"}.
func readAnswers(path string) (map[string]string, error) {
	// An answers file is any file the person names, perhaps one an Agent
	// wrote: a regular file of at most 1 MiB, one JSON object.
	data, err := cassette.ReadFile(path, cassette.MaxAnswers)
	if err != nil {
		return nil, fmt.Errorf("cannot read the answers: %v", err)
	}
	var answers map[string]string
	dec := json.NewDecoder(strings.NewReader(string(data)))
	err = dec.Decode(&answers)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	if err == nil && answers == nil {
		err = errors.New("null is no object")
	}
	if err == nil {
		// A key twice is refused, as on every socket (D733), not its last
		// value taken.
		err = jsonkeys.Check(bytes.Trim(data, " \t\r\n"), reflect.TypeOf(answers))
	}
	if err != nil {
		return nil, runbook.Refuse(runbook.YaagAnswerRefused, "%s is not {\"<question key>\": \"<answer>\", ...}: %v", path, err)
	}
	return answers, nil
}

// printer writes a Run's events: as JSON lines with --json, else a line
// each on standard error; the result goes to standard output.
type printer struct {
	mu   sync.Mutex
	w    io.Writer
	errw io.Writer
	json bool
}

func (p *printer) event(e engine.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.json {
		data, _ := json.Marshal(e)
		fmt.Fprintf(p.w, "%s\n", termsafe.JSON(data))
		return
	}
	// Every field may hold what the model or a program chose: made safe
	// for a terminal.
	l := termsafe.Line
	switch e.Event {
	case engine.EventRunStart:
		fmt.Fprintf(p.errw, "yaag: run %s started\n", l(e.Run))
	case engine.EventSpawned:
		if e.Status == "playback" {
			fmt.Fprintf(p.errw, "yaag: %s (%s): played back from the Cassette\n", l(e.Agent), l(e.Name))
			return
		}
		fmt.Fprintf(p.errw, "yaag: %s (%s): session %s\n", l(e.Agent), l(e.Name), l(e.Session))
	case engine.EventReplayed:
		fmt.Fprintf(p.errw, "yaag: %s: replayed from the Cassette\n", l(e.Ask))
	case engine.EventLive:
		fmt.Fprintf(p.errw, "yaag: %s: goes live (%s), session %s\n", l(e.Ask), l(e.Text), l(e.Session))
	case loopwire.EventToolCall:
		fmt.Fprintf(p.errw, "yaag: %s: tool call %s\n", l(e.Ask), l(e.Tool))
	case loopwire.EventToolResult:
		fmt.Fprintf(p.errw, "yaag: %s: %s\n", l(e.Ask), l(e.Outcome))
	case loopwire.EventQuestion:
		fmt.Fprintf(p.errw, "yaag: %s asks: %s\n", l(e.Ask), l(e.Text))
	case engine.EventWithheld:
		fmt.Fprintf(p.errw, "yaag: %s: its result is withheld from the Cassette (%s)\n", l(e.Ask), l(e.Text))
	case engine.EventUnused:
		fmt.Fprintf(p.errw, "yaag: the replay left recorded steps unused: %s\n", l(e.Text))
	case agent.EventModelFallback:
		fmt.Fprintf(p.errw, "yaag: %s: next model: %s\n", l(e.Ask), l(e.Text))
	case "log":
		fmt.Fprintf(p.errw, "yaag: %s\n", l(e.Text))
	}
}

// failedStart is a Run that ended before its program ran.
func (p *printer) failedStart(run string, err error) error {
	return p.end(runs.End{Event: engine.EventRunEnd, Run: run, Status: cassette.EndFailed, Error: err.Error()})
}

func (p *printer) end(end runs.End) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.json {
		data, _ := json.Marshal(end)
		fmt.Fprintf(p.w, "%s\n", termsafe.JSON(data))
		switch {
		case end.Status == cassette.EndPaused:
			return &rolecli.StatusError{Code: ExitPaused}
		case end.Error != "":
			msg, _ := engine.SplitStack(end.Error) // the stack is in the run_end line
			return errors.New(msg)
		}
		return nil
	}
	l := termsafe.Line
	switch end.Status {
	case cassette.EndPaused:
		if len(end.Questions) == 0 {
			fmt.Fprintf(p.errw, "yaag: run %s paused; its Checkpoint is %s\n", l(end.Run), l(end.Checkpoint))
		} else {
			fmt.Fprintf(p.errw, "yaag: run %s waits for answers; its Checkpoint is %s\n", l(end.Run), l(end.Checkpoint))
			for _, q := range end.Questions {
				fmt.Fprintf(p.errw, "yaag: question %s: %s\n", l(q.Key), l(q.Question))
			}
			tmpl, _ := json.Marshal(end.Resume.AnswersTemplate)
			fmt.Fprintf(p.errw, "yaag: write the answers as %s into answers.json (or yaag answer %s KEY TEXT)\n", termsafe.JSON(tmpl), l(end.Checkpoint))
		}
		if end.Resume != nil {
			fmt.Fprintf(p.errw, "yaag: then: %s\n", l(end.Resume.Command))
		}
		return &rolecli.StatusError{Code: ExitPaused}
	case cassette.EndCompleted:
		if end.CheckpointLost {
			fmt.Fprintf(p.errw, "yaag: run %s completed, and its Cassette was lost (run_end.checkpointLost)\n", l(end.Run))
		}
		fmt.Fprintf(p.w, "%s\n", termsafe.JSON(end.Result))
		return nil
	}
	if msg, frames := engine.SplitStack(end.Error); len(frames) > 0 {
		// The error on its line, as every error is, then its stack (the
		// engine's own lines, each made safe too).
		fmt.Fprintf(p.errw, "yaag: %s\n", l(msg))
		for _, f := range frames {
			fmt.Fprintf(p.errw, "yaag: %s\n", l(f))
		}
		return &rolecli.StatusError{Code: 1}
	}
	return errors.New(end.Error)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func describeCommand() *cli.Command {
	return &cli.Command{
		Name:      "describe",
		Usage:     "print a program's name, description, schemas, Agents and Profiles without running it",
		ArgsUsage: "<program.ts>",
		Description: engine.DescribeNote + " It does not call run: a spawn or an Ask\n" +
			"outside run is refused. Keep the top level free of side effects; a Catalog\n" +
			"Resolve (await $yaag.<scope>.importAgent(name)) is the one top-level await,\n" +
			"and describe runs it. --export NAME describes another export than default\n" +
			"(it imports the module too). The Agents listed are defineProgram's agents,\n" +
			"else the Agent and Profiled Definitions the module exports.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "export", Usage: "describe the export `NAME` (default: default)"},
			&cli.BoolFlag{Name: "json", Usage: "print the description as JSON"},
		},
		Action: func(c *cli.Context) error {
			args, err := lateFlags(c)
			if err != nil {
				return err
			}
			if len(args) != 1 {
				return usage(c, "describe takes one program file")
			}
			b, err := program.File(args[0])
			if err != nil {
				return err
			}
			d, err := engine.Describe(c.Context, engine.Options{Bundle: b, Export: c.String("export"), Run: "describe", Catalog: registries(b.Dir, ""), Wall: time.Minute})
			if err != nil {
				return err
			}
			if c.Bool("json") {
				data, _ := json.MarshalIndent(d, "", "  ")
				fmt.Fprintf(c.App.Writer, "%s\n", termsafe.JSON(data))
				return nil
			}
			printDescription(c.App.Writer, d)
			return nil
		},
	}
}

func printDescription(w io.Writer, d engine.Description) {
	l := termsafe.Line
	fmt.Fprintf(w, "name: %s\n", l(d.Name))
	if d.Description != "" {
		fmt.Fprintf(w, "description: %s\n", l(d.Description))
	}
	for _, s := range []struct {
		name string
		raw  json.RawMessage
	}{{"input", d.Input}, {"output", d.Output}} {
		if s.raw != nil {
			fmt.Fprintf(w, "%s: %s\n", s.name, termsafe.JSON(s.raw))
		}
	}
	if len(d.Agents) == 0 {
		// Agents spawned from plain options inside run cannot be known
		// without running it: say where describe looks.
		fmt.Fprintln(w, "agents: none declared (describe lists defineProgram's agents, else the module's exported definitions)")
	}
	for _, a := range d.Agents {
		kind := "agent"
		if a.Profiled {
			kind = "profiled agent"
		}
		fmt.Fprintf(w, "%s: %s", kind, l(a.Name))
		if a.Description != "" {
			fmt.Fprintf(w, " (%s)", l(a.Description))
		}
		if len(a.Tools) > 0 {
			fmt.Fprintf(w, " tools %s", l(fmt.Sprint(a.Tools)))
		}
		if a.Model != nil {
			fmt.Fprintf(w, " model %s", termsafe.JSON(a.Model))
		}
		fmt.Fprintln(w)
	}
	for _, name := range sortedKeys(d.Profiles) {
		def := ""
		if name == d.DefaultProfile {
			def = " (default)"
		}
		fmt.Fprintf(w, "profile: %s%s %s\n", l(name), def, termsafe.JSON(d.Profiles[name]))
	}
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
