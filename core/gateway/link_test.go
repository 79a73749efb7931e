package gateway

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxmaker/runbook"
)

// TestRetryScheduleIsOneTwoFiveTenThenThirty: while Mattermost cannot be
// reached, one line per attempt, the waits 1, 2, 5, 10, then 30 s.
func TestRetryScheduleIsOneTwoFiveTenThenThirty(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close() // nothing listens: connection refused
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var waits []time.Duration
	var lines []string
	l := &Link{Client: &Client{URL: url, Token: "t", HTTP: NewHTTPClient(nil, time.Second)}, HTTP: NewHTTPClient(nil, time.Second),
		DeadAfter: time.Second,
		Log: func(format string, args ...any) {
			mu.Lock()
			lines = append(lines, fmt.Sprintf(format, args...))
			mu.Unlock()
		},
		Sleep: func(ctx context.Context, d time.Duration) error {
			mu.Lock()
			defer mu.Unlock()
			waits = append(waits, d)
			if len(waits) == 7 {
				cancel()
			}
			return ctx.Err()
		},
	}
	if err := l.Run(ctx); err != nil {
		t.Fatalf("Run: %v", err)
	}
	want := []time.Duration{time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second, 30 * time.Second, 30 * time.Second}
	if diff := cmp.Diff(want, waits); diff != "" {
		t.Errorf("waits: -want +got\n%s", diff)
	}
	for i, line := range lines {
		wantEnd := fmt.Sprintf("; trying again in %d s; %s", int(want[i]/time.Second), runbook.Link(runbook.MattermostUnreachable))
		if !strings.HasPrefix(line, "cannot reach "+url+": ") || !strings.HasSuffix(line, wantEnd) || !strings.Contains(line, "connection refused") {
			t.Errorf("line %d: %q", i, line)
		}
	}
}
