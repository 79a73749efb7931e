package broker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"boxmaker/core/brokerwire"
	"boxmaker/core/policy"
	"boxmaker/core/yaag/cassette"
	"boxmaker/core/yaag/control"
	"boxmaker/core/yaag/engine"
	"boxmaker/core/yaag/runs"
	"boxmaker/core/yaag/snapshot"
	"boxmaker/runbook"
)

// YaagRuns starts and keeps the yaag Runs that yaag_run calls start: each
// is `boxmaker yaag run --json --root <decided directory>` as a process of
// brokerd's own user (the owner's yaag), not in the tool container. A Run
// needs no container of its own: it reads only its program's files, under
// the decided directory, and every other effect is one of its Agents' tool
// calls, which loopd sends here to be decided, audited and run like any
// other.
type YaagRuns struct {
	Binary string        // the boxmaker binary
	Env    []string      // the Run's environment (BOXMAKER_HOME among it)
	Wait   time.Duration // how long yaag_run waits for the end before it answers that the Run goes on
	Home   string        // the Boxmaker home: the Runs' records and Control Channels
	// LoopSocket is loopd's loop socket, which a Run's Agents are
	// sessions of: brokerd says it, never the program's directory.
	LoopSocket string

	mu   sync.Mutex
	runs map[string]*yaagRun
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
	cmd     *exec.Cmd
	done    chan struct{}

	mu       sync.Mutex
	agents   []string // the Agents' sessions
	end      *runs.End
	stderr   []string // its last lines
	exitText string
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
	domain   string // the key of its taint domain, for the Run alone
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

// command is the yaag run process of a Run, in its directory and a
// process group of its own; manifest asks it for the manifest of the
// files it would read only. The returned function closes brokerd's ends
// of the descriptors it is given, once it has started.
func (y *YaagRuns) command(s yaagStart, manifest bool) (*exec.Cmd, func(), error) {
	line := runs.Command{Root: s.dir, HostSession: s.session, ForkHost: s.forkHost, Input: s.input, Profile: s.profile,
		Inline: s.script != nil, File: s.file, LoopSocket: y.LoopSocket, Manifest: manifest, Approved: s.approved}
	// The descriptors the Run reads, from 3 on: the inline program, then
	// its taint domain's key (never in its arguments or environment,
	// which other processes of the user can read).
	var extra []*os.File
	pipe := func(text string) (int, error) {
		r, w, err := os.Pipe()
		if err != nil {
			return 0, err
		}
		extra = append(extra, r)
		go func() { w.WriteString(text); w.Close() }()
		return 2 + len(extra), nil
	}
	closeExtra := func() {
		for _, f := range extra {
			f.Close()
		}
	}
	var err error
	if s.script != nil {
		if line.EvalFD, err = pipe(*s.script); err != nil {
			closeExtra()
			return nil, nil, err
		}
	}
	if s.domain != "" {
		if line.DomainFD, err = pipe(s.domain); err != nil {
			closeExtra()
			return nil, nil, err
		}
	}
	cmd := exec.Command(y.Binary, line.Args()...)
	// The binary picks its role by the name it runs under: whatever the
	// name brokerd's binary has, this is the boxmaker command yaag.
	cmd.Args[0] = "boxmaker"
	cmd.Dir = s.dir
	cmd.Env = y.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.ExtraFiles = extra
	return cmd, closeExtra, nil
}

// maxManifest bounds the manifest a yaag run --manifest prints.
const maxManifest = 4 << 20

// manifest is the files a Run would read, with their SHA-256 (yaag run
// --manifest, which reads them as the Run does and runs nothing): what an
// approval of the Run shows, and what the approved Run must read again.
func (y *YaagRuns) manifest(ctx context.Context, s yaagStart) (*snapshot.Manifest, error) {
	cmd, closeExtra, err := y.command(s, true)
	if err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &limitedBuffer{b: &stdout, max: maxManifest}
	cmd.Stderr = &limitedBuffer{b: &stderr, max: 64 << 10}
	err = cmd.Start()
	closeExtra()
	if err != nil {
		return nil, fmt.Errorf("cannot start yaag: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-done:
	case <-ctx.Done():
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return nil, ctx.Err()
	case <-time.After(2 * time.Minute):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return nil, errors.New("yaag did not read the program's files within 2 minutes")
	}
	if werr != nil {
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		return nil, fmt.Errorf("yaag ended before its Run began: %s", strings.TrimPrefix(lines[len(lines)-1], "yaag: "))
	}
	var m snapshot.Manifest
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

// start begins a Run and waits for its id.
func (y *YaagRuns) start(s yaagStart) (*yaagRun, error) {
	cmd, closeExtra, err := y.command(s, false)
	if err != nil {
		return nil, err
	}
	defer closeExtra()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start yaag: %v", err)
	}
	run := &yaagRun{session: s.session, cmd: cmd, done: make(chan struct{}), domain: domainID(s.domain)}
	idc := make(chan string, 1)
	var readers sync.WaitGroup
	readers.Add(2)
	go func() {
		defer readers.Done()
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			run.event(sc.Bytes(), idc)
		}
	}()
	go func() {
		defer readers.Done()
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			run.mu.Lock()
			run.stderr = append(run.stderr, sc.Text())
			if len(run.stderr) > 20 {
				run.stderr = run.stderr[1:]
			}
			run.mu.Unlock()
		}
	}()
	go func() {
		readers.Wait()
		err := cmd.Wait()
		run.mu.Lock()
		if err != nil {
			run.exitText = err.Error()
		}
		run.mu.Unlock()
		close(idc)
		close(run.done)
	}()
	id, ok := <-idc
	if !ok {
		<-run.done
		return nil, fmt.Errorf("yaag ended before its Run began: %s", run.failure())
	}
	run.id = id
	y.mu.Lock()
	if y.runs == nil {
		y.runs = map[string]*yaagRun{}
	}
	y.runs[id] = run
	y.mu.Unlock()
	return run, nil
}

// event reads one line of the Run's events.
func (r *yaagRun) event(line []byte, idc chan<- string) {
	var e engine.Event
	var end runs.End
	if json.Unmarshal(line, &e) != nil || (e.Event == engine.EventRunEnd && json.Unmarshal(line, &end) != nil) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch e.Event {
	case engine.EventRunStart:
		select {
		case idc <- e.Run:
		default:
		}
	case engine.EventSpawned:
		r.agents = append(r.agents, e.Session)
	case engine.EventRunEnd:
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
	if r.end != nil && r.end.Error != "" {
		return r.end.Error
	}
	if len(r.stderr) > 0 {
		return strings.TrimPrefix(r.stderr[len(r.stderr)-1], "yaag: ")
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
	case end != nil && end.Status == cassette.EndCompleted:
		return fmt.Sprintf("Run %s completed: %s", r.id, end.Result)
	case end != nil && end.Status == cassette.EndPaused:
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
// and the approved Run to check (D801); a Run whose files cannot be read
// is refused before the owner is asked.
func (b *Broker) yaagProgram(ctx context.Context, c *call) error {
	y := b.cfg.Yaag
	if y == nil {
		return nil // yaagCall refuses it after the approval
	}
	m, err := y.manifest(ctx, yaagStartOf(c.ToolCall, c.args, c.v))
	if err != nil {
		return runbook.Wrap(runbook.YaagRunRefused, err)
	}
	c.v.program = m
	return nil
}

func (y *YaagRuns) store() runs.Store { return runs.Store{Home: y.Home} }

// agentSessions are the sessions of a Run brokerd started.
func (r *yaagRun) agentSessions() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.agents...)
}

func recordSessions(rec runs.Record) []string {
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
func orphan(rec runs.Record, session string) string {
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
	rec, err := y.store().Read(id)
	var nr *runs.NoRunError
	if errors.As(err, &nr) {
		return nr.Error(), policy.State{}, nil
	}
	if err != nil {
		return "", policy.State{}, err
	}
	st := b.runState(id, recordSessions(rec))
	var text string
	switch rec.Status {
	case runs.StatusCompleted:
		text = fmt.Sprintf("Run %s completed: %s", id, rec.Result)
	case runs.StatusPaused:
		text = fmt.Sprintf("Run %s paused: its Checkpoint is %s", id, rec.Checkpoint)
		for _, q := range rec.Questions {
			text += fmt.Sprintf("; question %s: %s", q.Key, q.Question)
		}
		if len(rec.Questions) > 0 {
			text += "; the owner answers with yaag answer, then resumes it"
		}
	case runs.StatusRunning:
		var s control.Status
		if _, err := runs.Request(ctx, y.store(), id, control.KindStatus, struct{}{}, &s); err == nil {
			text = fmt.Sprintf("Run %s is %s, %d Agent(s)", id, s.State, len(s.Agents))
		} else {
			text = fmt.Sprintf("Run %s is running (its Control Channel: %v)", id, err)
		}
		text += "; yaag_stop ends it, yaag_pause pauses it"
	case runs.StatusLost:
		text = fmt.Sprintf("Run %s is lost: its process is gone without its end; the owner continues it with yaag run --resume %s", id, rec.Cassette)
	default:
		text = fmt.Sprintf("Run %s %s: %s", id, rec.Status, rec.Error)
	}
	return text + orphan(rec, session), st, nil
}

// control is yaag_stop and yaag_pause, through the Run's Control Channel.
func (y *YaagRuns) control(ctx context.Context, c brokerwire.ToolCall, id string, b *Broker) (string, policy.State, error) {
	kind, verb := control.KindStop, "stop"
	if c.Tool == string(policy.YaagPause) {
		kind, verb = control.KindPause, "pause"
	}
	var ans control.Answer
	rec, err := runs.Request(ctx, y.store(), id, kind, control.Request{}, &ans)
	st := b.runState(id, recordSessions(rec))
	var nr *runs.NoRunError
	var ended *runs.EndedError
	var ce *control.Error
	switch {
	case errors.As(err, &nr), errors.As(err, &ended):
		return err.Error(), st, nil
	case errors.As(err, &ce) && ce.Code == control.ConnectFailed && kind == control.KindStop:
		// Its socket is gone: a process brokerd started still goes.
		if run, ok := y.lookup(id); ok {
			syscall.Kill(-run.cmd.Process.Pid, syscall.SIGTERM)
			select {
			case <-run.done:
			case <-time.After(10 * time.Second):
				syscall.Kill(-run.cmd.Process.Pid, syscall.SIGKILL)
				<-run.done
			}
			return run.text(), st, nil
		}
		return control.Failed(verb, err).Error(), st, nil
	case err != nil:
		return control.Failed(verb, err).Error(), st, nil
	}
	if ans.Checkpoint != "" {
		return fmt.Sprintf("Run %s %s: its Checkpoint is %s%s", id, ans.Status, ans.Checkpoint, orphan(rec, c.Session)), st, nil
	}
	return fmt.Sprintf("Run %s %s%s", id, ans.Status, orphan(rec, c.Session)), st, nil
}

// runState is what a Run's answer carries to the caller: its taint
// domain's state (when brokerd started it) joined with the states of the
// Agents' sessions its events or record name.
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
