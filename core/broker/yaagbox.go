package broker

// How a Run brokerd starts is kept: its disk (box), its Agents' way to
// loopd (relay), what it leaves in the home when it ends (keep), and
// the limits that end it. See docs/runner.md, "yaag Runs".

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"boxmaker/core/atomicfile"
	"boxmaker/core/daemon"
	"boxmaker/core/loopwire"
	"boxmaker/core/role"
	"boxmaker/core/yaagwire"
	"boxmaker/runbook"
)

// Texts the runbook quotes.
const (
	textRunLimit   runbook.Quoted = "reached its limit"
	textRunsBusy   runbook.Quoted = "are going already"
	textDiskKept   runbook.Quoted = "was not kept: the home's disk"
	boxRunsDirName                = "runs"
	relaySocket                   = "loop.sock"
)

// newRunID is a Run id as yaag makes them: r-<UTC time>-<8 hex>.
func newRunID() string {
	var b [4]byte
	rand.Read(b[:])
	return "r-" + time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// box is a Run's own disk: a tmpfs of [yaag] disk_mb, the tools' uid's,
// mounted at the Run's control directory (<home>/run/yaag/<id>), which
// the container sees at the same path. The Run's Control Channel and its
// lock are there, brokerd's relay socket, and runs/, which the container
// sees as <home>/yaag/runs: its record, events, journal and Cassette.
type box struct {
	dir  string
	runs string
}

// makeBox mounts a Run's disk.
func (y *YaagRuns) makeBox(id string) (*box, error) {
	dir := y.store().ControlDir(id)
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return nil, fmt.Errorf("cannot make %s: %v", parent, err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot make the Run's disk %s: %v", dir, err)
	}
	uid := y.Runner.ToolUID()
	opts := fmt.Sprintf("size=%dm,nr_inodes=4096,mode=0700,uid=%d,gid=%d", y.Limits.DiskMB, uid, uid)
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, opts); err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("cannot mount the Run's disk %s: %v", dir, err)
	}
	b := &box{dir: dir, runs: filepath.Join(dir, boxRunsDirName)}
	if err := os.Mkdir(b.runs, 0o700); err == nil {
		err = os.Chown(b.runs, uid, uid)
	} else {
		b.remove()
		return nil, fmt.Errorf("cannot make %s: %v", b.runs, err)
	}
	return b, nil
}

// remove unmounts the disk (what it held is gone) and its mount point.
func (b *box) remove() {
	for unix.Unmount(b.dir, unix.MNT_DETACH) == nil {
	}
	os.Remove(b.dir)
}

// CleanBoxes removes the disks of Runs a killed brokerd left mounted
// (their containers are gone: runner.CleanLeftovers), keeping what each
// held as keep does, and returns their ids. brokerd calls it at start.
func (y *YaagRuns) CleanBoxes() []string {
	dir := y.store().ControlDirs()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var ids []string
	for _, e := range entries {
		id := e.Name()
		if !yaagwire.ValidRunID(id) || !isMount(filepath.Join(dir, id)) {
			continue
		}
		b := &box{dir: filepath.Join(dir, id), runs: filepath.Join(dir, id, boxRunsDirName)}
		y.keep(id, b, "", "brokerd stopped while the Run ran: it was ended")
		b.remove()
		ids = append(ids, id)
	}
	return ids
}

// Close ends every Run still going, with its container, keeps what each
// left, and returns how many it ended. brokerd calls it as it stops.
func (y *YaagRuns) Close() int {
	y.mu.Lock()
	var going []*yaagRun
	for _, r := range y.runs {
		if !r.ended() && r.c != nil {
			going = append(going, r)
		}
	}
	y.mu.Unlock()
	for _, r := range going {
		r.kill("brokerd stopped", runbook.Refuse(runbook.YaagRunLimit, "the Run was ended: brokerd, which keeps its limits, stopped"))
	}
	for _, r := range going {
		<-r.done
	}
	return len(going)
}

// isMount reports whether path is a mount point: its device is not its
// parent's.
func isMount(path string) bool {
	var st, pst unix.Stat_t
	if unix.Lstat(path, &st) != nil || unix.Lstat(filepath.Dir(path), &pst) != nil {
		return false
	}
	return st.Mode&unix.S_IFMT == unix.S_IFDIR && st.Dev != pst.Dev
}

// maxKept bounds one file keep reads from a disk: the disk's own size.
func (y *YaagRuns) maxKept() int64 { return int64(y.Limits.DiskMB) << 20 }

// keep copies what a Run left on its disk into the home's Runs (its
// record, events, Cassette or journal), and writes the record's end
// when the Run did not (it was ended at a limit, or stopped): brokerd's
// words, why. What is kept is at most the disk's size, and only while
// the home keeps [audit] min_free_mb free after it: a Run can never
// bring brokerd to home-disk-low.
func (y *YaagRuns) keep(id string, b *box, session, why string) {
	st := y.store()
	names := []string{id + ".json", id + ".events.jsonl", id + ".cassette.json", id + ".cassette.json.journal"}
	files := map[string][]byte{}
	var total int64
	for _, n := range names {
		data, err := st.ReadBoxFile(id, n, y.maxKept())
		if err != nil {
			y.logf("Run %s: %s on its disk is not kept: %v", id, n, err)
			continue
		}
		if data != nil {
			files[n] = data
			total += int64(len(data))
		}
	}
	var rec yaagwire.Record
	if data := files[id+".json"]; data == nil || json.Unmarshal(data, &rec) != nil || rec.ID != id {
		if why == "" && len(files) == 0 {
			return // it ended by itself before it began: no Run started
		}
		rec = yaagwire.Record{ID: id, Status: yaagwire.StatusFailed, Program: "(unknown)", Mode: "live", Host: session}
		if why == "" {
			why = "the Run left no record"
		}
	}
	delete(files, id+".json")
	if y.Free != nil && y.MinFree > 0 {
		if free, err := y.Free(); err == nil && free-total < y.MinFree+int64(len(names))<<20 {
			files = nil
			rec.Cassette, rec.Checkpoint = "", ""
			note := fmt.Sprintf("its Cassette and events (%d bytes) %s has %d bytes free, [audit] min_free_mb is %d MiB", total, textDiskKept, free, y.MinFree>>20)
			why = strings.TrimPrefix(why+"; "+note, "; ")
			y.logf("Run %s: %s", id, note)
		}
	}
	if err := os.MkdirAll(st.Dir(), 0o700); err != nil {
		y.logf("Run %s: cannot keep what it left: %v", id, err)
		return
	}
	for n, data := range files {
		if err := atomicfile.WriteFile(filepath.Join(st.Dir(), n), data, 0o600); err != nil {
			y.logf("Run %s: cannot keep %s: %v", id, n, err)
		}
	}
	// The record's paths are the home's, whatever the Run wrote; a Run
	// brokerd started continues no other Run's Cassette.
	rec.Events, rec.Control, rec.PID = st.EventsPath(id), "", 0
	rec.ResumedFrom, rec.Predecessor, rec.ResumedBy = "", "", ""
	if rec.Cassette != "" && rec.Cassette != st.CassettePath(id) {
		rec.Cassette = ""
	}
	if rec.Checkpoint != "" && rec.Checkpoint != st.CassettePath(id) {
		rec.Checkpoint = ""
	}
	if session != "" {
		rec.Host = session
	}
	if !rec.Ended() || why != "" && rec.Status == yaagwire.StatusCompleted && files == nil {
		if !rec.Ended() {
			rec.Status = yaagwire.StatusFailed
			if why != "" && strings.Contains(why, "yaag_stop") {
				rec.Status = yaagwire.StatusStopped
			}
		}
		if why != "" {
			rec.Error = why
		}
		rec.EndedAt = time.Now().UTC().Format(time.RFC3339Nano)
	}
	if err := st.Write(rec); err != nil {
		y.logf("Run %s: cannot write its record: %v", id, err)
	}
}

// limitError is the refusal of a Run ended at a limit.
func limitError(what string) error {
	return runbook.Refuse(runbook.YaagRunLimit, "the Run %s %s and was ended", textRunLimit, what)
}

// exitLimit says which limit a Run's exit status shows, or "".
func (y *YaagRuns) exitLimit(code int, stderr []string) string {
	l := y.Limits
	switch {
	case code == 137:
		// Nothing else SIGKILLs it: brokerd's own kills are known
		// (wall clock, yaag_stop), the CPU-time hard limit comes after
		// the soft limit's own status.
		return fmt.Sprintf("of memory ([yaag] memory_mb = %d)", l.MemoryMB)
	case code == yaagExitCPU:
		return fmt.Sprintf("of CPU time ([yaag] cpu_seconds = %d)", l.CPUSeconds)
	case code == 2 && slices.ContainsFunc(stderr, func(s string) bool {
		return strings.Contains(s, "failed to create new OS thread") || strings.Contains(s, "pthread_create failed")
	}):
		return fmt.Sprintf("of processes ([yaag] pids_limit = %d)", l.PidsLimit)
	}
	return ""
}

// yaagExitCPU is yaag run's status at its CPU-time limit (roles/yaag's
// ExitCPULimit; brokerd does not link yaag's role).
const yaagExitCPU = 5

// relay is brokerd's socket for one Run's Agents, on the Run's disk: the
// Run reaches loopd only through it. Each request is loopd's own
// (agent.spawn, ask, fork, compact, answer), checked and sent on: a
// session the Run did not make through it (or its host's, for the
// host's copy) is refused, and every session loopd makes for it is
// recorded as the Run's. Each session it makes is put in the Run's taint
// domain: the relay sets the domain's key on the request, whatever the
// Run sent, so the key never enters the container. The peer must be the
// tools' uid (or brokerd's).
type relay struct {
	run      *yaagRun
	loop     string
	host     string // the host session, when the Run may copy it
	domain   string // the key of the Run's taint domain, which the relay gives loopd with each session it makes
	sessions map[string]bool
	mu       sync.Mutex
}

func (rl *relay) own(id string) bool {
	rl.mu.Lock()
	defer rl.mu.Unlock()
	return rl.sessions[id]
}

func (rl *relay) add(id string) {
	if id == "" {
		return
	}
	rl.mu.Lock()
	rl.sessions[id] = true
	rl.mu.Unlock()
	rl.run.addAgent(id)
}

func notRuns(id string) error {
	return runbook.Refuse(runbook.YaagRunRefused, "session %q is not one of this Run's Agents", id)
}

// forward sends a checked request to loopd, its events back to the Run.
func forward[Q, A any](rl *relay, ctx context.Context, kind string, req Q, s *daemon.Stream, sessionOf func(A) string) (any, error) {
	// The request ends when the Run's connection does (the Run was
	// stopped, or its Ask timed out or stalled): so does loopd's turn,
	// which would otherwise go on writing an Agent's session nobody waits
	// for, and hold its lock against the next Ask.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-s.Gone():
			cancel()
		case <-ctx.Done():
		}
	}()
	var ans A
	err := daemon.Call(ctx, rl.loop, kind, req, &ans, func(ev json.RawMessage) error { return s.Send(ev) })
	if err != nil {
		return nil, err
	}
	if sessionOf != nil {
		rl.add(sessionOf(ans))
	}
	return ans, nil
}

func (rl *relay) kinds() map[string]daemon.Handler {
	return map[string]daemon.Handler{
		loopwire.KindAgentSpawn: daemon.Takes(func(ctx context.Context, _ daemon.Peer, q loopwire.SpawnRequest, s *daemon.Stream) (any, error) {
			if q.Run != rl.run.id {
				return nil, runbook.Refuse(runbook.YaagRunRefused, "an Agent of Run %s cannot be spawned for Run %q", rl.run.id, q.Run)
			}
			q.Domain = rl.domain
			return forward(rl, ctx, loopwire.KindAgentSpawn, q, s, func(a loopwire.SpawnResult) string { return a.Session })
		}),
		loopwire.KindAgentFork: daemon.Takes(func(ctx context.Context, _ daemon.Peer, q loopwire.ForkRequest, s *daemon.Stream) (any, error) {
			switch {
			case q.Run != rl.run.id:
				return nil, runbook.Refuse(runbook.YaagRunRefused, "an Agent of Run %s cannot be forked for Run %q", rl.run.id, q.Run)
			case q.Latest:
				// The host's copy, as the Run starts: of the host only.
				if rl.host == "" || q.From.ID != rl.host || !q.Host {
					return nil, notRuns(q.From.ID)
				}
			case !rl.own(q.From.ID):
				return nil, notRuns(q.From.ID)
			}
			q.Domain = rl.domain
			return forward(rl, ctx, loopwire.KindAgentFork, q, s, func(a loopwire.ForkResult) string { return a.Session })
		}),
		loopwire.KindAgentAsk: daemon.Takes(func(ctx context.Context, _ daemon.Peer, q loopwire.AskRequest, s *daemon.Stream) (any, error) {
			if !rl.own(q.Session) {
				return nil, notRuns(q.Session)
			}
			return forward[loopwire.AskRequest, loopwire.AskResult](rl, ctx, loopwire.KindAgentAsk, q, s, nil)
		}),
		loopwire.KindAgentCompact: daemon.Takes(func(ctx context.Context, _ daemon.Peer, q loopwire.CompactRequest, s *daemon.Stream) (any, error) {
			if !rl.own(q.Session) {
				return nil, notRuns(q.Session)
			}
			return forward[loopwire.CompactRequest, loopwire.CompactResult](rl, ctx, loopwire.KindAgentCompact, q, s, nil)
		}),
		loopwire.KindAgentAnswer: daemon.Takes(func(ctx context.Context, _ daemon.Peer, q loopwire.AnswerRequest, s *daemon.Stream) (any, error) {
			if !rl.own(q.At.ID) {
				return nil, notRuns(q.At.ID)
			}
			return forward[loopwire.AnswerRequest, loopwire.AnswerResult](rl, ctx, loopwire.KindAgentAnswer, q, s, nil)
		}),
	}
}

// serveRelay listens on the Run's disk for its Agents' requests, until
// stop.
func (y *YaagRuns) serveRelay(run *yaagRun, b *box, host, domain string) (path string, stop func(), err error) {
	path = filepath.Join(b.dir, relaySocket)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return "", nil, fmt.Errorf("cannot listen for the Run's Agents on %s: %v", path, err)
	}
	ln.SetUnlinkOnClose(false)
	uid := y.Runner.ToolUID()
	if err := os.Chown(path, uid, uid); err == nil {
		err = os.Chmod(path, 0o600)
	} else {
		ln.Close()
		return "", nil, fmt.Errorf("cannot give %s to the Run: %v", path, err)
	}
	rl := &relay{run: run, loop: y.LoopSocket, host: host, domain: domain, sessions: map[string]bool{}}
	sock := &daemon.Socket{Role: role.Brokerd.String(), Name: "yaag-relay", Path: path, Kinds: rl.kinds(), AllowUIDs: []uint32{uint32(uid)},
		ListenerLost: runbook.ListenerLost, Log: y.logWriter()}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { sock.Serve(ctx, ln); close(done) }()
	return path, func() { cancel(); ln.Close(); <-done }, nil
}

func (y *YaagRuns) logf(format string, args ...any) {
	fmt.Fprintf(y.logWriter(), "brokerd: yaag: "+format+"\n", args...)
}

func (y *YaagRuns) logWriter() io.Writer {
	if y.Log == nil {
		return io.Discard
	}
	return y.Log
}

// readRecord is the record of Run id, on its disk while it runs, in
// the home's Runs once it ended.
func (y *YaagRuns) readRecord(id string) (yaagwire.Record, error) { return y.store().Read(id) }
