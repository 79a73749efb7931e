// Package engine runs a bundled yaag program in goja: one Runtime per
// Run, owned by the goroutine that calls Run or Describe, and a job loop
// that settles the Promises of host operations (spawn, ask, importAgent)
// on that goroutine as their work, done on other goroutines, finishes.
//
// The loop ends when the awaited Promise settles. When it is still
// pending and no host operation is outstanding, nothing can ever settle
// it: that is a deadlock, reported as an error, never a hang. The wall
// clock (Options.Wall) interrupts the program wherever it is, a runaway
// loop included, and so does the context.
//
// A program sees no file system and no network, and no timers: every
// effect is an Agent's tool call. Math.random is seeded (Options.Seed)
// and Date reads Options.Clock, so that both can be recorded and replayed.
package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"boxmaker/core/loopwire"
	"boxmaker/core/yaag/agent"
	"boxmaker/core/yaag/cassette"
	"boxmaker/core/yaag/catalog"
	"boxmaker/core/yaag/program"
	"boxmaker/core/yaag/runerr"
	"boxmaker/core/yaag/schema"
	"boxmaker/core/yaag/snapshot"
	"boxmaker/core/yaag/typebox"
	"boxmaker/core/yaagwire"
	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const textDescribe runbook.Quoted = "describe imports the module and executes its top level."

// DescribeNote is what `yaag describe --help` says first.
const DescribeNote = string(textDescribe)

// Options are what a Run is given.
type Options struct {
	Bundle  *program.Bundle
	Export  string          // the program's export; "default" when empty
	Input   json.RawMessage // nil: no input
	Run     string          // the Run's id
	Profile string          // the Profile id, or ""
	// ProfileOrigin says where Profile came from, for PROFILE_NOT_FOUND:
	// "--profile", "the config file <path>", or the Cassette's.
	ProfileOrigin string
	Agents        agent.Spawner // nil: no Agent can be spawned (describe)
	Catalog       catalog.Catalog
	Wall          time.Duration // the program's wall-clock limit; 0: none
	Seed          int64
	Clock         func() time.Time // Date's clock; time.Now when nil
	Events        func(Event)      // may be nil; called from the loop's goroutine
	AskDefaults   AskDefaults
	// Tree, for a confined Run, holds every file its modules are read
	// from (nil: the owner's Run, whose modules esbuild reads).
	Tree *snapshot.Tree

	// Journal records the Run's steps as they complete (nil: nowhere, as
	// in a replay); KeepPrompts keeps the prompts' text beside their
	// hashes. Begin, when set, is called with the Run's Profile once the
	// program has chosen it, before run is called, and gives the journal
	// instead (the Profile is in its first line).
	Journal     *cassette.Journal
	Begin       func(profile string) (*cassette.Journal, error)
	KeepPrompts bool
	// Mode is how Agents answer; Tape is the Cassette a Replay or a Resume
	// plays from.
	Mode Mode
	Tape *cassette.Doc
	// Answered is, for a resumed Checkpoint, each questioning Agent's
	// session after the person's answers were appended to it.
	Answered map[string]*loopwire.SessionAt
	// Host is the copy of the session whose yaag_run started the Run
	// (forkHost), which fork: ctx.host forks; nil: none.
	Host *loopwire.SessionAt
	// Control pauses the Run and reads its state; nil: nobody does.
	Control *Control
	// Report receives what the Run tells besides its result; may be nil.
	Report *Report
}

// AskDefaults are the limits an Ask has when its options do not say.
type AskDefaults struct {
	Stall   time.Duration
	Retries int
}

// Event is one thing that happened in a Run, for --json and the log.
type Event = yaagwire.Event

// The events of a Run (docs/json.md, "yaag run --json"), one JSON line
// each: yaag run --json and yaag reattach print them, and brokerd's
// yaag_run reads them from the Run it started. An Ask's tool calls and
// results, questions and model fallbacks come under the names its Agent
// gave them (agent.Event.Kind).
const (
	EventRunStart = yaagwire.EventRunStart
	EventSpawn    = yaagwire.EventSpawn
	EventSpawned  = yaagwire.EventSpawned
	EventAsk      = yaagwire.EventAsk
	EventReplayed = yaagwire.EventReplayed
	EventLive     = yaagwire.EventLive
	EventAnswer   = yaagwire.EventAnswer
	EventWithheld = yaagwire.EventWithheld
	EventUnused   = yaagwire.EventUnused
	EventLog      = yaagwire.EventLog
	EventRunEnd   = yaagwire.EventRunEnd // the last: runs.End
	// EventSuccessor is yaag reattach --successor going on to the Run
	// that resumed the one it followed (runs.Follow).
	EventSuccessor = yaagwire.EventSuccessor
)

// errWall and errStopped interrupt the program.
var (
	errWall    = errors.New("wall")
	errStopped = errors.New("stopped")
)

// vm is one Run's runtime and job loop.
type vm struct {
	opts    Options
	rt      *goja.Runtime
	ctx     context.Context
	cancel  context.CancelFunc
	jobs    chan func() error
	pending int
	mode    string // "describe" or "run"
	inRun   bool   // program.run has been called

	errorClass goja.Value
	agents     []*agentState
	modules    int
	running    goja.Value // the program object
	profiles   profiles
	typebox    bool // the prelude has run
	control    *Control
	hostObj    *goja.Object
	clock      func() time.Time
	clockTape  []int64
	clockAt    int
	clockEarly []int64 // readings before the journal began

	fatalMu   sync.Mutex
	fatal     error
	used      map[string]bool // the recorded steps a replay used
	questions []cassette.Question
}

func newVM(ctx context.Context, opts Options, mode string) (*vm, error) {
	rt := goja.New()
	rt.SetFieldNameMapper(goja.TagFieldNameMapper("json", true))
	rt.SetMaxCallStackSize(4096)
	seed := opts.Seed
	rnd := rand.New(rand.NewSource(seed))
	var mu sync.Mutex
	rt.SetRandSource(func() float64 { mu.Lock(); defer mu.Unlock(); return rnd.Float64() })
	clock := opts.Clock
	if clock == nil {
		clock = time.Now
	}
	ctx, cancel := context.WithCancel(ctx)
	v := &vm{opts: opts, rt: rt, ctx: ctx, cancel: cancel, jobs: make(chan func() error, 64), mode: mode,
		control: opts.Control, clock: clock, used: map[string]bool{}}
	if v.control == nil {
		v.control = NewControl()
	}
	if opts.Tape != nil && opts.Mode != Live {
		v.clockTape = opts.Tape.Clock()
	}
	rt.SetTimeSource(v.now)
	if err := v.installGlobals(); err != nil {
		cancel()
		return nil, err
	}
	return v, nil
}

// needTypebox runs the TypeBox prelude in the runtime, once, before code
// that imports typebox: a program that does not import it does not pay
// for it.
func (v *vm) needTypebox(code string) error {
	if v.typebox || !strings.Contains(code, typebox.Global) {
		return nil
	}
	prelude, err := typebox.Program()
	if err != nil {
		return err
	}
	if _, err := v.rt.RunProgram(prelude); err != nil {
		return fmt.Errorf("the TypeBox prelude failed: %v", err)
	}
	v.typebox = true
	return nil
}

// installGlobals removes what a program must not have and adds the host.
func (v *vm) installGlobals() error {
	g := v.rt.GlobalObject()
	// A TextEncoder (UTF-8 only), which TypeBox needs as it loads.
	enc := v.rt.NewObject()
	if err := enc.Set("encode", func(s string) goja.Value {
		return v.rt.ToValue(v.rt.NewArrayBuffer([]byte(s)))
	}); err != nil {
		return err
	}
	install, err := v.rt.RunString(`(function (encodeBytes) {
  globalThis.TextEncoder = class TextEncoder {
    get encoding() { return "utf-8"; }
    encode(s) { return new Uint8Array(encodeBytes.encode(String(s === undefined ? "" : s))); }
  };
})`)
	if err != nil {
		return err
	}
	call, _ := goja.AssertFunction(install)
	if _, err := call(goja.Undefined(), enc); err != nil {
		return err
	}
	// console.log and its kin write a line on the Run's event stream, as
	// ctx.log does: strings as they are, other values as JSON.
	consoleInstall, err := v.rt.RunString(`(function (emit) {
  const show = (a) => {
    if (typeof a === "string") return a;
    try { const j = JSON.stringify(a); return j === undefined ? String(a) : j; } catch (e) { return String(a); }
  };
  const line = (...args) => { emit(args.map(show).join(" ")); };
  globalThis.console = Object.freeze({ log: line, info: line, warn: line, error: line, debug: line });
})`)
	if err != nil {
		return err
	}
	callConsole, _ := goja.AssertFunction(consoleInstall)
	if _, err := callConsole(goja.Undefined(), v.rt.ToValue(func(msg string) {
		v.emit(Event{Event: EventLog, Run: v.opts.Run, Text: msg})
	})); err != nil {
		return err
	}
	g.Set("__yaagModules", v.rt.NewObject())
	return g.Set("__yaagHost", v.host())
}

// post hands the settlement of a host operation to the loop's goroutine.
func (v *vm) post(job func() error) {
	select {
	case v.jobs <- job:
	case <-v.ctx.Done():
	}
}

// async starts work on a goroutine and returns a Promise that the loop
// settles with its result: settle turns the value into JavaScript on the
// loop's goroutine, and then, settled either way, finally runs there
// (may be nil).
func (v *vm) async(work func(ctx context.Context) (any, error), settle func(any) (goja.Value, error), finally func()) goja.Value {
	p, resolve, reject := v.rt.NewPromise()
	v.pending++
	go func() {
		res, err := work(v.ctx)
		v.post(func() error {
			v.pending--
			if finally != nil {
				finally() // before the Promise settles: the program goes on inside resolve
			}
			if err != nil {
				return reject(v.jsError(err))
			}
			val, err := settle(res)
			if err != nil {
				return reject(v.jsError(err))
			}
			return resolve(val)
		})
	}()
	return v.rt.ToValue(p)
}

// rejected is a Promise already rejected with err.
func (v *vm) rejected(err error) goja.Value {
	p, _, reject := v.rt.NewPromise()
	reject(v.jsError(err))
	return v.rt.ToValue(p)
}

// jsError turns a Go error into the value a program catches: a YaagError
// with its code (and cause) for a runerr.Error, else an Error.
func (v *vm) jsError(err error) goja.Value {
	if je, ok := err.(*jsThrown); ok {
		return je.value
	}
	re, ok := runerr.As(err)
	if !ok || v.errorClass == nil {
		var je *jsThrown
		if errors.As(err, &je) {
			return je.value
		}
		return v.rt.NewGoError(err)
	}
	var cause goja.Value = goja.Undefined()
	if re.Cause != nil {
		cause = v.jsError(re.Cause)
	}
	obj, cerr := v.rt.New(v.errorClass, v.rt.ToValue(string(re.Code)), v.rt.ToValue(re.Error()), cause)
	if cerr != nil {
		return v.rt.NewGoError(err)
	}
	return obj
}

// jsThrown is a JavaScript value thrown by the program, carried through Go.
type jsThrown struct {
	value goja.Value
	text  string
}

func (e *jsThrown) Error() string { return e.text }

// await runs the loop until p settles, and returns its value.
func (v *vm) await(p *goja.Promise) (goja.Value, error) {
	var wall <-chan time.Time
	if v.opts.Wall > 0 {
		t := time.NewTimer(v.opts.Wall)
		defer t.Stop()
		wall = t.C
		stop := time.AfterFunc(v.opts.Wall, func() { v.rt.Interrupt(errWall) })
		defer stop.Stop()
	}
	stopCtx := context.AfterFunc(v.ctx, func() { v.rt.Interrupt(errStopped) })
	defer stopCtx()
	for p.State() == goja.PromiseStatePending {
		if settled, reason := v.control.settle(v.pending, func() int { return len(v.jobs) }); settled {
			return nil, &Paused{Reason: reason, Questions: v.questionsAsked()}
		}
		if v.pending == 0 {
			return nil, fmt.Errorf("the program awaits a Promise that nothing can settle: no spawn, ask or import is outstanding (a deadlock)")
		}
		select {
		case job := <-v.jobs:
			if err := v.runJob(job); err != nil {
				return nil, err
			}
		case <-v.control.wake:
		case <-wall:
			return nil, v.wallError()
		case <-v.ctx.Done():
			return nil, v.stopError()
		}
	}
	if p.State() == goja.PromiseStateRejected {
		return nil, v.thrown(p.Result())
	}
	return p.Result(), nil
}

// runJob runs a settlement, turning an interrupt into its error.
func (v *vm) runJob(job func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if ie, ok := r.(*goja.InterruptedError); ok {
				err = v.interrupted(ie)
				return
			}
			panic(r)
		}
	}()
	if err := job(); err != nil {
		return v.evalErr(err)
	}
	return nil
}

func (v *vm) interrupted(ie *goja.InterruptedError) error {
	switch ie.Value() {
	case errWall:
		return v.wallError()
	default:
		return v.stopError()
	}
}

func (v *vm) wallError() error {
	if err := v.fatalErr(); err != nil {
		return err
	}
	return runerr.New(runerr.RunStopped, runbook.Entry{}, "the program ran past its wall-clock limit of %v and was stopped", v.opts.Wall)
}

// stopError is why the Run stops: an error it failed with (fail), or a
// stop.
func (v *vm) stopError() error {
	if err := v.fatalErr(); err != nil {
		return err
	}
	return runerr.New(runerr.RunStopped, runbook.Entry{}, "the Run was stopped")
}

// evalErr turns an error of RunProgram or a call into the Run's error.
func (v *vm) evalErr(err error) error {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		return v.interrupted(ie)
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return v.thrown(ex.Value())
	}
	return err
}

// thrown describes a value the program threw or rejected with.
func (v *vm) thrown(val goja.Value) error {
	if val == nil || goja.IsUndefined(val) || goja.IsNull(val) {
		return &jsThrown{value: val, text: "the program threw " + fmt.Sprint(val)}
	}
	if obj, ok := val.(*goja.Object); ok {
		if ie, ok := obj.Export().(*goja.InterruptedError); ok {
			return v.interrupted(ie)
		}
		msg := obj.Get("message")
		if msg != nil && !goja.IsUndefined(msg) {
			text := msg.String()
			if code := obj.Get("code"); code != nil && !goja.IsUndefined(code) && !strings.HasPrefix(text, code.String()+":") {
				text = code.String() + ": " + text
			}
			if name := obj.Get("name"); name != nil && name.String() != "YaagError" && name.String() != "" && obj.Get("code") == nil {
				text = name.String() + ": " + text
			}
			if obj.Get("code") == nil {
				// The program's own error: where, in its TypeScript.
				text += stackOf(obj)
			}
			return &jsThrown{value: val, text: text}
		}
	}
	return &jsThrown{value: val, text: "the program threw " + val.String()}
}

// compileBundle compiles a bundle esbuild wrote. Its source map is the
// inline one esbuild put at its end (program.build), so that positions in
// errors and stacks name the TypeScript file, line and column; goja would
// read a map that a URL names from the file system, which a Run must never
// do, so any map but an inline one is refused (the bundle runs without it).
func compileBundle(name, code string) (*goja.Program, error) {
	ast, err := goja.Parse(name, code, parser.WithSourceMapLoader(func(string) ([]byte, error) {
		return nil, errors.New("a yaag bundle's source map is inline")
	}))
	if err != nil {
		return nil, err
	}
	return goja.CompileAST(ast, false)
}

// shownFrame is a line stackOf writes.
var shownFrame = regexp.MustCompile(`^    (at .*:\d+:\d+\)?|\.\.\.)$`)

// SplitStack parts an error's text into its message and the stack lines
// stackOf put at its end ("    at name (file:line:col)"); no frames when
// it has none.
func SplitStack(text string) (msg string, frames []string) {
	lines := strings.Split(text, "\n")
	i := len(lines)
	for i > 1 && shownFrame.MatchString(lines[i-1]) {
		i--
	}
	if i == len(lines) {
		return text, nil
	}
	return strings.Join(lines[:i], "\n"), lines[i:]
}

// stackFrame is a line of goja's stack: "\tat name (file:line:col(pc))".
var stackFrame = regexp.MustCompile(`^\s*at (.*?):(\d+):(\d+)\(\d+\)(\)?)$`)

// bundleNamespace is the esbuild namespace of an inline program or a
// confined Run's files (program's nsInline, nsRoot), which a source names
// before its path.
var bundleNamespace = regexp.MustCompile(`\byaag-(inline|root):`)

// unmapped are the frames of code compiled without a source map (the
// TypeBox prelude, the engine's own globals), whose columns goja counts
// from 1 already.
var unmapped = regexp.MustCompile(`(^|\()(typebox-prelude\.js|<eval>)$`)

// maxFrames is how many frames of a stack an error names.
const maxFrames = 12

// stackOf is an Error's stack as lines "\n    at name (file:line:col)",
// positions through the bundle's source map, without goja's program
// counters; "" when it has none.
func stackOf(obj *goja.Object) string {
	st := obj.Get("stack")
	if st == nil || goja.IsUndefined(st) {
		return ""
	}
	var b strings.Builder
	n := 0
	for _, l := range strings.Split(st.String(), "\n") {
		m := stackFrame.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if n == maxFrames {
			b.WriteString("\n    ...")
			break
		}
		where := bundleNamespace.ReplaceAllString(m[1], "")
		col, _ := strconv.Atoi(m[3])
		if !unmapped.MatchString(where) {
			// goja gives a source map's column as the map has it, from 0;
			// file:line:col counts from 1, as tsc and editors do.
			col++
		}
		fmt.Fprintf(&b, "\n    at %s:%s:%d%s", where, m[2], col, m[4])
		n++
	}
	return b.String()
}

// evaluate runs the bundle: the module's top level, to its end.
func (v *vm) evaluate() (*goja.Object, error) {
	if err := v.needTypebox(v.opts.Bundle.Code); err != nil {
		return nil, err
	}
	prog, err := compileBundle(v.opts.Bundle.Name, v.opts.Bundle.Code)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", v.opts.Bundle.Name, err)
	}
	val, err := v.runProgram(prog)
	if err != nil {
		return nil, err
	}
	p, ok := val.Export().(*goja.Promise)
	if !ok {
		return nil, fmt.Errorf("the bundle's value is not a Promise")
	}
	if _, err := v.await(p); err != nil {
		return nil, err
	}
	exports := v.rt.Get("__yaagExports")
	obj, ok := exports.(*goja.Object)
	if !ok {
		return nil, fmt.Errorf("the program's module has no exports")
	}
	return obj, nil
}

func (v *vm) runProgram(p *goja.Program) (val goja.Value, err error) {
	var wallStop func() bool
	if v.opts.Wall > 0 {
		t := time.AfterFunc(v.opts.Wall, func() { v.rt.Interrupt(errWall) })
		wallStop = t.Stop
	}
	stopCtx := context.AfterFunc(v.ctx, func() { v.rt.Interrupt(errStopped) })
	defer stopCtx()
	val, err = v.rt.RunProgram(p)
	if wallStop != nil {
		wallStop()
	}
	if err != nil {
		return nil, v.evalErr(err)
	}
	return val, nil
}

// programExport finds the program among the exports.
func (v *vm) programExport(exports *goja.Object) (*goja.Object, error) {
	name := v.opts.Export
	if name == "" {
		name = "default"
	}
	val := exports.Get(name)
	if val == nil || goja.IsUndefined(val) {
		var names []string
		for _, k := range exports.Keys() {
			names = append(names, k)
		}
		return nil, fmt.Errorf("%s has no export %q (its exports: %s)", v.opts.Bundle.Name, name, orNone(names))
	}
	obj, ok := val.(*goja.Object)
	if !ok || !v.branded(obj, "yaag.program") {
		return nil, fmt.Errorf("the export %q of %s is not a program: make it with defineProgram({...}) from @yaag/runtime", name, v.opts.Bundle.Name)
	}
	return obj, nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// branded reports whether obj carries Symbol.for(brand).
func (v *vm) branded(obj *goja.Object, brand string) bool {
	if obj == nil {
		return false
	}
	s := v.rt.Get("Symbol").(*goja.Object)
	forFn, _ := goja.AssertFunction(s.Get("for"))
	sym, err := forFn(s, v.rt.ToValue(brand))
	if err != nil {
		return false
	}
	got := obj.GetSymbol(sym.(*goja.Symbol))
	return got != nil && got.ToBoolean()
}

// toJSON is JSON.stringify(val); undefined gives nil.
func (v *vm) toJSON(val goja.Value) (json.RawMessage, error) {
	if val == nil || goja.IsUndefined(val) {
		return nil, nil
	}
	stringify, _ := goja.AssertFunction(v.rt.Get("JSON").(*goja.Object).Get("stringify"))
	out, err := stringify(goja.Undefined(), val)
	if err != nil {
		return nil, v.evalErr(err)
	}
	if goja.IsUndefined(out) {
		return nil, nil
	}
	return json.RawMessage(out.String()), nil
}

// fromJSON is JSON.parse(data).
func (v *vm) fromJSON(data json.RawMessage) (goja.Value, error) {
	if data == nil {
		return goja.Undefined(), nil
	}
	parse, _ := goja.AssertFunction(v.rt.Get("JSON").(*goja.Object).Get("parse"))
	return parse(goja.Undefined(), v.rt.ToValue(string(data)))
}

// schemaOf compiles the schema a program declared as field of obj.
func (v *vm) schemaOf(obj *goja.Object, field, what string) (*schema.Schema, error) {
	val := obj.Get(field)
	if val == nil || goja.IsUndefined(val) || goja.IsNull(val) {
		return nil, nil
	}
	raw, err := v.toJSON(val)
	if err != nil {
		return nil, err
	}
	s, err := schema.Compile(what, raw)
	if err != nil {
		return nil, runerr.New(runerr.SchemaUnsupported, runbook.YaagSchemaUnsupported, "%v", err)
	}
	return s, nil
}

func (v *vm) emit(e Event) {
	if v.opts.Events != nil {
		v.opts.Events(e)
	}
}

func (v *vm) close() {
	v.cancel()
}
