package testsupport

import (
	"context"
	"testing"
)

// Serve runs serve in the background for the rest of the test; when the
// test ends, serve's context is cancelled and Serve waits for it to
// return, and an error it returns then fails the test. A server's Serve
// method ends so, with nil, when it was stopped and nothing went wrong.
func Serve(tb testing.TB, serve func(ctx context.Context) error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx) }()
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("serve: %v", err)
		}
	})
}
