package runs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"boxmaker/core/daemon"
	"boxmaker/core/role"
	"boxmaker/core/yaag/agent"
	"boxmaker/core/yaag/cassette"
	"boxmaker/core/yaag/control"
	"boxmaker/core/yaag/engine"
	"boxmaker/core/yaag/runerr"
	"boxmaker/core/yaagwire"
	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const textNoHostLog runbook.Quoted = "HOST_SESSION_UNUSABLE: this Boxmaker session has no session file"

// noHostLog is textNoHostLog after its code: the error's message puts the
// code first (runerr.Error), and says it once.
var noHostLog = strings.TrimPrefix(string(textNoHostLog), string(runerr.HostSessionUnusable)+": ")

// Spec is one Run to execute.
type Spec struct {
	Store  Store
	Engine engine.Options // the program, its input, the Run's id, Agents, ...
	// Program names the program in records and in the resume command: a
	// file, or "inline".
	Program     string
	ProgramHash string
	// Record is the Cassette's destination ("": the store's); Replay or
	// Resume the document the Run plays from.
	Record, Replay, Resume string
	Answers                map[string]string
	KeepPrompts            bool
	// Host is the session whose yaag_run started the Run; ForkHost copies
	// it at the start, for fork: ctx.host.
	Host     string
	ForkHost bool
	// Log gets the Run's lines for the person (the printer).
	Log func(engine.Event)
	// End gets the run_end line.
	End func(End)
	// ControlUIDs are the uids the Control Channel lets in besides the
	// Run's own.
	ControlUIDs []uint32
	Now         func() time.Time
}

// End is the last event of a Run: how it ended, where its Cassette or
// Checkpoint is.
type End = yaagwire.End

func (s *Spec) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

// run is one executing Run.
type run struct {
	spec    *Spec
	store   Store
	id      string
	rec     Record
	recMu   sync.Mutex
	events  *os.File
	journal *cassette.Journal
	dest    string
	tape    *cassette.Doc
	end     End
	ended   chan struct{}
}

// Execute runs one Run to its end: it reads the Cassette a replay or a
// resume plays from (a resume claims it and appends the person's answers
// before anything else), makes the host's copy, starts the journal, the
// record and the Control Channel, runs the program, then publishes the
// Cassette (or the Checkpoint) and writes the record's end. Errors before
// the program starts are returned as they are, and nothing was consumed.
func Execute(ctx context.Context, spec Spec) (End, error) {
	r := &run{spec: &spec, store: spec.Store, id: spec.Engine.Run, ended: make(chan struct{})}
	opts := &spec.Engine
	started := spec.now()
	mode := "live"
	var path string
	switch {
	case spec.Replay != "":
		path, mode, opts.Mode = spec.Replay, "replay", engine.Replay
	case spec.Resume != "":
		path, mode, opts.Mode = spec.Resume, "resume", engine.Resume
	}
	if path != "" {
		// A journal with no document is a killed Run's, to continue; the
		// journal of a Run that still records there is not.
		if id := cassette.Recording(path); id != "" && r.store.Alive(id) {
			return End{}, fmt.Errorf("%s is the journal of Run %s, which is still recording to %s: wait for its end (yaag reattach %s), or stop it (yaag stop %s) and resume then", cassette.JournalPath(path), id, path, id, id)
		}
		d, _, err := cassette.Read(path)
		if err != nil {
			return End{}, err
		}
		if err := engine.CheckProtocol(path, d); err != nil {
			return End{}, err
		}
		r.tape, opts.Tape, opts.Seed = d, d, d.Run.Seed
		if opts.ProfileOrigin == "" {
			opts.Profile, opts.ProfileOrigin = d.Run.Profile, "the Cassette "+path
		}
	}
	if opts.Mode != engine.Replay {
		r.dest = spec.Record
		if r.dest == "" {
			r.dest = r.store.CassettePath(r.id)
		}
		if abs(r.dest) == abs(path) {
			return End{}, fmt.Errorf("--record names %s, the document this Run plays from; give the resumed Run a Cassette of its own", path)
		}
		// Before anything is consumed: the Run stops before its first
		// Agent when its Cassette has nowhere to go.
		if err := cassette.MakeDir(r.dest); err != nil {
			return End{}, err
		}
	}
	info := cassette.RunInfo{ID: r.id, StartedAt: started.Format(time.RFC3339Nano), Seed: opts.Seed, Profile: opts.Profile,
		UserInputProtocol: cassette.UserInputProtocol, Program: spec.Program, ProgramHash: spec.ProgramHash, KeepPrompts: spec.KeepPrompts,
		ResumedFrom: abs(spec.Resume), Host: spec.Host}
	opts.KeepPrompts = spec.KeepPrompts
	r.rec = Record{ID: r.id, Status: StatusRunning, PID: os.Getpid(), StartedAt: info.StartedAt, Program: spec.Program,
		Mode: mode, Cassette: r.dest, Events: r.store.EventsPath(r.id), Host: spec.Host}
	if opts.Mode == engine.Resume {
		r.rec.ResumedFrom, r.rec.Predecessor = abs(path), r.tape.Run.ID
	}
	switch opts.Mode {
	case engine.Resume:
		// The Profile is the recorded one (another is refused now, before
		// the claim consumes anything), so the journal starts before the
		// claim: a Run killed right after it still leaves its successor's
		// journal to continue from. The home's record of this Run, with
		// its predecessor, is written before both: the journal of a Run
		// killed at any moment names a Run this home recorded, which the
		// claim then names too (checkLeft walks it back). A refusal
		// removes the record again: a Run that did not start is not
		// recorded.
		if err := engine.CheckProfile(r.tape, opts.Profile, opts.ProfileOrigin); err != nil {
			return End{}, err
		}
		if err := r.store.Write(r.rec); err != nil {
			return End{}, err
		}
		j, err := cassette.CreateJournal(r.dest, info)
		if err != nil {
			os.Remove(r.store.Path(r.id))
			return End{}, err
		}
		r.journal, opts.Journal = j, j
		if err := r.claim(ctx, path); err != nil {
			j.Remove()
			os.Remove(r.store.Path(r.id))
			return End{}, err
		}
	case engine.Live:
		opts.Begin = func(profile string) (*cassette.Journal, error) {
			info.Profile = profile
			j, err := cassette.CreateJournal(r.dest, info)
			if err != nil {
				return nil, err
			}
			r.journal = j
			r.recMu.Lock()
			r.rec.Profile = profile
			r.recMu.Unlock()
			return j, nil
		}
	}
	if spec.ForkHost {
		if err := r.hostCopy(ctx); err != nil {
			if r.journal != nil {
				r.journal.Remove()
			}
			return End{}, err
		}
	}
	if err := r.open(); err != nil {
		r.abandon()
		return End{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	opts.Control = engine.NewControl()
	serveDone := make(chan struct{})
	if opts.Mode != engine.Replay {
		stopServe, err := r.serve(ctx, opts.Control, cancel)
		if err != nil {
			r.abandon()
			return End{}, err
		}
		// The record names its Control Channel from now on: yaag status,
		// pause and stop reach a Run before its first spawn too.
		r.recMu.Lock()
		rec := r.rec
		r.recMu.Unlock()
		if err := r.store.Write(rec); err != nil {
			stopServe()
			r.abandon()
			return End{}, err
		}
		defer func() { stopServe(); <-serveDone }()
		go func() { <-r.ended; close(serveDone) }()
	} else {
		close(serveDone)
	}
	prog := opts.Events
	opts.Events = func(e engine.Event) {
		r.event(e)
		if prog != nil {
			prog(e)
		}
	}
	// The record learns each session before the journal names it.
	opts.Agents = r.recorded(opts.Agents)
	var report engine.Report
	opts.Report = &report
	result, err := engine.Run(ctx, *opts)
	r.finish(result, err, report)
	return r.end, nil
}

func abs(p string) string {
	if p == "" {
		return ""
	}
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

// hostCopy copies the host session as it stands, for fork: ctx.host.
func (r *run) hostCopy(ctx context.Context) error {
	hf, ok := r.spec.Engine.Agents.(agent.HostForker)
	if !ok || r.spec.Host == "" {
		return runerr.New(runerr.HostSessionUnusable, runbook.YaagHostSession, "%s: the Run was given no host session to copy", noHostLog)
	}
	sess, err := hf.ForkHost(ctx, r.spec.Host, agent.Spec{Run: r.id, Key: "host", Definition: "host", SpawnHash: "sha256:" + strings.Repeat("0", 64)})
	var se *agent.SessionError
	if errors.As(err, &se) {
		return runerr.New(runerr.HostSessionUnusable, runbook.YaagHostSession, "%s (%s); no Run started: call yaag_run again without forkHost", noHostLog, se.Problem.Detail)
	}
	if err != nil {
		// loopd's refusal names the cause: its public words stand inside,
		// and the message ends with its entry's link alone (D411).
		if e, public, ok := runbook.Public(err); ok {
			return runerr.New(runerr.HostSessionUnusable, e, "%s (%s); no Run started: call yaag_run again without forkHost",
				noHostLog, public).WithCause(err)
		}
		return runerr.New(runerr.HostSessionUnusable, runbook.YaagHostSession, "%s (%v); no Run started: call yaag_run again without forkHost", noHostLog, err).WithCause(err)
	}
	at := sess.At()
	r.spec.Engine.Host = &at
	return nil
}

// open writes the record and opens the events file.
func (r *run) open() error {
	if err := r.store.Write(r.rec); err != nil {
		return err
	}
	f, err := os.OpenFile(r.rec.Events, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("cannot write the Run's events: %v", err)
	}
	r.events = f
	return nil
}

// abandon undoes a start that failed before the program ran.
func (r *run) abandon() {
	if r.journal != nil {
		r.journal.Remove()
	}
	r.rec.Status, r.rec.Error, r.rec.EndedAt = StatusFailed, "the Run did not start", r.spec.now().Format(time.RFC3339Nano)
	r.store.Write(r.rec)
	if r.events != nil {
		r.events.Close()
	}
}

// serve starts the Run's Control Channel.
func (r *run) serve(ctx context.Context, c *engine.Control, stop func()) (func(), error) {
	lock, err := daemon.TakeLock("yaag run "+r.id, r.store.LockPath(r.id))
	if err != nil {
		return nil, err
	}
	sock := r.store.SocketPath(r.id)
	ln, err := daemon.Listen(lock, sock)
	if err != nil {
		lock.Release()
		return nil, fmt.Errorf("cannot open the Run's Control Channel: %v", err)
	}
	srv := &control.Server{Run: r.id, Control: c, Stop: stop, Ended: r.ended, End: func() control.Answer {
		return control.Answer{Status: r.end.Status, Checkpoint: r.end.Checkpoint}
	}}
	s := &daemon.Socket{Role: role.Yaag.String(), Name: "control", Path: sock, Kinds: srv.Kinds(), AllowUIDs: r.spec.ControlUIDs, ListenerLost: runbook.ListenerLost, Log: os.Stderr}
	sctx, scancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() { s.Serve(sctx, ln); close(done) }()
	r.rec.Control = sock
	return func() {
		scancel()
		<-done
		os.Remove(sock)
		os.Remove(lock.Path)
		lock.Release()
		os.Remove(filepath.Dir(sock))
	}, nil
}

// event writes an event to the events file, and keeps the record's
// Agents.
func (r *run) event(e engine.Event) {
	if data, err := json.Marshal(e); err == nil {
		r.events.Write(append(data, '\n'))
	}
	if e.Event == engine.EventSpawned {
		r.noteAgent(AgentRef{Agent: e.Agent, Definition: e.Name, Session: e.Session})
	}
	if e.Event == engine.EventLive {
		r.noteAgent(AgentRef{Agent: e.Agent, Definition: "(live from " + e.Ask + ")", Session: e.Session})
	}
}

// finish publishes the Cassette (or the Checkpoint) and writes the end.
func (r *run) finish(result json.RawMessage, err error, report engine.Report) {
	end := End{Event: engine.EventRunEnd, Run: r.id, Status: cassette.EndCompleted, Result: result, Unused: report.Unused}
	var paused *engine.Paused
	var re *runerr.Error
	switch {
	case errors.As(err, &paused):
		end.Status, end.Result = cassette.EndPaused, nil
		end.Questions = paused.Questions
	case errors.As(err, &re) && re.Code == runerr.RunStopped:
		end.Status, end.Result, end.Error = cassette.EndStopped, nil, err.Error()
	case err != nil:
		end.Status, end.Result, end.Error = cassette.EndFailed, nil, err.Error()
	}
	identity := ""
	if r.journal != nil {
		doc, perr := r.document(end)
		if perr == nil && doc.Resumable() {
			// What a resume of it must find again, kept in the home (the
			// document lands where the Agents may write) before it is
			// published: a Run killed in between leaves its journal,
			// which checkLeft still takes.
			identity = cassette.Identity(doc)
			r.recMu.Lock()
			r.rec.Identity = identity
			rec := r.rec
			r.recMu.Unlock()
			perr = r.store.Write(rec)
		}
		if perr == nil {
			perr = cassette.Publish(r.dest, doc)
		}
		if perr != nil {
			identity = ""
		}
		switch {
		case perr == nil:
			r.journal.Remove()
			end.Cassette = r.dest
			if end.Status != cassette.EndCompleted && end.Status != cassette.EndFailed {
				end.Checkpoint = r.dest
			}
			end.Resume = doc.Resume
		case end.Status == cassette.EndCompleted:
			// The result stands; only the record of it is lost.
			end.CheckpointLost = true
			r.spec.Engine.Events(engine.Event{Event: engine.EventLog, Run: r.id, Text: perr.Error()})
		default:
			end.CheckpointLost = true
			why := end.Error
			if why == "" {
				why = "the Run " + end.Status
			}
			end.Status, end.Error = cassette.EndFailed, fmt.Sprintf("%s; and %v: the Run cannot be restored from it (its steps are in the journal %s)", why, perr, r.journal.Path)
		}
	}
	r.end = end
	r.recMu.Lock()
	r.rec.Status, r.rec.EndedAt, r.rec.Result, r.rec.Error = end.Status, r.spec.now().Format(time.RFC3339Nano), end.Result, end.Error
	r.rec.Checkpoint, r.rec.Questions, r.rec.Identity = end.Checkpoint, end.Questions, identity
	if r.journal == nil {
		r.rec.Cassette = ""
	} else if end.CheckpointLost {
		r.rec.Cassette = ""
	}
	rec := r.rec
	r.recMu.Unlock()
	r.store.Write(rec)
	if data, err := json.Marshal(end); err == nil {
		r.events.Write(append(data, '\n'))
	}
	r.events.Close()
	close(r.ended)
	if r.spec.End != nil {
		r.spec.End(end)
	}
}

// document is the journal's Cassette with the Run's end: for a paused
// Run, its questions and how to answer them.
func (r *run) document(end End) (*cassette.Doc, error) {
	data, err := r.journal.Contents()
	if err != nil {
		return nil, err
	}
	rec, err := cassette.ParseJournal(r.journal.Path, data)
	if err != nil {
		return nil, err
	}
	// The Run's caller gets its result; the Cassette, which lands where
	// the program's directory is, keeps it only if no refuse rule fires.
	d := rec.Doc(cassette.WithholdEnd(cassette.End{Status: end.Status, Result: end.Result, Error: end.Error, Unused: end.Unused}))
	if end.Status == cassette.EndPaused || end.Status == cassette.EndStopped {
		prog := r.spec.Program
		if prog == "inline" {
			prog = "--eval-fd N"
		}
		res := &cassette.Resume{AnswersTemplate: map[string]string{}, Command: fmt.Sprintf("yaag run %s --resume %s", prog, r.dest)}
		if in := r.spec.Engine.Input; len(in) > 0 && string(in) != "null" {
			// The Cassette does not keep the input (it may be private):
			// the resume needs it again, and the command says so rather
			// than copy it here.
			res.Command = fmt.Sprintf("yaag run %s --input '<the same input>' --resume %s", prog, r.dest)
		}
		if len(end.Questions) > 0 {
			for _, q := range end.Questions {
				res.AnswersTemplate[q.Key] = ""
			}
			res.Command += " --answers answers.json"
		}
		d.Questions, d.Resume = end.Questions, res
	}
	return d, d.Check()
}
