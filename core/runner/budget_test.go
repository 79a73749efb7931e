package runner

import (
	"context"
	"strings"
	"testing"
	"time"
)

// The container budget: a call waits for a slot while others hold them
// all, gets one when another call ends, and is refused after its wait.
func TestBudgetWaitsForASlotThenRefuses(t *testing.T) {
	b := newBudget(2)
	ctx := context.Background()
	if err := b.acquire(ctx, 2, time.Second); err != nil {
		t.Fatal(err)
	}
	if err := b.acquire(ctx, 1, 20*time.Millisecond); err == nil || !strings.Contains(err.Error(), "all 2 container slots ([runner] ulimit_nproc / pids_limit) stayed busy for 20ms") {
		t.Fatalf("a call got a slot while every slot was held: %v", err)
	}
	got := make(chan error, 1)
	go func() { got <- b.acquire(ctx, 1, time.Minute) }()
	b.release(1)
	if err := <-got; err != nil {
		t.Fatalf("the waiting call did not get the slot released: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := b.acquire(cctx, 2, time.Minute); err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("a cancelled call: %v", err)
	}
}

// BenchmarkBudget is what the container budget adds to a call: one slot
// taken and given back.
func BenchmarkBudget(b *testing.B) {
	bd := newBudget(32)
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		if err := bd.acquire(ctx, 1, time.Second); err != nil {
			b.Fatal(err)
		}
		bd.release(1)
	}
}
