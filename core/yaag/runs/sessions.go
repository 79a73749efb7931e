package runs

import (
	"context"
	"slices"

	"boxmaker/core/loopwire"
	"boxmaker/core/yaag/agent"
)

// The home's record of a Run learns each session the Run makes before
// the Run's journal names it: the engine journals a spawn or a fork when
// loopd returns it, and tells the Run (its spawned and live events) only
// later, so a Run killed in between left a journal naming a session its
// record did not have, which checkLeft refuses. recorded wraps the Run's
// Agents so that each session loopd makes is in the record when the
// engine gets it.

// recorded is spawner with every session it makes noted in r's record;
// it is a Forker when spawner is one.
func (r *run) recorded(spawner agent.Spawner) agent.Spawner {
	if spawner == nil {
		return nil
	}
	s := &recordingSpawner{Spawner: spawner, r: r}
	if f, ok := spawner.(agent.Forker); ok {
		return &recordingForker{recordingSpawner: s, forker: f}
	}
	return s
}

type recordingSpawner struct {
	agent.Spawner
	r *run
}

func (s *recordingSpawner) Spawn(ctx context.Context, spec agent.Spec) (agent.Session, error) {
	sess, err := s.Spawner.Spawn(ctx, spec)
	if err == nil {
		err = s.r.noteSession(spec, sess.ID())
	}
	return sess, err
}

type recordingForker struct {
	*recordingSpawner
	forker agent.Forker
}

func (f *recordingForker) Fork(ctx context.Context, from loopwire.SessionAt, spec agent.Spec) (agent.Session, error) {
	sess, err := f.forker.Fork(ctx, from, spec)
	if err == nil {
		err = f.r.noteSession(spec, sess.ID())
	}
	return sess, err
}

func (f *recordingForker) Compact(ctx context.Context, sess agent.Session, model string) error {
	return f.forker.Compact(ctx, sess, model)
}

func (f *recordingForker) Answer(ctx context.Context, at loopwire.SessionAt, answers []loopwire.CallAnswer) (loopwire.SessionAt, error) {
	return f.forker.Answer(ctx, at, answers)
}

// noteSession writes id, made for spec, into the record, once. A record
// that cannot be written fails the spawn: a journal naming the session
// could not be resumed.
func (r *run) noteSession(spec agent.Spec, id string) error {
	r.recMu.Lock()
	defer r.recMu.Unlock()
	for _, a := range r.rec.Agents {
		if a.Session == id {
			return nil
		}
	}
	r.rec.Agents = append(r.rec.Agents, AgentRef{Agent: spec.Key, Definition: spec.Definition, Session: id})
	return r.store.Write(r.rec)
}

// noteAgent writes what the engine's spawned or live event says of an
// Agent: the record's entry for its session (noted at the spawn) takes
// the event's words, or a new one is added. Written under the lock, as
// noteSession writes: a record written later never lacks a session an
// earlier one had.
func (r *run) noteAgent(ref AgentRef) {
	r.recMu.Lock()
	defer r.recMu.Unlock()
	i := slices.IndexFunc(r.rec.Agents, func(a AgentRef) bool { return a.Session == ref.Session && ref.Session != "" })
	if i >= 0 {
		r.rec.Agents = slices.Clone(r.rec.Agents)
		r.rec.Agents[i] = ref
	} else {
		r.rec.Agents = append(r.rec.Agents, ref)
	}
	r.store.Write(r.rec)
}
