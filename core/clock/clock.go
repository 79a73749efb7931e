// Package clock holds the one wait every daemon's loops share: a sleep
// that its context cuts short, so a daemon that is stopping never waits
// out a retry's pause.
package clock

import (
	"context"
	"time"
)

// Sleep waits d, or until ctx ends: nil after d, else ctx's error.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
