package clock

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSleepWaitsItsTime(t *testing.T) {
	start := time.Now()
	if err := Sleep(context.Background(), 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Errorf("Sleep(20ms) returned after %v", d)
	}
}

func TestSleepEndsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(10*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() { done <- Sleep(ctx, time.Hour) }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Sleep cut short gave %v, want context.Canceled", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Sleep(1h) did not end with its context")
	}
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep with an ended context gave %v", err)
	}
}
