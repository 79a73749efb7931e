package engine

import (
	"context"
	"errors"
	"sort"
	"sync"

	"boxmaker/core/yaag/cassette"

	"boxmaker/core/yaagwire"
)

// Control is how a Run is paused and read while it goes, from any
// goroutine (the Control Channel's server). A pause, or an Agent's
// question, makes the Run settle: no new spawn or Ask starts (each waits,
// parked), the ones in flight run to their end and are recorded, and when
// only parked ones are left the Run stops with a *Paused error, for its
// caller to write the Checkpoint. A pause that has not settled can be
// withdrawn; a question cannot.
type Control struct {
	mu      sync.Mutex
	state   string // StateRunning, StatePausing, StateAsking, StateSettled, StateEnded
	release chan struct{}
	parked  int
	wake    chan struct{}
	agents  map[string]*AgentStatus
}

// The states of a Run.
const (
	StateRunning = "running"
	StatePausing = "pausing" // a pause was asked for; the Run settles
	StateAsking  = "asking"  // an Agent asked the person; the Run settles
	StateSettled = "settled" // only parked steps are left: the Checkpoint is being written
	StateEnded   = "ended"
)

// Errors of Pause.
var (
	ErrSettling = errors.New("the Run is settling already")
	ErrEnded    = errors.New("the Run has ended")
)

// AgentStatus is one Agent as status shows it.
type AgentStatus = yaagwire.AgentStatus

// NewControl is a Control for one Run.
func NewControl() *Control {
	return &Control{state: StateRunning, release: make(chan struct{}), wake: make(chan struct{}, 1), agents: map[string]*AgentStatus{}}
}

// State is the Run's state.
func (c *Control) State() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

// Agents are the Run's Agents, by key.
func (c *Control) Agents() []AgentStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]AgentStatus, 0, len(c.agents))
	for _, a := range c.agents {
		out = append(out, *a)
	}
	sort.Slice(out, func(i, j int) bool { return keyLess(out[i].Agent, out[j].Agent) })
	return out
}

func keyLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

func (c *Control) agent(key string, f func(*AgentStatus)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a := c.agents[key]
	if a == nil {
		a = &AgentStatus{Agent: key}
		c.agents[key] = a
	}
	f(a)
}

// Pause makes a running Run settle.
func (c *Control) Pause() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch c.state {
	case StateRunning:
		c.state = StatePausing
		c.poke()
		return nil
	case StateEnded:
		return ErrEnded
	}
	return ErrSettling
}

// Withdraw takes back a pause that has not settled: the parked steps go
// on. It reports false when the Run settled (or asked the person) first.
func (c *Control) Withdraw() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != StatePausing {
		return false
	}
	c.state = StateRunning
	close(c.release)
	c.release = make(chan struct{})
	return true
}

// asking makes the Run settle for an Agent's question.
func (c *Control) asking() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state == StateRunning || c.state == StatePausing {
		c.state = StateAsking
	}
	c.poke()
}

// park blocks a step while the Run settles. It returns false when the
// step must not go on (the Run settled, ended, or ctx ended).
func (c *Control) park(ctx context.Context) bool {
	for {
		c.mu.Lock()
		switch c.state {
		case StateRunning:
			c.mu.Unlock()
			return true
		case StateSettled, StateEnded:
			c.mu.Unlock()
			<-ctx.Done()
			return false
		}
		c.parked++
		release := c.release
		c.poke()
		c.mu.Unlock()
		select {
		case <-release:
		case <-ctx.Done():
		}
		c.mu.Lock()
		c.parked--
		c.mu.Unlock()
		if ctx.Err() != nil {
			return false
		}
	}
}

// poke wakes the Run's loop to look at the state again; c.mu is held.
func (c *Control) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// settle is called by the loop: when the Run settles, every pending step
// is parked and the loop has run everything posted to it, the Run is
// settled. queued is read under c.mu: a step posts its last events (the
// question it asks) before it parks, and parks under c.mu, so what a
// parked step posted is counted.
func (c *Control) settle(pending int, queued func() int) (settled bool, reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if (c.state == StatePausing || c.state == StateAsking) && pending == c.parked && queued() == 0 {
		reason = c.state
		c.state = StateSettled
		return true, reason
	}
	return false, ""
}

func (c *Control) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.state = StateEnded
}

// Paused is how a Run that settled ends: Run returns it as its error.
type Paused struct {
	Reason    string              // StatePausing (a pause) or StateAsking (questions)
	Questions []cassette.Question // with StateAsking
}

func (p *Paused) Error() string {
	if p.Reason == StateAsking {
		return "the Run waits for the person's answers"
	}
	return "the Run was paused"
}
