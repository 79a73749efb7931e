// Package memoryd is memoryd's engine: what its three sockets answer (the
// memory block for loopd, the memory and recall calls brokerd forwards,
// the log, review, reindex and sync for bxctl), the recall index's
// follower and the Honcho side. brokerd's state socket says a session's
// taint and trust: a write is judged by them, a Honcho search is sent
// only under [honcho] max_class, and each recall hit carries its source
// session's (decisions D61 and D830). The memory itself is core/memory, the index
// core/recall, the outbox core/honchosync; the sockets' protocol is
// core/memorywire; the flags, config and sockets are roles/memoryd.
package memoryd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"boxmaker/core/brokerwire"
	"boxmaker/core/daemon"
	"boxmaker/core/home"
	"boxmaker/core/memory"
	"boxmaker/core/memorywire"
	"boxmaker/core/policy"
	"boxmaker/core/recall"
	"boxmaker/runbook"
)

// Options is what a Server works with.
type Options struct {
	// Home is the Boxmaker home: memory/ and the recall index are beneath
	// it.
	Home string
	// StateSocket is brokerd's state socket; StateTimeout bounds one
	// question to it.
	StateSocket  string
	StateTimeout time.Duration
	// Log receives memoryd's lines for the operator.
	Log io.Writer
}

// New returns the Server of o. Nothing is opened before Open.
func New(o Options) *Server {
	return &Server{home: o.Home, stateSocket: o.StateSocket, stateTimeout: o.StateTimeout, log: o.Log}
}

// BlockKinds are the block socket's kinds (loopd's).
func (s *Server) BlockKinds() map[string]daemon.Handler {
	return map[string]daemon.Handler{memorywire.KindBlock: daemon.Takes(s.block)}
}

// ToolKinds are the tool socket's kinds: the calls brokerd decided.
func (s *Server) ToolKinds() map[string]daemon.Handler {
	return map[string]daemon.Handler{
		memorywire.KindMemoryCall: daemon.Takes(s.memoryCall), memorywire.KindRecallCall: daemon.Takes(s.recallCall)}
}

// AdminKinds are the admin socket's kinds (bxctl's).
func (s *Server) AdminKinds() map[string]daemon.Handler {
	return map[string]daemon.Handler{
		memorywire.KindLog: daemon.NoBody(s.journal), memorywire.KindReview: daemon.NoBody(s.review),
		memorywire.KindAccept: daemon.Takes(s.accept), memorywire.KindReject: daemon.Takes(s.reject),
		memorywire.KindReindex: daemon.NoBody(s.reindex), memorywire.KindSync: daemon.Takes(s.sync)}
}

// Server is what the sockets' handlers share. It is safe for concurrent
// use once Open has returned.
type Server struct {
	home         string
	stateSocket  string
	stateTimeout time.Duration
	log          io.Writer

	store *memory.Store

	ixMu sync.RWMutex
	ix   *recall.Index // nil while the index is damaged
	// ixErr is the damaged index's error (memory-index-damaged), which
	// recall answers until bxctl reindex replaces the index.
	ixErr error

	honcho *honchoSide // nil without [honcho]

	reindexing sync.Mutex
	logMu      sync.Mutex
	lastSync   string // the last Sync failure logged by the follower
}

func (s *Server) logf(format string, args ...any) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.log, "memoryd: "+format+"\n", args...)
}

// Open opens memory/ and the index. Anything memoryd cannot create or
// open is memoryd-start-failed; an index that exists but SQLite cannot
// read is memory-index-damaged, logged, and memoryd serves without recall
// until bxctl reindex replaces it (decision D54 in
// docs/decisions.md): the memory block and writes do not need the index.
func (s *Server) Open(review bool) error {
	dir := home.Home{Dir: s.home}.Path(home.DirMemory)
	st, err := memory.Open(dir, memory.Options{Review: review})
	if err != nil {
		return runbook.Refuse(runbook.MemorydStartFailed, "cannot open the memory directory: %v", err)
	}
	s.store = st

	ixPath := home.Home{Dir: s.home}.Path(recall.File)
	_, statErr := os.Stat(ixPath)
	var last recall.Progress
	t0 := time.Now()
	ix, err := recall.Open(s.home, func(p recall.Progress) { last = p })
	switch {
	case err == nil:
		s.ix = ix
		if statErr != nil {
			s.logf("built the recall index %s from %d logs, %d records and %d notes in %.1fs",
				ixPath, last.Logs, last.Records, last.Notes, time.Since(t0).Seconds())
		}
		return nil
	case statErr != nil:
		// There was no index, and none could be made: the directory or
		// the disk is at fault, not an index.
		st.Close()
		return runbook.Refuse(runbook.MemorydStartFailed, "cannot create the recall index: %s", refusalText(err))
	}
	if e, _ := runbook.EntryOf(err); e != runbook.MemoryIndexDamaged {
		err = runbook.Refuse(runbook.MemoryIndexDamaged, "index: %s: %s", ixPath, refusalText(err))
	}
	s.ixErr = err
	s.logf("%v", err)
	s.logf("recall is unavailable until the index is rebuilt (bxctl reindex); memory and the memory block work")
	return nil
}

// refusalText is an error's text without its runbook link.
func refusalText(err error) string {
	var r *runbook.Refusal
	if errors.As(err, &r) {
		return r.Text
	}
	return err.Error()
}

// Close stops the Honcho outbox and closes the index and memory/.
func (s *Server) Close() {
	s.closeHoncho()
	s.ixMu.Lock()
	if s.ix != nil {
		s.ix.Close()
	}
	s.ixMu.Unlock()
	s.store.Close()
}

// index is the open index, or the error recall answers while there is
// none.
func (s *Server) index() (*recall.Index, error) {
	s.ixMu.RLock()
	defer s.ixMu.RUnlock()
	if s.ix == nil {
		return nil, s.ixErr
	}
	return s.ix, nil
}

// Follow keeps the index close to the logs between searches, so that the
// Sync before a search has little to read. A failure is logged once until
// it changes.
func (s *Server) Follow(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		ix, err := s.index()
		if ix == nil {
			continue // damaged: logged at start, answered by recall
		}
		_, err = ix.Sync()
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		s.logMu.Lock()
		changed := msg != s.lastSync
		s.lastSync = msg
		s.logMu.Unlock()
		if changed && msg != "" {
			s.logf("%s", msg)
		}
	}
}

// block answers loopd: the memory block of a new session.
func (s *Server) block(_ context.Context, _ daemon.Peer, q memorywire.BlockRequest, _ *daemon.Stream) (any, error) {
	blk, err := s.store.Block()
	if err != nil {
		s.logf("the memory block for session %s was refused: %v", q.Session, err)
		return nil, err
	}
	ans := memorywire.BlockAnswer{Block: blk.Text, Excluded: []memorywire.ExcludedEntry{}, Class: blk.Class}
	for _, e := range blk.Excluded {
		s.logf("%v", e.Event())
		ans.Excluded = append(ans.Excluded, memorywire.ExcludedEntry{File: e.File, Entry: e.Entry, Rule: e.Rule})
	}
	return ans, nil
}

// stateText is the model's answer when brokerd cannot say whether the
// session is trusted: nothing is written without knowing.
const stateText = "memory is unavailable: memoryd could not ask brokerd whether this session is trusted, so nothing was written"

// memoryCall does a memory call brokerd decided.
func (s *Server) memoryCall(ctx context.Context, _ daemon.Peer, q memorywire.ToolRequest, _ *daemon.Stream) (any, error) {
	st, err := s.sessionState(ctx, q.Session)
	if err != nil {
		why, link := said(err)
		s.logf("call %s: cannot ask brokerd at %s about session %s: %s; nothing was written%s", q.CallID, s.stateSocket, q.Session, why, link)
		return memorywire.ToolAnswer{Text: stateText}, nil
	}
	call := memory.Call{Session: q.Session, Class: st.Taint, Untrusted: st.Untrusted, Actions: actionsFromWire(q.Arguments.Actions)}
	res, err := s.store.Write(call)
	if err != nil {
		s.logf("call %s: the memory write failed: %v", q.CallID, err)
		return memorywire.ToolAnswer{Text: "memory failed: the write could not be done, and nothing was changed"}, nil
	}
	if ev := res.Event(); ev != nil {
		s.logf("%v", ev)
	} else if res.Outcome == memory.Untrusted {
		s.logf("a memory write from session %s was saved in notes.md as an untrusted note (edit %s): brokerd reports the session untrusted",
			res.Session, res.Edit)
	}
	// Taint says how sensitive the entries the answer quotes are (none:
	// left out); brokerd raises the session to it.
	return memorywire.ToolAnswer{Text: res.Answer, Taint: res.Shown}, nil
}

// sessionState asks brokerd's state socket for a session's taint and
// trust.
func (s *Server) sessionState(ctx context.Context, session string) (brokerwire.SessionState, error) {
	ctx, cancel := context.WithTimeout(ctx, s.stateTimeout)
	defer cancel()
	var st brokerwire.SessionState
	if err := daemon.Call(ctx, s.stateSocket, brokerwire.KindSessionState, brokerwire.SessionStateRequest{Session: session}, &st, nil); err != nil {
		return st, err
	}
	if _, err := policy.ParseTaint(st.Taint); err != nil {
		return st, fmt.Errorf("the answer's %v", err)
	}
	return st, nil
}

// said is err as a line for the operator words it when err stands inside
// the line: a refusal's public text, and its link for the line to end
// with (its entry names the cause), so that the line ends with one link;
// any other error's text, and no link.
func said(err error) (text, link string) {
	if e, public, ok := runbook.Public(err); ok {
		return public, "; " + runbook.Link(e)
	}
	return err.Error(), ""
}

// defaultHits is how many hits recall gives when the model does not say.
const defaultHits = 10

// recallCall searches the index, after reading what the logs gained since
// the last Sync: a search sees every record written before it.
func (s *Server) recallCall(ctx context.Context, _ daemon.Peer, q memorywire.ToolRequest, _ *daemon.Stream) (any, error) {
	ix, err := s.index()
	if ix == nil {
		return nil, err
	}
	if _, err := ix.Sync(); err != nil {
		s.logf("call %s: %v", q.CallID, err)
		if e, _ := runbook.EntryOf(err); e == runbook.MemoryIndexDamaged {
			return nil, err
		}
		// A log that cannot be read: search what the index has.
	}
	limit := q.Arguments.Limit
	if limit <= 0 {
		limit = defaultHits
	}
	// Honcho's workspaces are searched beside the index, within their
	// budget (docs/specs/honcho.md, section 7).
	remote := s.searchHoncho(ctx, q, limit)
	r, err := ix.Search(q.Arguments.Query, limit)
	switch {
	case errors.Is(err, recall.ErrNoWords):
		return memorywire.ToolAnswer{Text: err.Error(), Taint: policy.Public.String()}, nil
	case err != nil:
		s.logf("call %s: %v", q.CallID, err)
		return nil, err
	}
	// Each hit carries the taint of its source, and the answer the
	// highest, which brokerd raises the searching session to: secret text
	// found by recall is secret in the session that reads it (decision
	// D61).
	if err := r.SetTaints(func(ids []string) (map[string]recall.SourceState, error) {
		return s.sessionTaints(ctx, q.CallID, ids)
	}); err != nil {
		s.logf("call %s: cannot ask brokerd at %s how sensitive the sessions found are: %v; no hits were given", q.CallID, s.stateSocket, err)
		return memorywire.ToolAnswer{Text: recallStateText, Taint: policy.Public.String()}, nil
	}
	if remote == nil {
		return memorywire.ToolAnswer{Text: r.Text(), Tainted: r.Tainted, Taint: r.Taint.String()}, nil
	}
	// Honcho's hits carry their [[honcho.read]] class and trust.
	text, top, tainted := r.Join(remote())
	return memorywire.ToolAnswer{Text: text, Tainted: tainted, Taint: top.String()}, nil
}

// recallStateText is the model's answer when brokerd cannot say how
// sensitive the sessions a search found are: no hit is given without it.
const recallStateText = "recall is unavailable: memoryd could not ask brokerd how sensitive the sessions found are, so no hits were given"

// sessionTaints asks brokerd's state socket for the taint and trust of
// each session, within one stateTimeout for them all. A session brokerd
// answers with an error for (its state file is damaged) counts as secret
// and untrusted; no answer at all is an error.
func (s *Server) sessionTaints(ctx context.Context, callID string, ids []string) (map[string]recall.SourceState, error) {
	ctx, cancel := context.WithTimeout(ctx, s.stateTimeout)
	defer cancel()
	out := make(map[string]recall.SourceState, len(ids))
	for _, id := range ids {
		var st brokerwire.SessionState
		err := daemon.Call(ctx, s.stateSocket, brokerwire.KindSessionState, brokerwire.SessionStateRequest{Session: id}, &st, nil)
		var re *daemon.RemoteError
		switch {
		case errors.As(err, &re):
			why, link := said(err)
			s.logf("call %s: brokerd cannot say the taint of session %s (%s); its hits count as %s%s", callID, id, why, recall.UnknownTaint, link)
			out[id] = recall.UnknownState
			continue
		case err != nil:
			return nil, err
		}
		t, err := policy.ParseTaint(st.Taint)
		if err != nil {
			return nil, fmt.Errorf("brokerd's answer for session %s: %v", id, err)
		}
		out[id] = recall.SourceState{Taint: t, Untrusted: st.Untrusted}
	}
	return out, nil
}

func (s *Server) journal(context.Context, daemon.Peer, json.RawMessage, *daemon.Stream) (any, error) {
	edits, err := s.store.Log()
	if err != nil {
		return nil, err
	}
	return memorywire.LogAnswer{Edits: logToWire(edits)}, nil
}

func (s *Server) review(context.Context, daemon.Peer, json.RawMessage, *daemon.Stream) (any, error) {
	staged, err := s.store.Review()
	if err != nil {
		return nil, err
	}
	return memorywire.ReviewAnswer{Staged: stagedToWire(staged)}, nil
}

func (s *Server) accept(_ context.Context, peer daemon.Peer, q memorywire.EditRequest, _ *daemon.Stream) (any, error) {
	r, err := s.store.Accept(q.Edit)
	if err != nil {
		return nil, err
	}
	s.logf("edit %s accepted by bxctl (uid %d, pid %d): %s", r.Edit, peer.UID, peer.PID, r.Answer)
	return memorywire.AcceptAnswer{Edit: r.Edit, Files: r.Files, Answer: r.Answer}, nil
}

func (s *Server) reject(_ context.Context, peer daemon.Peer, q memorywire.EditRequest, _ *daemon.Stream) (any, error) {
	if err := s.store.Reject(q.Edit); err != nil {
		return nil, err
	}
	s.logf("edit %s rejected by bxctl (uid %d, pid %d)", q.Edit, peer.UID, peer.PID)
	return q, nil
}

// progressEvery is the least time between two progress events of a
// rebuild: a terminal need not be redrawn for every file.
const progressEvery = 100 * time.Millisecond

// reindex rebuilds the index beside the one in use and swaps it in,
// sending progress as events. Recall goes on against the old index until
// the swap; a damaged index is replaced the same way.
func (s *Server) reindex(_ context.Context, peer daemon.Peer, _ json.RawMessage, stream *daemon.Stream) (any, error) {
	if !s.reindexing.TryLock() {
		return nil, errors.New("a reindex is already running")
	}
	defer s.reindexing.Unlock()
	s.logf("rebuilding the recall index for bxctl (uid %d, pid %d)", peer.UID, peer.PID)
	t0 := time.Now()
	var sent time.Time
	progress := func(p recall.Progress) {
		if time.Since(sent) < progressEvery {
			return
		}
		sent = time.Now()
		stream.Send(wireProgress(p)) // a client gone away does not stop the rebuild
	}
	ix, _ := s.index()
	var p recall.Progress
	var err error
	if ix != nil {
		p, err = ix.Rebuild(progress)
	} else {
		p, err = s.rebuildDamaged(progress)
	}
	if err != nil {
		s.logf("the rebuild of the recall index failed: %v", err)
		return nil, err
	}
	out := wireProgress(p)
	out.Seconds = time.Since(t0).Seconds()
	s.logf("rebuilt the recall index: %d logs, %d records and %d notes in %.1fs", p.Logs, p.Records, p.Notes, out.Seconds)
	return out, nil
}

// rebuildDamaged replaces an index that could not be opened, then opens
// the new one.
func (s *Server) rebuildDamaged(progress func(recall.Progress)) (recall.Progress, error) {
	p, err := recall.Rebuild(s.home, progress)
	if err != nil {
		return p, err
	}
	ix, err := recall.Open(s.home, nil)
	if err != nil {
		return p, err
	}
	s.ixMu.Lock()
	s.ix, s.ixErr = ix, nil
	s.ixMu.Unlock()
	return p, nil
}

func wireProgress(p recall.Progress) memorywire.Progress {
	return memorywire.Progress{Files: p.Files, Total: p.Total, Logs: p.Logs, Records: p.Records, Notes: p.Notes, Skipped: p.Skipped}
}
