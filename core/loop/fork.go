package loop

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"boxmaker/core/brokerwire"
	"boxmaker/core/loopwire"
	"boxmaker/core/patherror"
	"boxmaker/core/policy"
	"boxmaker/core/role"
	"boxmaker/sanitize"
)

// CompactPrompt asks for the summary a compaction starts the next epoch
// with, when agent.compact gives no prompt of its own.
const CompactPrompt = "Write a summary of this conversation for yourself: the task, what was done and found (files, facts, results), the decisions made, and what is left to do. It replaces the conversation, so keep every fact you will need and nothing else. Answer with the summary only."

// compactHeader introduces the summary in the next epoch's system prompt.
const compactHeader = "\n\n## Summary of the conversation so far\n\n"

// OutcomeAnswered is the outcome of a request_user_input call the person
// answered.
const OutcomeAnswered = "answered"

// readAt reads a boundary's log: the file's bytes, or the problem that
// keeps loopd from using it.
func (e *Engine) readAt(at loopwire.SessionAt) ([]byte, *loopwire.SessionProblem) {
	if !ValidSessionID(at.ID) || at.Epoch < 0 {
		return nil, &loopwire.SessionProblem{Kind: loopwire.ProblemUnreadable, Detail: fmt.Sprintf("%q epoch %d names no session log", at.ID, at.Epoch)}
	}
	path := LogPath(e.SessionsDir, at.ID, at.Epoch)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &loopwire.SessionProblem{Kind: loopwire.ProblemUnreadable, Detail: fmt.Sprintf("%s: %v", path, patherror.Reason(err))}
	}
	if int64(len(data)) < at.Bytes {
		return nil, &loopwire.SessionProblem{Kind: loopwire.ProblemChanged, Detail: fmt.Sprintf("%s is %d bytes, and the boundary is at %d", path, len(data), at.Bytes)}
	}
	if got := SessionAtOf(at.ID, at.Epoch, data[:at.Bytes]); got.SHA256 != at.SHA256 {
		return nil, &loopwire.SessionProblem{Kind: loopwire.ProblemChanged, Detail: fmt.Sprintf("the first %d bytes of %s hash to %s, not %s", at.Bytes, path, got.SHA256, at.SHA256)}
	}
	if at.Bytes == 0 || data[at.Bytes-1] != '\n' {
		return nil, &loopwire.SessionProblem{Kind: loopwire.ProblemChanged, Detail: fmt.Sprintf("byte %d of %s is not the end of a record", at.Bytes, path)}
	}
	return data, nil
}

// Fork makes a new session whose log is the boundary's bytes, then a note
// naming the fork: the conversation up to the boundary, byte for byte, so
// the model server renders the same prompt prefix and reuses its cache.
// brokerd is told before anything runs in it that the fork starts where
// its parent's state is (taint and untrust), at least: the fork carries
// what the parent read.
func (e *Engine) Fork(ctx context.Context, req loopwire.ForkRequest) (loopwire.ForkResult, error) {
	if req.Run == "" || req.Agent == "" {
		return loopwire.ForkResult{}, errors.New("a fork needs the Run and the Agent's key")
	}
	if req.Latest {
		if !req.Host || !ValidSessionID(req.From.ID) {
			return loopwire.ForkResult{}, errors.New("a fork of a session as it stands is a Run's host's, and needs its id")
		}
		epoch, ok, err := LatestEpoch(e.SessionsDir, req.From.ID)
		if err != nil || !ok {
			return loopwire.ForkResult{Problem: &loopwire.SessionProblem{Kind: loopwire.ProblemUnreadable,
				Detail: fmt.Sprintf("session %s has no log in %s", req.From.ID, e.SessionsDir)}}, nil
		}
		// The host's turn holds its session's lock while the yaag_run
		// waits: the log is read without it, as far as its last whole
		// line (a log only grows, one record line after another).
		path := LogPath(e.SessionsDir, req.From.ID, epoch)
		data, err := os.ReadFile(path)
		if err != nil {
			return loopwire.ForkResult{Problem: &loopwire.SessionProblem{Kind: loopwire.ProblemUnreadable, Detail: err.Error()}}, nil
		}
		data = data[:bytes.LastIndexByte(data, '\n')+1]
		recs, err := ParseLog(path, data)
		if err != nil {
			return loopwire.ForkResult{Problem: &loopwire.SessionProblem{Kind: loopwire.ProblemUnreadable, Detail: err.Error()}}, nil
		}
		req.From = SessionAtOf(req.From.ID, epoch, data[:beforePendingCall(data, recs)])
	}
	// No lock of the parent: a log only grows, and the boundary's prefix
	// is what is checked (and copied).
	data, problem := e.readAt(req.From)
	if problem != nil {
		return loopwire.ForkResult{Problem: problem}, nil
	}
	path := LogPath(e.SessionsDir, req.From.ID, req.From.Epoch)
	prefix := data[:req.From.Bytes]
	recs, err := ParseLog(path, prefix)
	if err != nil {
		return loopwire.ForkResult{Problem: &loopwire.SessionProblem{Kind: loopwire.ProblemChanged, Detail: err.Error()}}, nil
	}
	if !req.Host && !hermetic(recs) {
		return loopwire.ForkResult{}, fmt.Errorf("session %s is not a hermetic session: only a yaag Agent's session, or a Run's host session, is forked", req.From.ID)
	}
	id := NewSessionID(e.now())
	lock := e.lock(id)
	defer lock()
	start := brokerwire.SessionStart{Session: id, Taint: policy.Public.String(), From: req.From.ID, Domain: req.Domain}
	if err := e.Broker.StartSessionIn(ctx, start); err != nil {
		return loopwire.ForkResult{}, fmt.Errorf("the fork of session %s cannot start: brokerd must record that it starts at its parent's state: %w", req.From.ID, err)
	}
	log, err := CreateLogFrom(e.SessionsDir, id, prefix, len(recs))
	if err != nil {
		return loopwire.ForkResult{}, fmt.Errorf("cannot create the fork: %w", err)
	}
	note := Record{Time: e.now(), Type: TypeNote, Text: fmt.Sprintf("%s%s epoch %d at byte %d (seq %d); run %s, agent %s (%s), spawn %s, models %s",
		yaagForkPrefix, req.From.ID, req.From.Epoch, req.From.Bytes, len(recs), req.Run, req.Agent, req.Definition, req.SpawnHash, modelsNote(req.Models))}
	if err := log.Append(&note); err != nil {
		return loopwire.ForkResult{}, err
	}
	e.remember(log, append(recs[:len(recs):len(recs)], note))
	line, err := note.Encode()
	if err != nil {
		return loopwire.ForkResult{}, err
	}
	// The new log is the prefix and the note's line, as just written.
	h := sha256.New()
	h.Write(prefix)
	h.Write(line)
	at := loopwire.SessionAt{ID: id, Bytes: int64(len(prefix) + len(line)), SHA256: hex.EncodeToString(h.Sum(nil))}
	return loopwire.ForkResult{Session: id, At: at}, nil
}

// Compact asks the session's model, in one turn without tools, for a
// summary of the session, and starts the session's next epoch with a
// baseline whose system prompt is the old one and the summary (the
// memory block and the tools as they were), and the hermetic note. A
// model that fails or says nothing leaves the epoch as it is: Failed says
// why.
func (e *Engine) Compact(ctx context.Context, req loopwire.CompactRequest, emit func(loopwire.Event) error) (loopwire.CompactResult, error) {
	log, recs, unlock, err := e.open(req.Session)
	if err != nil {
		return loopwire.CompactResult{}, err
	}
	defer unlock()
	if !hermetic(recs) {
		return loopwire.CompactResult{}, fmt.Errorf("session %s is not a hermetic session (agent.compact takes only a yaag Agent's session)", req.Session)
	}
	prompt := req.Prompt
	if strings.TrimSpace(prompt) == "" {
		prompt = CompactPrompt
	}
	a := &askTurn{req: loopwire.AskRequest{Session: req.Session, Model: req.Model, NoTools: true}, start: time.Now()}
	t := &turn{e: e, log: log, recs: recs, emit: emit, ask: a}
	reply, err := t.run(ctx, Record{Time: e.now(), Type: TypeUser, Who: role.Yaag.String(), Text: prompt})
	e.rememberTurn(t.log, t.recs, t.conv)
	summary := strings.TrimSpace(lastReply(t.recs, reply))
	var mf *ModelFailure
	switch {
	case errors.As(err, &mf):
		return loopwire.CompactResult{Failed: mf.Error()}, nil
	case err != nil:
		return loopwire.CompactResult{}, err
	case summary == "":
		return loopwire.CompactResult{Failed: "the model gave no summary (its reply was empty)"}, nil
	}
	base := recs[0]
	next, err := CreateEpoch(e.SessionsDir, req.Session, log.Epoch+1)
	if err != nil {
		return loopwire.CompactResult{}, fmt.Errorf("cannot start epoch %d: %w", log.Epoch+1, err)
	}
	at, err := e.begin(next,
		Record{Time: e.now(), Type: TypeBaseline, System: base.System + compactHeader + sanitize.Neutralise(summary), Memory: base.Memory, Tools: base.Tools},
		Record{Time: e.now(), Type: TypeNote, Text: fmt.Sprintf("%s compaction of epoch %d (%d records) into a summary of %d bytes", yaagNotePrefix, log.Epoch, len(t.recs), len(summary))})
	if err != nil {
		return loopwire.CompactResult{}, err
	}
	return loopwire.CompactResult{At: at, Summary: len(summary)}, nil
}

// Answer appends the person's answers to the questions an Agent's turn
// ended on: one tool record per request_user_input call, when the session
// is exactly the boundary the Checkpoint recorded. When the same answers
// follow the boundary already (an answer given again), nothing is
// written. Anything else after the boundary is a changed session.
func (e *Engine) Answer(_ context.Context, req loopwire.AnswerRequest) (loopwire.AnswerResult, error) {
	if len(req.Answers) == 0 {
		return loopwire.AnswerResult{}, errors.New("agent.answer needs at least one answer")
	}
	unlock := e.lock(req.At.ID)
	defer unlock()
	data, problem := e.readAt(req.At)
	if problem != nil {
		return loopwire.AnswerResult{Problem: problem}, nil
	}
	path := LogPath(e.SessionsDir, req.At.ID, req.At.Epoch)
	if epoch, _, _ := LatestEpoch(e.SessionsDir, req.At.ID); epoch != req.At.Epoch {
		return loopwire.AnswerResult{Problem: &loopwire.SessionProblem{Kind: loopwire.ProblemChanged, Detail: fmt.Sprintf("session %s has moved on to epoch %d", req.At.ID, epoch)}}, nil
	}
	recs, err := ParseLog(path, data)
	if err != nil {
		return loopwire.AnswerResult{Problem: &loopwire.SessionProblem{Kind: loopwire.ProblemChanged, Detail: err.Error()}}, nil
	}
	n := bytes.Count(data[:req.At.Bytes], []byte("\n"))
	// The questions the boundary waits on: the request_user_input calls of
	// its last assistant record that no tool record answers.
	waiting := map[string]bool{}
	for i := n - 1; i >= 0; i-- {
		if recs[i].Type == TypeAssistant {
			for _, c := range recs[i].ToolCalls {
				if c.Name == RequestUserInput {
					waiting[c.ID] = true
				}
			}
			for _, r := range recs[i+1 : n] {
				delete(waiting, r.CallID)
			}
			break
		}
	}
	if len(waiting) != len(req.Answers) {
		return loopwire.AnswerResult{}, fmt.Errorf("session %s waits on %d question(s), and %d answer(s) were given", req.At.ID, len(waiting), len(req.Answers))
	}
	want := make([]Record, len(req.Answers))
	for i, a := range req.Answers {
		if !waiting[a.CallID] {
			return loopwire.AnswerResult{}, fmt.Errorf("call %q is no question session %s waits on", a.CallID, req.At.ID)
		}
		want[i] = Record{Type: TypeTool, CallID: a.CallID, Name: RequestUserInput, Outcome: OutcomeAnswered, Text: sanitize.Neutralise(a.Text)}
	}
	log := &Log{Path: path, Session: req.At.ID, Epoch: req.At.Epoch, next: len(recs) + 1, size: int64(len(data))}
	switch tail := recs[n:]; {
	case len(tail) == 0:
		ptrs := make([]*Record, len(want))
		for i := range want {
			want[i].Time = e.now()
			ptrs[i] = &want[i]
		}
		if err := log.Append(ptrs...); err != nil {
			return loopwire.AnswerResult{}, err
		}
		recs = append(recs, want...)
	case sameAnswers(tail, want):
	default:
		return loopwire.AnswerResult{Problem: &loopwire.SessionProblem{Kind: loopwire.ProblemChanged,
			Detail: fmt.Sprintf("%d record(s) follow the boundary at byte %d of %s, and they are not these answers", len(tail), req.At.Bytes, path)}}, nil
	}
	e.remember(log, recs)
	at, err := log.At()
	if err != nil {
		return loopwire.AnswerResult{}, err
	}
	return loopwire.AnswerResult{At: at}, nil
}

func sameAnswers(tail, want []Record) bool {
	if len(tail) != len(want) {
		return false
	}
	for i := range tail {
		if tail[i].Type != TypeTool || tail[i].CallID != want[i].CallID || tail[i].Name != want[i].Name || tail[i].Text != want[i].Text {
			return false
		}
	}
	return true
}

// beforePendingCall is where a host's copy ends: before the reply whose
// calls are still unanswered (the yaag_run that starts the Run, while it
// waits), so that the copy ends with the person's message; the whole log
// otherwise.
func beforePendingCall(data []byte, recs []Record) int {
	answered := map[string]bool{}
	for _, r := range recs {
		if r.Type == TypeTool {
			answered[r.CallID] = true
		}
	}
	last := len(recs) - 1
	for last > 0 && recs[last].Type == TypeNote {
		last--
	}
	if last <= 0 || recs[last].Type != TypeAssistant {
		return len(data)
	}
	pending := false
	for _, c := range recs[last].ToolCalls {
		pending = pending || !answered[c.ID]
	}
	if !pending {
		return len(data)
	}
	off := 0
	for i := 0; i < last; i++ {
		off += bytes.IndexByte(data[off:], '\n') + 1
	}
	return off
}
