package honchosync

import (
	"context"
	"fmt"
	"time"

	"boxmaker/core/honcho"
	"boxmaker/core/secrets"

	"boxmaker/runbook"
)

// Drain sends the waiting items, batch by batch, until none waits or an
// attempt fails (its error). It does not wait between attempts: Run does.
func (o *Outbox) Drain(ctx context.Context) error {
	o.work.Lock()
	defer o.work.Unlock()
	return o.drain(ctx)
}

func (o *Outbox) drain(ctx context.Context) error {
	singles := 0 // items to send one at a time, after a batch Honcho refused
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		batch := o.head(singles > 0)
		if len(batch) == 0 {
			return nil
		}
		sent, refused, err := o.send(ctx, batch)
		switch {
		case err == nil:
			if err := o.delivered(sent, 0); err != nil {
				return o.failed(err)
			}
			o.succeeded()
			if singles > 0 {
				singles -= sent
			}
		case refused && len(batch) > 1:
			// One of them is at fault: find it by sending them alone.
			if sent > 0 {
				if err := o.delivered(sent, 0); err != nil {
					return o.failed(err)
				}
			}
			singles = len(batch) - sent
		case refused:
			o.opts.Log("honcho: Honcho refused message %s (%s) for good; it is kept in %s: %v",
				batch[0].ID, batch[0].Kind, o.path(failedFile), err)
			if err := o.setAside(batch[0], err); err != nil {
				return o.failed(err)
			}
			if err := o.delivered(1, 1); err != nil {
				return o.failed(err)
			}
			if singles > 0 {
				singles--
			}
		default:
			if sent > 0 {
				if derr := o.delivered(sent, 0); derr != nil {
					return o.failed(derr)
				}
			}
			if ctx.Err() != nil {
				return err // memoryd is stopping: not a failure of Honcho's
			}
			return o.failed(err)
		}
	}
}

// head is the next batch: the longest run at the head of the queue that
// goes to one Honcho session, at most honcho.MaxBatch items (one when
// single).
func (o *Outbox) head(single bool) []Item {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.waiting) == 0 {
		return nil
	}
	first := o.waiting[0]
	n := 1
	for n < len(o.waiting) && n < honcho.MaxBatch && !single {
		it := o.waiting[n]
		if it.Workspace != first.Workspace || it.Session != first.Session {
			break
		}
		n++
	}
	return append([]Item(nil), o.waiting[:n]...)
}

// send delivers one batch to its Honcho session. It returns how many of
// the batch's first items are in Honcho now (found there or sent), and
// whether Honcho refused the rest for good.
func (o *Outbox) send(ctx context.Context, batch []Item) (int, bool, error) {
	cfg := o.opts.Config
	ws, secret := cfg.Trusted, honcho.SecretTrusted
	switch batch[0].Workspace {
	case Untrusted:
		ws, secret = cfg.Untrusted, honcho.SecretUntrusted
	case Fleet:
		ws, secret = cfg.Fleet, honcho.SecretFleet
	}
	key, err := o.key(secret)
	if err != nil {
		return 0, false, err
	}
	session := batch[0].Session
	at := ws + "/" + session
	c := o.opts.Client
	if !o.ensured[at] {
		if _, err := c.GetOrCreateSession(ctx, key, ws, session, []string{cfg.Agent, cfg.Owner}); err != nil {
			return 0, honcho.Refused(err), err
		}
		o.ensured[at] = true
	}
	found := 0
	if !o.certain[at] || batch[0].Verify {
		// It is not known whether these were stored already (a batch
		// whose answer was lost, memoryd stopped after sending, or a new
		// outbox reading history): the ones Honcho has are not sent again.
		ids := make([]string, len(batch))
		for i, it := range batch {
			ids[i] = it.ID
		}
		page, err := c.ListMessages(ctx, key, ws, session, 1, honcho.MaxBatch, false, ids)
		if err != nil {
			return 0, false, err
		}
		have := map[string]bool{}
		for _, m := range page.Items {
			if id, ok := m.Metadata["boxmaker_id"].(string); ok {
				have[id] = true
			}
		}
		for found < len(batch) && have[batch[found].ID] {
			found++
		}
		if found > 0 {
			o.opts.Log("honcho: %d message(s) for %s were in Honcho already; they are not sent again", found, at)
		}
		o.certain[at] = true
	}
	rest := batch[found:]
	if len(rest) == 0 {
		return found, false, nil
	}
	msgs := make([]honcho.NewMessage, len(rest))
	for i, it := range rest {
		peer := cfg.Agent
		if it.Peer == PeerOwner {
			peer = cfg.Owner
		}
		meta := map[string]any{"boxmaker_id": it.ID, "boxmaker_kind": it.Kind}
		if it.Source != "" {
			meta["boxmaker_session"] = it.Source
		}
		if it.Part != "" {
			meta["boxmaker_part"] = it.Part
		}
		msgs[i] = honcho.NewMessage{PeerID: peer, Content: it.Content, Metadata: meta, CreatedAt: it.At}
	}
	if _, err := c.AddMessages(ctx, key, ws, session, msgs); err != nil {
		if honcho.Uncertain(err) {
			o.certain[at] = false
		}
		return found, honcho.Refused(err), err
	}
	return len(batch), false, nil
}

// key reads a workspace's key where it is used, every time: a rotated
// key is taken without a restart, and the value is held no longer than a
// request.
func (o *Outbox) key(name string) (secrets.Value, error) {
	if _, ok := o.opts.Config.Keys[name]; !ok || o.opts.Key == nil {
		return secrets.Value{}, nil
	}
	return o.opts.Key(name)
}

// failed records a failed attempt and the wait before the next one.
func (o *Outbox) failed(err error) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.failures++
	wait := o.opts.Config.RetryMin
	for i := 1; i < o.failures && wait < o.opts.Config.RetryMax; i++ {
		wait *= 2
	}
	wait = min(wait, o.opts.Config.RetryMax)
	now := o.opts.Now()
	msg := err.Error()
	if msg != o.lastErr {
		o.opts.Log("honcho: %s; %d waiting, next attempt in %s", msg, len(o.waiting), wait.Round(time.Millisecond))
	}
	o.lastErr, o.lastPub, o.lastErrT, o.next = msg, publicOf("", err), now, now.Add(wait)
	return err
}

// lastRefusal is an error's runbook entry and public text (Status).
type lastRefusal struct{ entry, text string }

// publicOf is err's entry and public text, after prefix; zero when err
// is no refusal.
func publicOf(prefix string, err error) lastRefusal {
	e, text, ok := runbook.Public(err)
	if !ok {
		return lastRefusal{}
	}
	return lastRefusal{e.String(), prefix + text}
}

func (o *Outbox) succeeded() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.failures > 0 {
		o.opts.Log("honcho: delivering again after %d failed attempt(s)", o.failures)
	}
	o.failures, o.next = 0, time.Time{}
}

// Run feeds the outbox every Poll and drains it, waiting between failed
// attempts, until ctx ends. Wake makes it try at once.
func (o *Outbox) Run(ctx context.Context) {
	t := time.NewTicker(o.opts.Config.Poll)
	defer t.Stop()
	for {
		o.work.Lock()
		if err := o.feed(ctx); err != nil && ctx.Err() == nil {
			o.noteFeedError(err)
		}
		o.mu.Lock()
		wait := o.next.Sub(o.opts.Now())
		o.mu.Unlock()
		if wait <= 0 {
			o.drain(ctx)
		}
		o.work.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-o.wake:
		}
	}
}

// noteFeedError logs a feed problem once until it changes.
func (o *Outbox) noteFeedError(err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	const prefix = "cannot feed the outbox: "
	msg := prefix + err.Error()
	if msg != o.lastErr {
		o.opts.Log("honcho: %s", msg)
		o.lastErr, o.lastPub, o.lastErrT = msg, publicOf(prefix, err), o.opts.Now()
	}
}

// Now feeds the outbox and drains it at once, ignoring the wait between
// attempts, and returns the state after. Its error is the attempt's that
// failed (nil when nothing waits).
func (o *Outbox) Now(ctx context.Context) (Status, error) {
	o.work.Lock()
	err := o.feed(ctx)
	if err == nil {
		err = o.drain(ctx)
	} else if derr := o.drain(ctx); derr != nil {
		err = derr
	}
	o.work.Unlock()
	st := o.Status()
	if err == nil && st.Waiting > 0 {
		err = fmt.Errorf("%d message(s) still wait", st.Waiting)
	}
	return st, err
}
