package broker

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"

	"boxmaker/core/brokerwire"
	"boxmaker/core/clock"
	"boxmaker/core/daemon"
	"boxmaker/core/gatewaywire"
	"boxmaker/runbook"
)

// Courier carries each pending approval to gatewayd over gateway.sock
// (core/gatewaywire), so that it is posted in Mattermost and answered
// there with !approve ID, and tells gatewayd how each one ended. It never
// holds an approval back: while gatewayd cannot be reached the approval
// waits in brokerd as ever, bxctl can answer it, and the courier tries
// again every Retry.
type Courier struct {
	Socket string
	// Retry is the wait between two tries while gatewayd cannot post
	// (0: 5 s); Wait is how long one wait for an answer lasts (0: 25 s).
	Retry, Wait time.Duration
	// Log prints one brokerd line.
	Log func(format string, args ...any)
	// Answer records an answer given in Mattermost (Broker.AnswerApproval).
	Answer func(id string, approve bool, by, why string) (Pending, error)

	mu     sync.Mutex
	ctx    context.Context
	cancel context.CancelFunc
	runs   map[string]*carried
	wg     sync.WaitGroup
}

type carried struct {
	p     Pending
	ended chan ending
}

type ending struct{ outcome, by, why string }

// Start lets the courier work until Stop.
func (c *Courier) Start(ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ctx, c.cancel = context.WithCancel(ctx)
	c.runs = map[string]*carried{}
	if c.Retry == 0 {
		c.Retry = 5 * time.Second
	}
	if c.Wait == 0 {
		c.Wait = 25 * time.Second
	}
}

// Stop ends every carry, each telling gatewayd its approval was
// abandoned when it can within a few seconds.
func (c *Courier) Stop() {
	c.mu.Lock()
	runs := c.runs
	c.runs = map[string]*carried{}
	c.mu.Unlock()
	for _, r := range runs {
		select {
		case r.ended <- ending{outcome: gatewaywire.OutcomeAbandoned}:
		default:
		}
	}
	done := make(chan struct{})
	go func() { c.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
	if c.cancel != nil {
		c.cancel()
	}
	c.wg.Wait()
}

// asked starts carrying a new pending approval.
func (c *Courier) asked(p Pending) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.runs == nil {
		return // not started
	}
	r := &carried{p: p, ended: make(chan ending, 1)}
	c.runs[p.ID] = r
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		c.carry(c.ctx, r)
	}()
}

// ended says how the approval id ended (approved, refused, expired,
// abandoned), however it was answered.
func (c *Courier) ended(id, outcome, by, why string) {
	c.mu.Lock()
	r := c.runs[id]
	delete(c.runs, id)
	c.mu.Unlock()
	if r != nil {
		select {
		case r.ended <- ending{outcome, by, why}:
		default:
		}
	}
}

func (c *Courier) call(ctx context.Context, timeout time.Duration, kind string, body, out any) error {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return daemon.Call(cctx, c.Socket, kind, body, out, nil)
}

// unreachable is the gateway-unreachable line's reason: gatewayd's own
// words, or the system's.
func unreachable(err error) string {
	var re *daemon.RemoteError
	if errors.As(err, &re) {
		return "gatewayd answered: " + re.PublicText() // the line ends with gateway-unreachable's link alone
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Err.Error()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "no answer in time"
	}
	return err.Error()
}

// settleTries is how often the courier tries to tell gatewayd how an
// approval it posted ended, Retry apart.
const settleTries = 6

// carry is one approval's life at the courier: post (again after any
// failure), wait for an answer given in Mattermost, pass it on, and tell
// gatewayd how the approval ended.
func (c *Courier) carry(ctx context.Context, r *carried) {
	id := r.p.ID
	posted, failed := false, false
	command := "" // the Mattermost post whose answer brokerd recorded
	settle := func(e ending) {
		s := gatewaywire.Settle{ID: id, CallHash: r.p.CallHash, Outcome: e.outcome, By: e.by, Why: e.why, Command: command}
		if !posted && !failed {
			return
		}
		// Tried for about half a minute (a gatewayd restarting, as after
		// a crash, holds the command that answered it until told: D451),
		// each try brief; brokerd stopping cuts the tries short.
		for try := 1; ; try++ {
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			err := c.call(sctx, 10*time.Second, gatewaywire.KindApprovalSettle, s, nil)
			cancel()
			if err == nil || !posted {
				return
			}
			if try == settleTries || clock.Sleep(ctx, c.Retry) != nil {
				c.Log("approval %s: could not tell gatewayd it was %s; its Mattermost post still shows it waiting", id, e.outcome)
				return
			}
		}
	}
	// over reports whether the carry is over: the approval ended (it is
	// then settled) or brokerd is stopping. It waits up to d for either;
	// with d 0 it only looks.
	over := func(d time.Duration) bool {
		var wait <-chan time.Time // nil: never
		switch {
		case d > 0:
			t := time.NewTimer(d)
			defer t.Stop()
			wait = t.C
		case len(r.ended) == 0 && ctx.Err() == nil:
			return false // only r.ended and ctx could make the select below return
		}
		select {
		case e := <-r.ended:
			settle(e)
			return true
		case <-ctx.Done():
			return true
		case <-wait:
			return false
		}
	}
	for !over(0) {
		if !posted {
			var ans gatewaywire.Posted
			err := c.call(ctx, 30*time.Second, gatewaywire.KindApprovalPost, gatewaywire.Post{Approval: r.p}, &ans)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				if !failed {
					c.Log("%v", runbook.Refuse(runbook.GatewayUnreachable, "approval %s: gatewayd is not reachable at %s: %s; bxctl can still answer it",
						id, c.Socket, unreachable(err)))
				}
				failed = true
				if over(c.Retry) {
					return
				}
				continue
			}
			if failed {
				c.Log("approval %s posted in Mattermost", id)
			}
			posted, failed = true, false
		}
		// Wait for an answer from Mattermost, or the end.
		type waited struct {
			a   gatewaywire.Answered
			err error
		}
		wctx, cancel := context.WithCancel(ctx)
		got := make(chan waited, 1)
		go func() {
			var a gatewaywire.Answered
			err := c.call(wctx, c.Wait+10*time.Second, gatewaywire.KindApprovalWait,
				gatewaywire.Wait{ID: id, CallHash: r.p.CallHash, WaitMS: int(c.Wait / time.Millisecond)}, &a)
			got <- waited{a, err}
		}()
		var w waited
		select {
		case e := <-r.ended:
			cancel()
			<-got
			settle(e)
			return
		case <-ctx.Done():
			cancel()
			return
		case w = <-got:
			cancel()
		}
		if w.err != nil {
			posted = false // gatewayd may have restarted: post (or find the post) again
			if over(c.Retry / 5) {
				return
			}
			continue
		}
		if w.a.Answer == "" {
			continue
		}
		approve := w.a.Answer == brokerwire.Approve
		if !approve && w.a.Answer != brokerwire.Refuse {
			c.Log("approval %s: gatewayd sent the answer %q, which is neither approve nor refuse; ignored", id, w.a.Answer)
			continue
		}
		command = w.a.Command
		if _, err := c.Answer(id, approve, w.a.By, w.a.Why); err != nil {
			s := gatewaywire.Settle{ID: id, CallHash: r.p.CallHash, Outcome: gatewaywire.OutcomeNotPending, Command: command, Text: err.Error()}
			c.call(ctx, 10*time.Second, gatewaywire.KindApprovalSettle, s, nil)
			command = ""
		}
	}
}

// courierOutcome is the word a Settle uses for an answer.
func courierOutcome(approve bool) string {
	if approve {
		return gatewaywire.OutcomeApproved
	}
	return gatewaywire.OutcomeRefused
}
