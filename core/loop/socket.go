package loop

import (
	"context"
	"errors"

	"boxmaker/core/daemon"
	"boxmaker/core/loopwire"
)

// Handlers is the loop socket's kinds (core/loopwire) answered by e: turn,
// the agent.* kinds of yaag's Agents, and sessions.list and
// session.history for a person's view of the sessions. loopd serves this map, and the
// tests of loop and of yaag's loopd client serve it too, so they test the
// handlers loopd runs. A request body is read by daemon.Takes (an
// unknown field, a key twice... refused as socket-forbidden); turn and
// agent.ask stream their events and end when their client has gone. A
// failed turn or ask is also a line on e.Log.
func (e *Engine) Handlers() map[string]daemon.Handler {
	return map[string]daemon.Handler{
		loopwire.KindTurn:         daemon.Takes(e.turnHandler),
		loopwire.KindAgentSpawn:   answer(e.Spawn),
		loopwire.KindAgentAsk:     daemon.Takes(e.agentAskHandler),
		loopwire.KindAgentFork:    answer(e.Fork),
		loopwire.KindAgentCompact: daemon.Takes(e.agentCompactHandler),
		loopwire.KindAgentAnswer:  answer(e.Answer),
		// A person's view of the sessions (bxctl sessions, chat --last).
		loopwire.KindSessionsList:   answer(e.Sessions),
		loopwire.KindSessionHistory: answer(e.History),
	}
}

// turnHandler answers "turn" requests: the events stream as they come,
// and the final answer is the session and the whole reply. A failed turn
// is written on e.Log as well as answered.
func (e *Engine) turnHandler(ctx context.Context, _ daemon.Peer, req loopwire.TurnRequest, s *daemon.Stream) (any, error) {
	ctx, stop := whileClientStays(ctx, s)
	defer stop()
	res, err := e.Turn(ctx, req, func(ev loopwire.Event) error { return s.Send(ev) })
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			session := req.Session
			if session == "" {
				session = "(new)"
			}
			e.logf("session %s: %v", session, err)
		}
		return nil, err
	}
	return res, nil
}

// whileClientStays is ctx, cancelled when the client of the request has
// gone: a turn nobody waits for ends (the person left the chat, a yaag
// Run was killed), and so does a blocking tool call in it (yaag_run says
// its Run goes on in the background).
func whileClientStays(ctx context.Context, s *daemon.Stream) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-s.Gone():
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// answer is the handler of a request that streams nothing: its body read
// as a Q (daemon.Takes), answered by f. agent.spawn (a hermetic
// session for a yaag Agent), agent.fork (a new session from a boundary of
// an Agent's or a Run's host session) and agent.answer (the person's
// answers appended to the session that asked) are such requests.
func answer[Q, R any](f func(context.Context, Q) (R, error)) daemon.Handler {
	return daemon.Takes(func(ctx context.Context, _ daemon.Peer, req Q, _ *daemon.Stream) (any, error) {
		return f(ctx, req)
	})
}

// agentAskHandler answers agent.ask, streaming the turn's events.
func (e *Engine) agentAskHandler(ctx context.Context, _ daemon.Peer, req loopwire.AskRequest, s *daemon.Stream) (any, error) {
	ctx, stop := whileClientStays(ctx, s)
	defer stop()
	res, err := e.Ask(ctx, req, func(ev loopwire.Event) error { return s.Send(ev) })
	switch {
	case errors.Is(err, context.Canceled):
		e.logf("session %s: the ask was stopped before it ended (its Run stopped it, or its caller went away)", req.Session)
	case err != nil:
		e.logf("session %s: %v", req.Session, err)
	}
	if res.ModelError != nil {
		e.logf("session %s: the model server failed: %s", req.Session, res.ModelError.Message)
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// agentCompactHandler answers agent.compact, streaming the summary turn's
// events.
func (e *Engine) agentCompactHandler(ctx context.Context, _ daemon.Peer, req loopwire.CompactRequest, s *daemon.Stream) (any, error) {
	ctx, stop := whileClientStays(ctx, s) // a Run stopped meanwhile wants no summary
	defer stop()
	return e.Compact(ctx, req, func(ev loopwire.Event) error { return s.Send(ev) })
}
