package runner

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// The tools' processes share one uid ([runner] tool_uid), and the kernel
// counts RLIMIT_NPROC per uid across the whole host: with ulimit_nproc
// alone, one session's tool holding processes up to it would make every
// other session's container fail to fork, or fail to start at all (runc
// init's exec after setuid is refused). So the limit of one container
// is pids_limit (its cgroup's, which no other container shares), and
// the runner starts containers only while the pids limits of those
// running add up to at most ulimit_nproc: the per-uid count is then
// never reached by brokerd's own calls, and a call that finds the budget
// spent waits for a container to end rather than failing inside its own.
// See docs/runner.md, "Limits", and D124.

// budget is a counting semaphore of container slots.
type budget struct {
	mu   sync.Mutex
	free int
	size int
	wake chan struct{} // closed and replaced at each release
}

func newBudget(size int) *budget {
	return &budget{free: size, size: size, wake: make(chan struct{})}
}

// acquire takes n slots, waiting at most wait (or until ctx ends).
func (b *budget) acquire(ctx context.Context, n int, wait time.Duration) error {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		b.mu.Lock()
		if b.free >= n {
			b.free -= n
			b.mu.Unlock()
			return nil
		}
		wake := b.wake
		b.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return fmt.Errorf("the call was cancelled while it waited for a container slot: %w", ctx.Err())
		case <-timer.C:
			return fmt.Errorf("all %d container slots ([runner] ulimit_nproc / pids_limit) stayed busy for %s", b.size, wait)
		}
	}
}

func (b *budget) release(n int) {
	b.mu.Lock()
	b.free += n
	close(b.wake)
	b.wake = make(chan struct{})
	b.mu.Unlock()
}

// slots is how many containers may run at once: the tools' processes
// together within ulimit_nproc, each container within pids_limit.
func slots(cfg Config) int { return cfg.UlimitNproc / cfg.PidsLimit }

// admit takes n container slots for a call, waiting at most as long as a
// call may take; the error is a runner-unavailable refusal.
func (r *Runner) admit(ctx context.Context, n int) (release func(), err error) {
	if err := r.budget.acquire(ctx, n, r.cfg.Timeout+startGrace); err != nil {
		return nil, unavailable(nil, err.Error())
	}
	return func() { r.budget.release(n) }, nil
}
