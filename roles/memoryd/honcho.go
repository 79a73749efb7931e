package memoryd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"boxmaker/core/daemon"
	"boxmaker/core/honcho"
	"boxmaker/core/honchosync"
	"boxmaker/core/memorywire"
	"boxmaker/core/policy"
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

// startHoncho prints the plaintext warnings, says which keys cannot be
// read now, opens the outbox and runs it until ctx ends. Nothing of it
// stops memoryd: local memory and recall do not need Honcho.
func (s *server) startHoncho(ctx context.Context, cfg *honcho.Config) {
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

func (s *server) closeHoncho() {
	if s.honcho != nil && s.honcho.outbox != nil {
		s.honcho.outbox.Close()
	}
}

// sync answers bxctl memory sync: the outbox's state, after a feed and
// drain when asked for now.
func (s *server) sync(ctx context.Context, _ daemon.Peer, body json.RawMessage, _ *daemon.Stream) (any, error) {
	var q memorywire.SyncRequest
	if err := decode(body, &q, "request"); err != nil {
		return nil, err
	}
	h := s.honcho
	switch {
	case h == nil:
		return memorywire.SyncAnswer{}, nil
	case h.outbox == nil:
		return memorywire.SyncAnswer{Configured: true, Error: h.err.Error()}, nil
	}
	if !q.Now {
		return memorywire.SyncAnswer{Configured: true, Status: h.outbox.Status()}, nil
	}
	st, err := h.outbox.Now(ctx)
	ans := memorywire.SyncAnswer{Configured: true, Status: st}
	if err != nil {
		ans.Error = err.Error()
	}
	return ans, nil
}
