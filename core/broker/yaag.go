package broker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"boxmaker/core/brokerwire"
	"boxmaker/core/conf"
	"boxmaker/core/policy"
	"boxmaker/core/runner"
	"boxmaker/core/yaagwire"
	"boxmaker/runbook"
)

// YaagRuns starts and keeps the yaag Runs that yaag_run calls start. A
// Run is the model's program: it runs as a tool does, in a container of
// the tools image (core/runner's StartYaag) as the tools' uid, with the
// decided directory read-only, a disk of its own (box), [yaag]'s limits,
// and loopd reached only through brokerd's relay, which knows its
// Agents' sessions. Every other effect is one of its Agents' tool calls,
// which loopd sends here to be decided, audited and run like any other.
type YaagRuns struct {
	Runner     YaagRunner
	Limits     conf.YaagLimits
	LoopSocket string        // loopd's loop socket, where the relay sends the Agents' requests
	Wait       time.Duration // how long yaag_run waits for the end before it answers that the Run goes on
	Home       string        // the Boxmaker home: the Runs' records and Control Channels
	Log        io.Writer
	// Free and MinFree are the home's free space and [audit]
	// min_free_mb: what a Run leaves is kept only above it.
	Free    func() (int64, error)
	MinFree int64

	mu   sync.Mutex
	runs map[string]*yaagRun
}

// YaagRunner starts a Run's container (core/runner's *Runner).
type YaagRunner interface {
	StartYaag(runner.YaagSpec) (*runner.YaagContainer, error)
	ToolUID() int
}

// Texts the troubleshooting page quotes.
const textReplaced runbook.Quoted = "continues in the background: the session was replaced."

// callerGone carries the channel that closes when the caller of a tool
// call (loopd's turn) has gone.
type callerGone struct{}

// WithCallerGone marks ctx with a channel closed when the caller has gone
// (its connection closed): a yaag_run that waits for its Run answers then
// that the Run goes on in the background.
func WithCallerGone(ctx context.Context, gone <-chan struct{}) context.Context {
	return context.WithValue(ctx, callerGone{}, gone)
}

func goneOf(ctx context.Context) <-chan struct{} {
	ch, _ := ctx.Value(callerGone{}).(<-chan struct{})
	return ch
}

// yaagRun is one Run brokerd started.
type yaagRun struct {
	id      string
	session string // the session whose call started it
	domain  string // the id of its taint domain
	c       *runner.YaagContainer
	done    chan struct{}

	mu       sync.Mutex
	agents   []string // the Agents' sessions, as the relay saw loopd make them
	end      *yaagwire.End
	stderr   []string // its last lines
	exitText string
	killed   string // why brokerd ended it (a limit, yaag_stop), or ""
	limit    error  // the limit it was ended at
}

// yaagStart is a decided yaag_run.
type yaagStart struct {
	session  string
	dir      string // the decided directory, resolved
	file     string // the program inside it, or "" for a script
	script   *string
	input    json.RawMessage
	profile  string
	forkHost bool
	domain   string // the key of its taint domain: brokerd's relay gives it to loopd, the Run never sees it
	approved string // the manifest SHA-256 the owner approved, or ""
}

// yaagStartOf is the Run a decided yaag_run starts (its domain apart).
func yaagStartOf(c brokerwire.ToolCall, a arguments, v verdict) yaagStart {
	s := yaagStart{session: c.Session, dir: v.targets[0], script: a.Script, input: a.Input, profile: a.Profile, forkHost: a.ForkHost}
	if a.Script == nil {
		s.file = filepath.Join(v.targets[0], filepath.Base(filepath.Clean(a.File)))
	}
	if v.program != nil {
		s.approved = v.program.SHA256
	}
	return s
}

// spec is the container of a Run of s: its command line, the decided
// directory, its limits.
func (y *YaagRuns) spec(s yaagStart, line yaagwire.Command, id string) runner.YaagSpec {
	line.Root, line.HostSession, line.ForkHost, line.Input, line.Profile = s.dir, s.session, s.forkHost, s.input, s.profile
	line.Inline, line.EvalFD, line.File, line.Approved = s.script != nil, 0, s.file, s.approved
	spec := runner.YaagSpec{ID: id, Dir: s.dir, Args: line.Args(), Workdir: s.dir,
		Env:      []string{"BOXMAKER_HOME=" + y.Home, "HOME=/tmp", "PATH=/bin"},
		MemoryMB: y.Limits.MemoryMB, PidsLimit: y.Limits.PidsLimit, CPUSeconds: y.Limits.CPUSeconds, Wall: y.Limits.Wall}
	if s.script != nil {
		spec.Stdin = strings.NewReader(*s.script) // descriptor 0: line.EvalFD
	}
	return spec
}

// maxManifest bounds the manifest a yaag run --manifest prints.
const maxManifest = 4 << 20

// manifestWait bounds a yaag run --manifest.
const manifestWait = 2 * time.Minute

// manifest is the files a Run would read, with their SHA-256 (yaag run
// --manifest, which reads them as the Run does and runs nothing): what an
// approval of the Run shows, and what the approved Run must read again.
// It reads them as a Run does: in a container of its own, as the tools'
// uid, with the Run's limits.
func (y *YaagRuns) manifest(ctx context.Context, s yaagStart) (*yaagwire.Manifest, error) {
	spec := y.spec(s, yaagwire.Command{Manifest: true}, "m"+newRunID()[1:])
	spec.Wall = min(spec.Wall, manifestWait)
	c, err := y.Runner.StartYaag(spec)
	if err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	var readers sync.WaitGroup
	readers.Add(2)
	go func() { io.Copy(&limitedBuffer{b: &stdout, max: maxManifest}, c.Stdout); readers.Done() }()
	go func() { io.Copy(&limitedBuffer{b: &stderr, max: 64 << 10}, c.Stderr); readers.Done() }()
	select {
	case <-c.Done():
	case <-ctx.Done():
		c.Kill()
		<-c.Done()
		return nil, ctx.Err()
	case <-time.After(manifestWait):
		c.Kill()
		<-c.Done()
		return nil, errors.New("yaag did not read the program's files within 2 minutes")
	}
	readers.Wait()
	if code := c.ExitCode(); code != 0 {
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		if what := y.exitLimit(code, lines); what != "" {
			return nil, limitError(what)
		}
		return nil, fmt.Errorf("yaag ended before its Run began: %s", strings.TrimPrefix(lines[len(lines)-1], "yaag: "))
	}
	var m yaagwire.Manifest
	if err := json.Unmarshal(stdout.Bytes(), &m); err != nil || m.SHA256 == "" {
		return nil, fmt.Errorf("yaag gave no manifest of the program's files: %v", err)
	}
	return &m, nil
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	b   *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.b.Len(); room > 0 {
		l.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// textStopped is how a Run brokerd ended for yaag_stop is told.
const textStopped = "was ended by yaag_stop"

func (r *yaagRun) addAgent(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !slices.Contains(r.agents, id) {
		r.agents = append(r.agents, id)
	}
}

func (r *yaagRun) ended() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// kill ends the Run's container, whatever the Run does, for why.
func (r *yaagRun) kill(why string, limit error) {
	r.mu.Lock()
	if r.killed == "" {
		r.killed, r.limit = why, limit
	}
	r.mu.Unlock()
	r.c.Kill()
}

// reserve counts a new Run against [yaag] max_runs and
// max_runs_per_session, or refuses it.
func (y *YaagRuns) reserve(session string) (*yaagRun, error) {
	y.mu.Lock()
	defer y.mu.Unlock()
	if err := y.room(session); err != nil {
		return nil, err
	}
	if y.runs == nil {
		y.runs = map[string]*yaagRun{}
	}
	id := newRunID()
	for y.runs[id] != nil {
		id = newRunID()
	}
	r := &yaagRun{id: id, session: session, done: make(chan struct{})}
	y.runs[id] = r
	return r, nil
}

// hasRoom says whether a new Run of session would be counted now, without
// counting it: a yaag_run that waits for the owner is refused before the
// owner is asked when it could not start (reserve counts it again).
func (y *YaagRuns) hasRoom(session string) error {
	y.mu.Lock()
	defer y.mu.Unlock()
	return y.room(session)
}

// room refuses a new Run of session over [yaag] max_runs or
// max_runs_per_session; y.mu is held.
func (y *YaagRuns) room(session string) error {
	var all, mine int
	for _, r := range y.runs {
		if !r.ended() {
			all++
			if r.session == session {
				mine++
			}
		}
	}
	switch {
	case all >= y.Limits.MaxRuns:
		return runbook.Refuse(runbook.YaagRunLimit, "%d Run(s) %s in this home, [yaag] max_runs = %d: wait for one to end (yaag_status), or end one (yaag_stop)", all, textRunsBusy, y.Limits.MaxRuns)
	case mine >= y.Limits.MaxRunsPerSession:
		return runbook.Refuse(runbook.YaagRunLimit, "%d Run(s) %s from this session, [yaag] max_runs_per_session = %d: wait for one to end (yaag_status), or end one (yaag_stop)", mine, textRunsBusy, y.Limits.MaxRunsPerSession)
	}
	return nil
}

func (y *YaagRuns) forget(id string) {
	y.mu.Lock()
	delete(y.runs, id)
	y.mu.Unlock()
}

// start begins a Run in its container and waits for it to begin (its
// run_start, or its end), at most wait: a Run still starting then is
// answered as running, and yaag_stop reaches it by its id.
func (y *YaagRuns) start(s yaagStart) (*yaagRun, error) {
	run, err := y.reserve(s.session)
	if err != nil {
		return nil, err
	}
	run.domain = domainID(s.domain)
	b, err := y.makeBox(run.id)
	if err != nil {
		y.forget(run.id)
		return nil, err
	}
	host := ""
	if s.forkHost {
		host = s.session
	}
	loop, stopRelay, err := y.serveRelay(run, b, host, s.domain)
	if err != nil {
		b.remove()
		y.forget(run.id)
		return nil, err
	}
	uid := os.Geteuid()
	spec := y.spec(s, yaagwire.Command{ID: run.id, LoopSocket: loop, ControlUID: &uid}, run.id)
	spec.Mounts = []runner.Mount{{Source: b.dir, Dest: b.dir}, {Source: b.runs, Dest: y.store().Dir()}}
	c, err := y.Runner.StartYaag(spec)
	if err != nil {
		stopRelay()
		b.remove()
		y.forget(run.id)
		return nil, err
	}
	run.c = c
	idc := make(chan string, 1)
	var readers sync.WaitGroup
	readers.Add(2)
	go func() {
		defer readers.Done()
		eachLine(c.Stdout, 16<<20, func(line []byte) { run.event(line, idc) })
	}()
	go func() {
		defer readers.Done()
		eachLine(c.Stderr, 64<<10, func(line []byte) {
			run.mu.Lock()
			run.stderr = append(run.stderr, string(line))
			if len(run.stderr) > 20 {
				run.stderr = run.stderr[1:]
			}
			run.mu.Unlock()
		})
	}()
	wall := time.AfterFunc(y.Limits.Wall, func() {
		run.kill("wall", limitError(fmt.Sprintf("of wall-clock time ([yaag] run_wall_ms = %d)", y.Limits.Wall.Milliseconds())))
	})
	go func() {
		readers.Wait()
		<-c.Done()
		wall.Stop()
		code := c.ExitCode()
		run.mu.Lock()
		if run.limit == nil && run.killed == "" {
			if what := y.exitLimit(code, run.stderr); what != "" {
				run.limit = limitError(what)
			}
		}
		if code != 0 {
			run.exitText = fmt.Sprintf("its container ended with status %d", code)
		}
		why := ""
		switch {
		case run.limit != nil:
			why = run.limit.Error()
		case run.killed != "":
			why = fmt.Sprintf("Run %s %s", run.id, textStopped)
		case run.end == nil:
			why = "the Run ended without its end: " + run.exitText
		}
		run.mu.Unlock()
		stopRelay()
		y.keep(run.id, b, s.session, why)
		b.remove()
		close(idc)
		close(run.done)
	}()
	wait := y.Wait
	if wait <= 0 {
		wait = time.Minute
	}
	select {
	case _, ok := <-idc:
		if !ok {
			<-run.done
			if l := run.limitErr(); l != nil {
				return nil, l
			}
			return nil, fmt.Errorf("yaag ended before its Run began: %s", run.failure())
		}
	case <-time.After(wait):
	}
	return run, nil
}

// eachLine calls f with each line of r (without its newline) up to
// max bytes; a longer line is skipped whole, and reading goes on: the
// Run must never block on its output, nor its end be lost after a line
// too long.
func eachLine(r io.Reader, max int, f func([]byte)) {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	long := false
	for {
		part, err := br.ReadSlice('\n')
		if !long {
			line = append(line, part...)
			if len(line) > max+1 {
				long, line = true, line[:0]
			}
		}
		switch {
		case err == nil:
			if !long {
				f(bytes.TrimSuffix(line, []byte("\n")))
			}
			line, long = line[:0], false
		case errors.Is(err, bufio.ErrBufferFull):
		default:
			if !long && len(line) > 0 {
				f(line)
			}
			return
		}
	}
}

func (r *yaagRun) limitErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.limit
}

// event reads one line of the Run's events.
func (r *yaagRun) event(line []byte, idc chan<- string) {
	var e yaagwire.Event
	var end yaagwire.End
	if json.Unmarshal(line, &e) != nil || (e.Event == yaagwire.EventRunEnd && json.Unmarshal(line, &end) != nil) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch e.Event {
	case yaagwire.EventRunStart:
		select {
		case idc <- e.Run:
		default:
		}
	case yaagwire.EventRunEnd:
		r.end = &end
		select { // a Run that failed before run_start (a bad program)
		case idc <- e.Run:
		default:
		}
	}
}

func (r *yaagRun) failure() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.limit != nil {
		return r.limit.Error()
	}
	if r.killed != "" {
		return string(textStopped)
	}
	if r.end != nil && r.end.Error != "" {
		return r.end.Error
	}
	if len(r.stderr) > 0 {
		return strings.TrimPrefix(r.stderr[len(r.stderr)-1], "yaag: ")
	}
	if r.exitText == "" {
		return "it ended without its end"
	}
	return r.exitText
}

// text is what the model is told of a Run.
func (r *yaagRun) text() string {
	select {
	case <-r.done:
	default:
		return fmt.Sprintf("Run %s is running; yaag_status({\"id\": %q}) reads it, yaag_stop ends it", r.id, r.id)
	}
	r.mu.Lock()
	end := r.end
	r.mu.Unlock()
	switch {
	case end != nil && end.Status == yaagwire.EndCompleted:
		return fmt.Sprintf("Run %s completed: %s", r.id, end.Result)
	case end != nil && end.Status == yaagwire.EndPaused:
		return fmt.Sprintf("Run %s paused: its Checkpoint waits to be resumed; yaag_status({\"id\": %q}) reads it", r.id, r.id)
	default:
		return fmt.Sprintf("Run %s failed: %s", r.id, r.failure())
	}
}

// lookup finds a Run by id.
func (y *YaagRuns) lookup(id string) (*yaagRun, bool) {
	y.mu.Lock()
	defer y.mu.Unlock()
	r, ok := y.runs[id]
	return r, ok
}

// yaagCall runs a decided yaag_run, yaag_status, yaag_stop or
// yaag_pause. The state it returns is what the Run's Agents' sessions
// hold now: the caller's session gets their taint with the Run's answer.
// A Run is read from its record (the Runs of the home, whoever started
// them), and stopped and paused through its Control Channel.
func (b *Broker) yaagCall(ctx context.Context, c brokerwire.ToolCall, a arguments, v verdict) (string, policy.State, error) {
	y := b.cfg.Yaag
	if y == nil {
		return "", policy.State{}, runbook.Refuse(runbook.YaagRunRefused, "brokerd runs no yaag programs (it was started without a binary for them)")
	}
	switch policy.Tool(c.Tool) {
	case policy.YaagRun:
		// The Run's floor: what the caller holds, and the class of the
		// program's directory (the grants that overlap it, decided as a
		// run is). Its Agents' sessions start there, in one taint domain
		// (domain.go, D821).
		st, err := b.sessions.read(c.Session)
		if err != nil {
			return "", policy.State{}, err
		}
		floor := st.Raise(v.Class, v.Untrusted)
		key, domain, err := b.sessions.newDomain(floor)
		if err != nil {
			return "", policy.State{}, err
		}
		s := yaagStartOf(c, a, v)
		s.domain = key
		began := time.Now()
		run, err := y.start(s)
		if err != nil {
			return "", policy.State{}, runbook.Wrap(runbook.YaagRunRefused, err)
		}
		if err := b.sessions.nameDomainRun(domain, run.id); err != nil {
			b.logf("yaag_run %s of session %s: Run %s: %v", c.CallID, c.Session, run.id, err)
		}
		wait := y.Wait
		if wait <= 0 {
			wait = time.Minute
		}
		wait -= time.Since(began)
		select {
		case <-run.done:
		case <-time.After(wait):
		case <-goneOf(ctx):
			b.logf("yaag_run %s of session %s: Run %s %s", c.CallID, c.Session, run.id, textReplaced)
			return fmt.Sprintf("Run %s %s yaag_status({\"id\": %q}) reads it from any session, yaag_stop ends it; %s",
				run.id, textReplaced, run.id, runbook.Link(runbook.YaagSessionReplaced)), b.runState(run.id, run.agentSessions()), nil
		case <-ctx.Done():
		}
		return run.text(), b.runState(run.id, run.agentSessions()), nil
	case policy.YaagStatus:
		if a.ID == "" {
			return y.list(c.Session), policy.State{}, nil
		}
		return y.status(ctx, c.Session, a.ID, b)
	case policy.YaagStop, policy.YaagPause:
		return y.control(ctx, c, a.ID, b)
	}
	return "", policy.State{}, fmt.Errorf("brokerd cannot run %q", c.Tool)
}

// yaagProgram gives a yaag_run that waits for the owner the manifest of
// the files its Run would read (c.v.program), for the approval to show
// and the approved Run to check (D801); a Run whose files cannot be read,
// or that brokerd could not start now (no yaag, [yaag] max_runs reached),
// is refused before the owner is asked.
func (b *Broker) yaagProgram(ctx context.Context, c *call) error {
	y := b.cfg.Yaag
	if y == nil {
		return runbook.Refuse(runbook.YaagRunRefused, "brokerd runs no yaag programs (it was started without a binary for them)")
	}
	// A Run that could not start now is not put to the owner (D907).
	if err := y.hasRoom(c.Session); err != nil {
		return err
	}
	m, err := y.manifest(ctx, yaagStartOf(c.ToolCall, c.args, c.v))
	if err != nil {
		return runbook.Wrap(runbook.YaagRunRefused, err)
	}
	c.v.program = m
	return nil
}

func (y *YaagRuns) store() yaagwire.Store { return yaagwire.Store{Home: y.Home} }

// agentSessions are the sessions of a Run brokerd started.
func (r *yaagRun) agentSessions() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.agents...)
}

func recordSessions(rec yaagwire.Record) []string {
	var out []string
	for _, a := range rec.Agents {
		if a.Session != "" {
			out = append(out, a.Session)
		}
	}
	return out
}

// orphan says that a Run's host session is not the caller's: the session
// that started it was replaced.
func orphan(rec yaagwire.Record, session string) string {
	if rec.Host == "" || rec.Host == session {
		return ""
	}
	return fmt.Sprintf(" (an orphan here: session %s started it)", rec.Host)
}

// list is yaag_status without an id: the Runs yaag_run started.
func (y *YaagRuns) list(session string) string {
	all, err := y.store().List()
	if err != nil {
		return "cannot read the Runs: " + err.Error()
	}
	var lines []string
	for _, r := range all {
		if r.Host == "" {
			continue
		}
		lines = append(lines, fmt.Sprintf("%s %s%s", r.ID, r.Status, orphan(r, session)))
	}
	if len(lines) == 0 {
		return "no Run was started by yaag_run"
	}
	return "Runs started by yaag_run: " + strings.Join(lines, "; ")
}

// status is a Run as its record says, with its Agents' taint.
func (y *YaagRuns) status(ctx context.Context, session, id string, b *Broker) (string, policy.State, error) {
	rec, err := y.readRecord(id)
	if run, ok := y.lookup(id); ok && err == nil && rec.Status == yaagwire.StatusLost {
		// Its process is gone and brokerd is keeping what it left: the
		// record says how it ended once that is done.
		select {
		case <-run.done:
		case <-time.After(stopGrace):
		case <-ctx.Done():
		}
		rec, err = y.readRecord(id)
	}
	var nr *yaagwire.NoRunError
	if errors.As(err, &nr) {
		if run, ok := y.lookup(id); ok && !run.ended() {
			return fmt.Sprintf("Run %s is starting; yaag_stop ends it", id), b.runState(run.id, run.agentSessions()), nil
		}
		return nr.Error(), policy.State{}, nil
	}
	if err != nil {
		return "", policy.State{}, err
	}
	st := b.runState(id, y.sessionsOf(id, rec))
	var text string
	switch rec.Status {
	case yaagwire.StatusCompleted:
		text = fmt.Sprintf("Run %s completed: %s", id, rec.Result)
	case yaagwire.StatusPaused:
		text = fmt.Sprintf("Run %s paused: its Checkpoint is %s", id, rec.Checkpoint)
		for _, q := range rec.Questions {
			text += fmt.Sprintf("; question %s: %s", q.Key, q.Question)
		}
		if len(rec.Questions) > 0 {
			text += "; the owner answers with yaag answer, then resumes it"
		}
	case yaagwire.StatusRunning:
		var s yaagwire.Status
		cctx, cancel := context.WithTimeout(ctx, stopGrace)
		err := yaagwire.Call(cctx, y.store().SocketPath(id), yaagwire.KindStatus, struct{}{}, &s)
		cancel()
		if err == nil {
			text = fmt.Sprintf("Run %s is %s, %d Agent(s)", id, s.State, len(s.Agents))
		} else {
			text = fmt.Sprintf("Run %s is running (its Control Channel: %v)", id, err)
		}
		text += "; yaag_stop ends it, yaag_pause pauses it"
	case yaagwire.StatusLost:
		text = fmt.Sprintf("Run %s is lost: its process is gone without its end; the owner continues it with yaag run --resume %s", id, rec.Cassette)
	default:
		text = fmt.Sprintf("Run %s %s: %s", id, rec.Status, rec.Error)
	}
	return text + orphan(rec, session), st, nil
}

// stopGrace is how long a Run asked to stop through its Control Channel
// may take to end before brokerd ends its container.
const stopGrace = 10 * time.Second

// control is yaag_stop and yaag_pause, through the Run's Control
// Channel. A Run brokerd started that does not answer, or does not end
// within stopGrace (a program that never yields, or a Run that has not
// begun), is ended by yaag_stop with its whole container.
func (y *YaagRuns) control(ctx context.Context, c brokerwire.ToolCall, id string, b *Broker) (string, policy.State, error) {
	kind, verb := yaagwire.KindStop, "stop"
	if c.Tool == string(policy.YaagPause) {
		kind, verb = yaagwire.KindPause, "pause"
	}
	if run, ok := y.lookup(id); ok && !run.ended() {
		rec, _ := y.readRecord(id)
		var ans yaagwire.Answer
		cctx, cancel := context.WithTimeout(ctx, stopGrace)
		// The socket's path is the home's, never one the Run's record names.
		err := yaagwire.Call(cctx, y.store().SocketPath(id), kind, yaagwire.Request{}, &ans)
		cancel()
		if err == nil && kind == yaagwire.KindStop {
			select {
			case <-run.done:
				// It ended when asked: it is stopped, whatever word it
				// answered with while it was still stopping.
				ans.Status = yaagwire.StatusStopped
			case <-time.After(stopGrace):
				err = fmt.Errorf("it answered %s but did not end within %s", ans.Status, stopGrace)
			}
		}
		switch {
		case err == nil:
		case kind == yaagwire.KindStop:
			run.kill("yaag_stop", nil)
			<-run.done
			return fmt.Sprintf("Run %s stopped: it %s with its whole container (it did not stop when asked: %v)%s", id, textStopped, err, orphan(rec, c.Session)),
				b.runState(id, y.sessionsOf(id, rec)), nil
		default:
			return yaagwire.Failed(verb, err).Error(), b.runState(id, y.sessionsOf(id, rec)), nil
		}
		if ans.Checkpoint != "" {
			return fmt.Sprintf("Run %s %s: its Checkpoint is %s%s", id, ans.Status, ans.Checkpoint, orphan(rec, c.Session)), b.runState(id, y.sessionsOf(id, rec)), nil
		}
		return fmt.Sprintf("Run %s %s%s", id, ans.Status, orphan(rec, c.Session)), b.runState(id, y.sessionsOf(id, rec)), nil
	}
	var ans yaagwire.Answer
	rec, err := y.store().Request(ctx, id, kind, yaagwire.Request{}, &ans)
	st := b.runState(id, y.sessionsOf(id, rec))
	var nr *yaagwire.NoRunError
	var ended *yaagwire.EndedError
	switch {
	case errors.As(err, &nr), errors.As(err, &ended):
		return err.Error(), st, nil
	case err != nil:
		return yaagwire.Failed(verb, err).Error(), st, nil
	}
	if ans.Checkpoint != "" {
		return fmt.Sprintf("Run %s %s: its Checkpoint is %s%s", id, ans.Status, ans.Checkpoint, orphan(rec, c.Session)), st, nil
	}
	return fmt.Sprintf("Run %s %s%s", id, ans.Status, orphan(rec, c.Session)), st, nil
}

// sessionsOf are a Run's Agents' sessions: those brokerd's relay saw
// loopd make for it, when brokerd started it, and those its record names.
func (y *YaagRuns) sessionsOf(id string, rec yaagwire.Record) []string {
	out := recordSessions(rec)
	if run, ok := y.lookup(id); ok {
		for _, s := range run.agentSessions() {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// runState is what a Run's answer carries to the caller: its taint
// domain's state (when brokerd started it) joined with the states of the
// Agents' sessions brokerd's relay or its record name.
func (b *Broker) runState(run string, agents []string) policy.State {
	st := b.agentsState(agents)
	if r, ok := b.cfg.Yaag.lookup(run); ok && r.domain != "" {
		d, err := b.sessions.readDomain(r.domain)
		if err != nil {
			b.logf("Run %s: %v", run, err)
			d.State = policy.State{Taint: policy.Secret, Untrusted: true}
		}
		return st.Raise(d.Taint, d.Untrusted)
	}
	if d, ok := b.sessions.runDomain(run); ok {
		st = st.Raise(d.Taint, d.Untrusted)
	}
	return st
}

// agentsState is the join of the states of a Run's Agents' sessions. A
// session whose state cannot be read counts as secret.
func (b *Broker) agentsState(agents []string) policy.State {
	var st policy.State
	for _, s := range agents {
		got, err := b.sessions.read(s)
		if err != nil {
			got = policy.State{Taint: policy.Secret, Untrusted: true}
		}
		st = st.Raise(got.Taint, got.Untrusted)
	}
	return st
}

// Granted is the answer to tools.granted.
func (b *Broker) Granted() brokerwire.ToolsGranted {
	out := brokerwire.ToolsGranted{Tools: []string{}}
	for _, t := range b.cfg.Grants.Granted() {
		out.Tools = append(out.Tools, string(t))
	}
	return out
}
