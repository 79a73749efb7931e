package inferproxy

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a log several goroutines may write.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Split(strings.TrimSuffix(s.b.String(), "\n"), "\n")
}

func TestAnUpstreamThatIsDownIsLoggedOncePerPeriodNotPerRequest(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var log syncBuffer
	p, err := NewProxy("http://"+addr, 2, time.Second, 0, &log)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 7, 5, 0, 0, 0, time.UTC)
	p.now = func() time.Time { return now }
	ask := func() int {
		w := httptest.NewRecorder()
		p.ServeHTTP(w, httptest.NewRequest("GET", "http://infer/health", nil))
		return w.Code
	}

	for i := 0; i < 50; i++ {
		if code := ask(); code != http.StatusBadGateway {
			t.Fatalf("request %d: %d, want 502", i, code)
		}
		now = now.Add(DownLogPeriod / 100)
	}
	got := log.lines()
	if len(got) != 1 || !strings.HasPrefix(got[0], "inferproxy: GET /health: inferproxy: cannot reach the model server at http://"+addr+": dial tcp") {
		t.Fatalf("50 failed requests within a period logged %d lines: %q", len(got), got)
	}

	now = now.Add(DownLogPeriod)
	ask()
	got = log.lines()
	if len(got) != 2 || !strings.HasSuffix(got[1], "(and 49 more requests since the last line; one line per 30s while it cannot be reached)") {
		t.Fatalf("after a period: %q", got)
	}

	up, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("the upstream's port was taken meanwhile: %v", err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"status":"ok"}`) })}
	go srv.Serve(up)
	if code := ask(); code != http.StatusOK {
		t.Fatalf("the upstream back: %d", code)
	}
	got = log.lines()
	if len(got) != 3 || got[2] != "inferproxy: the model server at http://"+addr+" answers again, after 51 failed requests since 2026-12-07T05:00:00Z" {
		t.Fatalf("back up: %q", got)
	}
	ask()
	if n := len(log.lines()); n != 3 {
		t.Fatalf("an answer while up logged a line: %q", log.lines())
	}

	// Down again: a new run of failures is said at once.
	srv.Close()
	p.rp.Transport.(*http.Transport).CloseIdleConnections()
	ask()
	got = log.lines()
	if len(got) != 4 || !strings.Contains(got[3], "cannot reach the model server") || strings.Contains(got[3], "more requests") {
		t.Fatalf("down again: %q", got)
	}
}
