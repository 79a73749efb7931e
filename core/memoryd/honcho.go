package memoryd

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"boxmaker/core/daemon"
	"boxmaker/core/honcho"
	"boxmaker/core/honchosync"
	"boxmaker/core/memorywire"
	"boxmaker/core/policy"
	"boxmaker/core/recall"
	"boxmaker/core/secrets"
	"boxmaker/core/termsafe"
	"boxmaker/runbook"
)

// honchoSide is memoryd's Honcho sync and read, when [honcho] is
// configured.
type honchoSide struct {
	cfg    *honcho.Config
	client *honcho.Client
	outbox *honchosync.Outbox // nil while the outbox cannot be used
	err    error              // why it cannot
}

// key reads a Honcho key where it is used (every request), from where
// [secrets.<name>] says.
func (h *honchoSide) key(name string) (secrets.Value, error) {
	src, ok := h.cfg.Keys[name]
	if !ok {
		return secrets.Value{}, nil
	}
	return secrets.Read(name, src, secrets.ProcessEnv())
}

// StartHoncho prints the plaintext warnings, says which keys cannot be
// read now, opens the outbox and runs it until ctx ends. Nothing of it
// stops memoryd: local memory and recall do not need Honcho.
func (s *Server) StartHoncho(ctx context.Context, cfg *honcho.Config) {
	h := &honchoSide{cfg: cfg, client: &honcho.Client{URL: cfg.URL, Timeout: cfg.Timeout}}
	s.honcho = h
	names := make([]string, 0, len(cfg.Keys))
	for n := range cfg.Keys {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if w := secrets.Warning(n, cfg.Keys[n]); w != nil {
			s.logf("warning: %v", w)
		}
		if _, err := h.key(n); err != nil {
			s.logf("honcho: %v", err)
		}
	}
	ob, err := honchosync.Open(honchosync.Options{
		Home:   s.home,
		Config: cfg,
		Client: h.client,
		Key:    h.key,
		State: func(ctx context.Context, session string) (policy.Taint, bool, error) {
			st, err := s.sessionState(ctx, session)
			if err != nil {
				return 0, false, err
			}
			t, err := policy.ParseTaint(st.Taint)
			return t, st.Untrusted, err
		},
		Hold: s.store.Hold,
		// Identity entries carry the class the store keeps for each
		// (memory/classes.json; an entry the owner wrote by hand is
		// public).
		Identity: func() ([]honchosync.Entry, error) {
			es, err := s.store.IdentityEntries()
			if err != nil {
				return nil, err
			}
			out := make([]honchosync.Entry, len(es))
			for i, e := range es {
				out[i] = honchosync.Entry{File: e.File, Text: e.Text, Class: e.Class}
			}
			return out, nil
		},
		Log: func(format string, args ...any) {
			s.logf("%s", termsafe.Line(fmt.Sprintf(format, args...)))
		},
	})
	if err != nil {
		var d *honchosync.DamagedError
		if errors.As(err, &d) {
			err = runbook.Refuse(runbook.HonchoOutboxDamaged, "honcho: %v; nothing is synced until it is moved aside", termsafe.Line(err.Error()))
		} else {
			err = runbook.Refuse(runbook.HonchoOutboxDamaged, "honcho: cannot open the outbox: %v; nothing is synced", err)
		}
		h.err = err
		s.logf("%v", err)
		return
	}
	h.outbox = ob
	st := ob.Status()
	s.logf("honcho: syncing to %s as %s (%d waiting in the outbox)", cfg.URL, cfg.Agent, st.Waiting)
	go ob.Run(ctx)
}

func (s *Server) closeHoncho() {
	if s.honcho != nil && s.honcho.outbox != nil {
		s.honcho.outbox.Close()
	}
}

// sync answers bxctl memory sync: the outbox's state, after a feed and
// drain when asked for now.
func (s *Server) sync(ctx context.Context, _ daemon.Peer, q memorywire.SyncRequest, _ *daemon.Stream) (any, error) {
	h := s.honcho
	switch {
	case h == nil:
		return memorywire.SyncAnswer{}, nil
	case h.outbox == nil:
		return memorywire.SyncAnswer{Configured: true}.WithError(h.err), nil
	}
	if !q.Now {
		return memorywire.SyncAnswer{Configured: true, OutboxStatus: statusToWire(h.outbox.Status())}, nil
	}
	st, err := h.outbox.Now(ctx)
	ans := memorywire.SyncAnswer{Configured: true, OutboxStatus: statusToWire(st)}
	if err != nil {
		ans = ans.WithError(err)
	}
	return ans, nil
}

// searchHoncho starts the search of every Honcho workspace recall reads
// and returns the function that waits for it (never past the budget) and
// gives Honcho's part of the answer; nil without [honcho] or a query.
// The query leaves the machine, so it is sent only for a session whose
// taint is at most [honcho] max_class, as brokerd says.
func (s *Server) searchHoncho(ctx context.Context, q memorywire.ToolRequest, limit int) func() (string, policy.Taint, bool) {
	h := s.honcho
	if h == nil || recall.Query(q.Arguments.Query, false) == "" {
		return nil
	}
	cfg := h.cfg
	st, err := s.sessionState(ctx, q.Session)
	if err != nil {
		s.logf("call %s: honcho: not searched: cannot ask brokerd at %s about session %s: %v", q.CallID, s.stateSocket, q.Session, err)
		return func() (string, policy.Taint, bool) {
			return "honcho: not searched: memoryd could not ask brokerd how sensitive this session is\n", policy.Public, false
		}
	}
	if !cfg.MaySend(st.Taint) {
		return func() (string, policy.Taint, bool) {
			return fmt.Sprintf("honcho: not searched: this session holds %s data, above [honcho] max_class %s, and the query would leave the machine\n",
				st.Taint, cfg.MaxClass), policy.Public, false
		}
	}
	done := make(chan []honcho.Found, 1)
	go func() {
		done <- honcho.SearchAll(ctx, h.client, h.key, cfg.Sources(), q.Arguments.Query, limit, cfg.RecallBudget)
	}()
	return func() (string, policy.Taint, bool) {
		found := <-done
		for _, f := range found {
			if f.Err != nil {
				s.logf("call %s: honcho: %s's workspace %s left out: %s", q.CallID, f.Source.Agent, f.Source.Workspace, termsafe.Line(f.Err.Error()))
			}
		}
		return honcho.Render(found)
	}
}
